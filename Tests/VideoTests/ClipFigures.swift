import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowVideo

/// The figures for the report, printed rather than asserted (the assertions are in the other
/// suites): decode speed beside ffmpeg's, PSNRs, tone-mapping deltas. Run with
/// `CLIP_FIGURES=1 swift test --filter ClipFigures` (a release build for meaningful speed).
@Suite(.enabled(if: Clips.available && ProcessInfo.processInfo.environment["CLIP_FIGURES"] != nil, "set CLIP_FIGURES=1 to print the figures"))
struct ClipFigures {
    private func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @Test func decodeSpeed() throws {
        for file in ["mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4", "mp4_h264_rot90ccw_aac_720p_5s.mp4",
                     "mp4_h264_720p_vfr_aac_gps_3s.mp4", "webm_vp9_642x642_30fps_noaudio_bbb_3s.webm",
                     "mp4_av1_main10_pq_hdr10_720x1280_aac_4s.mp4", "livephoto_iphone15pro_IMG_4394.mov"] {
            let path = Clips.path(file)
            let info = try ClipProbe.probe(ClipSource(path: path))
            var frames = 0, decoded = 0
            let ours = try seconds {
                let reader = try ClipReader(source: ClipSource(path: path), size: info.displaySize, framesPerSecond: 30)
                while try reader.nextFrame() != nil { frames += 1 }
                decoded = reader.decodedFrames
            }
            // Fitted inside a 1920x1080 show (letterboxed), the size a render asks for.
            let scale = min(1920 / Double(info.displaySize.width), 1080 / Double(info.displaySize.height))
            let fitted = Size(width: Int(Double(info.displaySize.width) * scale) & ~1, height: Int(Double(info.displaySize.height) * scale) & ~1)
            let fittedTime = try seconds {
                let reader = try ClipReader(source: ClipSource(path: path), size: fitted, framesPerSecond: 30)
                while try reader.nextFrame() != nil {}
            }
            let null = try seconds { try Clips.ffmpeg(["-i", path, "-map", "0:v:0", "-f", "null", "-"]) }
            let rgb = try seconds { try Clips.ffmpeg(["-i", path, "-map", "0:v:0", "-pix_fmt", "rgb24", "-f", "null", "-"]) }
            print(String(format: "FIGURE speed %@: ours %.2f s (%d show frames, %d decoded, upright %@ RGB), %.2f s fitted to %@; ffmpeg -f null %.2f s; ffmpeg to rgb24 %.2f s",
                         file, ours, frames, decoded, "\(info.displaySize)", fittedTime, "\(fitted)", null, rgb))
        }
    }

    @Test func psnrs() throws {
        for clip in ClipFrameTests.sdrClips {
            let path = Clips.path(clip.file)
            let reference = try Clips.referenceFrames(path, size: clip.size, seconds: 1.2)
            let reader = try ClipReader(source: ClipSource(path: path), size: clip.size, framesPerSecond: 30,
                                        duration: MediaTime(value: 1, timescale: 1))
            var scores: [Double] = []
            for index in 0..<30 {
                let frame = try #require(try reader.nextFrame())
                scores.append(psnr(frame.pixels, Clips.frame(at: Double(index) / 30, in: reference)))
            }
            let finite = scores.filter(\.isFinite)
            print(String(format: "FIGURE psnr %@ at %@: min %.1f dB, mean %.1f dB (%d of 30 identical)", clip.file, "\(clip.size)",
                         scores.min()!, finite.isEmpty ? .infinity : finite.reduce(0, +) / Double(finite.count), 30 - finite.count))
        }
    }

    @Test func toneMapDeltas() throws {
        for file in ["mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4", "mp4_av1_main10_pq_hdr10_720x1280_aac_4s.mp4"] {
            let path = Clips.path(file)
            let size = Size(width: 270, height: 480)
            let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 30)
            let ours = try #require(try reader.nextFrame())
            let theirs = try Clips.ffmpeg(["-i", path, "-frames:v", "1", "-vf",
                                           ToneMappingTests.chain + "scale=270:480:in_color_matrix=bt709:in_range=tv",
                                           "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            let plain = try Clips.ffmpeg(["-i", path, "-frames:v", "1", "-vf", "scale=270:480", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            let a = lumaAndSaturation(ours.pixels), b = lumaAndSaturation([UInt8](theirs)), c = lumaAndSaturation([UInt8](plain))
            print(String(format: "FIGURE tonemap %@: luma %.4f vs ffmpeg %.4f (%+.1f%%), saturation %.4f vs %.4f (%+.1f%%); untone-mapped decode: luma %.4f, saturation %.4f",
                         file, a.luma, b.luma, 100 * (a.luma - b.luma) / b.luma, a.saturation, b.saturation,
                         100 * (a.saturation - b.saturation) / b.saturation, c.luma, c.saturation))
        }
    }
}
