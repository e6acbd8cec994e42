import Foundation
import Testing
import TestSupport

@Suite("slideshow: HDR shows from the command line and a manifest (issue 35)", needsBuiltTool)
struct HDRCLITests {
    @Test("what an HDR show cannot hold yet is a usage error on one line, naming the option; nothing is written",
          arguments: [(["--motion", "kenburns"], "--motion: motion is not yet possible in an HDR show (hdr pq)"),
                      (["--motion-photos", "play"], "--motion-photos: playing motion photos is not yet possible in an HDR show (hdr pq)")])
    func refused(options: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], samplePhotos[1], "--hdr", "pq", "-o", folder.path("x.mp4")] + options)
        #expect(result.status == 64)
        let first = try #require(result.stderr.split(separator: "\n").first)
        #expect(first.contains(message), "\(first)")
        #expect(folder.contents().isEmpty)
    }

    @Test("an HDR clip among photos in an HDR show: HEVC Main 10 with its sound; with a look it is refused on one line, naming the clip",
          .enabled(if: TestEnvironment.sharedClip("MANIFEST.tsv") != nil, "skipped: ../shared/clips is absent"))
    func clip() throws {
        let clip = try #require(TestEnvironment.sharedClip("mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4"))
        let folder = try TemporaryFolder()
        let made = try slideshow(["make", samplePhotos[0], clip + "#t=0,0.5", "--hdr", "pq", "--size", "160x120", "--duration", "1.5",
                                  "--transition", "wipeleft", "--transition-duration", "0.3", "-o", folder.path("c.mp4")])
        #expect(made.status == 0, "\(made.stderr)")
        let probed = try ProbedVideo(path: folder.path("c.mp4"))
        #expect(probed.stream["profile"] == "Main 10" && probed.stream["color_transfer"] == "smpte2084")
        let refused = try slideshow(["make", samplePhotos[0], clip, "--hdr", "pq", "--filter", "sepia", "-o", folder.path("d.mp4")])
        #expect(refused.status == 64)
        let first = try #require(refused.stderr.split(separator: "\n").first)
        #expect(first.contains("\(clip): a look (sepia) on an HDR clip is not yet possible in an HDR show (hdr pq)"), "\(first)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("d.mp4")))
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
