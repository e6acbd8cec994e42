import SlideshowPixels

/// `sepia`: the classic sepia-tone matrix, blended with the original by an intensity.
///
/// For each pixel inside the buffer's content rectangle, with r, g, b the stored 8-bit values
/// (gamma-encoded sRGB, as every look here works):
///
///     s_r = min(0.393 r + 0.769 g + 0.189 b, 255)
///     s_g = min(0.349 r + 0.686 g + 0.168 b, 255)
///     s_b = min(0.272 r + 0.534 g + 0.131 b, 255)
///     out = c + (s − c) · intensity            (rounded to the nearest integer)
///
/// The matrix is the one Microsoft published for its sepia tone and that most photo apps use;
/// the camera app among the sources ran Core Image's `CISepiaTone` at 0.8, which blends the
/// same way. The sums are lookup tables (one per matrix entry, intensity folded in), so a
/// pixel costs nine additions, three minimums and no multiplication by a parameter. Bars
/// outside the content rectangle are untouched.
public struct SepiaLook: Look {
    /// How much of the sepia tone replaces the original, 0 (none) to 1 (all).
    public let intensity: Double

    /// The default intensity, the camera app's 0.8.
    public static let defaultIntensity = 0.8

    /// The sepia matrix, rows red, green, blue of the output; columns the input's r, g, b.
    public static let matrix: [[Double]] = [
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
    ]

    /// Per input channel, 256 entries each: `matrix[out][in] · v · intensity` for the three
    /// outputs, interleaved as `[in][v][out]`, then `(1 − intensity) · v`.
    private let tables: SepiaTables

    /// Creates a sepia look.
    /// - Parameters:
    ///   - intensity: 0 (no change) to 1 (the full sepia tone); 0.8 by default.
    /// - Precondition: `intensity` is in 0...1.
    public init(intensity: Double = SepiaLook.defaultIntensity) {
        precondition(intensity >= 0 && intensity <= 1, "sepia intensity must be in 0...1")
        self.intensity = intensity
        tables = SepiaTables(intensity: intensity)
    }

    /// `sepia`, followed by `:intensity=…` when it is not the default.
    public var name: String {
        intensity == Self.defaultIntensity ? "sepia" : "sepia:intensity=\(LookParameter.format(intensity))"
    }

    /// Applies the tone in place, inside the buffer's content rectangle.
    /// - Parameters:
    ///   - buffer: the slide; its bars are not touched.
    ///   - slideIndex: unused: sepia is the same on every slide.
    public func apply(to buffer: inout PixelBuffer, slideIndex: Int) {
        guard intensity > 0 else { return }
        tables.apply(to: &buffer)
    }
}

/// The sepia look's tables and its row loop.
///
/// Everything is on the 8-bit scale in `Float`. The clamp to 255 is on the full sepia value,
/// before the blend, so the tables hold the unweighted matrix products and the blend runs per
/// pixel: `keep[c] + min(sepia, 255) · intensity`. Both terms are exact to `Float` precision
/// (about 10⁻⁵ of a step), so the rounding is the reference's except for values within that of
/// a half.
package final class SepiaTables: Sendable {
    /// `matrix[out][in] · v` at `[(in · 256 + v) · 3 + out]`.
    package let products: [Float]
    /// `(1 − intensity) · v`.
    package let keep: [Float]
    package let intensity: Float

    package init(intensity: Double) {
        var products = [Float](repeating: 0, count: 3 * 256 * 3)
        for input in 0..<3 {
            for v in 0..<256 {
                for output in 0..<3 {
                    products[(input * 256 + v) * 3 + output] = Float(SepiaLook.matrix[output][input] * Double(v))
                }
            }
        }
        self.products = products
        keep = (0..<256).map { Float((1 - intensity) * Double($0)) }
        self.intensity = Float(intensity)
    }

    package func apply(to buffer: inout PixelBuffer) {
        let width = buffer.width
        let content = buffer.contentRect
        let x0 = max(content.x, 0), x1 = min(content.maxX, width)
        let y0 = max(content.y, 0), y1 = min(content.maxY, buffer.height)
        guard x0 < x1, y0 < y1 else { return }
        let intensity = self.intensity
        buffer.withUnsafeMutableBufferPointer { pixels in
            products.withUnsafeBufferPointer { products in
                keep.withUnsafeBufferPointer { keep in
                    let p = products.baseAddress!, k = keep.baseAddress!
                    let red = p, green = p + 768, blue = p + 1536
                    for y in y0..<y1 {
                        var pixel = pixels.baseAddress! + (y * width + x0) * 3
                        for _ in x0..<x1 {
                            let r = Int(pixel[0]) &* 3, g = Int(pixel[1]) &* 3, b = Int(pixel[2]) &* 3
                            let sr = min(red[r] + green[g] + blue[b], 255)
                            let sg = min(red[r &+ 1] + green[g &+ 1] + blue[b &+ 1], 255)
                            let sb = min(red[r &+ 2] + green[g &+ 2] + blue[b &+ 2], 255)
                            pixel[0] = Self.rounded(k[Int(pixel[0])] + sr * intensity)
                            pixel[1] = Self.rounded(k[Int(pixel[1])] + sg * intensity)
                            pixel[2] = Self.rounded(k[Int(pixel[2])] + sb * intensity)
                            pixel += 3
                        }
                    }
                }
            }
        }
    }

    /// A value in [0, 255] rounded to the nearest integer (ties to even), by adding 1.5 · 2²³.
    @inline(__always)
    package static func rounded(_ value: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (value + 0x1.8p23).bitPattern)
    }
}

/// Each pixel's tone is its own values through the tables (``SepiaTables/apply(to:)``).
extension SepiaLook: PixelwiseLook {}
