import Foundation
import Testing
import TestSupport

@Suite("slideshow: HDR shows from the command line and a manifest (issue 35)", needsBuiltTool)
struct HDRCLITests {
    @Test("what an HDR show cannot hold yet is a usage error on one line, naming the option; nothing is written",
          arguments: [("x.gif", "--output: an animated GIF preview is not yet possible in an HDR show (hdr pq)"),
                      ("x.webp", "--output: an animated WEBP preview is not yet possible in an HDR show (hdr pq)")])
    func refused(output: String, message: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], samplePhotos[1], "--hdr", "pq", "-o", folder.path(output)])
        #expect(result.status == 64)
        let first = try #require(result.stderr.split(separator: "\n").first)
        #expect(first.contains(message), "\(first)")
        #expect(folder.contents().isEmpty)
    }

    /// The shared Samsung motion photo played in a PQ show and in an SDR one, both decoded by
    /// ffmpeg to linear light (1.0 = 203 nits; the SDR video's sRGB-coded frames, as its clip
    /// frames are made): the video plays (its frames differ) and its light is the SDR show's at
    /// 203 nits, within 3% at the median block and 10% for nine blocks in ten.
    @Test("a motion photo plays its video in an HDR show, at the SDR show's light on a 203-nit white",
          .enabled(if: TestEnvironment.sharedClip("mp_samsung_s22_motionphoto.heic") != nil, "skipped: ../shared/clips is absent"))
    func motionPhotoPlays() throws {
        let photo = try #require(TestEnvironment.sharedClip("mp_samsung_s22_motionphoto.heic"))
        let folder = try TemporaryFolder()
        let common = ["make", photo, samplePhotos[0], "--motion-photos", "play", "--size", "320x180", "--duration", "2", "--preset", "ultrafast"]
        let hdr = try slideshow(common + ["--hdr", "pq", "-o", folder.path("hdr.mp4")])
        #expect(hdr.status == 0, "\(hdr.stderr)")
        let sdr = try slideshow(common + ["-o", folder.path("sdr.mp4")])
        #expect(sdr.status == 0, "\(sdr.stderr)")
        let probed = try ProbedVideo(path: folder.path("hdr.mp4"))
        #expect(probed.stream["profile"] == "Main 10" && probed.stream["color_transfer"] == "smpte2084")
        let ffmpeg = try #require(which("ffmpeg"))
        /// Frame `index` in linear light, 32x18 blocks of the mean of three channels.
        func light(_ file: String, _ index: Int, transfer: String) throws -> [Float] {
            let decoded = try run(ffmpeg, ["-v", "error", "-i", folder.path(file), "-vf", "select=eq(n\\,\(index)),zscale=t=linear:npl=203\(transfer),format=gbrpf32le,scale=32:18",
                                           "-frames:v", "1", "-f", "rawvideo", "-"])
            let samples = decoded.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            guard samples.count == 3 * 32 * 18 else { return [] }
            return (0..<32 * 18).map { (samples[$0] + samples[32 * 18 + $0] + samples[2 * 32 * 18 + $0]) / 3 }
        }
        let first = try light("hdr.mp4", 3, transfer: ":p=bt709"), later = try light("hdr.mp4", 12, transfer: ":p=bt709")
        #expect(!first.isEmpty && first != later, "the motion photo's video plays")
        let reference = try light("sdr.mp4", 12, transfer: ":tin=iec61966-2-1")
        let ratios = zip(later, reference).filter { $0.1 > 0.05 }.map { $0.0 / $0.1 }.sorted()
        #expect(ratios.count > 150, "\(ratios.count) blocks lit")  // the portrait video fills about 40% of the 16:9 frame
        guard ratios.count > 10 else { return }
        let median = ratios[ratios.count / 2]
        let within = ratios.filter { abs($0 - 1) <= 0.1 }.count
        print("FIGURE motion photo in PQ: median light ratio \(median) to the SDR show, \(within) of \(ratios.count) blocks within 10%")
        #expect(abs(median - 1) <= 0.03, "median light ratio \(median)")
        #expect(Double(within) >= 0.9 * Double(ratios.count), "\(within) of \(ratios.count) blocks within 10%")
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
