import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowVideo

/// HDR clips (HLG and PQ, BT.2020) come out as SDR BT.709 within 5% of ffmpeg's
/// `zscale,tonemap=hable` chain in mean luma and mean saturation.
@Suite(.enabled(if: Clips.available, Clips.skipped))
struct ToneMappingTests {
    static let chain = "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,"
        + "zscale=t=bt709:m=bt709:r=tv,format=yuv420p,"

    @Test(arguments: [("mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4", Size(width: 270, height: 480)),
                      ("mp4_av1_main10_pq_hdr10_720x1280_aac_4s.mp4", Size(width: 270, height: 480))])
    func withinFivePercentOfFFmpegsChain(_ file: String, _ size: Size) throws {
        let path = Clips.path(file)
        let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 30)
        let ours = try #require(try reader.nextFrame())
        let theirs = try Clips.ffmpeg(["-i", path, "-frames:v", "1", "-vf",
                                       Self.chain + "scale=\(size.width):\(size.height):in_color_matrix=bt709:in_range=tv",
                                       "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let a = lumaAndSaturation(ours.pixels), b = lumaAndSaturation([UInt8](theirs))
        #expect(abs(a.luma - b.luma) / b.luma < 0.05, "luma \(a.luma) against ffmpeg's \(b.luma)")
        #expect(abs(a.saturation - b.saturation) / b.saturation < 0.05, "saturation \(a.saturation) against ffmpeg's \(b.saturation)")
        // Not washed out: a plain decode that ignores HDR is visibly different (the point of the test).
        let plain = try Clips.ffmpeg(["-i", path, "-frames:v", "1", "-vf", "scale=\(size.width):\(size.height)",
                                      "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let c = lumaAndSaturation([UInt8](plain))
        #expect(abs(c.saturation - b.saturation) / b.saturation > 0.05 || abs(c.luma - b.luma) / b.luma > 0.05)
    }

    /// An SDR Display P3 clip (the Live Photo's movie, full range) goes through linear light to
    /// BT.709 primaries: it matches zscale's own conversion of the same frame.
    @Test func wideGamutConvertedInLinearLight() throws {
        let path = Clips.path("livephoto_iphone15pro_IMG_4394.mov")
        let size = Size(width: 144, height: 192)
        let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 30)
        let ours = try #require(try reader.nextFrame())
        let theirs = try Clips.ffmpeg(["-i", path, "-frames:v", "1", "-vf",
                                       "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,zscale=t=bt709:m=bt709:r=pc,"
                                       + "format=gbrp,scale=\(size.width):\(size.height)", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let score = psnr(ours.pixels, [UInt8](theirs))
        #expect(score >= 35, "PSNR \(score) dB")
    }

    @Test func hableCurve() {
        // Hable's curve normalised to a peak of 10: 0 → 0, 10 → 1, monotonic.
        let curve = ToneCurve(peak: 10)
        #expect(abs(curve.map(0)) < 1e-6)
        #expect(abs(curve.map(10) - 1) < 1e-5)
        var last: Float = -1
        for step in 0...100 {
            let value = curve.map(Float(step) / 10)
            #expect(value > last)
            last = value
        }
    }
}
