import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels

@Suite("HEIF, AVIF and WebP", .enabled(if: haveSharedMedia, noSharedMedia))
struct PhoneFormatTests {
    // MARK: Sizes, formats, transformations

    /// Each file, its format, and the size it displays at (from the manifest: libheif's
    /// decoded size with transformations, webpinfo plus the EXIF orientation).
    static let files: [(String, ImageFormat, Size)] = [
        ("heic_iphone8plus_grid_irot270_exif6_arrow.heic", .heif, Size(width: 3024, height: 4032)),
        ("heic_samsung_s24fe_grid_exif6_no_irot.heic", .heif, Size(width: 4000, height: 1848)),
        ("heic_iphonexr_grid_landscape.heic", .heif, Size(width: 4032, height: 3024)),
        ("hif_sony_a7s3_10bit.hif", .heif, Size(width: 4240, height: 2832)),
        ("avif_fox_8bit_420.avif", .avif, Size(width: 1204, height: 800)),
        ("avif_hato_10bit_420.avif", .avif, Size(width: 3078, height: 2048)),
        ("avif_kimono_irot270.avif", .avif, Size(width: 722, height: 1024)),
        ("webp_lossy_exif_orient6_iphonex.webp", .webp, Size(width: 240, height: 320)),
        ("webp_lossless_photo.webp", .webp, Size(width: 1200, height: 900)),
        ("webp_lossy_icc_exif_xmp_flower.webp", .webp, Size(width: 300, height: 225)),
    ]

    @Test("inspect names the format and the displayed size; a slide shows the photo upright at that shape", arguments: files)
    func sizes(_ name: String, _ format: ImageFormat, _ displayed: Size) throws {
        let path = media(name)
        let info = try ImageManager().inspect(Photo(path: path))
        #expect(info.format == format)
        #expect(info.displayedSize == displayed)
        let target = Size(width: 192, height: 108)
        let background = RGBColor(red: 12, green: 34, blue: 56)
        let buffer = try ImageManager().requestImage(for: Photo(path: path), targetSize: target, contentMode: .aspectFit,
                                                     background: background)
        #expect(buffer.contentRect == FitGeometry(source: displayed, target: target, mode: .aspectFit).content)
        #expect(barsAre(background, in: buffer, outside: buffer.contentRect))
        let inside = pixels(of: buffer, in: buffer.contentRect)
        let mean = Double(inside.reduce(0) { $0 + Int($1) }) / Double(inside.count)
        #expect(mean > 30 && mean < 235, "mean \(mean)")
    }

    @Test("a HEIC named .jpg is read by its content")
    func heicNamedJPEG() throws {
        guard let path = TestEnvironment.sharedPhoto("malformed_heic_named_jpg.jpg") else { return }
        let info = try ImageManager().inspect(Photo(path: path))
        #expect(info.format == .heif && info.displayedSize == Size(width: 1440, height: 1440))
    }

    @Test("irot is applied once: the iPhone arrow (irot 270 and EXIF 6) points up in a portrait frame")
    func arrowPointsUp() throws {
        // libheif's own heif-convert shows the same: 3024x4032, the arrow up, the ruled lines level.
        let buffer = try render(path: media("heic_iphone8plus_grid_irot270_exif6_arrow.heic"), Size(width: 243, height: 324))
        let content = buffer.contentRect
        #expect(content == Rect(x: 0, y: 0, width: 242, height: 322))
        let upright = RGBImage(width: content.width, height: content.height, channels: 3,
                               pixels: pixels(of: buffer, in: content) + [UInt8](repeating: 0, count: 64))
        #expect(Self.arrowPointsUp(upright))
        // The check can fail: the same picture turned a quarter either way, or upside down, does not pass.
        for wrong in [Orientation.right, .left, .down] {
            let passes = Self.arrowPointsUp(upright.oriented(wrong))
            #expect(!passes, "turned \(wrong), the arrow still looks up")
        }
    }

    /// Whether a portrait photo of an arrow on paper points up: the frame is taller than wide, the
    /// widest row of dark ink (the base of the arrowhead) lies in the upper half, and the topmost
    /// ink (the tip) is in the middle third across.
    static func arrowPointsUp(_ image: RGBImage) -> Bool {
        var widest = (row: -1, width: 0), tip: (x: Int, y: Int)?
        for y in 0..<image.height {
            var first: Int?, last = 0
            for x in 0..<image.width {
                let offset = (y * image.width + x) * 3
                if Int(image.pixels[offset]) + Int(image.pixels[offset + 1]) + Int(image.pixels[offset + 2]) < 3 * 70 {
                    if first == nil { first = x }
                    last = x
                    if tip == nil { tip = (x, y) }
                }
            }
            if let first, last - first > widest.width { widest = (y, last - first) }
        }
        guard let tip, image.height > image.width else { return false }
        return widest.row > 0 && widest.row < image.height / 2 && tip.x > image.width / 3 && tip.x < image.width * 2 / 3
    }

