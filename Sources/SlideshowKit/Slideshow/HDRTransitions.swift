import SlideshowColor
import SlideshowCompositor
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
        switch effect {
        case .none, .random, .fade, .fadeblack, .fadewhite:
            return p < 0.5 ? a : b
        case .wipeleft, .wiperight, .wipeup, .wipedown, .slideleft, .slideright, .slideup, .slidedown, .circleopen, .circleclose:
            switch TransitionLayout(effect: effect, progress: p, width: a.width, height: a.height) {
            case .columns(let pick): return columns(a, b, pick)
            case .rows(let pick): return rows(a, b, pick)
            case .circle(let bInside, let radius): return bInside ? circle(inside: b, outside: a, radiusFraction: radius, signal: signal)
                                                                : circle(inside: a, outside: b, radiusFraction: radius, signal: signal)
            }
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
        var result = HDRPixelBuffer(size: outside.size, samples: outside.samples)
        let light = signal.mixingLight
        inside.samples.withUnsafeBufferPointer { from in
            result.withUnsafeMutableBufferPointer { out in
                CircleCoverage.forEach(width: outside.width, height: outside.height, radiusFraction: radiusFraction) { o, coverage in
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
        return result
    }
}
