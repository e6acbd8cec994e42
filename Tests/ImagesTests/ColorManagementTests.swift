import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowColor
import SlideshowFormats
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels

@Suite("Colour management", .enabled(if: haveSharedMedia, noSharedMedia))
struct ColorManagementTests {
    /// Every ICC-tagged JPEG, PNG and WebP in ../shared/media, and whether its profile is far
    /// enough from sRGB that ignoring it must miss the target (so that the test can fail).
    static let taggedFiles: [(String, Bool)] = [
        // Wide gamut too, but 12 MP: the smaller files below show that ignoring a profile misses.
        ("jpeg_display_p3_nikon_d3s.jpg", false),
        ("jpeg_adobe_rgb_canon_eos7d.jpg", true),
        ("jpeg_cmyk_swop_multi_app2.jpg", true),
        ("png_iccp_display_p3.png", true),
        ("png_iccp_prophoto.png", true),
        ("webp_lossy_icc_exif_xmp_flower.webp", false),
    ]

    @Test("tagged JPEG, PNG and WebP files match Pillow's ImageCms (relative colorimetric + BPC) at their own size",
          .enabled(if: pillowPython != nil, noPillow), arguments: taggedFiles)
    func matchesPillow(_ name: String, _ wideGamut: Bool) throws {
        let path = media(name)
        let info = try ImageManager().inspect(Photo(path: path))
        var warnings: [String] = []
        let ours = try decodedSRGB(path, size: info.displayedSize) { warnings.append($0) }
        #expect(warnings.isEmpty, "\(warnings)")
        let (size, reference) = try pillowSRGB(path)
        #expect(size == info.displayedSize)
        #expect(ours.size == size)
        let agreement = Agreement(Array(ours.pixels[0..<reference.count]), reference)
        #expect(agreement.meetsTarget, "\(name): \(agreement)")
        print("colour agreement with Pillow, \(name): \(agreement)")

        // The same pixels without their profile are clearly off, so the comparison can fail.
        if wideGamut {
            let stripped = try untagged(path)
            let plain = try decodedSRGB(stripped.path("untagged"), size: info.displayedSize)
            let ignored = Agreement(Array(plain.pixels[0..<reference.count]), reference)
            #expect(!ignored.meetsTarget, "\(name) without its profile: \(ignored)")
        }
    }

    @Test("HEIC photos with Display P3 profiles match Pillow's ImageCms at their own size",
          .enabled(if: pillowPython != nil, noPillow), arguments: [
        // The arrow on paper and the grey wall are nearly neutral, where P3 and sRGB agree;
        // the landscape's colours are far enough apart for ignoring the profile to miss.
        ("heic_iphone8plus_grid_irot270_exif6_arrow.heic", false),
        ("heic_iphonexr_grid_landscape.heic", true),
        ("heic_samsung_s24fe_grid_exif6_no_irot.heic", false),
    ])
    func heicMatchesPillow(_ name: String, _ saturated: Bool) throws {
        let path = media(name)
        let bytes = try PhotoFile.read(path).bytes
        // libheif's pixels, transformed but not colour-managed, and the profile from the colr box.
        let picture = try HEIFDecoder(bytes, formatName: "HEIF").decode()
        guard case .success(.icc(let profile)) = picture.color else {
            Issue.record("\(name) has no ICC profile: \(picture.color)")
            return
        }
        let folder = try TemporaryFolder()
        try ppm(picture.image).write(to: folder.url.appendingPathComponent("decoded.ppm"))
        try Data(profile).write(to: folder.url.appendingPathComponent("profile.icc"))
        let (size, reference) = try pillowSRGB(folder.path("decoded.ppm"), profile: folder.path("profile.icc"))
        #expect(size == picture.image.size)

        // The colour stage exactly as ImageManager runs it on a decoded HEIF (one 12 MP decode, not two).
        var warnings: [String] = []
        let ours = ColorManagement.convert(picture.image, from: picture.color, input: .rgb) { warnings.append($0) }
        #expect(warnings.isEmpty, "\(warnings)")
        let agreement = Agreement(Array(ours.pixels[0..<reference.count]), reference)
        #expect(agreement.meetsTarget, "\(name): \(agreement)")
        print("colour agreement with Pillow, \(name): \(agreement)")
        if saturated {
            let ignored = Agreement(Array(picture.image.pixels[0..<reference.count]), reference)
            #expect(!ignored.meetsTarget, "\(name) without its profile: \(ignored)")
        }
    }