    @Test("EXIF orientation is not applied to HEIF: the Samsung photo (EXIF 6, no irot) stays landscape")
    func exifIgnoredForHEIF() throws {
        let bytes = try PhotoFile.read(media("heic_samsung_s24fe_grid_exif6_no_irot.heic")).bytes
        let decoder = try HEIFDecoder(bytes, formatName: "HEIF")
        // The EXIF block is there and says 6; the photo still displays as stored.
        #expect(PhotoMetadata(reading: bytes, format: .heif).orientation == .right)
        #expect(decoder.displayedSize == Size(width: 4000, height: 1848))
        #expect(try ImageManager().inspect(Photo(path: media("heic_samsung_s24fe_grid_exif6_no_irot.heic"))).orientation == .up)
    }

    /// Renders a file and the PNG `heif-convert` (libheif's own tool) makes of it at the same
    /// size; nil when heif-convert is missing.
    private func againstHeifConvert(_ name: String, size: Size) throws -> (ours: PixelBuffer, theirs: PixelBuffer)? {
        guard let tool = which("heif-convert") else { return nil }
        let folder = try TemporaryFolder()
        let result = try run(tool, [media(name), folder.path("converted.png")])
        #expect(result.status == 0, "\(result.stderr)")
        return (try render(path: media(name), size), try render(path: folder.path("converted.png"), size))
    }

    @Test("AVIF with irot 270, and a plain AVIF, look like heif-convert's decode; turned wrongly they do not",
          arguments: [("avif_kimono_irot270.avif", Size(width: 72, height: 102)), ("avif_fox_8bit_420.avif", Size(width: 120, height: 80))])
    func matchesHeifConvert(_ name: String, _ size: Size) throws {
        guard let (ours, theirs) = try againstHeifConvert(name, size: size) else {
            Issue.record("heif-convert is missing (Debian's libheif-examples)")
            return
        }
        let difference = meanAbsoluteDifference(ours.pixels, theirs.pixels)
        #expect(difference < 1, "\(name) differs from heif-convert by \(difference)")
        let turned = RGBImage(width: size.width, height: size.height, channels: 3, pixels: theirs.pixels + [UInt8](repeating: 0, count: 64))
        for wrong in [Orientation.upMirrored, .down] {
            let mistaken = Array(turned.oriented(wrong).pixels[0..<ours.pixels.count])
            #expect(meanAbsoluteDifference(ours.pixels, mistaken) > 10, "\(wrong)")
        }
    }

    // MARK: Bit depth

    @Test("10-bit and 12-bit samples are rounded to 8 bits, not truncated (every value)", arguments: [10, 12])
    func rounding(_ bits: Int) {
        let maximum = (1 << bits) - 1
        let samples = Array(0...maximum)
        let plane = samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        var output = [UInt8](repeating: 0, count: samples.count)
        plane.withUnsafeBufferPointer { plane in
            output.withUnsafeMutableBufferPointer { output in
                HEIFDecoder.reduce(plane.baseAddress!, stride: plane.count, bits: bits, into: output.baseAddress!,
                                   width: samples.count, height: 1)
            }
        }
        for value in samples {
            let expected = (Double(value) * 255 / Double(maximum)).rounded()
            #expect(Double(output[value]) == expected, "\(value) -> \(output[value]), want \(expected)")
        }
        // Truncation would give 254 for values just under the top; rounding reaches 255 sooner.
        #expect(output[maximum - 1] == 255)
    }

    @Test("the 10-bit Sony HIF decodes whole, with its nclx colour read")
    func tenBitHIF() throws {
        let bytes = try PhotoFile.read(media("hif_sony_a7s3_10bit.hif")).bytes
        let decoder = try HEIFDecoder(bytes, formatName: "HEIF")
        #expect(decoder.bitDepth == 10)
        #expect(throws: Never.self) { try decoder.color.get() }
    }

    // MARK: Damage and limits

