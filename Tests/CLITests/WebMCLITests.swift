import Foundation
import Testing
import TestSupport

@Suite("slideshow make -o x.webm: VP9 (or AV1) with Opus; a codec WebM cannot carry is a usage error", needsBuiltTool)
struct WebMCLITests {
    @Test(".webm without --codec is VP9 in WebM; --codec av1 is AV1 in WebM", arguments: [nil, "av1"])
    func written(_ codec: String?) throws {
        let folder = try TemporaryFolder()
        let output = folder.path("out.webm")
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--duration", "1", "--quiet", "-o", output]
                                   + (codec.map { ["--codec", $0] } ?? []), timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try run(which("ffprobe")!, ["-v", "error", "-show_entries", "format=format_name:stream=codec_name", "-of", "csv=p=0", output])
        #expect(probe.stdoutText.contains("matroska,webm"), "\(probe.stdoutText)")
        #expect(probe.stdoutText.contains(codec ?? "vp9"), "\(probe.stdoutText)")
    }

    @Test("--codec h264 or hevc with .webm, vp9 with .mp4: status 64, one line naming --codec; nothing written",
          arguments: [("h264", "out.webm"), ("hevc", "out.webm"), ("vp9", "out.mp4")])
    func refused(_ codec: String, _ name: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--codec", codec, "-o", folder.path(name)], timeout: 60)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--codec: \(codec) is not written in"), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }
}
