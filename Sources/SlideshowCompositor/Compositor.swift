import Foundation
import SlideshowImages
import SlideshowPixels
import SlideshowPlan
import SlideshowVideo
import SlideshowFormats

/// A photo ready to be composed into frames.
package enum ComposedPhoto: Sendable {
    /// A still slide at the frame's size (bars included, look applied), as a hold shows it.
    case still(PixelBuffer)
    /// A moving photo.
    case moving(MovingPhoto)
    /// A clip, or a motion photo playing its video: its picture is chosen by the frame.
    case clip(ClipPlayer)
}

/// Turns the plan's recipes into frames: the photos' pictures at their motion times, the
/// transition's effect between them, and the fades at the ends.
///
/// Dissolves, fades through a colour, the fades at the ends and the soft edge of the circles
/// mix in linear light (``LinearLight``). Wipes and slides move whole columns or rows. Bars
/// are part of the frame and take part in a transition like the picture; a moving photo's bars
/// are exactly the background colour in every frame.
package struct Compositor: Sendable {
    /// Composed pictures that may wait for the writer at once: a clip's frames are all in flight
    /// within this many, plus the one composing.
    package static let picturesInFlight = 2

    /// The frame size.
    package let size: Size
    /// The colour of the bars.
    package let background: RGBColor
    /// Where moving photos' frames get their arrays (``FramePool``); nil for new ones.
    package var pool: FramePool<UInt8>? = nil

    package init(size: Size, background: RGBColor, pool: FramePool<UInt8>? = nil) {
        self.size = size
        self.background = background
        self.pool = pool
    }

    /// A photo whose picture could not be made (``MotionResampler`` failed, or a clip's
    /// video could not be read), by index.
    package struct Failure: Error {
        package var photo: Int
        package var problem: ImageProblem?
        package var clip: ClipError? = nil
    }

    /// The frame for a recipe.
    /// - Parameters:
    ///   - recipe: what the frame shows.
    ///   - photo: the composed photos by index (those the recipe names).
    /// - Throws: ``Failure`` naming the photo whose picture could not be made.
    package func frame(_ recipe: FramePlan.Recipe, photo: (Int) -> ComposedPhoto) throws(Failure) -> PixelBuffer {
        func picture(_ index: Int, _ time: Double) throws(Failure) -> PixelBuffer {
            let composed = photo(index)
            if case .clip(let player) = composed {
                do throws(ClipError) {
                    return try player.picture(at: recipe.frame)
                } catch {
                    throw Failure(photo: index, problem: nil, clip: error)
                }
            }
            do throws(ImageProblem) {
                return try self.picture(composed, time: time)
            } catch {
                throw Failure(photo: index, problem: error)
            }
        }
        var frame = try picture(recipe.photo, recipe.time)
        if let incoming = recipe.incoming {
            let other = try picture(incoming.photo, incoming.time)
            frame = transition(from: consume frame, to: other, effect: incoming.effect, progress: incoming.progress)
        }
        if recipe.visibility < 1 {
            // Consumed: a frame of its own is mixed in place, not copied first.
            frame = Self.mix(consume frame, with: .black, weight: LinearLight.one - LinearLight.weight(recipe.visibility))
        }
        return frame
    }

    /// A photo's picture at a motion time: the slide itself when still; otherwise the bars
    /// and the view resampled into the content rectangle.
    /// - Throws: ``ImageProblem`` when a moving photo cannot be resampled.
    package func picture(_ photo: ComposedPhoto, time: Double) throws(ImageProblem) -> PixelBuffer {
        switch photo {
        case .still(let slide):
            return slide
        case .moving(let moving):
            if let caption = moving.caption {
                var picture = try moving.picture(at: time, frameSize: size, background: background, pool: pool)
                picture.composite(caption)
                return picture
            }
            return try moving.picture(at: time, frameSize: size, background: background, pool: pool)
        case .clip(let player):
            // Clips are composed by frame (``frame(_:photo:)``, ``FrameComposer``); only a motion
            // photo's still is ever asked for by time.
            guard let still = player.still else { preconditionFailure("a clip's picture is chosen by its frame") }
            return still
        }
    }

    /// The frame of a transition from `a` to `b` at `progress` (0 = a, 1 = b); `a` is consumed,
    /// so that a dissolve or fade mixes into it in place when no one else holds it.
    package func transition(from a: consuming PixelBuffer, to b: PixelBuffer, effect: TransitionEffect, progress p: Double) -> PixelBuffer {
        let (w, h) = (size.width, size.height)
        switch effect {
        case .none, .random:
            return p < 0.5 ? a : b
        case .fade:
            return Self.mix(consume a, b, weight: LinearLight.weight(p))
        case .fadeblack, .fadewhite:
            let colour: RGBColor = effect == .fadeblack ? .black : RGBColor(red: 255, green: 255, blue: 255)
            return p < 0.5 ? Self.mix(consume a, with: colour, weight: LinearLight.weight(2 * p))
                           : Self.mix(b, with: colour, weight: LinearLight.weight(2 - 2 * p))
        case .wipeleft, .wiperight, .wipeup, .wipedown, .slideleft, .slideright, .slideup, .slidedown, .circleopen, .circleclose:
            switch TransitionLayout(effect: effect, progress: p, width: w, height: h) {
            case .columns(let pick): return Self.columns(a, b, pick)
            case .rows(let pick): return Self.rows(a, b, pick)
            case .circle(let bInside, let radius): return bInside ? circle(inside: b, outside: a, radiusFraction: radius)
                                                                : circle(inside: a, outside: b, radiusFraction: radius)
            }
        }
    }

    /// `inside` within a circle about the centre whose radius is `radiusFraction` of the half
    /// diagonal, `outside` beyond; the edge is one pixel wide, mixed in linear light.
    private func circle(inside: PixelBuffer, outside: PixelBuffer, radiusFraction: Double) -> PixelBuffer {
        var result = outside
        let decode = LinearLight.decode, encode = LinearLight.encode
        result.withUnsafeMutableBufferPointer { out in
            inside.pixels.withUnsafeBufferPointer { from in
                CircleCoverage.forEach(width: size.width, height: size.height, radiusFraction: radiusFraction) { o, coverage in
                    if coverage >= 1 {
                        out[o] = from[o]; out[o + 1] = from[o + 1]; out[o + 2] = from[o + 2]
                    } else {
                        let k = LinearLight.weight(coverage), j = LinearLight.one - k
                        for c in 0..<3 {
                            let l = (Int32(decode[Int(out[o + c])]) * j + Int32(decode[Int(from[o + c])]) * k + 2048) >> 12
                            out[o + c] = encode[Int(l)]
                        }
                    }
                }
            }
        }
        return result
    }

    /// A frame whose column x is column `pick(x).1` of `b` when `pick(x).0`, of `a` otherwise.
    private static func columns(_ a: PixelBuffer, _ b: PixelBuffer, _ pick: (Int) -> (Bool, Int)) -> PixelBuffer {
        let (w, h) = (a.width, a.height)
        // Runs of columns from one picture with consecutive source columns, copied row by row.
        var runs: [(fromB: Bool, from: Int, to: Int, count: Int)] = []
        var x = 0
        while x < w {
            let (fromB, sourceX) = pick(x)
            var count = 1
            while x + count < w, pick(x + count) == (fromB, sourceX + count) { count += 1 }
            runs.append((fromB, sourceX, x, count))
            x += count
        }
        let rowBytes = w * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * h) { out, initialised in
            for run in runs {
                (run.fromB ? b : a).pixels.withUnsafeBufferPointer { from in
                    for y in 0..<h {
                        (out.baseAddress! + y * rowBytes + run.to * 3).initialize(from: from.baseAddress! + y * rowBytes + run.from * 3, count: run.count * 3)
                    }
                }
            }
            initialised = out.count
        }
        return PixelBuffer(size: a.size, pixels: pixels)
    }

    /// A frame whose row y is row `pick(y).1` of `b` when `pick(y).0`, of `a` otherwise.
    private static func rows(_ a: PixelBuffer, _ b: PixelBuffer, _ pick: (Int) -> (Bool, Int)) -> PixelBuffer {
        let (w, h) = (a.width, a.height)
        let rowBytes = w * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * h) { out, initialised in
            for y in 0..<h {
                let (fromB, sourceY) = pick(y)
                (fromB ? b : a).pixels.withUnsafeBufferPointer { from in
                    (out.baseAddress! + y * rowBytes).initialize(from: from.baseAddress! + sourceY * rowBytes, count: rowBytes)
                }
            }
            initialised = out.count
        }
        return PixelBuffer(size: a.size, pixels: pixels)
    }

    /// `a` and `b` mixed in linear light: `b`'s share is `weight` of ``LinearLight/one``.
    package static func mix(_ a: consuming PixelBuffer, _ b: PixelBuffer, weight: Int32) -> PixelBuffer {
        precondition(a.size == b.size, "pictures of one size")
        if weight <= 0 { return a }
        if weight >= LinearLight.one { return b }
        var result = consume a
        let j = LinearLight.one - weight
        LinearLight.decode.withUnsafeBufferPointer { decode in
            LinearLight.encode.withUnsafeBufferPointer { encode in
                result.withUnsafeMutableBufferPointer { out in
                    b.pixels.withUnsafeBufferPointer { other in
                        for i in 0..<out.count {
                            let l = (Int32(decode[Int(out[i])]) &* j &+ Int32(decode[Int(other[i])]) &* weight &+ 2048) >> 12
                            out[i] = encode[Int(l)]
                        }
                    }
                }
            }
        }
        result.contentRect = Rect(result.size)
        return result
    }

    /// `a` mixed with a flat colour in linear light.
    package static func mix(_ a: consuming PixelBuffer, with colour: RGBColor, weight: Int32) -> PixelBuffer {
        if weight <= 0 { return a }
        var result = consume a
        let j = LinearLight.one - weight
        let decodeTable = LinearLight.decode
        let target = [colour.red, colour.green, colour.blue].map { Int32(decodeTable[Int($0)]) &* weight &+ 2048 }
        LinearLight.decode.withUnsafeBufferPointer { decode in
            LinearLight.encode.withUnsafeBufferPointer { encode in
                result.withUnsafeMutableBufferPointer { out in
                    let (r, g, b) = (target[0], target[1], target[2])
                    var i = 0
                    while i < out.count {
                        out[i] = encode[Int((Int32(decode[Int(out[i])]) &* j &+ r) >> 12)]
                        out[i &+ 1] = encode[Int((Int32(decode[Int(out[i &+ 1])]) &* j &+ g) >> 12)]
                        out[i &+ 2] = encode[Int((Int32(decode[Int(out[i &+ 2])]) &* j &+ b) >> 12)]
                        i &+= 3
                    }
                }
            }
        }
        result.contentRect = Rect(result.size)
        return result
    }
}