    @Test("a truncated HEIC is refused with its path and libheif's reason, by inspect and by a render")
    func truncatedHEIC() throws {
        let path = media("heic_truncated.heic")
        let manager = ImageManager()
        for error in [photoError { () throws(PhotoError) in _ = try manager.inspect(Photo(path: path)) },
                      photoError { () throws(PhotoError) in
                          _ = try manager.requestImage(for: Photo(path: path), targetSize: Size(width: 64, height: 64), contentMode: .aspectFit)
                      }] {
            #expect(error?.kind == .truncated)
            #expect(error?.path == path)
            #expect(error?.reason.hasPrefix("truncated HEIF data (") == true, "\(error?.reason ?? "")")
            #expect(error?.reason.contains("Unexpected end of file") == true, "\(error?.reason ?? "")")
        }
    }

    @Test("a HEIF stating more than 300 megapixels is refused before decoding; past libheif's side limit too",
          arguments: [(20_000, "the AVIF is 20000x20000 (400 megapixels), over the 300-megapixel cap"),
                      (40_000, "the AVIF image is over libheif's size limit")])
    func tooLarge(_ side: Int, _ reason: String) throws {
        var bytes = try PhotoFile.read(media("avif_fox_8bit_420.avif")).bytes
        let ispe = try #require(firstIndex(of: Array("ispe".utf8), in: bytes))
        let big = SyntheticPNG.bigEndian(UInt32(side))
        bytes.replaceSubrange(ispe + 8..<ispe + 16, with: big + big)  // after version and flags: width, height
        let folder = try TemporaryFolder()
        let path = folder.path("huge.avif")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = photoError { () throws(PhotoError) in _ = try ImageManager().inspect(Photo(path: path)) }
        #expect(error?.kind == .tooLarge)
        #expect(error?.reason.hasPrefix(reason) == true, "\(error?.reason ?? "")")
    }

