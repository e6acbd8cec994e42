import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowPixels

/// Why a comparison with ffmpeg's decode could not be made: a failure, never a silent pass.
private let noReference: Comment = "no reference pixels: ffmpeg is missing (make deps installs it) or could not decode the file"

@Suite("Shared photos", .enabled(if: haveSharedPhotos, "skipped: ../shared/photos is absent (a fresh clone); these tests need the shared photos"))
struct SharedPhotoTests {
    // MARK: Orientation

    /// Each orient_<shape>_N must look like orient_<shape>_1 once oriented; and a wrong
    /// orientation must look clearly different, so that the comparison can fail.
    @Test("every EXIF orientation displays upright", arguments: ["landscape", "portrait"], 2...8)
    func orientationsMatchTheUprightOne(_ shape: String, _ n: Int) throws {
        let (w, h) = shape == "landscape" ? (180, 120) : (120, 180)
        let upright = try render("orient_\(shape)_1.jpg", w, h)
        let turned = try render("orient_\(shape)_\(n).jpg", w, h)
        #expect(turned.contentRect == Rect(x: 0, y: 0, width: w, height: h))
        let difference = meanAbsoluteDifference(turned.pixels, upright.pixels)
        #expect(difference < 6, "orient_\(shape)_\(n) differs from _1 by \(difference) levels")

        // Deliberately wrong: the upright one mirrored, and turned 180°.
        let reference = RGBImage(width: w, height: h, channels: 3, pixels: upright.pixels + [UInt8](repeating: 0, count: 64))
        for wrong in [Orientation.upMirrored, .down] {
            let mistaken = Array(reference.oriented(wrong).pixels[0..<(w * h * 3)])
            let wrongDifference = meanAbsoluteDifference(turned.pixels, mistaken)
            #expect(wrongDifference > 4 * max(difference, 4), "a \(wrong) image is only \(wrongDifference) away")
        }
    }

    @Test("inspect reads the orientation and swaps the displayed size", arguments: ["landscape", "portrait"], 1...8)
    func inspectOrientation(_ shape: String, _ n: Int) throws {
        let info = try ImageManager().inspect(Photo(path: shared("orient_\(shape)_\(n).jpg")))
        #expect(info.format == .jpeg)
        #expect(info.orientation.rawValue == n)
        let displayed = shape == "landscape" ? Size(width: 1800, height: 1200) : Size(width: 1200, height: 1800)
        #expect(info.displayedSize == displayed)
        #expect(info.storedSize == (n >= 5 ? Size(width: displayed.height, height: displayed.width) : displayed))
    }

    // MARK: Camera photos

    @Test("camera photos: displayed sizes, layout and plausible pixels", arguments: [
        ("camera_nikon_d90_12mp.jpg", Size(width: 4288, height: 2848), Orientation.up, Rect(x: 14, y: 0, width: 162, height: 108)),
        ("camera_canon_eos5d_13mp_portrait.jpg", Size(width: 2912, height: 4368), .up, Rect(x: 60, y: 0, width: 72, height: 108)),
        ("camera_apple_iphone4s_8mp_orient6.jpg", Size(width: 2448, height: 3264), .right, Rect(x: 54, y: 0, width: 82, height: 108)),
        ("camera_nokia_8.3_9mp_wide.jpg", Size(width: 4608, height: 1976), .up, Rect(x: 0, y: 12, width: 192, height: 82)),
        ("panorama_openpano_cmu1_6000x771.jpg", Size(width: 6000, height: 771), .up, Rect(x: 0, y: 42, width: 192, height: 24)),
    ])
    func cameraPhotos(_ name: String, _ displayed: Size, _ orientation: Orientation, _ content: Rect) throws {
        let info = try ImageManager().inspect(Photo(path: shared(name)))
        #expect(info.displayedSize == displayed)
        #expect(info.orientation == orientation)
        let background = RGBColor(red: 12, green: 34, blue: 56)
        let buffer = try render(name, 192, 108, background: background)
        #expect(buffer.size == Size(width: 192, height: 108))
        #expect(buffer.contentRect == content)
        #expect(barsAre(background, in: buffer, outside: content))
        // A real picture: not flat, not black, not white.
        let inside = pixels(of: buffer, in: content)
        let mean = Double(inside.reduce(0) { $0 + Int($1) }) / Double(inside.count)
        let spread = Double(inside.reduce(0) { $0 + abs(Int($1) - Int(mean)) }) / Double(inside.count)
        #expect(mean > 30 && mean < 225, "mean \(mean)")
        #expect(spread > 10, "mean deviation \(spread)")

        let filled = try render(name, 192, 108, .aspectFill)
        #expect(filled.contentRect == Rect(x: 0, y: 0, width: 192, height: 108))
    }

