import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowPixels
import SlideshowPlan
@testable import SlideshowWriter

/// Issue 34: HEVC motion runs. In a show that composes frames each run of consecutive pictures
/// goes to an x265 of its own (B-frames, lookahead, cu-tree), whose VPS, SPS and PPS stand for
/// the stills encoder's in the file's one `hvcC`; held pictures stay the stills encoder's IDRs
/// and their held frames the writer's skip pictures.
@Suite("HEVC motion runs: an x265 a run, one hvcC, skip pictures after", .enabled(if: which("ffprobe") != nil && which("ffmpeg") != nil, "skipped: no ffmpeg/ffprobe"))
struct HEVCMotionRunTests {
    static let size = Size(width: 320, height: 180)

    /// The NAL unit types of the file's `hvcC` arrays, one entry a NAL unit.
    static func configurationUnits(of path: String) throws -> [UInt8] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let name = Array("hvcC".utf8)
        let at = try #require((0..<data.count - 4).first { Array(data[$0..<$0 + 4]) == name }) + 4
        // 22 bytes of profile, level and sizes, then numOfArrays.
        var offset = at + 22
        let arrays = Int(data[offset])
        offset += 1
        var types: [UInt8] = []
        for _ in 0..<arrays {
            let type = data[offset] & 0x3F
            let count = Int(data[offset + 1]) << 8 | Int(data[offset + 2])
            offset += 3
            for _ in 0..<count {
                let length = Int(data[offset]) << 8 | Int(data[offset + 1])
                #expect(HEVCNALUnit.type(of: Array(data[offset + 2..<offset + 2 + length])) == type)
                types.append(type)
                offset += 2 + length
            }
        }
        return types
    }

    /// Per frame in presentation order: its picture type; per packet in decode order: pts and dts in frames.
    static func probe(_ path: String) throws -> (types: [String], keyFrames: [Int], packets: [(pts: Int, dts: Int)], sizes: [Int]) {
        let ffprobe = try #require(which("ffprobe"))
        let frames = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame,pict_type", "-of", "csv=p=0", path])
        var types: [String] = [], keyFrames: [Int] = []
        for (index, line) in frames.stdoutText.split(separator: "\n").enumerated() {
            let fields = line.split(separator: ",").map(String.init)
            types.append(fields[1])
            if fields[0] == "1" { keyFrames.append(index) }
        }
        let listing = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,dts,size", "-of", "csv=p=0", path])
        // The stream's time base is 1/15360 at 30 fps: 512 a frame.
        var packets: [(pts: Int, dts: Int)] = [], sizes: [Int] = []
        for line in listing.stdoutText.split(separator: "\n") {
            let fields = line.split(separator: ",").compactMap { Int($0) }
            packets.append((fields[0] / 512, Int((Double(fields[1]) / 512).rounded(.down))))
            sizes.append(fields[2])
        }
        return (types, keyFrames, packets, sizes)
    }

    @Test("runs go to x265s of their own with B-frames; one VPS, SPS and PPS; held pictures are IDRs, their held frames skip pictures under 100 bytes; FFmpeg and libde265 decode the same frames")
    func runsAndHolds() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("runs.mp4")
        // A dissolve A→B on frames 0–11, B held 12–19, a dissolve B→C on 20–27, C held 28–39.
        let (a, b, c) = (gradient(Self.size, seed: 0), gradient(Self.size, seed: 1), gradient(Self.size, seed: 2))
        func mix(_ x: PixelBuffer, _ y: PixelBuffer, _ step: Int, of steps: Int) -> PixelBuffer {
            PixelBuffer(size: Self.size, pixels: zip(x.pixels, y.pixels).map { UInt8((Int($0) * (steps - step) + Int($1) * step + steps / 2) / steps) })
        }
        let pictures = (0..<12).map { mix(a, b, $0, of: 12) } + [b] + (0..<8).map { mix(b, c, $0, of: 8) } + [c]
        let starts = (0..<13).map(Int64.init) + (20..<29).map(Int64.init)
        try await writeVideo(to: path, settings: VideoSettings(size: Self.size, codec: .hevc), pictures: pictures, starts: starts, endFrame: 40)

        let video = try ProbedVideo(path: path)
        #expect(video.stream["codec_name"] == "hevc" && video.stream["codec_tag_string"] == "hvc1" && video.stream["profile"] == "Main")
        #expect(video.stream["has_b_frames"] == "1")
        let counted = try run(try #require(which("ffprobe")), ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                               "stream=nb_read_frames,duration", "-of", "default=nw=1", path])
        #expect(counted.stdoutText.contains("nb_read_frames=40") && counted.stdoutText.contains("duration=1.333333"), "\(counted.stdoutText)")
        #expect(try Self.configurationUnits(of: path) == [32, 33, 34])

        let probe = try Self.probe(path)
        #expect(probe.types.count == 40)
        #expect(probe.keyFrames == [0, 12, 20, 28])
        #expect(probe.types[1..<12].contains("B") && probe.types[21..<28].contains("B"), "\(probe.types)")
        #expect(probe.types[12] == "I" && probe.types[28] == "I")
        // Decode times a frame a packet from one before 0; no frame decoded after its time.
        #expect(probe.packets.map(\.dts) == Array(-1..<39))
        #expect(probe.packets.allSatisfy { $0.pts >= $0.dts }, "\(probe.packets)")

        let frames = try HEVCExportTests.decode(path, size: Self.size)
        #expect(frames.count == 40)
        guard frames.count == 40 else { return }
        // Held frames: the writer's skip pictures (packets 13–19 and 29–39 in decode order are
        // the held frames: each run's packets all come before its held picture's).
        let held = Array(13..<20) + Array(29..<40)
        let bySize = Dictionary(zip(probe.packets.map(\.pts), probe.sizes), uniquingKeysWith: { first, _ in first })
        for frame in held {
            let start = frame < 20 ? 12 : 28
            #expect(frames[frame] == frames[start], "frame \(frame) is not the picture of frame \(start)")
            #expect((bySize[frame] ?? .max) <= 100, "held frame \(frame): \(bySize[frame] ?? -1) bytes")
        }
        #expect(frames[12] != frames[11] && frames[28] != frames[27])
        if LibDe265.launcher != nil {
            #expect(try LibDe265.frames(of: path, size: Self.size, folder: folder) == frames, "libde265 decodes differently from FFmpeg")
        }
    }

    @Test("the runs' parameter sets stand for the stills encoder's: equal but for the reordering; a show of cuts' SPS (16x16 CUs) and another tune's PPS do not")
    func sharedSequence() throws {
        let settings = VideoSettings(size: Self.size, codec: .hevc)
        let stills = try H264Encoder(settings: settings, globalHeader: true).extradata
        let motion = try H264Encoder(settings: settings, globalHeader: true, role: .motion).extradata
        #expect(stills != motion)
        #expect(throws: Never.self) { try HEVCSharedSequence.check(stills: stills, motion: motion) }
        // Only the ordering info differs: x265 writes no B-frames' reordering for the stills.
        let sps = { (extradata: [UInt8]) in try HEVCSequenceParameterSet(nalUnit: try #require(NALUnit.split(annexB: extradata).first { HEVCNALUnit.type(of: $0) == 33 })) }
        #expect(try sps(stills) == sps(motion))

        var cuts = settings
        cuts.composesFrames = false
        let cutsStills = try H264Encoder(settings: cuts, globalHeader: true).extradata
        #expect(throws: HEVCSharedSequence.Mismatch.sps) { try HEVCSharedSequence.check(stills: cutsStills, motion: motion) }
        // x265's psnr tune turns adaptive quantisation off: no cu_qp_delta in the PPS.
        var psnr = settings
        psnr.tune = "psnr"
        let psnrStills = try H264Encoder(settings: psnr, globalHeader: true).extradata
        #expect(throws: HEVCSharedSequence.Mismatch.pps) { try HEVCSharedSequence.check(stills: psnrStills, motion: motion) }
    }

    @Test("the motion x265's settings: 3 B-frames that are not references, a 10-frame lookahead with cu-tree, no psy, CRF half a step above; the stills' in a show of cuts")
    func motionSettings() {
        let settings = VideoSettings(crf: 23, codec: .hevc)
        #expect(settings.motionX265Parameters == "bframes=3:b-pyramid=0:open-gop=0:frame-threads=1:pools=2:info=0:log-level=error:rc-lookahead=10:cutree=1:scenecut=0:psy-rd=0:psy-rdoq=0")
        #expect(settings.hevcMotionCRF == 23.5 && VideoSettings(crf: 51).hevcMotionCRF == 51)
        var cuts = settings
        cuts.composesFrames = false
        #expect(cuts.x265Parameters.hasSuffix(":rc-lookahead=0:cutree=0:scenecut=0:min-cu-size=32:rd=1:splitrd-skip=1:limit-sao=1:qg-size=64"))
        #expect(settings.x265Parameters.hasSuffix(":rc-lookahead=0:cutree=0:scenecut=0"))
        // HDR: one reference picture (x265 keeps fewer 10-bit pictures); PQ's HDR10 metadata after it.
        var hdr = settings
        hdr.hdr = .hlg
        #expect(hdr.x265Parameters.hasSuffix(":rc-lookahead=0:cutree=0:scenecut=0:ref=1"))
        hdr.hdr = .pq
        #expect(hdr.x265Parameters.contains(":scenecut=0:ref=1:hdr10=1:"))
    }

    @Test("a rendered Ken Burns show with dissolves in HEVC: exact frame count and length, B-frames, one IDR (the last frame ends the run), FFmpeg and libde265 agree")
    func renderedMotionShow() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("kenburns.mp4")
        var options = SlideshowOptions(duration: 3, size: "\(Self.size.width)x\(Self.size.height)", fps: 30)
        options.codec = .hevc
        options.transition = .fade
        options.transitionDuration = 0.5
        options.motion = .zoomIn
        let photos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) }
        _ = try await options.slideshow(photos: photos, output: path).render()
        let counted = try run(try #require(which("ffprobe")), ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                                               "stream=nb_read_frames,duration,has_b_frames", "-of", "default=nw=1", path])
        #expect(counted.stdoutText.contains("nb_read_frames=90") && counted.stdoutText.contains("duration=3.000000"), "\(counted.stdoutText)")
        let probe = try Self.probe(path)
        #expect(probe.types.contains("B"))
        // Every frame moves: the last picture, shown one frame, ends the run instead of being an IDR.
        #expect(probe.keyFrames == [0], "\(probe.keyFrames)")
        let frames = try HEVCExportTests.decode(path, size: Self.size)
        #expect(frames.count == 90)
        if LibDe265.launcher != nil {
            #expect(try LibDe265.frames(of: path, size: Self.size, folder: folder) == frames, "libde265 decodes differently from FFmpeg")
        }
    }
}
