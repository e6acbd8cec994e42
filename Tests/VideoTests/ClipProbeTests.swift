import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowVideo

/// What ``ClipProbe`` learns of each shared clip: the facts ffprobe reports (MANIFEST.tsv).
@Suite(.enabled(if: Clips.available, Clips.skipped))
struct ClipProbeTests {
    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var codec: String
        var coded: Size
        var display: Size
        var rotation: Double
        var transfer: Int
        var hasAudio: Bool
        var duration: Double
        var description: String { file }
    }

    static let clips: [Expected] = [
        Expected(file: "mov_h264_iphone6_portrait_rot90_aac_568x320.mov", codec: "h264", coded: Size(width: 568, height: 320),
                 display: Size(width: 320, height: 568), rotation: -90, transfer: 1, hasAudio: true, duration: 4.001667),
        Expected(file: "mp4_h264_720p_vfr_aac_gps_3s.mp4", codec: "h264", coded: Size(width: 1280, height: 720),
                 display: Size(width: 1280, height: 720), rotation: 0, transfer: 1, hasAudio: true, duration: 3.635),
        Expected(file: "mp4_h264_960x540_noaudio_1s.mp4", codec: "h264", coded: Size(width: 960, height: 540),
                 display: Size(width: 960, height: 540), rotation: 0, transfer: 1, hasAudio: false, duration: 1.034367),
        Expected(file: "mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4", codec: "hevc", coded: Size(width: 1920, height: 1080),
                 display: Size(width: 1080, height: 1920), rotation: -90, transfer: 18, hasAudio: true, duration: 2.548333),
        Expected(file: "mp4_av1_main10_pq_hdr10_720x1280_aac_4s.mp4", codec: "av1", coded: Size(width: 720, height: 1280),
                 display: Size(width: 720, height: 1280), rotation: 0, transfer: 16, hasAudio: true, duration: 4.238),
        Expected(file: "webm_vp9_642x642_30fps_noaudio_bbb_3s.webm", codec: "vp9", coded: Size(width: 642, height: 642),
                 display: Size(width: 642, height: 642), rotation: 0, transfer: 2, hasAudio: false, duration: 2.966666),
        Expected(file: "mkv_h264_ac3_1080x720_1s.mkv", codec: "h264", coded: Size(width: 1080, height: 720),
                 display: Size(width: 1080, height: 720), rotation: 0, transfer: 2, hasAudio: true, duration: 1.072),
        Expected(file: "mp4_h264_rot90ccw_aac_720p_5s.mp4", codec: "h264", coded: Size(width: 1280, height: 720),
                 display: Size(width: 720, height: 1280), rotation: 90, transfer: 1, hasAudio: true, duration: 4.972),
        Expected(file: "livephoto_iphone15pro_IMG_4394.mov", codec: "hevc", coded: Size(width: 1920, height: 1440),
                 display: Size(width: 1440, height: 1920), rotation: -90, transfer: 1, hasAudio: true, duration: 1.798333),
    ]

    @Test(arguments: clips)
    func factsOfEachClip(_ expected: Expected) throws {
        let info = try ClipProbe.probe(ClipSource(path: Clips.path(expected.file)))
        #expect(info.codec == expected.codec)
        #expect(info.codedSize == expected.coded)
        #expect(info.displaySize == expected.display)
        #expect(info.rotation == expected.rotation)
        #expect(info.isMirrored == false)
        #expect(info.color.transfer == expected.transfer)
        #expect(info.color.isHDR == (expected.transfer == 16 || expected.transfer == 18))
        #expect(info.hasAudio == expected.hasAudio)
        #expect(abs(info.duration - expected.duration) < 0.001)
    }

    @Test func hdrClipsAreBT2020TenBit() throws {
        for name in ["mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4", "mp4_av1_main10_pq_hdr10_720x1280_aac_4s.mp4"] {
            let info = try ClipProbe.probe(ClipSource(path: Clips.path(name)))
            #expect(info.color.primaries == 9)
            #expect(info.color.matrix == 9)
            #expect(info.color.fullRange == false)
            #expect(info.pixelFormat == "yuv420p10le")
        }
    }

    @Test func liveMovieIsFullRangeDisplayP3() throws {
        let info = try ClipProbe.probe(ClipSource(path: Clips.path("livephoto_iphone15pro_IMG_4394.mov")))
        #expect(info.color.fullRange)
        #expect(info.color.primaries == 12)
        #expect(info.color.matrix == 6)
    }

    @Test func mkvStartTimeIsClipZero() throws {
        let info = try ClipProbe.probe(ClipSource(path: Clips.path("mkv_h264_ac3_1080x720_1s.mkv")))
        #expect(abs(info.startTime - 0.067) < 1e-9)
        #expect(info.container.hasPrefix("matroska"))
    }
}

/// Every bad input is refused by kind, naming the file.
@Suite(.enabled(if: Clips.available, Clips.skipped))
struct ClipErrorTests {
    private func kind(_ path: String, limits: ClipLimits = .default) -> ClipError.Kind? {
        do {
            _ = try ClipProbe.probe(ClipSource(path: path), limits: limits)
            return nil
        } catch {
            #expect(error.path == path)
            #expect(error.description.hasPrefix(path + ": "))
            return error.kind
        }
    }

    @Test func audioFileHasNoVideo() {
        #expect(kind(Clips.path("loop_mika_sonicpi_cc0_120bpm_8s.flac")) == .noVideoStream)
        #expect(kind(Clips.path("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3")) == .noVideoStream)
    }

    @Test func audioOnlyMP4HasNoVideo() throws {
        let folder = try Clips.temporary()
        let path = folder.path("sound.m4a")
        try Clips.ffmpeg(["-i", Clips.path("mp4_h264_720p_vfr_aac_gps_3s.mp4"), "-vn", "-c:a", "copy", path])
        #expect(kind(path) == .noVideoStream)
    }

    /// Any codec libavcodec decodes plays (MPEG-4 Part 2 in MP4 was refused before issue 33);
    /// the undecodable ones are CameraClipTests.undecodableCodecIsNamed's.
    @Test func anyDecodableCodecPlays() throws {
        let folder = try Clips.temporary()
        let path = folder.path("mpeg4.mp4")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "0.5", "-c:v", "mpeg4", path])
        #expect(kind(path) == nil)
        #expect(try ClipProbe.probe(ClipSource(path: path)).codec == "mpeg4")
    }

    @Test func photoIsNotAClip() {
        let path = TestEnvironment.sample("landscape.jpg")
        guard case .unsupportedContainer = kind(path) else {
            Issue.record("a JPEG photo was not refused as a container")
            return
        }
    }

    @Test func tooLarge() {
        let path = Clips.path("mp4_h264_960x540_noaudio_1s.mp4")
        #expect(kind(path, limits: ClipLimits(maxPixels: 640 * 480)) == .tooLarge)
        #expect(kind(path, limits: ClipLimits(maxDimension: 900)) == .tooLarge)
        #expect(kind(path, limits: ClipLimits(maxDuration: 0.5)) == .tooLarge)
    }

    @Test func missingAndGarbage() throws {
        let folder = try Clips.temporary()
        #expect(kind(folder.path("nothing.mp4")) == .missing)
        let garbage = folder.path("garbage.mp4")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: garbage))
        #expect(kind(garbage) == .unreadable)
        // An MP4 cut before its index (moov at the end) is unreadable.
        let cut = folder.path("cut.mp4")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Clips.path("mp4_h264_rot90ccw_aac_720p_5s.mp4")))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(kind(cut) == .unreadable)
    }
}
