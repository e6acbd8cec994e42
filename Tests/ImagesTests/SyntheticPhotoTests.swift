import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowPixels

/// The peak resident memory of the built tool rendering one photo at a small size, measured in
/// a process of its own (GNU time): the test process's own peak is shared with every test that
/// runs beside it, so it cannot tell one decode's memory.
func toolPeakResidentBytes(rendering photo: String, in folder: TemporaryFolder) throws -> Int {
    let tool = try TestEnvironment.builtTool("slideshow").get()
    let run = try runMeasuringMemory(tool, ["make", photo, "--size", "192x108", "--preset", "ultrafast", "--quiet",
                                            "-o", folder.path(UUID().uuidString + ".mp4")])
    #expect(run.status == 0, "\(run.stderr)")
    return run.peakResidentBytes
}

@Suite("Synthetic JPEGs: limits, refusals, layout")
struct SyntheticPhotoTests {
    let manager = ImageManager()

    func write(_ bytes: [UInt8], in folder: TemporaryFolder, as name: String = "photo.jpg") throws -> String {
        let path = folder.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func request(_ path: String, _ width: Int, _ height: Int, _ mode: ContentMode = .aspectFit,
                 background: RGBColor = .black) throws(PhotoError) -> PixelBuffer {
        try manager.requestImage(for: Photo(path: path), targetSize: Size(width: width, height: height),
                                 contentMode: mode, background: background)
    }

    @Test("a 20000x14000 (280 MP) JPEG is accepted and renders within a small memory budget")
    func huge() throws {
        let folder = try TemporaryFolder()
        let path = try write(SyntheticJPEG.grey(width: 20000, height: 14000), in: folder)
        let info = try manager.inspect(Photo(path: path))
        #expect(info.storedSize == Size(width: 20000, height: 14000))
        let buffer = try request(path, 192, 108)
        // A full-size RGB decode alone would be 840 MB; at 1/8 it is 13 MB.
        let peak = try toolPeakResidentBytes(rendering: path, in: folder)
        #expect(peak < 250 << 20, "peak memory \(peak >> 20) MiB")
        #expect(buffer.contentRect == Rect(x: 18, y: 0, width: 154, height: 108))
        let inside = pixels(of: buffer, in: buffer.contentRect)
        #expect(inside.allSatisfy { (127...129).contains($0) })
    }

    @Test("over maximumPixels: .tooLarge from the header alone")
    func tooLarge() throws {
        #expect(ImageManager.maximumPixels == 300_000_000)
        let folder = try TemporaryFolder()
        let over = try write(SyntheticJPEG.grey(width: 20000, height: 15001, data: false), in: folder, as: "over.jpg")
        #expect(errorKind { () throws(PhotoError) in try manager.inspect(Photo(path: over)) } == .tooLarge)
        // One row over the cap reads as over it, not as "300 megapixels, over the 300-megapixel cap".
        #expect(photoError { () throws(PhotoError) in try manager.inspect(Photo(path: over)) }?.reason
                == "the JPEG is 20000x15001 (301 megapixels), over the 300-megapixel cap")
        #expect(errorKind { () throws(PhotoError) in try request(over, 192, 108) } == .tooLarge)
        // Exactly at the cap passes inspection.
        let at = try write(SyntheticJPEG.grey(width: 20000, height: 15000, data: false), in: folder, as: "at.jpg")
        #expect(try manager.inspect(Photo(path: at)).storedSize == Size(width: 20000, height: 15000))
    }

    @Test("a progressive JPEG whose coefficients would pass 1 GiB is .tooLarge; the same size baseline is not")
    func progressiveBudget() throws {
        let folder = try TemporaryFolder()
        // 16000x16000 = 256 MP, 4:4:4: 3 × 256 M × 2 bytes = 1.5 GB of coefficients.
        let progressive = try write(SyntheticJPEG.grey(width: 16000, height: 16000, frameMarker: 0xC2, components: 3, data: false),
                                    in: folder, as: "progressive.jpg")
        let error = photoError { () throws(PhotoError) in try manager.inspect(Photo(path: progressive)) }
        #expect(error?.kind == .tooLarge, "\(String(describing: error))")
        let baseline = try write(SyntheticJPEG.grey(width: 16000, height: 16000, components: 3, data: false), in: folder, as: "baseline.jpg")
        #expect(try manager.inspect(Photo(path: baseline)).format == .jpeg)
    }

