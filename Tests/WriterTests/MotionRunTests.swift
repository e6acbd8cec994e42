import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowPixels
import SlideshowSupport
@testable import SlideshowWriter

/// Issue 25: in a show that composes frames, each run of consecutive pictures goes to an
/// x264 of its own (B-frames, mb-tree, SPS/PPS id 1); held pictures stay the stills encoder's
/// IDRs, and the writer's held frames copy them. Issue 33: the stream has one SPS, the motion
/// encoder's, which the stills encoder's IDRs are rewritten to.
@Suite("Motion runs: an encoder a run, beside the stills encoder")
struct MotionRunTests {
    static let size = Size(width: 128, height: 72)

    /// What ffprobe says of each decoded frame, in presentation order: `I`, `P` or `B`, and
    /// whether it is a key frame; and of each packet, in decode order: pts and dts in frames.
    struct Probe {
        var types: [String] = []
        var keyFrames: [Int] = []
        var packets: [(pts: Int, dts: Int)] = []

        init(_ path: String) throws {
            let ffprobe = try #require(which("ffprobe"))
            let frames = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame,pict_type",
                                           "-of", "csv=p=0", path])
            for (index, line) in String(decoding: frames.stdout, as: UTF8.self).split(separator: "\n").enumerated() {
                let fields = line.split(separator: ",").map(String.init)
                types.append(fields[1])
                if fields[0] == "1" { keyFrames.append(index) }
            }
            let listing = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,dts",
                                            "-of", "csv=p=0", path])
            // The stream's time base is 1/15360 at 30 fps: 512 a frame.
            packets = String(decoding: listing.stdout, as: UTF8.self).split(separator: "\n").map { line in
                let fields = line.split(separator: ",").compactMap { Int($0) }
                return (fields[0] / 512, Int((Double(fields[1]) / 512).rounded(.down)))
            }
        }
    }

    /// The sequence and picture parameter sets' ids in the file's `avcC`.
    static func parameterSetIDs(of path: String) throws -> (sps: [UInt32], pps: [UInt32]) {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let name = Array("avcC".utf8)
        let at = try #require((0..<data.count - 4).first { Array(data[$0..<$0 + 4]) == name }) + 4
        // configurationVersion, profile, compatibility, level, NAL unit length size; then the sets.
        var offset = at + 5
        func unit() -> [UInt8] {
            let length = Int(data[offset]) << 8 | Int(data[offset + 1])
            defer { offset += 2 + length }
            return Array(data[offset + 2..<offset + 2 + length])
        }
        let spsCount = Int(data[offset] & 0x1F)
        offset += 1
        let sps = try (0..<spsCount).map { _ in try SequenceParameterSet(nalUnit: unit()).id }
        let ppsCount = Int(data[offset])
        offset += 1
        let pps = try (0..<ppsCount).map { _ -> UInt32 in
            var reader = BitReader(rbsp: NALUnit.rbsp(of: unit()))
            return try reader.ue()
        }
        return (sps, pps)
    }

    @Test("runs go to their own encoder with B-frames; each held picture is an IDR of the stills encoder; every frame shows its picture")
    func runsAndHolds() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("runs.mp4")
        // A run 0–3 (held picture at 4), a run 10–11 (held at 12), the last picture at 20.
        // Dissolves, A to B and B to C, as a transition composes them.
        let starts: [Int64] = [0, 1, 2, 3, 4, 10, 11, 12, 20]
        let (a, b, c) = (gradient(Self.size, seed: 0), gradient(Self.size, seed: 1), gradient(Self.size, seed: 2))
        func mix(_ x: PixelBuffer, _ y: PixelBuffer, _ weight: Int) -> PixelBuffer {
            PixelBuffer(size: Self.size, pixels: zip(x.pixels, y.pixels).map { UInt8((Int($0) * (4 - weight) + Int($1) * weight + 2) / 4) })
        }
        let pictures = (0...4).map { mix(a, b, $0) } + [mix(b, c, 2), mix(b, c, 3), c, c]
        try await writeVideo(to: path, settings: VideoSettings(size: Self.size, crf: 1), pictures: pictures, starts: starts, endFrame: 25)

        let probe = try Probe(path)
        #expect(probe.types.count == 25)
        #expect(probe.keyFrames == [0, 4, 10, 12, 20])
        // x264 puts B-frames in the first run (four pictures): at least one of frames 1–3.
        #expect(probe.types[1...3].contains("B"), "\(probe.types)")
        #expect(probe.types[4] == "I" && probe.types[12] == "I" && probe.types[20] == "I")
        // Decode times run forward, a frame a packet, from one frame before 0; each packet is
        // decoded before it is shown, a P frame at most its B-frames and one ahead.
        #expect(probe.packets.map(\.dts) == Array(-1..<24))
        #expect(probe.packets.allSatisfy { $0.pts >= $0.dts && $0.pts - $0.dts <= H264Encoder.motionBFrames + 1 }, "\(probe.packets)")

        // One SPS, the motion encoder's (1); both encoders' PPSs (0 and 1), and the skip slices' (2).
        let ids = try Self.parameterSetIDs(of: path)
        #expect(ids.sps == [1] && ids.pps == [0, 1, 2])

        let frames = try FrameDecoder.frames(of: path, pixelFormat: "rgb24", width: Self.size.width, height: Self.size.height)
        #expect(frames.count == 25)
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? Int(starts[index + 1]) : 25
            let expected = Data(pictures[index].pixels)
            // Within 4 of 255 on average: 4:2:0 chroma on the gradient's sharp wraps, at CRF 1.
            #expect(meanAbsoluteDifference(frames[Int(start)], expected) < 4, "picture \(index) at frame \(start)")
            // The held frames are the writer's skip slices: exactly the picture as decoded.
            for frame in Int(start) + 1..<end { #expect(frames[frame] == frames[Int(start)], "frame \(frame)") }
        }
    }

    @Test("a show of cuts opens no motion encoder: one SPS, the skip slices' PPS is 1, no B-frames, decode order is presentation order")
    func cutsHaveNoMotionEncoder() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("cuts.mp4")
        var settings = VideoSettings(size: Self.size, crf: 1)
        settings.composesFrames = false
        let starts: [Int64] = [0, 5, 6, 12]
        try await writeVideo(to: path, settings: settings, pictures: starts.indices.map { gradient(Self.size, seed: $0) },
                             starts: starts, endFrame: 15)
        let ids = try Self.parameterSetIDs(of: path)
        #expect(ids.sps == [0] && ids.pps == [0, 1])
        let probe = try Probe(path)
        #expect(try ProbedVideo(path: path).stream["has_b_frames"] == "0")
        #expect(probe.types.count == 15 && !probe.types.contains("B"))
        #expect(probe.packets.allSatisfy { $0.pts == $0.dts })
        // Pictures 5 and 6 are on consecutive frames: the one encoder codes 6 as a P frame.
        #expect(probe.keyFrames == [0, 5, 12])
    }

    @Test("the stills encoder's IDRs, rewritten to the motion encoder's SPS, decode to the same pixels as in a show of cuts (CABAC and CAVLC)",
          arguments: ["medium", "ultrafast"])
    func rewrittenIDRs(preset: String) async throws {
        let folder = try TemporaryFolder()
        var composing = VideoSettings(size: Self.size, preset: preset)
        composing.composesFrames = true
        var cuts = composing
        cuts.composesFrames = false
        // A held 0–4, a run 5–7, C held 8–11; as cuts, A held 0–4 then C.
        let (a, b, c) = (gradient(Self.size, seed: 0), gradient(Self.size, seed: 1), gradient(Self.size, seed: 2))
        try await writeVideo(to: folder.path("composing.mp4"), settings: composing, pictures: [a, b, a, b, c],
                             starts: [0, 5, 6, 7, 8], endFrame: 12)
        try await writeVideo(to: folder.path("cuts.mp4"), settings: cuts, pictures: [a, c], starts: [0, 8], endFrame: 12)
        #expect(try Self.parameterSetIDs(of: folder.path("composing.mp4")).sps == [1])
        let moving = try FrameDecoder.frames(of: folder.path("composing.mp4"), pixelFormat: "yuv420p", width: Self.size.width, height: Self.size.height)
        let held = try FrameDecoder.frames(of: folder.path("cuts.mp4"), pixelFormat: "yuv420p", width: Self.size.width, height: Self.size.height)
        #expect(moving.count == 12 && held.count == 12)
        // The first picture: the same stills encoder, the same input, so the same pixels; its held frames too.
        for frame in 0..<5 { #expect(moving[frame] == held[0], "frame \(frame)") }
        for frame in 9..<12 { #expect(moving[frame] == moving[8], "frame \(frame)") }
    }

    @Test("the motion encoder's settings: B-frames that are not references nor split below 16x16, mb-tree over 6 frames, no psy, trellis in every decision, its own SPS id, CRF 2 below")
    func motionSettings() {
        let settings = VideoSettings(crf: 23)
        #expect(settings.motionX264Parameters == "bframes=3:b-pyramid=none:threads=2:rc-lookahead=6:mbtree=1:psy=0:trellis=2:scenecut=0:sliced-threads=1:mixed-refs=0:partitions=p8x8,i8x8,i4x4:sps-id=1")
        // The preset's partitions less b8x8 (x264's presets: none at ultrafast, intra ones at
        // superfast, p4x4 added from slower on).
        let partitions = VideoSettings.presets.map { VideoSettings(preset: $0).motionPartitions ?? "-" }
        #expect(partitions == ["-", "-", "p8x8,i8x8,i4x4", "p8x8,i8x8,i4x4", "p8x8,i8x8,i4x4", "p8x8,i8x8,i4x4", "p8x8,i8x8,i4x4",
                               "p8x8,p4x4,i8x8,i4x4", "p8x8,p4x4,i8x8,i4x4", "p8x8,p4x4,i8x8,i4x4"])
        #expect(!VideoSettings(preset: "ultrafast").motionX264Parameters.contains("partitions"))
        #expect(settings.motionCRF == 21)
        #expect(VideoSettings(crf: 2).motionCRF == 1 && VideoSettings(crf: 1).motionCRF == 1)
    }
}
