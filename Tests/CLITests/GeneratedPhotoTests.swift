import Foundation
import Testing
import TestSupport

/// The unusual and malformed photos of the shared-photo tests (`FaultTests.unusualPhotos`,
/// `FailureTests.malformed`), made here instead, so that a fresh clone without `../shared` runs
/// these cases too. The shared, real-world files stay the main test; these are their twins.
enum GeneratedPhoto: String, CaseIterable, CustomTestStringConvertible {
    case cmyk, arithmetic, grey, progressive, pngRGB, pngRGBA, tinyOrientation8, panorama
    case truncated, empty, badHuffmanTable, heifNamedJPEG, twelveBit

    var testDescription: String { rawValue }

    /// The photo's bytes. ffmpeg (a test dependency, `make deps`) makes the pictures with real
    /// content; the rest are spelled out byte by byte.
    func bytes(in folder: TemporaryFolder) throws -> [UInt8] {
        switch self {
        case .cmyk:
            // An Adobe APP14 segment, transform 0: four components are inverted CMYK.
            let adobe = SyntheticJPEG.segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 0])
            return SyntheticJPEG.grey(width: 40, height: 24, before: adobe, components: 4)
        case .arithmetic:
            // SOF9; arithmetic-coded data that ends early decodes as zeros, by the standard.
            return SyntheticJPEG.grey(width: 40, height: 24, frameMarker: 0xC9, components: 3, data: false) + [0xFF, 0xD9]
        case .grey: return try ffmpeg("grey.jpg", size: "40x24", pixelFormat: "gray", in: folder)
        case .progressive: return SyntheticJPEG.progressive(scans: 64)
        case .pngRGB: return try ffmpeg("rgb.png", size: "40x24", pixelFormat: "rgb24", in: folder)
        case .pngRGBA: return try ffmpeg("rgba.png", size: "32x32", pixelFormat: "rgba", in: folder)
        case .tinyOrientation8:
            // 2x1 (ffmpeg makes nothing that small), turned to display 1x2.
            return SyntheticJPEG.grey(width: 2, height: 1, before: SyntheticJPEG.exifSegment(SyntheticJPEG.tiff(orientation: 8, littleEndian: true)))
        case .panorama: return try ffmpeg("panorama.jpg", size: "6000x770", pixelFormat: "yuvj420p", in: folder)
        case .truncated:
            return Array(try Data(contentsOf: URL(fileURLWithPath: samplePhotos[0])).prefix(10000))
        case .empty: return []
        case .badHuffmanTable:
            // Sixteen code lengths that add up to 512 codes: more than a table can hold.
            let bogus = SyntheticJPEG.segment(0xC4, [0x00] + [UInt8](repeating: 32, count: 16) + [UInt8](repeating: 0, count: 16))
            return SyntheticJPEG.grey(width: 16, height: 16, before: bogus)
        case .heifNamedJPEG:
            return [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + [UInt8](repeating: 0, count: 64)
        case .twelveBit:
            return SyntheticJPEG.grey(width: 16, height: 16, frameMarker: 0xC1, precision: 12)
        }
    }

    /// The reason `make` gives, for the photos it refuses.
    var refusal: String? {
        switch self {
        case .truncated: "truncated JPEG data (Premature end of JPEG file)"
        case .empty: "the file is empty (0 bytes)"
        case .badHuffmanTable: "corrupt JPEG data (Bogus Huffman table definition)"
        // Recognised as HEIF by its content, whatever its name; it holds no image.
        case .heifNamedJPEG: "corrupt HEIF data (Invalid input: No 'meta' box)"
        case .twelveBit: "12-bit JPEG is not supported"
        default: nil
        }
    }

    /// One frame of ffmpeg's test picture, in a pixel format.
    private func ffmpeg(_ name: String, size: String, pixelFormat: String, in folder: TemporaryFolder) throws -> [UInt8] {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is missing (make deps installs it)")
        let path = folder.path("made-" + name)
        let result = try run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size):d=1", "-frames:v", "1",
                                      "-pix_fmt", pixelFormat, path])
        #expect(result.status == 0, "\(result.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

@Suite("slideshow make: unusual and malformed photos made in the test (no ../shared needed)", needsBuiltTool)
struct GeneratedPhotoTests {
    @Test("each unusual photo renders; each malformed one fails with status 1 and one line naming it and the reason, leaving nothing",
          arguments: GeneratedPhoto.allCases)
    func photo(kind: GeneratedPhoto) throws {
        let folder = try TemporaryFolder()
        let photo = folder.path("\(kind.rawValue).jpg")
        try Data(try kind.bytes(in: folder)).write(to: URL(fileURLWithPath: photo))
        for made in folder.contents() where made.hasPrefix("made-") { try FileManager.default.removeItem(atPath: folder.path(made)) }
        let output = folder.path("out.mp4")
        let result = try slideshow(["make", photo, "--size", "64x48", "--duration", "0.1", "-o", output])
        if let refusal = kind.refusal {
            #expect(result.status == 1)
            #expect(result.stderr == "slideshow: \(photo): \(refusal)\n")
            #expect(folder.contents() == ["\(kind.rawValue).jpg"])
        } else {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try ProbedVideo(path: output).decodedFrames == 3)
            #expect(Set(folder.contents()) == ["\(kind.rawValue).jpg", "out.mp4"])
        }
    }
}
