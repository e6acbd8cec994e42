import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowCompositor
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowKit
import SlideshowPixels
import SlideshowPlan
import SlideshowWriter

/// A buffer whose pixel values run through 0…255 (channel by channel, offset per pixel).
private func gradient(_ size: Size, offset: Int = 0, reversed: Bool = false) -> PixelBuffer {
    let count = size.width * size.height * 3
    let pixels = (0..<count).map { index -> UInt8 in
        let value = UInt8(truncatingIfNeeded: index / 3 * 7 + index % 3 * 85 + offset)
        return reversed ? 255 - value : value
    }
    return PixelBuffer(size: size, pixels: pixels)
}

/// `view` of `source` resampled into `content` of a black frame of `frame`'s size.
private func resampled(_ source: PlanarPicture, view: (x: Double, y: Double, width: Double, height: Double),
                       frame: Size, content: Rect, plainC: Bool = false) throws(ImageProblem) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: frame.width * frame.height * 3)
    var problem: ImageProblem?
    pixels.withUnsafeMutableBufferPointer { out in
        do throws(ImageProblem) {
            try MotionResampler.resample(source, view: view, into: out.baseAddress!, frameWidth: frame.width, content: content,
                                         plainC: plainC)
        } catch {
            problem = error
        }
    }
    if let problem { throw problem }
    return pixels
}

@Suite("The compositor: linear-light mixing, transitions, motion with still bars")
struct CompositorTests {
    static let size = Size(width: 48, height: 32)

    @Test("linear light round-trips every 8-bit value; a half dissolve of black and white is the light's half, not 128")
    func linearLight() {
        for value in 0...255 {
            #expect(LinearLight.encode[Int(LinearLight.decode[value])] == UInt8(value))
        }
        let black = PixelBuffer(size: Self.size), white = PixelBuffer(size: Self.size, filledWith: RGBColor(red: 255, green: 255, blue: 255))
        let half = Compositor.mix(black, white, weight: LinearLight.one / 2)
        // sRGB of linear 0.5: 1.055 · 0.5^(1/2.4) − 0.055 = 0.7354 → 187.5…, so 188.
        let reference = UInt8(((1.055 * pow(0.5, 1 / 2.4) - 0.055) * 255).rounded())
        #expect(reference == 188 && half.pixels.allSatisfy { $0 == reference })
    }

