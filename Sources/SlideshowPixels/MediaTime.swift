/// A point in time as a rational number of seconds: `value / timescale`.
///
/// Presentation times are never floating-point seconds: a frame at 30 fps sits at exactly
/// `MediaTime(value: n, timescale: 30)`, the way `CMTime` and FFmpeg's `AVRational` time
/// bases keep them.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numerator.
    public var value: Int64
    /// Units per second; always positive.
    public var timescale: Int32

    /// Creates a time of `value / timescale` seconds.
    /// - Precondition: `timescale > 0`.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "a timescale is positive")
        self.value = value
        self.timescale = timescale
    }

    /// Time zero.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// The time in seconds, for display only.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// This time in another timescale, rounded to the nearest unit (halves away from zero).
    public func converted(to newTimescale: Int32) -> MediaTime {
        MediaTime(value: Self.rescale(value, from: timescale, to: newTimescale), timescale: newTimescale)
    }

    /// `value * to / from`, rounded to nearest, halves away from zero, without overflow for
    /// the magnitudes a video uses.
    package static func rescale(_ value: Int64, from: Int32, to: Int32) -> Int64 {
        let product = value.multipliedFullWidth(by: Int64(to))
        let numerator = Int64(truncatingIfNeeded: product.low)
        precondition(product.high == 0 || product.high == -1, "time value out of range")
        let divisor = Int64(from)
        let half = divisor / 2
        return numerator >= 0 ? (numerator + half) / divisor : (numerator - half) / divisor
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        // a/b < c/d  ⇔  a·d < c·b  (b, d > 0)
        Int64(lhs.value) * Int64(rhs.timescale) < Int64(rhs.value) * Int64(lhs.timescale)
    }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        Int64(lhs.value) * Int64(rhs.timescale) == Int64(rhs.value) * Int64(lhs.timescale)
    }

    public func hash(into hasher: inout Hasher) {
        // Equal times hash equally: reduce the fraction first.
        var a = abs(value), b = Int64(timescale)
        while b != 0 { (a, b) = (b, a % b) }
        let divisor = max(a, 1)
        hasher.combine(value / divisor)
        hasher.combine(Int64(timescale) / divisor)
    }

    /// `value/timescale`.
    public var description: String { "\(value)/\(timescale)" }
}