/// How a transition that uncovers or moves pictures lays them out at a progress, for the SDR
/// compositor and for HDR shows alike: each column (or row) of the frame is a column (row) of
/// the picture going, `a`, or of the one coming, `b`; or a circle of one over the other.
package enum TransitionLayout {
    /// Column x of the frame is column `pick(x).1` of `b` when `pick(x).0`, of `a` otherwise.
    case columns((Int) -> (Bool, Int))
    /// Row y of the frame is row `pick(y).1` of `b` when `pick(y).0`, of `a` otherwise.
    case rows((Int) -> (Bool, Int))
    /// `b` inside the circle (else `a` inside it), its radius a fraction of the half diagonal.
    case circle(bInside: Bool, radiusFraction: Double)

    /// The layout of a wipe, slide or circle at `progress` (0 = a, 1 = b) on a `width` × `height` frame.
    package init(effect: TransitionEffect, progress p: Double, width w: Int, height h: Int) {
        switch effect {
        case .wipeleft:   // b uncovered from the right
            let edge = Int((Double(w) * (1 - p)).rounded())
            self = .columns { x in x >= edge ? (true, x) : (false, x) }
        case .wiperight:
            let edge = Int((Double(w) * p).rounded())
            self = .columns { x in x < edge ? (true, x) : (false, x) }
        case .wipeup:
            let edge = Int((Double(h) * (1 - p)).rounded())
            self = .rows { y in y >= edge ? (true, y) : (false, y) }
        case .wipedown:
            let edge = Int((Double(h) * p).rounded())
            self = .rows { y in y < edge ? (true, y) : (false, y) }
        case .slideleft:
            let shift = Int((Double(w) * p).rounded())
            self = .columns { x in x + shift < w ? (false, x + shift) : (true, x + shift - w) }
        case .slideright:
            let shift = Int((Double(w) * p).rounded())
            self = .columns { x in x - shift >= 0 ? (false, x - shift) : (true, x - shift + w) }
        case .slideup:
            let shift = Int((Double(h) * p).rounded())
            self = .rows { y in y + shift < h ? (false, y + shift) : (true, y + shift - h) }
        case .slidedown:
            let shift = Int((Double(h) * p).rounded())
            self = .rows { y in y - shift >= 0 ? (false, y - shift) : (true, y - shift + h) }
        case .circleopen:
            self = .circle(bInside: true, radiusFraction: p)
        case .circleclose:
            self = .circle(bInside: false, radiusFraction: 1 - p)
        case .none, .random, .fade, .fadeblack, .fadewhite:
            preconditionFailure("\(effect) mixes or cuts: it has no layout")
        }
    }
}

