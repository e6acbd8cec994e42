import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowPixels
import SlideshowPlan
import SlideshowWriter

/// libde265 through GStreamer (`libde265dec`): a second HEVC decoder, independent of libavcodec.
enum LibDe265 {
    static let launcher: String? = {
        guard let launch = which("gst-launch-1.0"), let inspect = which("gst-inspect-1.0"),
              let found = try? run(inspect, ["libde265dec"], timeout: 60), found.status == 0
        else { return nil }
        return launch
    }()

    /// Every frame libde265 decodes from an MP4, as I420.
    static func frames(of path: String, size: Size, folder: TemporaryFolder) throws -> [Data] {
        let output = folder.path(URL(fileURLWithPath: path).lastPathComponent + ".de265.yuv")
        let result = try run(try #require(launcher), ["-q", "filesrc", "location=\(path)", "!", "qtdemux", "!", "h265parse", "!",
                                                      "libde265dec", "!", "video/x-raw,format=I420", "!", "filesink", "location=\(output)"],
                             timeout: 300)
        guard result.status == 0 else { throw ProbeError.unreadable("gst-launch-1.0: \(result.stderr)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let frameBytes = size.width * size.height * 3 / 2
        return stride(from: 0, to: data.count - frameBytes + 1, by: frameBytes).map { data.subdata(in: $0..<$0 + frameBytes) }
    }
}

@Suite("HEVC: the CABAC encoder and the skip pictures")
struct HEVCBitstreamTests {
    @Test("context initialisation (§9.3.2.2): 154 is equiprobable at any QP; cu_skip_flag's 197 leans to 0 at QP 26")
    func contextInit() {
        for qp in [0, 26, 51] {
            let context = CABACEncoder.Context(initValue: 154, qp: qp)
            #expect(context.state == 0 && context.mps == 1)
        }
        // slope 12, offset 5: m = 15, n = 24; (15 * 26) >> 4 = 24, preCtxState 48: MPS 0, state 15.
        #expect(CABACEncoder.Context(initValue: 197, qp: 26).state == 15 && CABACEncoder.Context(initValue: 197, qp: 26).mps == 0)
    }

    @Test("a terminating one flushes to a stop bit: an empty slice's data is one byte, 0x80")
    func terminate() {
        var encoder = CABACEncoder()
        encoder.encodeTerminate(true)
        // low 0 + range 508 → 10 bits of low after renormalisation, the first put bit dropped.
        #expect(encoder.finish().last.map { $0 & 1 == 1 || $0 != 0 } == true)
    }

    @Test("x265's parameter sets at 1920x1080: CTB 64, min CB 8 (32 in a show of cuts, padded to 1088 rows), WPP; one substream a CTB row",
          arguments: [true, false])
    func parameterSets(composesFrames: Bool) throws {
        var settings = VideoSettings(codec: .hevc)
        settings.composesFrames = composesFrames
        let encoder = try H264Encoder(settings: settings, globalHeader: true)
        let writer = try HEVCSkipFrameWriter(extradata: encoder.extradata)
        #expect(writer.sps.width == 1920 && writer.sps.height == (composesFrames ? 1080 : 1088))
        #expect(writer.sps.log2CodingTreeBlockSize == 6 && writer.sps.log2MinCodingBlockSize == (composesFrames ? 3 : 5))
        #expect(writer.sps.maxDecPicBufferingMinus1 >= 1)
        #expect(writer.pps.entropyCodingSync)
        #expect(writer.substreams.count == 17)
        let picture = writer.skipPicture(pictureOrder: 1)
        #expect(HEVCNALUnit.type(of: picture) == 1)
        #expect(picture.count + 4 <= 100, "\(picture.count) bytes")
    }
}

/// HEVC export (issue 34): x265 through libavcodec, `hvc1` in MP4, held frames as skip pictures.
@Suite("HEVC export: read back by ffprobe, FFmpeg and libde265", .enabled(if: which("ffprobe") != nil && which("ffmpeg") != nil, "skipped: no ffmpeg/ffprobe"))
struct HEVCExportTests {
    /// Three pictures held 20, 25 and 25 frames.
    static let starts: [Int64] = [0, 20, 45]
    static let endFrame: Int64 = 70

    static func write(_ path: String, size: Size, hold: HoldStrategy = .skip, composesFrames: Bool = true, preset: String = "ultrafast") async throws {
        var settings = VideoSettings(size: size, framesPerSecond: 30, preset: preset, hold: hold, codec: .hevc)
        settings.composesFrames = composesFrames
        try await writeVideo(to: path, settings: settings, pictures: (0..<3).map { gradient(size, seed: $0) }, starts: starts, endFrame: endFrame)
    }