    @Test("a 12-megapixel photo into 1920x1080 decodes at 1/2, not full size")
    func scaledDecode() throws {
        let bytes = try PhotoFile.read(shared("camera_nikon_d90_12mp.jpg")).bytes
        let (image, geometry) = try ImageManager().decodeOriented(bytes, target: .hd1080, mode: .aspectFit, background: .black)
        #expect(image.size == Size(width: 2144, height: 1424))
        #expect(geometry.content == Rect(x: 146, y: 0, width: 1626, height: 1080))
        // The iPhone photo is decoded at 3/8 and turned upright.
        let iphone = try PhotoFile.read(shared("camera_apple_iphone4s_8mp_orient6.jpg")).bytes
        let (portrait, _) = try ImageManager().decodeOriented(iphone, target: .hd1080, mode: .aspectFit, background: .black)
        #expect(portrait.size == Size(width: 918, height: 1224))
    }

    // MARK: Colour spaces and codings

    @Test("greyscale, progressive and arithmetic-coded versions of one picture agree")
    func codings() throws {
        let size = (228, 150)
        let progressive = try render("progressive_testimg_227x149.jpg", size.0, size.1)
        let arithmetic = try render("arith_testimg_227x149.jpg", size.0, size.1)
        let grey = try render("grey_testimg_227x149.jpg", size.0, size.1)
        #expect(progressive.contentRect == arithmetic.contentRect && grey.contentRect == progressive.contentRect)
        let rect = progressive.contentRect
        let p = pixels(of: progressive, in: rect), a = pixels(of: arithmetic, in: rect), g = pixels(of: grey, in: rect)
        #expect(meanAbsoluteDifference(p, a) < 3, "progressive vs arithmetic: \(meanAbsoluteDifference(p, a))")
        // Grey: R = G = B, close to the colour picture's luma.
        var notGrey = 0
        var luma: [UInt8] = []
        for index in stride(from: 0, to: g.count, by: 3) {
            if g[index] != g[index + 1] || g[index] != g[index + 2] { notGrey += 1 }
            let y = 0.299 * Double(p[index]) + 0.587 * Double(p[index + 1]) + 0.114 * Double(p[index + 2])
            luma += [UInt8(y.rounded()), UInt8(y.rounded()), UInt8(y.rounded())]
        }
        #expect(notGrey == 0)
        #expect(meanAbsoluteDifference(g, luma) < 4, "grey vs luma: \(meanAbsoluteDifference(g, luma))")
        #expect(meanAbsoluteDifference(p, g) > 10, "the colour picture is not grey")
    }

    @Test("a progressive camera photo matches ffmpeg's decode")
    func progressiveCamera() throws {
        let buffer = try render("progressive_panasonic_lc70_1280x960.jpg", 1280, 960)
        #expect(buffer.contentRect == Rect(x: 0, y: 0, width: 1280, height: 960))
        let reference = try #require(try ffmpegPixels(shared("progressive_panasonic_lc70_1280x960.jpg")), noReference)
        let difference = meanAbsoluteDifference(buffer.pixels, reference)
        #expect(difference < 2, "differs from ffmpeg by \(difference)")
    }