    @Test("a crossfade moves every pixel monotonically from A to B, starting at A and ending at B")
    func monotonicDissolve() {
        let compositor = Compositor(size: Self.size, background: .black)
        let a = gradient(Self.size), b = gradient(Self.size, offset: 40, reversed: true)
        let steps = 30
        var previous = a.pixels
        for k in 0..<steps {
            let frame = compositor.transition(from: a, to: b, effect: .fade, progress: (Double(k) + 0.5) / Double(steps))
            for index in 0..<frame.pixels.count {
                let (from, to, now, before) = (a.pixels[index], b.pixels[index], frame.pixels[index], previous[index])
                if to >= from { #expect(now >= before && now <= to) } else { #expect(now <= before && now >= to) }
            }
            previous = frame.pixels
        }
        #expect(compositor.transition(from: a, to: b, effect: .fade, progress: 0) == a)
        #expect(compositor.transition(from: a, to: b, effect: .fade, progress: 1) == b)
    }

    @Test("every effect starts at A and ends at B; halfway, wipes and slides show exactly half of each",
          arguments: TransitionEffect.concrete)
    func effects(effect: TransitionEffect) {
        let compositor = Compositor(size: Self.size, background: .black)
        let a = PixelBuffer(size: Self.size, filledWith: RGBColor(red: 200, green: 10, blue: 10))
        let b = PixelBuffer(size: Self.size, filledWith: RGBColor(red: 10, green: 10, blue: 200))
        #expect(compositor.transition(from: a, to: b, effect: effect, progress: 0).pixels == a.pixels)
        #expect(compositor.transition(from: a, to: b, effect: effect, progress: 1).pixels == b.pixels)
        let half = compositor.transition(from: a, to: b, effect: effect, progress: 0.5)
        let fromB = (0..<(Self.size.width * Self.size.height)).filter { half.pixels[$0 * 3 + 2] == 200 }.count
        switch effect {
        case .wipeleft, .wiperight, .wipeup, .wipedown, .slideleft, .slideright, .slideup, .slidedown:
            #expect(fromB == Self.size.width * Self.size.height / 2)
        case .fadeblack:
            #expect(half.pixels.allSatisfy { $0 == 0 })
        case .fadewhite:
            #expect(half.pixels.allSatisfy { $0 == 255 })
        default:
            break
        }
        // Slides move the picture: halfway through a slide left, A's right half is on the left.
        if effect == .slideleft {
            let ga = gradient(Self.size), gb = gradient(Self.size, offset: 9)
            let frame = compositor.transition(from: ga, to: gb, effect: .slideleft, progress: 0.5)
            #expect(frame[0, 5] == ga[24, 5] && frame[24, 5] == gb[0, 5] && frame[47, 31] == gb[23, 31])
        }
    }

    @Test("under motion, letterbox bars are exactly the background in every frame, and the picture moves")
    func barsUnderMotion() throws {
        let background = RGBColor(red: 32, green: 64, blue: 96)
        let frameSize = Size(width: 64, height: 36)
        let content = Rect(x: 20, y: 0, width: 24, height: 36)
        let path = try #require(MotionStyle.kenburns.path(photo: 3, zoom: 0.3))
        let source = gradient(PictureArea.sourceSize(content: content, magnification: path.magnification), offset: 3)
        let moving = MovingPhoto(source: source, content: content, path: path)
        let compositor = Compositor(size: frameSize, background: background)
        var pictures: [[UInt8]] = []
        for k in 0..<20 {
            let frame = try compositor.picture(.moving(moving), time: (Double(k) + 0.5) / 20)
            for y in 0..<frameSize.height {
                for x in 0..<frameSize.width where !content.contains(x: x, y: y) {
                    #expect(frame[x, y] == background)
                }
            }
            pictures.append(frame.pixels)
        }
        #expect(Set(pictures).count == 20)
    }

    @Test("the resampler puts every output pixel where its centre maps in the source, to a fraction of a pixel",
          arguments: [(x: 20.25, y: 1.5, width: 100.5, height: 4.0, outputWidth: 67, outputHeight: 4),   // reduced 1.5:1
                      (x: 7.8, y: 2.125, width: 60.0, height: 3.0, outputWidth: 96, outputHeight: 6)])   // enlarged 1.6x
    func resamplerPositions(view: (x: Double, y: Double, width: Double, height: Double, outputWidth: Int, outputHeight: Int)) throws {
        // Ramps: red is x, green is 20·y, blue is 255 − x; a symmetric filter over a ramp gives
        // the ramp's value at the mapped centre.
        var ramps = [UInt8]()
        for y in 0..<12 {
            for x in 0..<160 { ramps += [UInt8(x), UInt8(20 * y), UInt8(255 - x)] }
        }
        let source = PixelBuffer(size: Size(width: 160, height: 12), pixels: ramps)
        let frame = Size(width: view.outputWidth + 4, height: view.outputHeight + 2)
        let content = Rect(x: 3, y: 1, width: view.outputWidth, height: view.outputHeight)
        let out = try resampled(PlanarPicture(source), view: (view.x, view.y, view.width, view.height), frame: frame, content: content)
        let (stepX, stepY) = (view.width / Double(view.outputWidth), view.height / Double(view.outputHeight))
        for j in 0..<view.outputHeight {
            let y = view.y + (Double(j) + 0.5) * stepY - 0.5
            for i in 2..<(view.outputWidth - 2) {
                let x = view.x + (Double(i) + 0.5) * stepX - 0.5
                let o = ((content.y + j) * frame.width + content.x + i) * 3
                let (red, green, blue) = (Double(out[o]), Double(out[o + 1]), Double(out[o + 2]))
                #expect(abs(red - x) <= 0.51, "red at \(i),\(j): \(red), expected \(x)")
                #expect(abs(blue - (255 - x)) <= 0.51, "blue at \(i),\(j): \(blue), expected \(255 - x)")
                if y >= 1, y <= 10 {
                    #expect(abs(green - 20 * y) <= 0.51, "green at \(i),\(j): \(green), expected \(20 * y)")
                }
            }
        }
        // Outside the content rectangle nothing is written.
        for y in 0..<frame.height {
            for x in 0..<frame.width where !content.contains(x: x, y: y) {
                #expect(out[(y * frame.width + x) * 3] == 0)
            }
        }
    }

    @Test("zimg's SIMD kernels give the same bytes as its C kernels, so motion frames do not depend on the machine")
    func resamplerMachineIndependent() throws {
        var noise = [UInt8](repeating: 0, count: 301 * 173 * 3)
        var state: UInt64 = 0x9E3779B97F4A7C15
        for i in noise.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            noise[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let source = PlanarPicture(PixelBuffer(size: Size(width: 301, height: 173), pixels: noise))
        let frame = Size(width: 250, height: 141)
        for k in 0..<4 {
            let zoom = 1 + 0.2 * Double(k) / 4
            let view = (x: 3.37 * Double(k), y: 1.21 * Double(k), width: 301 / zoom, height: 173 / zoom)
            let fast = try resampled(source, view: view, frame: frame, content: Rect(frame))
            let plain = try resampled(source, view: view, frame: frame, content: Rect(frame), plainC: true)
            #expect(fast == plain, "view \(k)")
            #expect(Set(fast).count > 100)
        }
    }

    @Test("a fill-mode portrait keeps its upper third in view (faces framing, none found); centre framing, landscapes and letterbox stay centred")
    func pictureArea() {
        let frame = Size(width: 1920, height: 1080)
        // The crop (1688 rows) is taller than the upper third: it starts at the top.
        #expect(PictureArea.region(of: Size(width: 3000, height: 4000), frame: frame, mode: .aspectFill, framing: .faces)
                == Rect(x: 0, y: 0, width: 3000, height: 1688))
        #expect(PictureArea.region(of: Size(width: 3000, height: 4000), frame: frame, mode: .aspectFill, framing: .center)
                == FitGeometry.centreCrop(of: Size(width: 3000, height: 4000), aspect: frame))
        #expect(PictureArea.region(of: Size(width: 4000, height: 2000), frame: frame, mode: .aspectFill, framing: .faces)
                == FitGeometry.centreCrop(of: Size(width: 4000, height: 2000), aspect: frame))
        #expect(PictureArea.region(of: Size(width: 3000, height: 4000), frame: frame, mode: .aspectFit, framing: .faces)
                == Rect(x: 0, y: 0, width: 3000, height: 4000))
    }
}