    /// The image stage's sRGB pixels at the photo's own size, before any resampling.
    private func decodedSRGB(_ path: String, size: Size, warn: (String) -> Void = { _ in }) throws -> RGBImage {
        let bytes = try PhotoFile.read(path).bytes
        let target = Size(width: max(2, size.width), height: max(2, size.height))
        return try ImageManager().decodeOriented(bytes, target: target, mode: .aspectFit, background: .black, warn: warn).0
    }

    /// A copy of a JPEG, PNG or WebP whose colour description is hidden: the APP2 tag, or the
    /// iCCP/ICCP, cHRM and gAMA chunk types, renamed.
    private func untagged(_ path: String) throws -> TemporaryFolder {
        var bytes = try PhotoFile.read(path).bytes
        let folder = try TemporaryFolder()
        let pngChunks: [[UInt8]] = [Array("iCCP".utf8), Array("cHRM".utf8), Array("gAMA".utf8)]
        let needles: [[UInt8]] = [Array("ICC_PROFILE".utf8), Array("ICCP".utf8)] + pngChunks
        for needle in needles {
            var index = 0
            while index + needle.count <= bytes.count {
                if bytes[index..<index + needle.count].elementsEqual(needle) {
                    // A lower-case last letter: an unknown, ancillary segment or chunk.
                    bytes[index + needle.count - 1] |= 0x20
                    if pngChunks.contains(needle) { fixPNGChunkCRC(&bytes, typeAt: index) }
                }
                index += 1
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path("untagged")))
        return folder
    }

    private func fixPNGChunkCRC(_ bytes: inout [UInt8], typeAt index: Int) {
        let length = Int(bytes[index - 4]) << 24 | Int(bytes[index - 3]) << 16 | Int(bytes[index - 2]) << 8 | Int(bytes[index - 1])
        let crc = SyntheticPNG.crc32(Array(bytes[index..<index + 4 + length]))
        bytes.replaceSubrange(index + 4 + length..<index + 8 + length, with: SyntheticPNG.bigEndian(crc))
    }

    // MARK: Broken profiles