    @Test("an Adobe CMYK (YCCK) JPEG converts to RGB like ffmpeg and Pillow")
    func cmyk() throws {
        let buffer = try render("cmyk_pillow_sample_100x100.jpg", 100, 100)
        #expect(buffer.contentRect == Rect(x: 0, y: 0, width: 100, height: 100))
        // Inverted Adobe CMYK: the top-left is (C, M, Y, K) = (255, 13, 25, 255) → R = C·K/255 …
        #expect(buffer[0, 0] == RGBColor(red: 255, green: 13, blue: 25))
        let reference = try #require(try ffmpegPixels(shared("cmyk_pillow_sample_100x100.jpg")), noReference)
        let difference = meanAbsoluteDifference(buffer.pixels, reference)
        #expect(difference < 3, "differs from ffmpeg by \(difference)")
    }

    @Test("an RGB PNG decodes exactly, by content")
    func pngRGB() throws {
        let buffer = try render("png_rgb_120x96.png", 120, 96)
        #expect(try ImageManager().inspect(Photo(path: shared("png_rgb_120x96.png")))
                == PhotoInfo(format: .png, storedSize: Size(width: 120, height: 96), orientation: .up))
        let reference = try #require(try ffmpegPixels(shared("png_rgb_120x96.png")), noReference)
        #expect(buffer.pixels == reference)
    }

    @Test("an RGBA PNG is composited over the background")
    func pngAlpha() throws {
        let background = RGBColor(red: 40, green: 60, blue: 200)
        let buffer = try render("png_rgba_32x32.png", 32, 32, background: background)
        let rgba = try #require(try ffmpegPixels(shared("png_rgba_32x32.png"), pixelFormat: "rgba"), noReference)
        // The file has gAMA 1.0 (linear light, like every PngSuite image) and no iCCP: its colours
        // are first encoded with the sRGB curve (colour management), then composited.
        func sRGB(_ value: UInt8) -> Double {
            let linear = Double(value) / 255
            return ((linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055) * 255).rounded()
        }
        var expected: [UInt8] = []
        for pixel in stride(from: 0, to: rgba.count, by: 4) {
            let a = Double(rgba[pixel + 3]) / 255
            for (channel, under) in [background.red, background.green, background.blue].enumerated() {
                expected.append(UInt8((sRGB(rgba[pixel + channel]) * a + Double(under) * (1 - a)).rounded()))
            }
        }
        #expect(maximumDifference(buffer.pixels, expected) <= 1)
        // The file's fully transparent corner shows the background.
        #expect(rgba[3] == 0 && buffer[0, 0] == background)
    }

    @Test("a PNG's eXIf orientation is applied; damaged PNGs fail as truncated or corrupt")
    func pngExifAndDamage() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: shared("png_rgb_120x96.png"))))
        let tiff = SyntheticJPEG.tiff(orientation: Orientation.right.rawValue, littleEndian: false)
        let chunk = SyntheticPNG.bigEndian(UInt32(tiff.count)) + Array("eXIf".utf8) + tiff
            + SyntheticPNG.bigEndian(SyntheticPNG.crc32(Array("eXIf".utf8) + tiff))
        let ihdrEnd = 8 + 8 + 13 + 4
        let folder = try TemporaryFolder()
        let rotatedPath = folder.path("rotated.png")
        try Data(Array(original[0..<ihdrEnd]) + chunk + Array(original[ihdrEnd...])).write(to: URL(fileURLWithPath: rotatedPath))

        let manager = ImageManager()
        let info = try manager.inspect(Photo(path: rotatedPath))
        #expect(info.orientation == .right && info.displayedSize == Size(width: 96, height: 120))
        let rotated = try manager.requestImage(for: Photo(path: rotatedPath), targetSize: Size(width: 96, height: 120), contentMode: .aspectFit)
        let upright = try render("png_rgb_120x96.png", 120, 96)
        let turned = RGBImage(width: 120, height: 96, channels: 3, pixels: upright.pixels + [UInt8](repeating: 0, count: 64)).oriented(.right)
        #expect(rotated.pixels == Array(turned.pixels[0..<(96 * 120 * 3)]))

        let cutPath = folder.path("cut.png")
        try Data(original[0..<(original.count / 2)]).write(to: URL(fileURLWithPath: cutPath))
        #expect(errorKind { () throws(PhotoError) in
            try manager.requestImage(for: Photo(path: cutPath), targetSize: Size(width: 60, height: 48), contentMode: .aspectFit)
        } == .truncated)

        var damaged = original
        damaged[original.count / 2] ^= 0x55  // inside IDAT: the CRC no longer matches
        let damagedPath = folder.path("damaged.png")
        try Data(damaged).write(to: URL(fileURLWithPath: damagedPath))
        let error = photoError { () throws(PhotoError) in
            try manager.requestImage(for: Photo(path: damagedPath), targetSize: Size(width: 60, height: 48), contentMode: .aspectFit)
        }
        #expect(error?.kind == .corrupt, "\(String(describing: error))")
    }

    @Test("the 2x1 JPEG with orientation 8 displays as 1x2")
    func tiny() throws {
        let info = try ImageManager().inspect(Photo(path: shared("tiny_2x1_orient8.jpg")))
        #expect(info.storedSize == Size(width: 2, height: 1) && info.displayedSize == Size(width: 1, height: 2))
        let buffer = try render("tiny_2x1_orient8.jpg", 192, 108)
        #expect(buffer.contentRect == Rect(x: 68, y: 0, width: 54, height: 108))
        let centre = buffer[95, 54]
        #expect(centre.red > 240 && centre.green < 15 && centre.blue < 15, "\(centre)")
    }

    // MARK: Failures

    @Test("malformed files fail with exactly the expected kind", arguments: [
        ("malformed_truncated.jpg", PhotoError.Kind.truncated, "Premature end of JPEG file"),
        ("malformed_zero_byte.jpg", .empty, "empty"),
        ("malformed_bad_huffman_table.jpg", .corrupt, "Bogus Huffman table definition"),
        ("12bit_testorig_227x149.jpg", .unsupported, "12-bit JPEG is not supported"),
    ])
    func malformed(_ name: String, _ kind: PhotoError.Kind, _ reason: String) throws {
        // The path is carried exactly as given, oddities and all.
        let path = shared(name).replacingOccurrences(of: "/photos/", with: "/photos//")
        let manager = ImageManager()
        let error = photoError { () throws(PhotoError) in
            try manager.requestImage(for: Photo(path: path), targetSize: Size(width: 192, height: 108), contentMode: .aspectFit)
        }
        #expect(error?.kind == kind)
        #expect(error?.path == path)
        #expect(error?.reason.contains(reason) == true, "reason: \(error?.reason ?? "none")")
        #expect(error?.description == "\(path): \(error?.reason ?? "")")

        // inspect reads headers only: damage inside the image data passes it.
        let inspected = errorKind { () throws(PhotoError) in try manager.inspect(Photo(path: path)) }
        switch name {
        case "malformed_truncated.jpg", "malformed_bad_huffman_table.jpg":
            #expect(inspected == nil)
        default:
            #expect(inspected == kind)
        }
    }

    @Test("the renderer can call from many tasks at once")
    func concurrentRequests() async throws {
        let names = ["orient_landscape_6.jpg", "orient_portrait_3.jpg", "png_rgba_32x32.png", "cmyk_pillow_sample_100x100.jpg"]
        let paths = names.map(shared)
        let expected = try paths.map {
            try ImageManager().requestImage(for: Photo(path: $0), targetSize: Size(width: 96, height: 64), contentMode: .aspectFill)
        }
        let manager = ImageManager()
        let results = try await withThrowingTaskGroup(of: (Int, PixelBuffer).self) { group in
            for round in 0..<16 {
                let index = round % paths.count
                let path = paths[index]
                group.addTask {
                    (index, try manager.requestImage(for: Photo(path: path), targetSize: Size(width: 96, height: 64), contentMode: .aspectFill))
                }
            }
            var all: [(Int, PixelBuffer)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16)
        for (index, buffer) in results { #expect(buffer == expected[index]) }
    }
}