/// The jitter measure: frame-to-frame zoom-and-shift registration (Lucas–Kanade, iterated),
/// then the RMS over a grid of points of the second difference of their motion, in px/frame².
enum Jitter {
    /// Grey frames as doubles, lightly blurred (3x3 box) for stable gradients.
    static func grey(_ data: [UInt8], width: Int, height: Int) -> [Double] {
        var out = [Double](repeating: 0, count: width * height)
        let r = 1
        for y in r..<(height - r) {
            for x in r..<(width - r) {
                var sum = 0.0
                for dy in -r...r { for dx in -r...r { sum += Double(data[(y + dy) * width + x + dx]) } }
                out[y * width + x] = sum / Double((2 * r + 1) * (2 * r + 1))
            }
        }
        return out
    }

    static func sample(_ image: [Double], _ width: Int, _ height: Int, _ x: Double, _ y: Double) -> Double {
        let x = min(max(x, 0), Double(width - 2)), y = min(max(y, 0), Double(height - 2))
        let x0 = Int(x), y0 = Int(y), fx = x - Double(x0), fy = y - Double(y0)
        let top = image[y0 * width + x0] * (1 - fx) + image[y0 * width + x0 + 1] * fx
        let bottom = image[(y0 + 1) * width + x0] * (1 - fx) + image[(y0 + 1) * width + x0 + 1] * fx
        return top * (1 - fy) + bottom * fy
    }

    /// (s, tx, ty) with frame b at x + s·(x − centre) + t matching frame a at x.
    static func register(_ a: [Double], _ b: [Double], width: Int, height: Int) -> (Double, Double, Double) {
        let cx = Double(width) / 2, cy = Double(height) / 2
        var p = (0.0, 0.0, 0.0)
        let margin = 12
        for _ in 0..<4 {
            var m = [[Double]](repeating: [0, 0, 0], count: 3), v = [0.0, 0.0, 0.0]
            for y in stride(from: margin, to: height - margin, by: 1) {
                for x in stride(from: margin, to: width - margin, by: 1) {
                    let (X, Y) = (Double(x), Double(y))
                    let wx = X + p.0 * (X - cx) + p.1, wy = Y + p.0 * (Y - cy) + p.2
                    let gx = (sample(b, width, height, wx + 1, wy) - sample(b, width, height, wx - 1, wy)) / 2
                    let gy = (sample(b, width, height, wx, wy + 1) - sample(b, width, height, wx, wy - 1)) / 2
                    let r = a[y * width + x] - sample(b, width, height, wx, wy)
                    let row = [gx * (X - cx) + gy * (Y - cy), gx, gy]
                    for i in 0..<3 {
                        v[i] += row[i] * r
                        for j in 0..<3 { m[i][j] += row[i] * row[j] }
                    }
                }
            }
            let d = solve(m, v)
            p = (p.0 + d[0], p.1 + d[1], p.2 + d[2])
        }
        return p
    }

