import Foundation
import Testing
import TestSupport

/// `../shared/media`, or nil in a fresh clone.
private let media: URL? = {
    let url = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.tsv").path) ? url : nil
}()

@Suite("slideshow: phone formats and colour profiles", needsBuiltTool)
struct PhoneFormatCLITests {
    @Test("slideshow formats lists every decoder and the colour management")
    func formats() throws {
        let result = try slideshow(["formats"])
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.prefix(while: { $0 != " " })) } == ["JPEG", "PNG", "HEIF/HEIC", "AVIF", "WebP", "clips", "colour"])
        #expect(lines[5].contains("MP4, MOV, M4V, MKV, WebM, 3GP, AVI, MPEG-TS/AVCHD, MPEG-PS (MPG, VOB), DV: H.264 (h264), HEVC (hevc), VP9 (") && lines[5].contains("by FFmpeg libavcodec"))
        #expect(lines[2].contains("libheif 1.") && lines[4].contains("libwebp 1."))
        #expect(lines[2].contains("HEVC decoded by FFmpeg libavcodec 59.") || lines[2].contains("HEVC decoded by FFmpeg libavcodec 6"))
        #expect(lines[6].hasPrefix("colour management: Little CMS 2."))
    }

    @Test("HEIC, AVIF and WebP render; a broken profile is one warning line and exit status 0; a damaged HEIC is one error line",
          .enabled(if: media != nil, "skipped: ../shared/media is absent (a fresh clone)"))
    func render() throws {
        let folder = try TemporaryFolder()
        let files = ["heic_iphonexr_grid_landscape.heic", "avif_kimono_irot270.avif", "webp_lossy_exif_orient6_iphonex.webp"]
            .map { media!.appendingPathComponent($0).path }
        // The Adobe RGB JPEG with its profile's signature broken.
        var bytes = [UInt8](try Data(contentsOf: media!.appendingPathComponent("jpeg_adobe_rgb_canon_eos7d.jpg")))
        let tag = Array("ICC_PROFILE".utf8)
        let index = try #require((0..<bytes.count - tag.count).first { bytes[$0..<$0 + tag.count].elementsEqual(tag) })
        bytes.replaceSubrange(index + 14 + 36..<index + 14 + 40, with: Array("xxxx".utf8))
        let broken = folder.path("broken.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: broken))

        let output = folder.path("show.mp4")
        let result = try slideshow(["make"] + files + [broken, "--size", "64x48", "--duration", "2", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("slideshow:") }
        #expect(warnings == ["slideshow: warning: \(broken): its colour profile cannot be read; shown as sRGB"], "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))

        let truncated = media!.appendingPathComponent("heic_truncated.heic").path
        let failed = try slideshow(["make", files[0], truncated, "--size", "64x48", "-o", folder.path("failed.mp4")])
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("slideshow: \(truncated): truncated HEIF data ("), "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("failed.mp4")))
    }
}
