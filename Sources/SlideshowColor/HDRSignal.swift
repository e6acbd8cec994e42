import Foundation
import SlideshowPixels

/// Light in an HDR show: linear BT.2020 light, measured in SDR reference whites, turned into
/// the video's PQ or HLG code values (BT.2100).
///
/// - SDR reference white (an SDR photo's white, a caption's white) is 203 cd/m² (ITU-R
///   BT.2408): an SDR photo looks the same beside an HDR one, and highlights have the 2.3
///   stops above it up to the peak.
/// - The peak is 1,000 cd/m²: PQ's mastering display (written into the video) and HLG's
///   nominal display. Light above it is clipped (a gain map's rendition is computed for that
///   headroom, so little is).
/// - PQ (SMPTE ST 2084) codes absolute light. HLG codes scene light: display light is taken
///   back through the BT.2100 OOTF of a 1,000 cd/m² display (system gamma 1.2), so that
///   203 cd/m² white is 75% of the signal, as BT.2408 places it.
package struct HDRSignal: Sendable {
    package let transfer: HDRTransfer

    /// SDR reference white, cd/m² (BT.2408).
    package static let referenceWhite = 203.0
    /// The peak: PQ's mastering display and HLG's nominal display, cd/m².
    package static let peak = 1000.0
    /// The headroom of the peak over reference white, in stops: log2(1000 / 203) ≈ 2.30.
    package static let headroom = log2(peak / referenceWhite)
    /// HLG's system gamma on a 1,000 cd/m² display (BT.2100 Table 5).
    package static let hlgGamma = 1.2

    package init(_ transfer: HDRTransfer) { self.transfer = transfer }

    /// BT.709 (sRGB) primaries to BT.2020, linear light (BT.2087 §2).
    package static let bt709ToBT2020: [Float] = [0.627404, 0.329283, 0.043313,
                                                 0.069097, 0.919540, 0.011362,
                                                 0.016391, 0.088013, 0.895595]

    /// sRGB byte → linear light, 0…1.
    package static let sRGBLinear: [Float] = (0..<256).map { value in
        let c = Double(value) / 255
        return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
    }

    // MARK: - Exact curves (BT.2100 Table 4 and 5)

    /// PQ's inverse EOTF: cd/m² → signal 0…1.
    package static func pq(nits: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let y = pow(max(0, min(10000, nits)) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// HLG's OETF: scene light 0…1 → signal 0…1.
    package static func hlg(scene e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let e = max(0, min(1, e))
        return e <= 1.0 / 12 ? sqrt(3 * e) : a * log(12 * e - b) + c
    }

    // MARK: - Encoding

    /// Samples of a curve over 0…1, spaced evenly in the square root of the input (fine where
    /// PQ and HLG are steep, near black), read with linear interpolation.
    private struct Curve: Sendable {
        static let steps = 16384
        let values: [Float]

        init(_ function: (Double) -> Double) {
            values = (0...Self.steps + 1).map { index in
                let root = min(1, Double(index) / Double(Self.steps))
                return Float(function(root * root))
            }
        }

        @inline(__always) func callAsFunction(_ x: Float) -> Float {
            let position = x.squareRoot() * Float(Self.steps)
            let index = Int(position)
            let fraction = position - Float(index)
            return values.withUnsafeBufferPointer { table in
                table[index] + (table[index + 1] - table[index]) * fraction
            }
        }
    }

    /// PQ over fractions of the peak.
    private static let pqCurve = Curve { pq(nits: $0 * peak) }
    /// HLG's OETF over scene light.
    private static let hlgCurve = Curve { hlg(scene: $0) }
    /// HLG's inverse OOTF factor over display luminance as a fraction of the peak: Yd^((1−γ)/γ).
    private static let hlgSceneFactor = Curve { $0 <= 0 ? 0 : pow($0, (1 - hlgGamma) / hlgGamma) }

    /// Code values (0…65535) of linear BT.2020 light given in reference whites (1 = 203 cd/m²).
    @inline(__always) package func encode(_ red: Float, _ green: Float, _ blue: Float) -> (UInt16, UInt16, UInt16) {
        let scale = Float(Self.referenceWhite / Self.peak)
        let r = max(0, min(1, red * scale)), g = max(0, min(1, green * scale)), b = max(0, min(1, blue * scale))
        switch transfer {
        case .pq:
            return (Self.code(Self.pqCurve(r)), Self.code(Self.pqCurve(g)), Self.code(Self.pqCurve(b)))
        case .hlg:
            let luminance = 0.2627 * r + 0.6780 * g + 0.0593 * b
            let factor = Self.hlgSceneFactor(max(0, min(1, luminance)))
            return (Self.code(Self.hlgCurve(min(1, r * factor))), Self.code(Self.hlgCurve(min(1, g * factor))),
                    Self.code(Self.hlgCurve(min(1, b * factor))))
        }
    }

    /// Code values of `pixels` pixels of linear BT.2020 light (three floats a pixel, in
    /// reference whites), exactly as ``encode(_:_:_:)`` gives them one by one, code for code: the
    /// same operations in the same order, and its rounding, half away from zero. A slide's rows are
    /// encoded this way, in passes over 1,024 pixels at a time as ``mix(_:_:count:a:b:c:into:)``
    /// works (the light clamped; the curve's position, a square root; the curve, two look-ups; the
    /// rounding), so that all but the look-ups vectorise: no call, table retain or libm `roundf`
    /// per sample. (An HDR clip's look encodes its rows this way too.)
    package func encode(_ light: UnsafePointer<Float>, pixels: Int, into codes: UnsafeMutablePointer<UInt16>) {
        let scale = Float(Self.referenceWhite / Self.peak)
        let steps = Float(Curve.steps)
        let curve = transfer == .pq ? Self.pqCurve : Self.hlgCurve
        let factors = Self.hlgSceneFactor
        let hlg = transfer == .hlg
        let chunk = 3 * 1024
        curve.values.withUnsafeBufferPointer { table in
            factors.values.withUnsafeBufferPointer { factorTable in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * chunk) { floats in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: chunk) { indices in
                        let (values, factorValues) = (table.baseAddress!, factorTable.baseAddress!)
                        let (x, signals, whole) = (floats.baseAddress!, floats.baseAddress! + chunk, indices.baseAddress!)
                        // ``Curve/callAsFunction(_:)``, step for step (`Int(position)` is `floor`'s for 0 ≤ position ≤ 16,384).
                        @inline(__always) func look(_ x: Float, _ values: UnsafePointer<Float>) -> Float {
                            let position = x.squareRoot() * steps
                            let index = Int(position)
                            let fraction = position - Float(index)
                            return values[index] + (values[index + 1] - values[index]) * fraction
                        }
                        var start = 0
                        let count = 3 * pixels
                        while start < count {
                            let n = min(chunk, count - start)
                            let (from, into) = (light + start, codes + start)
                            for k in 0..<n { x[k] = max(0, min(1, from[k] * scale)) }
                            if hlg {
                                for k in stride(from: 0, to: n, by: 3) {
                                    let (r, g, b) = (x[k], x[k + 1], x[k + 2])
                                    let luminance = 0.2627 * r + 0.6780 * g + 0.0593 * b
                                    let factor = look(max(0, min(1, luminance)), factorValues)
                                    (x[k], x[k + 1], x[k + 2]) = (min(1, r * factor), min(1, g * factor), min(1, b * factor))
                                }
                            }
                            Self.curveSignals(x, count: n, values: values, steps: steps, whole: whole, into: signals)
                            for k in 0..<n { into[k] = Self.roundedCode(signals[k]) }
                            start += n
                        }
                    }
                }
            }
        }
    }

    /// The curve's signal at each of `count` values of light in 0…1 (`light`, overwritten), as
    /// ``Curve/callAsFunction(_:)`` gives it, in two passes: the position on the curve (a square
    /// root; its whole part into `whole`, the rest into `light`), which vectorises, then the
    /// curve between the two entries around it (two look-ups).
    @inline(__always) private static func curveSignals(_ light: UnsafeMutablePointer<Float>, count: Int, values: UnsafePointer<Float>,
                                                       steps: Float, whole: UnsafeMutablePointer<Int32>, into signals: UnsafeMutablePointer<Float>) {
        for k in 0..<count {
            // `magnitude` changes nothing (the light is 0…1) but tells the compiler the root needs
            // no libm call for a negative number: it vectorises.
            let position = light[k].magnitude.squareRoot() * steps
            let at = Self.floor(position)
            light[k] = position - at
            whole[k] = Self.integer(at)
        }
        for k in 0..<count {
            let at = Int(whole[k])
            signals[k] = values[at] + (values[at + 1] - values[at]) * light[k]
        }
    }

    /// ``code(_:)`` without libm's `roundf`: the value clamped to 0…65535 first (the bounds are
    /// whole, so clamping and rounding commute), its whole part by truncation, and one more when
    /// the rest (exact: Sterbenz) is at least a half, which is rounding half away from zero.
    /// (The whole part by ``floor(_:)`` and ``integer(_:)``: no range check per sample.)
    @inline(__always) package static func roundedCode(_ signal: Float) -> UInt16 {
        let clamped = max(0, min(65535, signal * 65535))
        let whole = floor(clamped)
        return UInt16(truncatingIfNeeded: integer(whole) &+ (clamped - whole >= 0.5 ? 1 : 0))
    }

    // MARK: - Mixing (transitions and fades)

    /// Each code value's light as transitions mix it: PQ's display light in reference whites,
    /// HLG's scene light (0…1; HLG is scene-referred, and its display's OOTF applies after).
    private static let pqMixingLight: [Float] = (0...65535).map { code in
        Float(pqDisplayNits(signal: Double(code) / 65535) / referenceWhite)
    }
    private static let hlgMixingLight: [Float] = (0...65535).map { code in Float(hlgScene(signal: Double(code) / 65535)) }

    /// The light of a code value, in the domain transitions mix in (see ``mixingLight``).
    package var mixingLight: [Float] { transfer == .pq ? Self.pqMixingLight : Self.hlgMixingLight }

    /// Reference white in that domain: 1 for PQ, HLG's scene light of 75% signal.
    package var mixingWhite: Float { transfer == .pq ? 1 : Float(Self.hlgScene(signal: 0.75)) }

    /// Code values of two pictures' samples mixed in the mixing domain: each sample's light
    /// `outgoing·a + incoming·b + c`, encoded again (``code(mixingLight:)`` with its tables looked
    /// up once), to the same code values as ``code(mixingLight:)`` gives.
    ///
    /// Nothing is called per sample (with a closure and libm's rounding the mixing was a quarter
    /// of a 1080p HDR dissolve show's CPU), and the work goes in four passes over 1,024 samples
    /// at a time, so that the two without table look-ups vectorise: the light (two look-ups), the
    /// curve's position (square root, the whole part by ``floor(_:)``), the curve (two look-ups),
    /// the code (rounded by ``floor(_:)``, without a conversion's range check per sample). Each
    /// sample takes the same operations in the same order as in one loop: the same codes, in
    /// a third of the time (45 → 16 ms of CPU a 1080p frame, measured alone).
    package func mix(_ outgoing: UnsafePointer<UInt16>, _ incoming: UnsafePointer<UInt16>, count: Int,
                     a: Float, b: Float, c: Float, into codes: UnsafeMutablePointer<UInt16>) {
        let curve = transfer == .pq ? Self.pqCurve : Self.hlgCurve
        let scale: Float = transfer == .pq ? Float(Self.referenceWhite / Self.peak) : 1
        let steps = Float(Curve.steps)
        let (a, b, c) = (a * scale, b * scale, c * scale)
        let chunk = 1024
        mixingLight.withUnsafeBufferPointer { lightTable in
            curve.values.withUnsafeBufferPointer { table in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * chunk) { floats in
                    withUnsafeTemporaryAllocation(of: Int32.self, capacity: chunk) { indices in
                        let (light, values) = (lightTable.baseAddress!, table.baseAddress!)
                        let (fractions, signals, whole) = (floats.baseAddress!, floats.baseAddress! + chunk, indices.baseAddress!)
                        var start = 0
                        while start < count {
                            let n = min(chunk, count - start)
                            let (from, to, into) = (outgoing + start, incoming + start, codes + start)
                            for k in 0..<n {
                                fractions[k] = max(0, min(1, light[Int(from[k])] * a + light[Int(to[k])] * b + c))
                            }
                            Self.curveSignals(fractions, count: n, values: values, steps: steps, whole: whole, into: signals)
                            for k in 0..<n {
                                into[k] = UInt16(truncatingIfNeeded: Self.integer(Self.floor(max(0, min(65535, signals[k] * 65535 + 0.5)))))
                            }
                            start += n
                        }
                    }
                }
            }
        }
    }

    /// One sample of ``mix(_:_:count:a:b:c:into:)`` the plain way, one call and checked
    /// conversions per sample: what the passes must give, code for code (the tests hold them to it).
    package func mixedCode(_ outgoing: UInt16, _ incoming: UInt16, a: Float, b: Float, c: Float) -> UInt16 {
        let curve = transfer == .pq ? Self.pqCurve : Self.hlgCurve
        let scale: Float = transfer == .pq ? Float(Self.referenceWhite / Self.peak) : 1
        let light = mixingLight
        let x = max(0, min(1, light[Int(outgoing)] * (a * scale) + light[Int(incoming)] * (b * scale) + c * scale))
        return UInt16(max(0, min(65535, curve(x) * 65535 + 0.5)))
    }

    /// The whole part of `t`, 0 ≤ t < 2²², as `Float(Int(t))` gives it, without the conversion's
    /// range check (a branch per sample, which keeps a loop from vectorising): t plus 1.5 · 2²³
    /// rounds t to the nearest integer, one less when that is above t.
    @inline(__always) private static func floor(_ t: Float) -> Float {
        let nearest = (t + 12_582_912) - 12_582_912
        return nearest > t ? nearest - 1 : nearest
    }

    /// A whole number 0 ≤ n < 2²² given as a float: the low bits of n plus 1.5 · 2²³.
    @inline(__always) private static func integer(_ n: Float) -> Int32 {
        Int32(bitPattern: (n + 12_582_912).bitPattern & 0x3F_FFFF)
    }

    /// The code value of light in the mixing domain.
    @inline(__always) package func code(mixingLight light: Float) -> UInt16 {
        switch transfer {
        case .pq: Self.code(Self.pqCurve(max(0, min(1, light * Float(Self.referenceWhite / Self.peak)))))
        case .hlg: Self.code(Self.hlgCurve(max(0, min(1, light))))
        }
    }

    /// PQ's EOTF: signal 0…1 → cd/m².
    package static func pqDisplayNits(signal e: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(0, e), 1 / m2)
        return 10000 * pow(max(0, p - c1) / (c2 - c3 * p), 1 / m1)
    }

    /// HLG's inverse OETF: signal 0…1 → scene light 0…1.
    package static func hlgScene(signal e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }

    @inline(__always) private static func code(_ signal: Float) -> UInt16 {
        UInt16(max(0, min(65535, (signal * 65535).rounded())))
    }
}