    @Test("a broken ICC profile falls back to sRGB with one warning, never a failure")
    func brokenProfile() throws {
        let path = media("jpeg_adobe_rgb_canon_eos7d.jpg")
        var bytes = try PhotoFile.read(path).bytes
        let start = try #require(firstIndex(of: Array("ICC_PROFILE".utf8) + [0], in: bytes)) + 14
        // The profile's 'acsp' signature, which Little CMS checks.
        bytes.replaceSubrange(start + 36..<start + 40, with: Array("xxxx".utf8))
        let folder = try TemporaryFolder()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path("broken.jpg")))
        let size = Size(width: 60, height: 90)
        var warnings: [String] = []
        let broken = try render(path: folder.path("broken.jpg"), size) { warnings.append($0) }
        #expect(warnings == ["its colour profile cannot be read; shown as sRGB"])

        // Exactly the pixels of the same file untagged.
        let plainFolder = try untagged(path)
        let plain = try render(path: plainFolder.path("untagged"), size)
        #expect(broken.pixels == plain.pixels)
        // And the managed one differs, so the comparison means something.
        let managed = try render(path: path, size)
        #expect(meanAbsoluteDifference(managed.pixels, plain.pixels) > 1)

        // Through the public API, the warning names the photo, once per log (one render's),
        // however often the photo is decoded; none reaches a log not bound for the work.
        let log = PhotoWarningLog()
        let other = PhotoWarningLog()
        for _ in 0..<2 {
            _ = try PhotoWarnings.collecting(into: log) { () throws(PhotoError) in
                try ImageManager().requestImage(for: Photo(path: folder.path("broken.jpg")), targetSize: size, contentMode: .aspectFit)
            }
        }
        let mine = log.warnings
        #expect(mine == [PhotoWarning(path: folder.path("broken.jpg"), reason: "its colour profile cannot be read; shown as sRGB")])
        #expect(other.warnings.isEmpty)
        #expect(mine.first?.description == "\(folder.path("broken.jpg")): its colour profile cannot be read; shown as sRGB")
    }

    @Test("ICC segments that are missing or inconsistent fall back to sRGB with a warning")
    func incompleteSegments() throws {
        var bytes = try PhotoFile.read(media("jpeg_adobe_rgb_canon_eos7d.jpg")).bytes
        let tag = try #require(firstIndex(of: Array("ICC_PROFILE".utf8) + [0], in: bytes))
        bytes[tag + 13] = 2  // "1 of 2": the second segment never comes
        let folder = try TemporaryFolder()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path("incomplete.jpg")))
        var warnings: [String] = []
        _ = try render(path: folder.path("incomplete.jpg"), Size(width: 60, height: 90)) { warnings.append($0) }
        #expect(warnings == ["its ICC profile is incomplete (1 of 2 segments); shown as sRGB"])

        bytes[tag + 12] = 3  // sequence 3 of 2
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path("inconsistent.jpg")))
        warnings = []
        _ = try render(path: folder.path("inconsistent.jpg"), Size(width: 60, height: 90)) { warnings.append($0) }
        #expect(warnings == ["its ICC profile segments are inconsistent; shown as sRGB"])
    }

    @Test("the SWOP profile split over several APP2 segments is joined in order")
    func multiSegmentProfile() throws {
        let bytes = try PhotoFile.read(media("jpeg_cmyk_swop_multi_app2.jpg")).bytes
        guard case .success(let profile) = ICCProfileReader.jpeg(bytes) else {
            Issue.record("no profile")
            return
        }
        // The ICC header states the profile's own size, and names its colour space 'CMYK'.
        let stated = Int(profile[0]) << 24 | Int(profile[1]) << 16 | Int(profile[2]) << 8 | Int(profile[3])
        #expect(stated == profile.count)
        #expect(profile.count > 65_519)  // more than one segment's worth
        #expect(Array(profile[16..<20]) == Array("CMYK".utf8))
        #expect(Array(profile[36..<40]) == Array("acsp".utf8))
    }

    // MARK: The cache and the sRGB shortcut

    @Test("one transform per distinct profile, reused; sRGB profiles skip the transform")
    func cache() throws {
        let p3 = try PhotoFile.read(media("jpeg_display_p3_nikon_d3s.jpg")).bytes
        guard case .success(let profile) = ICCProfileReader.jpeg(p3) else {
            Issue.record("no profile")
            return
        }
        let first = try #require(ColorManagement.cachedTransform(for: .icc(profile), input: .rgb))
        let second = try #require(ColorManagement.cachedTransform(for: .icc(profile), input: .rgb))
        #expect(first === second)
        // The flower's "sRGB IEC61966-2.1" profile is recognised as sRGB: no transform.
        let flower = try PhotoFile.read(media("webp_lossy_icc_exif_xmp_flower.webp")).bytes
        let header = try WebPHeader(parsing: flower)
        guard case .success(.icc(let sRGBProfile)) = header.color else {
            Issue.record("the flower has no ICC profile")
            return
        }
        #expect(ColorManagement.cachedTransform(for: .icc(sRGBProfile), input: .rgb) == nil)
        #expect(ColorManagement.cachedTransform(for: .sRGB, input: .rgb) == nil)
    }

    // MARK: PNG gAMA / cHRM / sRGB, HEIF nclx

    @Test("a PNG with gAMA 1.0 and no iCCP is linear light, converted to the sRGB curve")
    func pngGamma() throws {
        let values: [UInt8] = [0, 1, 8, 32, 64, 128, 192, 255]
        let row = values.flatMap { [$0, $0, $0] }
        func png(_ extra: [UInt8]) -> [UInt8] {
            let plain = SyntheticPNG.file(width: values.count, height: 2, bitDepth: 8, colorType: 2, rows: [row, row])
            // The colour chunks go after IHDR (8 + 25 bytes), before the image data.
            return Array(plain[0..<33]) + extra + Array(plain[33...])
        }
        let linear = SyntheticPNG.chunk("gAMA", SyntheticPNG.bigEndian(100_000))
        let folder = try TemporaryFolder()
        let size = Size(width: values.count, height: 2)
        for (name, bytes) in [("linear", png(linear)), ("srgb", png(SyntheticPNG.chunk("sRGB", [0]) + linear)),
                              ("gamma22", png(SyntheticPNG.chunk("gAMA", SyntheticPNG.bigEndian(45_455)))), ("plain", png([]))] {
            try Data(bytes).write(to: URL(fileURLWithPath: folder.path(name)))
        }
        let converted = try render(path: folder.path("linear"), size)
        for (index, value) in values.enumerated() {
            let l = Double(value) / 255
            let encoded = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
            let expected = Int((encoded * 255).rounded())
            #expect(abs(Int(converted.pixels[index * 3 + 1]) - expected) <= 1, "\(value): \(converted.pixels[index * 3 + 1]) vs \(expected)")
        }
        // An sRGB chunk wins over gAMA; gAMA 1/2.2 alone is sRGB; untagged is sRGB: all untouched.
        for name in ["srgb", "gamma22", "plain"] {
            #expect(try render(path: folder.path(name), size).pixels == Array(row + row), "\(name)")
        }
    }

    @Test("nclx colour descriptions: BT.709 and sRGB skip, P3 and BT.2020 convert, PQ and HLG fall back")
    func nclx() throws {
        #expect(try EmbeddedColor.nclx(primaries: 1, transfer: 13).get() == .sRGB)
        #expect(try EmbeddedColor.nclx(primaries: 1, transfer: 1).get() == .sRGB)
        #expect(try EmbeddedColor.nclx(primaries: 2, transfer: 2).get() == .sRGB)
        #expect(try EmbeddedColor.nclx(primaries: 12, transfer: 13).get() == .parametric(.displayP3, .sRGB))
        #expect(try EmbeddedColor.nclx(primaries: 9, transfer: 1).get() == .parametric(.bt2020, .sRGB))
        #expect(EmbeddedColor.nclx(primaries: 9, transfer: 16) == .failure(ColorProblem("a PQ (HDR) colour description is not supported")))
        #expect(EmbeddedColor.nclx(primaries: 9, transfer: 18) == .failure(ColorProblem("an HLG (HDR) colour description is not supported")))
        #expect(EmbeddedColor.nclx(primaries: 22, transfer: 13) == .failure(ColorProblem("colour primaries 22 are not supported")))

        // A P3 profile built from the nclx primaries agrees with Display P3 ICC conversion: pure
        // P3 green falls outside sRGB and clips to sRGB green's neighbourhood; P3 white stays white.
        let image = RGBImage(width: 2, height: 1, channels: 3, pixels: [0, 255, 0, 255, 255, 255] + [UInt8](repeating: 0, count: 64))
        let (converted, problem) = ColorManagement.convert(image, from: .parametric(.displayP3, .sRGB), input: .rgb)
        #expect(problem == nil)
        #expect(Array(converted.pixels[0..<6]) == [0, 255, 0, 255, 255, 255])
        let red = RGBImage(width: 1, height: 1, channels: 3, pixels: [200, 60, 60] + [UInt8](repeating: 0, count: 64))
        let (redConverted, _) = ColorManagement.convert(red, from: .parametric(.displayP3, .sRGB), input: .rgb)
        // P3 (200, 60, 60) is a more saturated red than sRGB (200, 60, 60): red rises, green and blue fall.
        #expect(redConverted.pixels[0] > 200 && redConverted.pixels[1] < 60 && redConverted.pixels[2] < 60, "\(Array(redConverted.pixels[0..<3]))")
    }
}

func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    for index in 0...(bytes.count - needle.count) where bytes[index..<index + needle.count].elementsEqual(needle) {
        return index
    }
    return nil
}