    static let garbageFiles: [([UInt8], String)] = {
        let filler = [UInt8](repeating: 0x41, count: 40)
        let heif: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + filler
        let avif: [UInt8] = [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1miaf".utf8) + filler
        let webp: [UInt8] = Array("RIFF".utf8) + [44, 0, 0, 0] + Array("WEBPVP8 ".utf8) + filler
        return [(heif, "HEIF"), (avif, "AVIF"), (webp, "WebP")]
    }()

    @Test("garbage after a HEIF or WebP signature is refused as corrupt or truncated, never decoded", arguments: garbageFiles)
    func garbage(_ bytes: [UInt8], _ format: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("photo.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = photoError { () throws(PhotoError) in
            _ = try ImageManager().requestImage(for: Photo(path: path), targetSize: Size(width: 64, height: 64), contentMode: .aspectFit)
        }
        #expect(error?.kind == .corrupt || error?.kind == .truncated, "\(String(describing: error))")
        #expect(error?.reason.contains(format) == true, "\(error?.reason ?? "")")
    }

    // MARK: WebP

    /// `dwebp`'s decode of a WebP (libwebp's own tool) as packed RGB; nil when dwebp is missing.
    private func dwebp(_ path: String) throws -> RGBImage? {
        guard let tool = which("dwebp") else { return nil }
        let folder = try TemporaryFolder()
        let result = try run(tool, [path, "-ppm", "-o", folder.path("out.ppm")])
        #expect(result.status == 0, "\(result.stderr)")
        let data = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("out.ppm")))
        // "P6\n<w> <h>\n255\n"
        var fields: [Int] = [], index = 2, current = ""
        while fields.count < 3 {
            let character = Character(UnicodeScalar(data[index]))
            if character.isWhitespace {
                if let value = Int(current) { fields.append(value) }
                current = ""
            } else {
                current.append(character)
            }
            index += 1
        }
        return RGBImage(width: fields[0], height: fields[1], channels: 3, pixels: Array(data[index...]) + [UInt8](repeating: 0, count: 64))
    }

    @Test("lossy and lossless WebPs decode exactly as dwebp does; EXIF orientation 6 turns the lossy one upright",
          arguments: [("webp_lossless_photo.webp", Orientation.up), ("webp_lossy_exif_orient6_iphonex.webp", .right)])
    func matchesDwebp(_ name: String, _ orientation: Orientation) throws {
        guard let reference = try dwebp(media(name)) else {
            Issue.record("dwebp is missing (Debian's webp package)")
            return
        }
        let upright = reference.oriented(orientation)
        let bytes = try PhotoFile.read(media(name)).bytes
        let (image, _) = try ImageManager().decodeOriented(bytes, target: upright.size, mode: .aspectFit, background: .black)
        #expect(image.size == upright.size)
        #expect(image.pixels[0..<image.width * image.height * 3] == upright.pixels[0..<upright.width * upright.height * 3])
    }

    @Test("a WebP with alpha is composited over the background")
    func webpAlpha() throws {
        guard let cwebp = which("cwebp") else {
            Issue.record("cwebp is missing (Debian's webp package)")
            return
        }
        // Opaque red, half-transparent green, fully transparent blue, as a lossless WebP.
        let row: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0]
        let folder = try TemporaryFolder()
        try Data(SyntheticPNG.file(width: 3, height: 2, bitDepth: 8, colorType: 6, rows: [row, row]))
            .write(to: URL(fileURLWithPath: folder.path("alpha.png")))
        let result = try run(cwebp, ["-quiet", "-lossless", "-exact", folder.path("alpha.png"), "-o", folder.path("alpha.webp")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try WebPHeader(parsing: PhotoFile.read(folder.path("alpha.webp")).bytes).hasAlpha)
        let background = RGBColor(red: 10, green: 20, blue: 200)
        let bytes = try PhotoFile.read(folder.path("alpha.webp")).bytes
        let (image, _) = try ImageManager().decodeOriented(bytes, target: Size(width: 3, height: 2), mode: .aspectFit, background: background)
        // out = (c·a + bg·(255 − a)) / 255, rounded.
        #expect(Array(image.pixels[0..<9]) == [255, 0, 0, 5, 138, 100, 10, 20, 200])
    }

    @Test("an animated WebP is refused as unsupported, by inspect and by a render")
    func animatedWebP() throws {
        guard let img2webp = which("img2webp") else {
            Issue.record("img2webp is missing (Debian's webp package)")
            return
        }
        let folder = try TemporaryFolder()
        for (index, value) in [UInt8(40), 200].enumerated() {
            let row = [UInt8](repeating: value, count: 8 * 3)
            try Data(SyntheticPNG.file(width: 8, height: 8, bitDepth: 8, colorType: 2, rows: Array(repeating: row, count: 8)))
                .write(to: URL(fileURLWithPath: folder.path("frame\(index).png")))
        }
        let result = try run(img2webp, ["-lossless", folder.path("frame0.png"), folder.path("frame1.png"), "-o", folder.path("animated.webp")])
        #expect(result.status == 0, "\(result.stderr)")
        let path = folder.path("animated.webp")
        let manager = ImageManager()
        for error in [photoError { () throws(PhotoError) in _ = try manager.inspect(Photo(path: path)) },
                      photoError { () throws(PhotoError) in
                          _ = try manager.requestImage(for: Photo(path: path), targetSize: Size(width: 8, height: 8), contentMode: .aspectFit)
                      }] {
            #expect(error == PhotoError(path: path, kind: .unsupported, reason: "an animated WebP is not supported (only still images are)"))
        }
    }

    @Test("the WebP's EXIF and XMP chunks are found, and its ICC profile read")
    func webpMetadata() throws {
        let bytes = try PhotoFile.read(media("webp_lossy_icc_exif_xmp_flower.webp")).bytes
        let header = try WebPHeader(parsing: bytes)
        let blocks = MetadataBlocks.webp(bytes)
        let exif = try #require(blocks.exif)
        // Where the EXIF chunk's TIFF header is, walked here chunk by chunk (RIFF: fourcc, 32-bit
        // little-endian size, data padded to an even length), past an `Exif\0\0` prefix if any.
        var chunk = 12, tiff: Int?
        while chunk + 8 <= bytes.count, tiff == nil {
            let size = Int(bytes[chunk + 4]) | Int(bytes[chunk + 5]) << 8 | Int(bytes[chunk + 6]) << 16 | Int(bytes[chunk + 7]) << 24
            if Array(bytes[chunk..<chunk + 4]) == Array("EXIF".utf8) {
                tiff = chunk + 8 + (Array(bytes[chunk + 8..<chunk + 14]) == Array("Exif\0\0".utf8) ? 6 : 0)
            }
            chunk += 8 + size + size % 2
        }
        #expect(exif.orientation == .up && !exif.littleEndian && exif.base == tiff)
        #expect(String(decoding: try #require(blocks.xmp).prefix(9), as: UTF8.self) == "<?xpacket")
        guard case .success(.icc(let profile)) = header.color else {
            Issue.record("no ICC profile: \(header.color)")
            return
        }
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
    }
}