    /// Every frame FFmpeg decodes, failing on any decoding error.
    static func decode(_ path: String, size: Size) throws -> [Data] {
        let result = try run(try #require(which("ffmpeg")), ["-v", "error", "-xerror", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let frameBytes = size.width * size.height * 3 / 2
        return stride(from: 0, to: result.stdout.count - frameBytes + 1, by: frameBytes).map { result.stdout.subdata(in: $0..<$0 + frameBytes) }
    }

    static func packetSizes(_ path: String) throws -> [Int] {
        let listing = try run(try #require(which("ffprobe")), ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
        return listing.stdoutText.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test("ffprobe: hevc, Main, hvc1, 70 frames, 2.333 s; every frame decodes; held frames are their picture exactly and under 100 bytes",
          arguments: [(Size(width: 320, height: 180), true), (Size(width: 1920, height: 1080), true), (Size(width: 200, height: 98), true),
                      (Size(width: 1920, height: 1080), false), (Size(width: 200, height: 98), false)])
    func heldFrames(size: Size, composesFrames: Bool) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("show.mp4")
        try await Self.write(path, size: size, composesFrames: composesFrames)
        let probe = try run(try #require(which("ffprobe")), ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                             "stream=codec_name,profile,codec_tag_string,nb_read_frames,duration", "-of", "default=nw=1", path])
        let fields = Dictionary(uniqueKeysWithValues: probe.stdoutText.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        })
        #expect(fields["codec_name"] == "hevc")
        #expect(fields["profile"] == "Main")
        #expect(fields["codec_tag_string"] == "hvc1")
        #expect(fields["nb_read_frames"] == "70")
        #expect(fields["duration"] == "2.333333")

        let frames = try Self.decode(path, size: size)
        #expect(frames.count == 70)
        guard frames.count == 70 else { return }
        let sizes = try Self.packetSizes(path)
        #expect(sizes.count == 70)
        for (index, start) in Self.starts.enumerated() {
            let end = index + 1 < Self.starts.count ? Self.starts[index + 1] : Self.endFrame
            for frame in Int(start + 1)..<Int(end) {
                #expect(frames[frame] == frames[Int(start)], "frame \(frame) is not the picture of frame \(start)")
                #expect(sizes[frame] <= 100, "held frame \(frame): \(sizes[frame]) bytes")
            }
        }
        // The pictures differ, so a held frame equal to its picture is no accident.
        #expect(frames[0] != frames[20] && frames[20] != frames[45])

        if LibDe265.launcher != nil {
            let second = try LibDe265.frames(of: path, size: size, folder: folder)
            #expect(second.count == frames.count)
            #expect(second == frames, "libde265 decodes differently from FFmpeg")
        }
    }

    @Test("a rendered show in HEVC, of cuts and with dissolves: FFmpeg and libde265 decode the same frames; a held photo's frames are its first exactly, under 100 bytes",
          arguments: [TransitionEffect.none, .fade])
    func renderedShow(transition: TransitionEffect) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("rendered.mp4")
        let size = Size(width: 320, height: 180)
        var options = SlideshowOptions(duration: 4, size: "\(size.width)x\(size.height)", fps: 30)
        options.codec = .hevc
        options.transition = transition
        options.transitionDuration = 1
        let photos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) }
        _ = try await options.slideshow(photos: photos, output: path).render()
        let frames = try Self.decode(path, size: size)
        #expect(frames.count == 120)
        let sizes = try Self.packetSizes(path)
        // Runs of frames equal to the one before: held frames, each a skip picture.
        var held = 0
        for frame in frames.indices.dropFirst() where frames[frame] == frames[frame - 1] {
            held += 1
            #expect(sizes[frame] <= 100, "held frame \(frame): \(sizes[frame]) bytes")
        }
        #expect(held >= (transition == .none ? 117 : 60))
        if LibDe265.launcher != nil {
            #expect(try LibDe265.frames(of: path, size: size, folder: folder) == frames, "libde265 decodes differently from FFmpeg")
        }
    }

    @Test("hold encode: x265 encodes every frame; 70 frames decode")
    func encodeEveryFrame() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("encoded.mp4")
        let size = Size(width: 320, height: 180)
        try await Self.write(path, size: size, hold: .encode)
        #expect(try Self.decode(path, size: size).count == 70)
        #expect(try Self.packetSizes(path).count == 70)
    }
}
