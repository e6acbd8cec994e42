import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowCompositor
import SlideshowFFmpeg
import SlideshowFraming
import SlideshowKit
import SlideshowPixels
import SlideshowVideo

/// The lean clip path: planes turned before the scale, the two-pass scale, frames composed
/// into a few reused buffers with exact bars.
struct PlanarTurnTests {
    static let orientations: [ClipOrientation] = [
        .upright, ClipOrientation(a: 0, b: 1, c: -1, d: 0), ClipOrientation(a: -1, b: 0, c: 0, d: -1),
        ClipOrientation(a: 0, b: -1, c: 1, d: 0), ClipOrientation(a: -1, b: 0, c: 0, d: 1),
        ClipOrientation(a: 1, b: 0, c: 0, d: -1), ClipOrientation(a: 0, b: 1, c: 1, d: 0), ClipOrientation(a: 0, b: -1, c: -1, d: 0),
    ]

    /// Every one of the eight orientations, on 8- and 16-bit samples, at sizes that are not
    /// multiples of the 32-sample tile: each sample lands where the RGB turn puts its pixel.
    @Test(arguments: orientations, [1, 2])
    func planeTurnMatchesTheRGBTurn(_ orientation: ClipOrientation, _ bytes: Int) {
        for (w, h) in [(7, 5), (33, 70), (64, 32)] {
            let sourceStride = w * bytes + 5
            var source = [UInt8](repeating: 0, count: sourceStride * h)
            var picture = PixelBuffer(size: Size(width: w, height: h))
            picture.withUnsafeMutableBufferPointer { pixels in
                for y in 0..<h {
                    for x in 0..<w {
                        let value = (x * 7 + y * 13) & 0xFF
                        pixels[(y * w + x) * 3] = UInt8(value)
                        pixels[(y * w + x) * 3 + 1] = UInt8(y)
                        for byte in 0..<bytes { source[y * sourceStride + x * bytes + byte] = UInt8((value + byte * 101) & 0xFF) }
                    }
                }
            }
            let expected = orientation.apply(to: picture)
            let out = orientation.upright(picture.size)
            let targetStride = out.width * bytes + 3
            var target = [UInt8](repeating: 0, count: targetStride * out.height)
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    PlanarFrameTurner.turnPlane(from: from.baseAddress!, stride: sourceStride, width: w, height: h,
                                                to: to.baseAddress!, stride: targetStride, bytes: bytes, orientation: orientation)
                }
            }
            var mismatches = 0
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let value = Int(expected.pixels[(y * out.width + x) * 3])
                    for byte in 0..<bytes where target[y * targetStride + x * bytes + byte] != UInt8((value + byte * 101) & 0xFF) {
                        mismatches += 1
                    }
                }
            }
            #expect(mismatches == 0, "\(orientation) \(w)x\(h), \(bytes) bytes")
        }
    }
}

@Suite(.enabled(if: Clips.available, Clips.skipped))
struct ClipFrameBufferTests {
    /// A portrait clip letterboxed in a landscape frame, the bars a colour: every frame's bars
    /// are exactly that colour, its picture is the reader's own picture, and the frames cycle
    /// through a few buffers however many there are; a frame kept by the caller is not written over.
    @Test func letterboxedFramesReuseAFewBuffersWithExactBars() throws {
        let info = try ClipProbe.probe(ClipSource(path: Clips.path("mov_h264_iphone6_portrait_rot90_aac_568x320.mov")))
        let frame = Size(width: 320, height: 180)
        let fit = ClipFit(display: info.displaySize, frame: frame, mode: .aspectFit, framing: .center)
        #expect(fit.content != Rect(frame))
        let colour = RGBColor(red: 0x33, green: 0x66, blue: 0x99)
        let player = ClipPlayer(info: info, fit: fit, frameSize: frame, framesPerSecond: 30, span: 0..<60, cut: 0, inPoint: 0,
                                videoEnd: 60, still: nil, background: colour, blurredBackdrop: false) { _, _ in }
        let reader = try ClipReader(source: info.source, size: fit.readerSize, framesPerSecond: 30,
                                    duration: MediaTime(value: 2, timescale: 1))
        let kept = try player.picture(at: 0)
        let keptCopy = kept.pixels.map { $0 }
        for index in 0..<60 {
            let picture = try player.picture(at: index)
            let own = try #require(try reader.nextFrame())
            #expect(picture.contentRect == fit.content)
            var wrongBars = 0, wrongPicture = 0
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let offset = (y * frame.width + x) * 3
                    let pixel = Array(picture.pixels[offset..<offset + 3])
                    if fit.content.contains(x: x, y: y) {
                        let inner = ((y - fit.content.y) * own.width + x - fit.content.x) * 3
                        if pixel != Array(own.pixels[inner..<inner + 3]) { wrongPicture += 1 }
                    } else if pixel != [colour.red, colour.green, colour.blue] {
                        wrongBars += 1
                    }
                }
            }
            #expect(wrongBars == 0 && wrongPicture == 0, "frame \(index)")
        }
        #expect(player.allocatedFrames <= FrameComposer.depth + 2)
        #expect(kept.pixels == keptCopy)
    }

    /// A portrait clip at a size libswscale's two-pass way does not take (odd), and a 4:2:2 clip
    /// turned a quarter (planes the turner does not take): both still match ffmpeg's autorotated decode.
    @Test func fallbacksMatchFFmpeg() throws {
        let folder = try Clips.temporary()
        let made = folder.path("yuv422_rot90.mp4")
        // Without autorotation ffmpeg keeps the display matrix of the turned shared clip.
        try Clips.ffmpeg(["-noautorotate", "-i", Clips.path("mp4_h264_rot90ccw_aac_720p_5s.mp4"), "-t", "0.3", "-an",
                          "-vf", "scale=160:90", "-c:v", "libx264", "-pix_fmt", "yuv422p", made])
        for (path, size) in [(Clips.path("mov_h264_iphone6_portrait_rot90_aac_568x320.mov"), Size(width: 181, height: 321)),
                             (made, Size(width: 90, height: 160))] {
            let info = try ClipProbe.probe(ClipSource(path: path))
            #expect(info.orientation.swapsAxes, "\(path)")
            let reference = try Clips.referenceFrames(path, size: size)
            let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 30)
            let picture = try #require(try reader.nextFrame())
            let score = psnr(picture.pixels, reference[0].pixels)
            #expect(score >= 35, "\(path): \(score) dB")
        }
    }

    /// The two-pass scale (YUV to YUV, then to RGB) of a 720p clip to 1080p, frame by frame,
    /// against ffmpeg's one scale of the same frames.
    @Test func twoPassScaleMatchesFFmpeg() throws {
        let path = Clips.path("mp4_h264_720p_vfr_aac_gps_3s.mp4")
        let size = Size(width: 1920, height: 1080)
        let reference = try Clips.referenceFrames(path, size: size, seconds: 0.2)
        let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 30,
                                    duration: MediaTime(value: 1, timescale: 10))
        for index in 0..<3 {
            let picture = try #require(try reader.nextFrame())
            let score = psnr(picture.pixels, Clips.frame(at: Double(index) / 30, in: reference))
            #expect(score >= 40, "frame \(index): \(score) dB")
        }
    }
}