    static func solve(_ m: [[Double]], _ v: [Double]) -> [Double] {
        var a = m, b = v
        for i in 0..<3 {
            let pivot = a[i][i]
            for j in (i + 1)..<3 {
                let f = a[j][i] / pivot
                for k in i..<3 { a[j][k] -= f * a[i][k] }
                b[j] -= f * b[i]
            }
        }
        var x = [0.0, 0.0, 0.0]
        for i in stride(from: 2, through: 0, by: -1) {
            var s = b[i]
            for k in (i + 1)..<3 { s -= a[i][k] * x[k] }
            x[i] = s / a[i][i]
        }
        return x
    }

    /// The RMS second difference of the motion of a grid of points, px/frame².
    static func measure(_ frames: [[UInt8]], width: Int, height: Int) -> Double {
        let grey = frames.map { self.grey($0, width: width, height: height) }
        let steps = (1..<grey.count).map { register(grey[$0 - 1], grey[$0], width: width, height: height) }
        let cx = Double(width) / 2, cy = Double(height) / 2
        var sum = 0.0, count = 0
        for k in 1..<steps.count {
            for gy in 0..<5 {
                for gx in 0..<5 {
                    let x = Double(width) * (0.1 + 0.2 * Double(gx)) - cx, y = Double(height) * (0.1 + 0.2 * Double(gy)) - cy
                    let (p, q) = (steps[k - 1], steps[k])
                    let ex = (q.0 * x + q.1) - (p.0 * x + p.1), ey = (q.0 * y + q.2) - (p.0 * y + p.2)
                    sum += ex * ex + ey * ey
                    count += 1
                }
            }
        }
        return (sum / Double(count)).squareRoot()
    }
}

@Suite("Motion on a real photo: smooth to a fraction of a pixel")
struct MotionSmoothnessTests {
    @Test("a zoom-in rendered and decoded scores ≤ 0.05 px/frame² of jitter; whole-pixel crops of the same source score far more")
    func jitter() async throws {
        guard let photo = TestEnvironment.sharedPhoto("camera_nikon_d90_12mp.jpg") else {
            print(TestEnvironment.noSharedPhotos)
            return
        }
        let (width, height) = (160, 90)
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: [Photo(path: photo)], output: folder.path("zoom.mp4"))
        show.length = .total(seconds: 1)
        show.video = VideoSettings(size: Size(width: width, height: height), framesPerSecond: 30, crf: 12)
        show.contentMode = .aspectFill
        show.motion = .zoomIn
        show.zoom = 0.2
        let result = try await show.render()
        #expect(result.frames == 30)
        let decoded = try FrameDecoder.frames(of: folder.path("zoom.mp4"), pixelFormat: "gray", width: width, height: height)
        #expect(decoded.count == 30)
        let smooth = Jitter.measure(decoded.map { [UInt8]($0) }, width: width, height: height)
        #expect(smooth <= 0.05, "jitter \(smooth) px/frame²")

        // The control: the same source, each view cropped on whole pixels (ffmpeg zoompan's way).
        let size = Size(width: width, height: height)
        let path = try #require(MotionStyle.zoomIn.path(photo: 0, zoom: 0.2))
        let (source, content, _) = try ImageManager().requestMovingSource(for: Photo(path: photo), frameSize: size, contentMode: .aspectFill,
                                                                        background: .black, magnification: path.magnification)
        let moving = MovingPhoto(source: source, content: content, path: path)
        let frames = try (0..<30).map { k -> [UInt8] in
            let view = moving.viewRect(at: (Double(k) + 0.5) / 30)
            let x = view.x.rounded(.down), y = view.y.rounded(.down)
            let w = view.width.rounded(), h = view.height.rounded()
            let pixels = try resampled(moving.source, view: (x, y, w, h), frame: size, content: content)
            // Luma, as the decoded frames are.
            return (0..<(width * height)).map { i -> UInt8 in
                let r: Double = 0.2126 * Double(pixels[i * 3])
                let g: Double = 0.7152 * Double(pixels[i * 3 + 1])
                let b: Double = 0.0722 * Double(pixels[i * 3 + 2])
                return UInt8((r + g + b).rounded())
            }
        }
        let rough = Jitter.measure(frames, width: width, height: height)
        #expect(rough > 0.15, "whole-pixel jitter \(rough) px/frame²")
        print("jitter: \(smooth) px/frame² (whole-pixel crops: \(rough))")
    }
}
