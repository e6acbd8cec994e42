import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowVideo

/// Frames at given show times match ffmpeg's own decode, autorotation and scale of the frame
/// due at that time (the last whose timestamp is at most the time).
@Suite(.enabled(if: Clips.available, Clips.skipped))
struct ClipFrameTests {
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        /// The upright output size.
        var size: Size
        var description: String { file }
    }

    static let sdrClips: [Case] = [
        Case(file: "mov_h264_iphone6_portrait_rot90_aac_568x320.mov", size: Size(width: 180, height: 320)),
        Case(file: "mp4_h264_720p_vfr_aac_gps_3s.mp4", size: Size(width: 320, height: 180)),
        Case(file: "mp4_h264_960x540_noaudio_1s.mp4", size: Size(width: 320, height: 180)),
        Case(file: "webm_vp9_642x642_30fps_noaudio_bbb_3s.webm", size: Size(width: 240, height: 240)),
        Case(file: "mkv_h264_ac3_1080x720_1s.mkv", size: Size(width: 300, height: 200)),
        Case(file: "mp4_h264_rot90ccw_aac_720p_5s.mp4", size: Size(width: 180, height: 320)),
    ]

    /// Every show frame (30 fps) of the first second, against ffmpeg's frame due at its time.
    @Test(arguments: sdrClips)
    func framesMatchFFmpeg(_ clip: Case) throws {
        let path = Clips.path(clip.file)
        let reference = try Clips.referenceFrames(path, size: clip.size, seconds: 1.2)
        let reader = try ClipReader(source: ClipSource(path: path), size: clip.size, framesPerSecond: 30,
                                    duration: MediaTime(value: 1, timescale: 1))
        var worst = Double.infinity
        for index in 0..<30 {
            guard let frame = try reader.nextFrame() else { Issue.record("ended at \(index)"); return }
            #expect(frame.size == clip.size)
            worst = min(worst, psnr(frame.pixels, Clips.frame(at: Double(index) / 30, in: reference)))
        }
        #expect(try reader.nextFrame() == nil)
        #expect(worst >= 35, "worst PSNR \(worst) dB")
        #expect(reader.warnings.isEmpty)
    }

    @Test func portraitClipsComeOutUpright() throws {
        for name in ["mov_h264_iphone6_portrait_rot90_aac_568x320.mov", "mp4_h264_rot90ccw_aac_720p_5s.mp4",
                     "mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4"] {
            let info = try ClipProbe.probe(ClipSource(path: Clips.path(name)))
            #expect(info.displaySize.height > info.displaySize.width, "\(name)")
        }
    }

    /// The two senses of a quarter turn differ: -90 (phones) and +90 give mirror-opposite pictures,
    /// each matching ffmpeg (a wrong sense scores far below 35 dB).
    @Test func turnSenseMatters() throws {
        let path = Clips.path("mp4_h264_rot90ccw_aac_720p_5s.mp4")
        let size = Size(width: 90, height: 160)
        let reference = try Clips.referenceFrames(path, size: size)[0].pixels
        let wrong = try Clips.referenceFrames(path, size: size, extraFilters: "transpose=clock,",
                                              input: ["-noautorotate"])[0].pixels
        let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 30)
        let frame = try #require(try reader.nextFrame())
        #expect(psnr(frame.pixels, reference) >= 35)
        #expect(psnr(frame.pixels, wrong) < 20)
    }

    /// Flips: a display matrix with a negative determinant (written into a made clip's `tkhd`)
    /// mirrors the picture, for a plain mirror and for a transpose; and a half turn.
    @Test(arguments: [("hflip", [-65536, 0, 0, 65536], "hflip,"), ("transpose", [0, 65536, 65536, 0], "transpose=0,"),
                      ("halfturn", [-65536, 0, 0, -65536], "hflip,vflip,")])
    func flipsFromTheDisplayMatrix(_ name: String, _ matrix: [Int32], _ filter: String) throws {
        let folder = try Clips.temporary()
        let path = folder.path("\(name).mp4")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x96:rate=10", "-t", "0.5", "-c:v", "libx264",
                          "-pix_fmt", "yuv420p", path])
        try patchTrackMatrix(path, matrix)
        let info = try ClipProbe.probe(ClipSource(path: path))
        #expect(info.isMirrored == (name != "halfturn"))
        // A transpose is a mirror (x → −x) then a quarter turn anticlockwise, i.e. 270° clockwise.
        #expect(info.orientation.clockwiseDegrees == (name == "halfturn" ? 180 : name == "transpose" ? 270 : 0))
        let size = info.displaySize
        let reference = try Clips.referenceFrames(path, size: size, extraFilters: filter, input: ["-noautorotate"])
        let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 10)
        let frame = try #require(try reader.nextFrame())
        #expect(psnr(frame.pixels, reference[0].pixels) >= 35)
    }

    /// Sets the 2×2 part of the video track's `tkhd` matrix (and the translation to 0).
    private func patchTrackMatrix(_ path: String, _ m: [Int32]) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let tkhd = try #require(bytes.range(of: Data("tkhd".utf8))).lowerBound - 4
        let version = bytes[tkhd + 8]
        let matrix = tkhd + (version == 1 ? 60 : 48)
        let values: [Int32] = [m[0], m[1], 0, m[2], m[3], 0, 0, 0, 0x4000_0000]
        for (index, value) in values.enumerated() {
            for byte in 0..<4 { bytes[matrix + index * 4 + byte] = UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> (24 - 8 * byte)) }
        }
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// A clip with deliberately uneven timestamps: each show frame is the last source frame due.
    @Test func variableFrameRateChoiceByTimestamp() throws {
        let folder = try Clips.temporary()
        let path = folder.path("vfr.mp4")
        // Frames at 0, .05, .10, .15, .20, then .25 + .15·k: bursts and gaps.
        try Clips.ffmpeg(["-f", "lavfi", "-t", "1.4", "-i", "testsrc2=size=96x64:rate=10",
                          "-vf", "setpts='if(lt(N,5),N*0.05,0.25+(N-5)*0.15)/TB'", "-fps_mode", "passthrough",
                          "-c:v", "libx264", "-bf", "0", "-video_track_timescale", "1000", path])
        let size = Size(width: 96, height: 64)
        let reference = try Clips.referenceFrames(path, size: size)
        #expect(reference.count == 14)
        let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 30,
                                    duration: MediaTime(value: 3, timescale: 2))
        for index in 0..<45 {
            let frame = try #require(try reader.nextFrame())
            let t = Double(index) / 30
            let due = Clips.dueIndex(at: t, in: reference)
            let best = reference.indices.max { psnr(frame.pixels, reference[$0].pixels) < psnr(frame.pixels, reference[$1].pixels) }
            #expect(best == due, "show frame \(index) at \(t) s")
        }
    }

    /// A trimmed clip seeks: a 60 s clip trimmed to 3 s from 40 s decodes about 3 s of frames
    /// (plus the group of pictures before the in-point), not 40.
    @Test func trimSeeksToTheInPoint() throws {
        let folder = try Clips.temporary()
        let path = folder.path("long.mp4")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25", "-t", "60", "-c:v", "libx264",
                          "-preset", "ultrafast", "-g", "25", path])
        let size = Size(width: 96, height: 64)
        let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 25,
                                    inPoint: MediaTime(value: 40, timescale: 1), duration: MediaTime(value: 3, timescale: 1))
        let frames = try Clips.allFrames(reader)
        #expect(frames.count == 75)
        #expect(reader.decodedFrames <= 75 + 25 + 5, "decoded \(reader.decodedFrames)")
        // And the frames are the ones due at 40 s and after.
        let reference = try Clips.referenceFrames(path, size: size)
        for index in [0, 10, 74] {
            #expect(psnr(frames[index].pixels, Clips.frame(at: 40 + Double(index) / 25, in: reference)) >= 35, "frame \(index)")
        }
    }

    /// Damage in the middle of a clip (bytes overwritten) is decoded past, never hangs, and the
    /// clip still gives all its frames.
    @Test(.timeLimit(.minutes(1)))
    func corruptedMiddleDecodesOn() throws {
        let folder = try Clips.temporary()
        let path = folder.path("damaged.webm")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Clips.path("webm_vp9_642x642_30fps_noaudio_bbb_3s.webm")))
        for offset in stride(from: bytes.count / 3, to: bytes.count / 3 + 30_000, by: 1) { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        let reader = try ClipReader(source: ClipSource(path: path), size: Size(width: 64, height: 64), framesPerSecond: 30)
        let frames = try Clips.allFrames(reader)
        #expect(frames.count == reader.frameCount)
        #expect(frames.count == 89)
    }

    /// A truncated clip decodes what is there, then holds its last good frame, with a warning.
    @Test(.timeLimit(.minutes(1)))
    func truncatedClipHoldsTheLastFrame() throws {
        let folder = try Clips.temporary()
        for (name, source) in [("cut.mp4", "mp4_h264_720p_vfr_aac_gps_3s.mp4"), ("cut.webm", "webm_vp9_642x642_30fps_noaudio_bbb_3s.webm")] {
            let path = folder.path(name)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Clips.path(source)))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
            let reader = try ClipReader(source: ClipSource(path: path), size: Size(width: 64, height: 64), framesPerSecond: 30)
            let frames = try Clips.allFrames(reader)
            #expect(frames.count == reader.frameCount, "\(name)")
            #expect(reader.warnings.contains { $0.kind == .endedEarly }, "\(name)")
            #expect(frames.last == frames[frames.count - 2], "\(name)")
            #expect(frames.first != frames.last, "\(name)")
        }
    }
}
