import SlideshowColor
import SlideshowPixels
import SlideshowPlan

/// The transitions that uncover or move pictures, on an HDR show's code values, as the SDR
/// compositor draws them (``Compositor/transition(from:to:effect:progress:)``): wipes and
/// slides copy whole columns or rows (nothing is mixed, so the code values pass as they are);
/// circles mix their one-pixel edge in linear light (``HDRSignal/mixingLight``).
enum HDRTransitions {
    /// Whether the effect is drawn here (everything but the dissolves ``HDRComposer`` mixes).
    static func draws(_ effect: TransitionEffect) -> Bool {
        ![.fade, .fadeblack, .fadewhite].contains(effect)
    }

    /// The frame of a transition from `a` to `b` at `progress` (0 = a, 1 = b).
    static func frame(from a: HDRPixelBuffer, to b: HDRPixelBuffer, effect: TransitionEffect, progress p: Double,
                      signal: HDRSignal) -> HDRPixelBuffer {
        let (w, h) = (a.width, a.height)
        switch effect {
        case .wipeleft:   // b uncovered from the right
            let edge = Int((Double(w) * (1 - p)).rounded())
            return columns(a, b) { x in x >= edge ? (true, x) : (false, x) }
        case .wiperight:
            let edge = Int((Double(w) * p).rounded())
            return columns(a, b) { x in x < edge ? (true, x) : (false, x) }
        case .wipeup:
            let edge = Int((Double(h) * (1 - p)).rounded())
            return rows(a, b) { y in y >= edge ? (true, y) : (false, y) }
        case .wipedown:
            let edge = Int((Double(h) * p).rounded())
            return rows(a, b) { y in y < edge ? (true, y) : (false, y) }
        case .slideleft:
            let shift = Int((Double(w) * p).rounded())
            return columns(a, b) { x in x + shift < w ? (false, x + shift) : (true, x + shift - w) }
        case .slideright:
            let shift = Int((Double(w) * p).rounded())
            return columns(a, b) { x in x - shift >= 0 ? (false, x - shift) : (true, x - shift + w) }
        case .slideup:
            let shift = Int((Double(h) * p).rounded())
            return rows(a, b) { y in y + shift < h ? (false, y + shift) : (true, y + shift - h) }
        case .slidedown:
            let shift = Int((Double(h) * p).rounded())
            return rows(a, b) { y in y - shift >= 0 ? (false, y - shift) : (true, y - shift + h) }
        case .circleopen:
            return circle(inside: b, outside: a, radiusFraction: p, signal: signal)
        case .circleclose:
            return circle(inside: a, outside: b, radiusFraction: 1 - p, signal: signal)
        case .none, .random, .fade, .fadeblack, .fadewhite:
            return p < 0.5 ? a : b
        }
    }

    /// A frame whose column x is column `pick(x).1` of `b` when `pick(x).0`, of `a` otherwise.
    private static func columns(_ a: HDRPixelBuffer, _ b: HDRPixelBuffer, _ pick: (Int) -> (Bool, Int)) -> HDRPixelBuffer {
        let (w, h) = (a.width, a.height)
        let picks = (0..<w).map(pick)
        var result = HDRPixelBuffer(size: a.size)
        a.samples.withUnsafeBufferPointer { fromA in
            b.samples.withUnsafeBufferPointer { fromB in
                result.withUnsafeMutableBufferPointer { out in
                    for y in 0..<h {
                        let row = y * w * 3
                        for x in 0..<w {
                            let (useB, sourceX) = picks[x]
                            let from = useB ? fromB : fromA
                            let (o, s) = (row + x * 3, row + sourceX * 3)
                            out[o] = from[s]; out[o + 1] = from[s + 1]; out[o + 2] = from[s + 2]
                        }
                    }
                }
            }
        }
        return result
    }

    /// A frame whose row y is row `pick(y).1` of `b` when `pick(y).0`, of `a` otherwise.
    private static func rows(_ a: HDRPixelBuffer, _ b: HDRPixelBuffer, _ pick: (Int) -> (Bool, Int)) -> HDRPixelBuffer {
        let (w, h) = (a.width, a.height)
        let rowSamples = w * 3
        var result = HDRPixelBuffer(size: a.size)
        a.samples.withUnsafeBufferPointer { fromA in
            b.samples.withUnsafeBufferPointer { fromB in
                result.withUnsafeMutableBufferPointer { out in
                    for y in 0..<h {
                        let (useB, sourceY) = pick(y)
                        (out.baseAddress! + y * rowSamples)
                            .update(from: (useB ? fromB : fromA).baseAddress! + sourceY * rowSamples, count: rowSamples)
                    }
                }
            }
        }
        return result
    }

    /// `inside` within a circle about the centre whose radius is `radiusFraction` of the half
    /// diagonal, `outside` beyond; the one-pixel edge mixed in linear light.
    private static func circle(inside: HDRPixelBuffer, outside: HDRPixelBuffer, radiusFraction: Double, signal: HDRSignal) -> HDRPixelBuffer {
        let (w, h) = (outside.width, outside.height)
        let cx = Double(w) / 2, cy = Double(h) / 2
        let radius = radiusFraction * (cx * cx + cy * cy).squareRoot()
        var result = HDRPixelBuffer(size: outside.size, samples: outside.samples)
        let light = signal.mixingLight
        inside.samples.withUnsafeBufferPointer { from in
            result.withUnsafeMutableBufferPointer { out in
                for y in 0..<h {
                    let dy = Double(y) + 0.5 - cy
                    guard abs(dy) < radius + 1 else { continue }
                    let half = (max(0, (radius + 1) * (radius + 1) - dy * dy)).squareRoot()
                    let x0 = max(0, Int(cx - half)), x1 = min(w, Int(cx + half) + 1)
                    for x in x0..<x1 {
                        let dx = Double(x) + 0.5 - cx
                        let coverage = min(1, max(0, radius - (dx * dx + dy * dy).squareRoot() + 0.5))
                        guard coverage > 0 else { continue }
                        let o = (y * w + x) * 3
                        if coverage >= 1 {
                            out[o] = from[o]; out[o + 1] = from[o + 1]; out[o + 2] = from[o + 2]
                        } else {
                            let k = Float(coverage)
                            for c in 0..<3 {
                                out[o + c] = signal.code(mixingLight: light[Int(out[o + c])] * (1 - k) + light[Int(from[o + c])] * k)
                            }
                        }
                    }
                }
            }
        }
        return result
    }
}