    @Test("a progressive JPEG of 500 scans decodes; of 501 it is .tooLarge, refused by TurboJPEG's scan cap")
    func absurdScanCount() throws {
        #expect(ImageLimits.maximumProgressiveScans == 500)
        let folder = try TemporaryFolder()
        let atCap = try write(SyntheticJPEG.progressive(scans: 500), in: folder, as: "500.jpg")
        // Not vacuous: the file is a legal progression that decodes, with no warning, at the cap.
        let buffer = try request(atCap, 16, 16)
        #expect(buffer.pixels.allSatisfy { $0 == 128 })
        for scans in [501, 883] {
            let over = try write(SyntheticJPEG.progressive(scans: scans), in: folder, as: "\(scans).jpg")
            // The header alone passes; the decode refuses it.
            #expect(try manager.inspect(Photo(path: over)).storedSize == Size(width: 8, height: 8))
            let error = photoError { () throws(PhotoError) in try request(over, 16, 16) }
            #expect(error?.kind == .tooLarge)
            #expect(error?.reason == "a progressive JPEG of more than 500 scans is refused (Progressive JPEG image has more than 500 scans)")
        }
    }

    /// Found by the decode fuzz target, where it was the slowest input (2 s a run under
    /// AddressSanitizer): 270 bytes of arithmetic-coded JPEG (SOF9) whose frame header claims
    /// 4166x65286, 272 MP, under the cap. Arithmetic-coded data that ends early is decoded as
    /// zeros, without a warning, by the standard (a marker inside it is legal), so the whole
    /// image decodes, and no check can tell it from a legitimately flat picture. What bounds
    /// it is the pixel cap: decoded at 1/8 scale, row by row, in little memory.
    static let arithmeticFuzzFinding: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00, 0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x01, 0x12,
        0x00, 0x03, 0x00, 0x6A, 0x00, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01,
        0x02, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xFE, 0x00, 0x10, 0x4C, 0x61, 0x76, 0x63, 0x35, 0x39, 0x2E, 0x33, 0x37, 0x2E, 0x31, 0x30,
        0x30, 0x00, 0xFF, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x08, 0x06, 0x06, 0x07, 0x06, 0x05, 0x08, 0xF9, 0xF5, 0x07, 0x09, 0x09, 0x08, 0x0A, 0x0C, 0x14,
        0x0D, 0x0C, 0x0B, 0x0B, 0x0C, 0x19, 0x12, 0x13, 0x0F, 0x14, 0x1D, 0x1A, 0x1F, 0x1E, 0x1D, 0x1A, 0x1C, 0x1C, 0x20, 0x24, 0x2E, 0x27, 0x20, 0x22,
        0x2C, 0x23, 0x1C, 0x1C, 0x30, 0x2C, 0x34, 0x31, 0x28, 0x37, 0x34, 0x29, 0x34, 0x1F, 0x27, 0x39, 0x3D, 0x38, 0x32, 0x3C, 0x2E, 0x33, 0x34, 0x32,
        0xFF, 0xDB, 0x00, 0x43, 0x01, 0x1D, 0x09, 0x09, 0x0C, 0x0B, 0x0C, 0x18, 0x0D, 0x0D, 0x38, 0x32, 0x21, 0x1C, 0x21, 0x32, 0x32, 0x32, 0x32, 0x32,
        0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32,
        0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0x32, 0xFF, 0xC9, 0x00,
        0x11, 0x08, 0xFF, 0x06, 0x10, 0x46, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xCC, 0x00, 0x0A, 0x00, 0xF2, 0x10, 0x05,
        0x01, 0x10, 0x11, 0x05, 0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00, 0xFF, 0x00, 0x44, 0x6D, 0x5B, 0xEA,
        0x00, 0xF2, 0x9E, 0xB3, 0xFF, 0xD9,
    ]

    @Test("fuzz finding: 270 bytes of arithmetic-coded JPEG claiming 272 MP decode at 1/8 scale in bounded memory")
    func arithmeticFuzzFinding() throws {
        let folder = try TemporaryFolder()
        let path = try write(Self.arithmeticFuzzFinding, in: folder)
        #expect(try manager.inspect(Photo(path: path)).storedSize == Size(width: 4166, height: 65286))
        let buffer = try request(path, 64, 36)
        // A full-size decode would be 816 MB; at 1/8 it is 13 MB.
        let peak = try toolPeakResidentBytes(rendering: path, in: folder)
        #expect(peak < 250 << 20, "peak memory \(peak >> 20) MiB")
        #expect(buffer.size == Size(width: 64, height: 36))
    }

    @Test("JPEG processes TurboJPEG cannot decode are .unsupported, with a clear reason", arguments: [
        (UInt8(0xC1), UInt8(12), "12-bit JPEG is not supported"),
        (0xC3, 8, "lossless JPEG is not supported"),
        (0xC5, 8, "hierarchical JPEG is not supported"),
    ])
    func unsupported(_ marker: UInt8, _ precision: UInt8, _ reason: String) throws {
        let folder = try TemporaryFolder()
        let path = try write(SyntheticJPEG.grey(width: 64, height: 48, frameMarker: marker, precision: precision), in: folder)
        for error in [photoError { () throws(PhotoError) in try manager.inspect(Photo(path: path)) },
                      photoError { () throws(PhotoError) in try request(path, 64, 48) }] {
            #expect(error?.kind == .unsupported)
            #expect(error?.reason == reason)
        }
    }

    @Test("an extended sequential (SOF1) 8-bit JPEG decodes")
    func extendedSequential() throws {
        let folder = try TemporaryFolder()
        let path = try write(SyntheticJPEG.grey(width: 64, height: 48, frameMarker: 0xC1), in: folder)
        let buffer = try request(path, 64, 48)
        #expect(buffer.pixels.allSatisfy { $0 == 128 })
    }

    @Test("cut-off image data is .truncated; broken headers are .corrupt")
    func damaged() throws {
        let folder = try TemporaryFolder()
        let whole = SyntheticJPEG.grey(width: 256, height: 256, components: 3)
        let cut = try write(Array(whole[0..<(whole.count - 300)]), in: folder, as: "cut.jpg")
        let error = photoError { () throws(PhotoError) in try request(cut, 64, 64) }
        #expect(error?.kind == .truncated)
        #expect(error?.reason == "truncated JPEG data (Premature end of JPEG file)")
        #expect(errorKind { () throws(PhotoError) in try manager.inspect(Photo(path: cut)) } == nil)

        // The file ends inside its header.
        let header = try write(Array(whole[0..<60]), in: folder, as: "header.jpg")
        #expect(errorKind { () throws(PhotoError) in try manager.inspect(Photo(path: header)) } == .truncated)
        #expect(errorKind { () throws(PhotoError) in try request(header, 64, 64) } == .truncated)

        // Stray bytes between markers hide nothing: accepted, as libjpeg decodes them (JPEGWarningTests);
        // a zero-size frame.
        let garbage = try write([0xFF, 0xD8, 0x00, 0x11] + whole[2...], in: folder, as: "garbage.jpg")
        let wholePath = try write(whole, in: folder, as: "whole.jpg")
        #expect(try request(garbage, 64, 64).pixels == request(wholePath, 64, 64).pixels)
        let zero = try write(SyntheticJPEG.grey(width: 0, height: 16), in: folder, as: "zero.jpg")
        #expect(errorKind { () throws(PhotoError) in try manager.inspect(Photo(path: zero)) } == .corrupt)
        // Damaged entropy-coded data: a marker in the middle of it.
        var marked = whole
        marked[marked.count - 200] = 0xFF
        marked[marked.count - 199] = 0xD3
        let corrupt = try write(marked, in: folder, as: "marked.jpg")
        let damage = photoError { () throws(PhotoError) in try request(corrupt, 64, 64) }
        #expect(damage?.kind == .corrupt, "\(String(describing: damage))")
    }

    @Test("bars are exactly the background; content is the photo", arguments: [
        (Size(width: 192, height: 108), Rect(x: 24, y: 0, width: 144, height: 108)),
        (Size(width: 191, height: 107), Rect(x: 24, y: 0, width: 142, height: 106)),
        (Size(width: 64, height: 200), Rect(x: 0, y: 76, width: 64, height: 48)),
    ])
    func bars(_ target: Size, _ content: Rect) throws {
        let folder = try TemporaryFolder()
        let path = try write(SyntheticJPEG.grey(width: 64, height: 48, components: 3), in: folder)
        let red = RGBColor(red: 250, green: 10, blue: 20)
        let buffer = try request(path, target.width, target.height, background: red)
        #expect(buffer.size == target)
        #expect(buffer.contentRect == content)
        #expect(barsAre(red, in: buffer, outside: content))
        #expect(pixels(of: buffer, in: content).allSatisfy { (127...129).contains($0) })

        let filled = try request(path, target.width, target.height, .aspectFill, background: red)
        #expect(filled.contentRect == Rect(target))
        #expect(filled.pixels.allSatisfy { (127...129).contains($0) })
    }

    @Test("extreme sizes: 1x1 and 1x500 sources, 2x2 and odd frames", arguments: [
        (Size(width: 1, height: 1), Size(width: 2, height: 2)), (Size(width: 1, height: 1), Size(width: 192, height: 108)),
        (Size(width: 1, height: 500), Size(width: 3, height: 3)), (Size(width: 500, height: 1), Size(width: 192, height: 108)),
        (Size(width: 8, height: 8), Size(width: 2, height: 2)), (Size(width: 9, height: 7), Size(width: 5, height: 3)),
    ])
    func extremeSizes(_ source: Size, _ target: Size) throws {
        let folder = try TemporaryFolder()
        let path = try write(SyntheticJPEG.grey(width: source.width, height: source.height, components: 3), in: folder)
        for mode in [ContentMode.aspectFit, .aspectFill] {
            let buffer = try request(path, target.width, target.height, mode, background: RGBColor(red: 0, green: 0, blue: 255))
            #expect(buffer.size == target)
            let content = buffer.contentRect
            #expect(content.width >= 2 && content.height >= 2, "\(content)")
            #expect(pixels(of: buffer, in: content).allSatisfy { (126...130).contains($0) }, "\(mode) \(content)")
        }
    }

    @Test("EXIF orientation turns the layout", arguments: Orientation.allCases)
    func orientedLayout(_ orientation: Orientation) throws {
        let folder = try TemporaryFolder()
        let exif = SyntheticJPEG.exifSegment(SyntheticJPEG.tiff(orientation: orientation.rawValue, littleEndian: orientation.rawValue % 2 == 0))
        let path = try write(SyntheticJPEG.grey(width: 64, height: 32, before: exif), in: folder)
        let info = try manager.inspect(Photo(path: path))
        #expect(info.orientation == orientation)
        #expect(info.displayedSize == (orientation.rawValue >= 5 ? Size(width: 32, height: 64) : Size(width: 64, height: 32)))
        let buffer = try request(path, 96, 96)
        #expect(buffer.contentRect == (orientation.rawValue >= 5 ? Rect(x: 24, y: 0, width: 48, height: 96)
                                                                 : Rect(x: 0, y: 24, width: 96, height: 48)))
    }
}
