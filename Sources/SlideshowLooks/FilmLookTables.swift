import Foundation
import SlideshowPixels

/// A ``FilmLook``'s lookup tables and the row loops that run on them.
///
/// Everything a pixel needs that does not depend on the grain is looked up by its 8-bit
/// channel values: the kernel's `pow` is evaluated here, once per look, never per pixel.
/// Values are held on the 8-bit scale (a value v in [0, 1] as `v · 255`).
///
/// - Background: `0.2126 r + 0.7152 g + 0.0722 b` is the sum of three per-channel entries.
/// - Colour kernel: the kernel acts on each channel alone, so one table over the 256 levels
///   gives it exactly (to `Float` precision).
/// - Monochrome kernel: the kernel depends on the pixel only through the Rec. 601 grey of the
///   lifted channels, the sum of three per-channel entries in 24-bit fixed point (an error of at
///   most 1.5 · 2⁻²⁴). Its top 13 bits pick an entry of a table over 8192 grey levels and the
///   low 11 bits interpolate linearly to the next. For the built-in looks this is within 10⁻⁶
///   of the exact kernel; for any gamma the interpolation error is at most `sqrt(1/8192) / 4`
///   on [0, 1] (under one 8-bit step), reached only in the darkest grey level when gamma is
///   below 1.
/// - Violet shadows: the kernel's luma is compared with 0.3 in `Float`, so a pixel whose luma
///   is within about 10⁻⁶ of 0.3 may fall on either side of the threshold.
/// - Mask: Core Image's colour controls followed by taking the green channel are, before the
///   clamp, a linear function of the three random numbers: exact integer weights on the hash's
///   21-bit samples (scaled by 2³²; an error under 2.5 · 10⁻⁴ in the mask), then a clamp.
/// - Blend: `B + (K − B) · m` in `Float`, clamped to [0, 255] and rounded to the nearest
///   integer by adding 1.5 · 2²³ and reading the low bits (no checked conversion). When every
///   kernel value lies in [0, 255], as it does for the built-in looks, the blend lies between
///   two values in [0, 255] and the clamp is left out.
///
/// The row loops clamp with `Float` minimum and maximum rather than integer comparisons: the
/// grain is random, the compiler turns integer clamps in a loop into branches, and those
/// branches would be mispredicted. The per-pixel arithmetic is integer or IEEE 754 single
/// precision with no fused multiply-add, so it gives the same bytes on every platform; the
/// tables come from `pow` in `Double` rounded to `Float`, so a platform whose `pow` differed in
/// the last bit would change an entry only where that bit crosses a `Float` rounding boundary.
///
/// The loops run on one thread: a 1920x1080 slide takes under 10 ms (release build), and the
/// renderer's other core is better spent decoding and encoding.
///
/// The class is immutable once made: every stored property is a `let` of a `Sendable` value,
/// so it is `Sendable`, and one instance is shared by all copies of a look.
package final class FilmLookTables: Sendable {
    /// The number of grey levels the monochrome kernel's table spans, 2¹³.
    package static let greyLevels = 1 << 13
    /// The fixed-point bits of the monochrome grey sum: 1.0 is `1 << greyBits`.
    package static let greyBits = 24
    /// The bits of the grey sum below the table index, used to interpolate.
    package static let greyFractionBits = greyBits - 13
    /// The scale of the mask's integer weights: the mask's 1 is 2³².
    package static let maskScale = Double(1 << 32)

    /// Where each table starts in ``floats``.
    package static let backgroundOffset = 0, channelKernelOffset = 768, greyKernelOffset = 1024

    /// Whether the kernel works on grey.
    package let monochrome: Bool
    /// Whether the kernel tints the shadows.
    package let violetShadows: Bool
    /// Whether a blend can leave [0, 255] (only when a kernel value does) and must be clamped.
    package let clampsOutput: Bool
    /// The `Float` tables on the 8-bit scale, one after another: the background's red, green
    /// and blue contributions (256 entries each), the colour kernel (256), the monochrome
    /// kernel (`greyLevels + 2` entries: the interpolation's upper neighbour and the grey
    /// sum's rounding excess).
    package let floats: [Float]
    /// The monochrome kernel's grey contributions of red, green and blue (256 each), in
    /// `greyBits` fixed point, after the exposure.
    package let greyWeights: [Int32]
    /// The mask's weights for the red, green and blue 21-bit samples, and its offset, all
    /// scaled by 2³²: the mask is `clamp((red · r + green · g + blue · b + offset) / 2³², 0, 1)`.
    package let mask: (red: Int, green: Int, blue: Int, offset: Int)
    /// The violet tint on the 8-bit scale.
    package let tint: (red: Float, green: Float, blue: Float)
    /// The violet tint's luminance threshold, 0.3, on the 8-bit scale.
    package let tintThreshold: Float

    /// Evaluates a look's parameters into tables; see ``FilmLook`` for what they mean.
    package init(exposure: Double, contrast: Double, gamma: Double, monochrome: Bool, violetShadows: Bool, grain: FilmLook.GrainMask) {
        self.monochrome = monochrome
        self.violetShadows = violetShadows

        func lifted(_ level: Int) -> Double { min(max(Double(level) / 255 + exposure, 0), 1) }
        func tone(_ value: Double) -> Double { pow(max((value - 0.5) * contrast + 0.5, 0), gamma) }

        let greyLevels = Self.greyLevels
        var floats = [Float](repeating: 0, count: Self.greyKernelOffset + greyLevels + 2)
        for level in 0..<256 {
            floats[Self.backgroundOffset + level] = Float(0.2126 * Double(level))
            floats[Self.backgroundOffset + 256 + level] = Float(0.7152 * Double(level))
            floats[Self.backgroundOffset + 512 + level] = Float(0.0722 * Double(level))
            floats[Self.channelKernelOffset + level] = Float(tone(lifted(level)) * 255)
        }
        var greyWeights = [Int32](repeating: 0, count: 768)
        if monochrome {
            for index in 0..<(greyLevels + 2) {
                floats[Self.greyKernelOffset + index] = Float(tone(Double(index) / Double(greyLevels)) * 255)
            }
            let one = Double(1 << Self.greyBits)
            for level in 0..<256 {
                greyWeights[level] = Int32((0.299 * lifted(level) * one).rounded())
                greyWeights[256 + level] = Int32((0.587 * lifted(level) * one).rounded())
                greyWeights[512 + level] = Int32((0.114 * lifted(level) * one).rounded())
            }
        }
        self.floats = floats
        self.greyWeights = greyWeights
        let kernels = monochrome
            ? floats[Self.greyKernelOffset...]
            : floats[Self.channelKernelOffset..<(Self.channelKernelOffset + 256)]
        clampsOutput = !kernels.allSatisfy { $0 >= 0 && $0 <= 255 }

        // m = contrast · (L + (g − L) · saturation + brightness − 0.5) + 0.5, L the Rec. 709
        // luminance of the random (r, g, b): linear in r, g, b, each a 21-bit sample / maximum.
        let sampleScale = Self.maskScale / Double(FilmGrain.sampleMaximum)
        let c = grain.contrast, s = grain.saturation
        func weight(_ value: Double) -> Int {
            // Held within ±2³⁹ (a mask far beyond any use), where no sum can overflow.
            Int(max(min(value, 0x1p39), -0x1p39).rounded())
        }
        mask = (
            red: weight(c * (1 - s) * 0.2126 * sampleScale),
            green: weight(c * (s + (1 - s) * 0.7152) * sampleScale),
            blue: weight(c * (1 - s) * 0.0722 * sampleScale),
            offset: weight((c * (grain.brightness - 0.5) + 0.5) * Self.maskScale)
        )
        let violet = FilmLook.violetShadowTint
        tint = (Float(violet.red * 255), Float(violet.green * 255), Float(violet.blue * 255))
        tintThreshold = Float(FilmLook.violetShadowThreshold * 255)
    }

    /// Applies the look to the pixels inside the buffer's content rectangle.
    package func apply(to buffer: inout PixelBuffer, slideIndex: Int) {
        let width = buffer.width
        let content = buffer.contentRect
        let x0 = max(content.x, 0), x1 = min(content.maxX, width)
        let y0 = max(content.y, 0), y1 = min(content.maxY, buffer.height)
        guard x0 < x1, y0 < y1 else { return }
        let seed = FilmGrain.seed(slideIndex: slideIndex)

        buffer.withUnsafeMutableBufferPointer { pixels in
            floats.withUnsafeBufferPointer { floats in
                greyWeights.withUnsafeBufferPointer { greyWeights in
                    let pixels = pixels.baseAddress!, floats = floats.baseAddress!, greyWeights = greyWeights.baseAddress!
                    for y in y0..<y1 {
                        let row = pixels + (y * width + x0) * 3
                        let key = FilmGrain.rowStart(seed: seed, y: y) &+ UInt64(x0) &* FilmGrain.weylStep
                        let count = x1 - x0
                        // Literal flags, so that each case compiles to a loop of its own.
                        switch (monochrome, violetShadows, clampsOutput) {
                        case (true, false, false):
                            monochromeRow(row, count, key, floats, greyWeights, violet: false, clamp: false)
                        case (true, false, true):
                            monochromeRow(row, count, key, floats, greyWeights, violet: false, clamp: true)
                        case (true, true, false):
                            monochromeRow(row, count, key, floats, greyWeights, violet: true, clamp: false)
                        case (true, true, true):
                            monochromeRow(row, count, key, floats, greyWeights, violet: true, clamp: true)
                        case (false, false, false):
                            colorRow(row, count, key, floats, violet: false, clamp: false)
                        case (false, false, true):
                            colorRow(row, count, key, floats, violet: false, clamp: true)
                        case (false, true, false):
                            colorRow(row, count, key, floats, violet: true, clamp: false)
                        case (false, true, true):
                            colorRow(row, count, key, floats, violet: true, clamp: true)
                        }
                    }
                }
            }
        }
    }

    /// The grain mask of the pixel whose Weyl value is `key`, in [0, 1].
    @inline(__always)
    private func maskValue(_ key: UInt64) -> Float {
        let samples = FilmGrain.samples(FilmGrain.mix(key))
        let sum = Int(truncatingIfNeeded: samples.red) &* mask.red
            &+ Int(truncatingIfNeeded: samples.green) &* mask.green
            &+ Int(truncatingIfNeeded: samples.blue) &* mask.blue
            &+ mask.offset
        return min(max(Float(sum) * 0x1p-32, 0), 1)
    }

    /// `background + (kernel − background) · m` on the 8-bit scale, clamped to [0, 255] if
    /// `clamp`, and rounded to the nearest integer (ties to even).
    @inline(__always)
    private func blend(_ background: Float, _ kernel: Float, _ m: Float, clamp: Bool) -> UInt8 {
        var value = background + (kernel - background) * m
        if clamp { value = min(max(value, 0), 255) }
        // 1.5 · 2²³ has a unit in the last place of 1: adding it rounds, and the integer is the
        // low bits of the sum's representation.
        return UInt8(truncatingIfNeeded: (value + 0x1.8p23).bitPattern)
    }

    /// One row of a monochrome look: `count` pixels from `row`, the first with Weyl value `key`.
    @inline(__always)
    private func monochromeRow(
        _ row: UnsafeMutablePointer<UInt8>, _ count: Int, _ key: UInt64,
        _ floats: UnsafePointer<Float>, _ greyWeights: UnsafePointer<Int32>, violet: Bool, clamp: Bool
    ) {
        let background = floats + Self.backgroundOffset
        let kernel = floats + Self.greyKernelOffset
        let fractionMask = Int32(1 << Self.greyFractionBits) - 1
        let fractionScale = 1 / Float(1 << Self.greyFractionBits)
        var key = key
        var pixel = row
        for _ in 0..<count {
            let r = Int(pixel[0]), g = Int(pixel[1]), b = Int(pixel[2])
            let m = maskValue(key)
            key &+= FilmGrain.weylStep

            let back = background[r] + background[256 &+ g] + background[512 &+ b]
            let grey = greyWeights[r] &+ greyWeights[256 &+ g] &+ greyWeights[512 &+ b]
            let index = Int(grey &>> Int32(Self.greyFractionBits))
            let fraction = Float(grey & fractionMask) * fractionScale
            let low = kernel[index], high = kernel[index &+ 1]
            let k = low + (high - low) * fraction

            if violet {
                let shadow: Float = k < tintThreshold ? 1 : 0
                pixel[0] = blend(back, k + tint.red * shadow, m, clamp: clamp)
                pixel[1] = blend(back, k + tint.green * shadow, m, clamp: clamp)
                pixel[2] = blend(back, k + tint.blue * shadow, m, clamp: clamp)
            } else {
                let out = blend(back, k, m, clamp: clamp)
                pixel[0] = out
                pixel[1] = out
                pixel[2] = out
            }
            pixel += 3
        }
    }

    /// One row of a colour look: `count` pixels from `row`, the first with Weyl value `key`.
    @inline(__always)
    private func colorRow(
        _ row: UnsafeMutablePointer<UInt8>, _ count: Int, _ key: UInt64,
        _ floats: UnsafePointer<Float>, violet: Bool, clamp: Bool
    ) {
        let background = floats + Self.backgroundOffset
        let kernel = floats + Self.channelKernelOffset
        var key = key
        var pixel = row
        for _ in 0..<count {
            let r = Int(pixel[0]), g = Int(pixel[1]), b = Int(pixel[2])
            let m = maskValue(key)
            key &+= FilmGrain.weylStep

            let back = background[r] + background[256 &+ g] + background[512 &+ b]
            var kr = kernel[r], kg = kernel[g], kb = kernel[b]
            if violet {
                let luma = 0.2126 * kr + 0.7152 * kg + 0.0722 * kb
                let shadow: Float = luma < tintThreshold ? 1 : 0
                kr += tint.red * shadow
                kg += tint.green * shadow
                kb += tint.blue * shadow
            }
            pixel[0] = blend(back, kr, m, clamp: clamp)
            pixel[1] = blend(back, kg, m, clamp: clamp)
            pixel[2] = blend(back, kb, m, clamp: clamp)
            pixel += 3
        }
    }
}
