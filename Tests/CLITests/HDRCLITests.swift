import Foundation
import Testing
import TestSupport

@Suite("slideshow: HDR shows from the command line and a manifest (issue 35)", needsBuiltTool)
struct HDRCLITests {
    @Test("what an HDR show cannot hold yet is a usage error on one line, naming the option; nothing is written",
          arguments: [(["--motion-photos", "play"], "--motion-photos: playing motion photos is not yet possible in an HDR show (hdr pq)")])
    func refused(options: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], samplePhotos[1], "--hdr", "pq", "-o", folder.path("x.mp4")] + options)
        #expect(result.status == 64)
        let first = try #require(result.stderr.split(separator: "\n").first)
        #expect(first.contains(message), "\(first)")
        #expect(folder.contents().isEmpty)
    }

    @Test("--motion in an HDR show moves the pictures: HEVC Main 10 in PQ, every frame of the move different from the next")
    func motion() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("k.mp4")
        let made = try slideshow(["make", samplePhotos[0], samplePhotos[1], "--hdr", "pq", "--motion", "kenburns", "--size", "160x120",
                                  "--duration", "1", "--preset", "ultrafast", "-o", output])
        #expect(made.status == 0, "\(made.stderr)")
        let probed = try ProbedVideo(path: output)
        #expect(probed.decodedFrames == 30)
        #expect(probed.stream["profile"] == "Main 10" && probed.stream["color_transfer"] == "smpte2084")
        let raw = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", output, "-frames:v", "15", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-"])
        let frameBytes = 160 * 120 * 3
        let frames = stride(from: 0, to: raw.stdout.count - frameBytes + 1, by: frameBytes).map { raw.stdout.subdata(in: $0..<$0 + frameBytes) }
        #expect(frames.count == 15 && zip(frames, frames.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test("an HDR clip among photos in an HDR show: HEVC Main 10 with its sound; with a look it renders",
          .enabled(if: TestEnvironment.sharedClip("MANIFEST.tsv") != nil, "skipped: ../shared/clips is absent"))
    func clip() throws {
        let clip = try #require(TestEnvironment.sharedClip("mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4"))
        let folder = try TemporaryFolder()
        let made = try slideshow(["make", samplePhotos[0], clip + "#t=0,0.5", "--hdr", "pq", "--size", "160x120", "--duration", "1.5",
                                  "--transition", "wipeleft", "--transition-duration", "0.3", "-o", folder.path("c.mp4")])
        #expect(made.status == 0, "\(made.stderr)")
        let probed = try ProbedVideo(path: folder.path("c.mp4"))
        #expect(probed.stream["profile"] == "Main 10" && probed.stream["color_transfer"] == "smpte2084")
        // A look on the HDR clip tints its SDR base (HDRClipTests.lookOnHDRClip).
        let looked = try slideshow(["make", clip + "#t=0,0.3", "--hdr", "pq", "--filter", "sepia", "--size", "90x160", "-o", folder.path("d.mp4")])
        #expect(looked.status == 0, "\(looked.stderr)")
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

/// Ultra HDR JPEGs through the command line: the gain map lifts the highlights; a broken one
/// renders at SDR light.
@Suite("slideshow: Ultra HDR JPEGs in an --hdr pq show", needsBuiltTool,
       .enabled(if: which("ffmpeg") != nil && which("ffprobe") != nil, "skipped: no ffmpeg/ffprobe"))
struct UltraHDRCLITests {
    static let seine = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../SlideshowTests/UltraHDR/seine_sdr_gainmap_srgb.jpg").standardized.path

    /// PQ's inverse EOTF as a 10-bit limited-range code: cd/m² → Y′ of a grey of that light.
    static func pqCode(nits: Double) -> Int {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let y = pow(nits / 10000, m1)
        return Int((64 + 876 * pow((c1 + c2 * y) / (1 + c3 * y), m2)).rounded())
    }

    /// The first frame's luma samples (10-bit), decoded by ffmpeg.
    static func luma(_ path: String, size: (Int, Int)) throws -> [Int] {
        let result = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-"])
        try #require(result.status == 0, "\(result.stderr)")
        let data = [UInt8](result.stdout)
        return (0..<size.0 * size.1).map { Int(data[$0 * 2]) | Int(data[$0 * 2 + 1]) << 8 }
    }

    @Test("--hdr pq: the Ultra HDR JPEG's highlights come out above reference white; with its MPF broken, it renders at SDR light, exit 0")
    func highlights() throws {
        let folder = try TemporaryFolder()
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.seine))
        var broken = [UInt8](original)
        let mpf = try #require(broken.firstRange(of: Array("MPF\0".utf8))?.lowerBound)
        broken[mpf + 2] = UInt8(ascii: "X")
        try Data(broken).write(to: URL(fileURLWithPath: folder.path("broken.jpg")))
        var lumas: [[Int]] = []
        for (name, photo) in [("hdr", Self.seine), ("broken", folder.path("broken.jpg"))] {
            let output = folder.path("\(name).mp4")
            let result = try slideshow(["make", photo, "--hdr", "pq", "--size", "400x300", "--duration", "1", "--preset", "ultrafast", "-o", output])
            #expect(result.status == 0, "\(result.stderr)")
            let probed = try ProbedVideo(path: output)
            #expect(probed.stream["profile"] == "Main 10" && probed.stream["color_transfer"] == "smpte2084")
            lumas.append(try Self.luma(output, size: (400, 300)))
        }
        let white = Self.pqCode(nits: 203), lifted = Self.pqCode(nits: 1.2 * 203)
        let above = lumas[0].filter { $0 > lifted }.count
        print("Ultra HDR CLI: \(above) of \(lumas[0].count) luma samples above 1.2 x reference white (code \(lifted)); max \(lumas[0].max() ?? 0); broken file max \(lumas[1].max() ?? 0) (white \(white))")
        #expect(above >= 1000, "\(above) samples above code \(lifted)")
        // At SDR light: nothing above 1.2 x reference white (its white, 573, plus the encoder's ringing).
        #expect((lumas[1].max() ?? 0) < lifted, "the broken file's brightest luma \(lumas[1].max() ?? 0)")
    }
}
