import Foundation
import Testing
import TestSupport

@Suite("slideshow: HDR shows from the command line and a manifest (issue 35)", needsBuiltTool)
struct HDRCLITests {
    @Test("what an HDR show cannot hold yet is a usage error on one line, naming the option; nothing is written",
          arguments: [(["--transition", "slideleft"], "--transition: the slideleft transition (fade, fadeblack and fadewhite are) is not yet possible in an HDR show (hdr pq)"),
                      (["--motion", "kenburns"], "--motion: motion is not yet possible in an HDR show (hdr pq)"),
                      (["--date-stamp"], "--date-stamp: the date stamp is not yet possible in an HDR show (hdr pq)")])
    func refused(options: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], samplePhotos[1], "--hdr", "pq", "-o", folder.path("x.mp4")] + options)
        #expect(result.status == 64)
        let first = try #require(result.stderr.split(separator: "\n").first)
        #expect(first.contains(message), "\(first)")
        #expect(folder.contents().isEmpty)
    }

    @Test("a manifest's \"hdr\": \"hlg\" writes HEVC Main 10 in HLG, as --hdr hlg does")
    func manifest() throws {
        let folder = try TemporaryFolder()
        let manifest = try writeManifest([#"{"photos": ["\#(samplePhotos[0])"], "output": "\#(folder.path("m.mp4"))", "hdr": "hlg", "size": "160x120", "duration": 1}"#],
                                         in: folder)
        let result = try slideshow(["batch", manifest])
        #expect(result.status == 0, "\(result.stderr)")
        let probed = try ProbedVideo(path: folder.path("m.mp4"))
        #expect(probed.stream["codec_name"] == "hevc" && probed.stream["profile"] == "Main 10")
        #expect(probed.stream["color_transfer"] == "arib-std-b67" && probed.stream["pix_fmt"] == "yuv420p10le")
    }
}
