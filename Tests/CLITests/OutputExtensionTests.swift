import Foundation
import Testing
import TestSupport

@Suite("slideshow make -o: the name says MP4, or the output is refused before anything renders", needsBuiltTool)
struct OutputExtensionTests {
    @Test("an output named .mkv, .mov, .jpg or with no extension is a usage error (64) in one line; nothing is written",
          arguments: ["out.mkv", "out.mov", "out.jpg", "out", "out.mp4.part"])
    func refused(_ name: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "-o", folder.path(name)], timeout: 60)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--output: '\(folder.path(name))' must end in .mp4 or .m4v (MP4: H.264, HEVC or AV1 with AAC), .webm (WebM: VP9 or AV1 with Opus) or .gif or .webp (an animated preview)"),
                "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 || result.stderr.contains("Usage:"), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test(".mp4, .MP4 and .m4v are written, as MP4", arguments: ["out.mp4", "OUT.MP4", "out.m4v"])
    func accepted(_ name: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--duration", "1", "--quiet", "-o", folder.path(name)], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try run(which("ffprobe")!, ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", folder.path(name)])
        #expect(probe.stdoutText.contains("mov,mp4,m4a,3gp,3g2,mj2"), "\(probe.stdoutText)")
    }
}