/// The pixels a circle about a picture's centre covers, for the `circleopen` and `circleclose`
/// transitions of the SDR compositor and of HDR shows: its radius a fraction of the half
/// diagonal, its edge one pixel wide.
package enum CircleCoverage {
    /// Calls `body` with the first sample's offset (three samples a pixel, row by row) and the
    /// coverage, in `0 < coverage ≤ 1`, of each pixel the circle reaches.
    package static func forEach(width w: Int, height h: Int, radiusFraction: Double, _ body: (_ offset: Int, _ coverage: Double) -> Void) {
        let cx = Double(w) / 2, cy = Double(h) / 2
        let radius = radiusFraction * (cx * cx + cy * cy).squareRoot()
        for y in 0..<h {
            let dy = Double(y) + 0.5 - cy
            guard abs(dy) < radius + 1 else { continue }
            let half = (max(0, (radius + 1) * (radius + 1) - dy * dy)).squareRoot()
            let x0 = max(0, Int(cx - half)), x1 = min(w, Int(cx + half) + 1)
            for x in x0..<x1 {
                let dx = Double(x) + 0.5 - cx
                let coverage = min(1, max(0, radius - (dx * dx + dy * dy).squareRoot() + 0.5))
                if coverage > 0 { body((y * w + x) * 3, coverage) }
            }
        }
    }
}
