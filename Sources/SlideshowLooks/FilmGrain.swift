/// The film grain's random numbers: a counter-based hash of the slide and the pixel position.
///
/// There is no generator state to carry from pixel to pixel, so the grain of any pixel can be
/// computed on its own, in any order and on any thread, and comes out the same on every run and
/// every platform (only integer arithmetic is involved). The hash is SplitMix64 (Steele, Lea and
/// Flood, 2014): a Weyl sequence whose step is the golden-ratio constant, through the Stafford
/// "variant 13" finaliser.
///
/// - The slide's index picks the sequence: the index goes through the finaliser once to make a
///   seed, so neighbouring slides get unrelated grain.
/// - The pixel's position `(x, y)`, counted in the whole buffer (not the content rectangle), is
///   the counter `y << 32 | x`; the texture of a pixel therefore does not depend on the buffer's
///   width, and a pixel keeps its grain when the letterbox changes.
/// - One 64-bit result gives the three uniform numbers, 21 bits each: bits 43–63 are red,
///   22–42 green and 1–21 blue, each divided by 2²¹ − 1 so that both 0 and 1 can occur.
package enum FilmGrain {
    /// The Weyl step, 2⁶⁴ divided by the golden ratio, odd.
    package static let weylStep: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Added to the slide's index before it is mixed, so that slide 0 does not map to seed 0.
    package static let slideOffset: UInt64 = 0x5851_F42D_4C95_7F2D

    /// The largest 21-bit value, the divisor that maps a 21-bit sample onto [0, 1].
    package static let sampleMaximum: UInt64 = (1 << 21) - 1

    /// SplitMix64's finaliser: a bijection on 64-bit values with full avalanche.
    @inline(__always)
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of a slide's grain.
    @inline(__always)
    package static func seed(slideIndex: Int) -> UInt64 {
        mix(UInt64(bitPattern: Int64(slideIndex)) &+ slideOffset)
    }

    /// The Weyl-sequence value of the first pixel of a row, `seed + (y << 32) · step`.
    ///
    /// The pixel at `x` in that row is `rowStart(…) &+ UInt64(x) &* weylStep`, which is what the
    /// row loops step through, one `weylStep` at a time.
    @inline(__always)
    package static func rowStart(seed: UInt64, y: Int) -> UInt64 {
        seed &+ (UInt64(truncatingIfNeeded: y) << 32) &* weylStep
    }

    /// The 64 random bits of one pixel.
    package static func bits(slideIndex: Int, x: Int, y: Int) -> UInt64 {
        mix(rowStart(seed: seed(slideIndex: slideIndex), y: y) &+ UInt64(truncatingIfNeeded: x) &* weylStep)
    }

    /// The three 21-bit samples held in a pixel's random bits.
    @inline(__always)
    package static func samples(_ bits: UInt64) -> (red: UInt64, green: UInt64, blue: UInt64) {
        (bits >> 43, (bits >> 22) & sampleMaximum, (bits >> 1) & sampleMaximum)
    }
}
