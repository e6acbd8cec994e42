import SlideshowPixels

/// `vignette`: darkens the picture towards its corners, by distance from its centre.
///
/// For the pixel whose centre is (x + ½, y + ½), inside the content rectangle (the picture,
/// never the letterbox bars), with (cx, cy) the rectangle's centre and `h` its half-diagonal:
///
///     d      = √((x + ½ − cx)² + (y + ½ − cy)²) / h          (0 at the centre, 1 at a corner)
///     factor = clamp(1 − intensity · (d / radius)², 0, 1)
///     out    = c · factor                                     (each channel, rounded)
///
/// The fall-off is quadratic, like a lens's natural vignetting near the axis; `radius` is
/// where, in half-diagonals, the darkening would reach `intensity` itself. With the defaults
/// (intensity 1.5, radius 2.0, the camera app's `CIVignette` settings) the corners keep 0.625
/// of their brightness and the middle of a 16:9 picture's long edges 0.72. Because `d` is
/// relative to the picture's own half-diagonal, the vignette has the same shape on a portrait
/// between bars as on a landscape that fills the frame.
public struct VignetteLook: Look {
    /// How strongly the corners darken; 0 changes nothing.
    public let intensity: Double
    /// Where, in half-diagonals from the centre, the darkening reaches `intensity`.
    public let radius: Double

    /// The camera app's settings: intensity 1.5, radius 2.0.
    public static let defaultIntensity = 1.5
    /// See ``defaultIntensity``.
    public static let defaultRadius = 2.0

    /// Creates a vignette.
    /// - Parameters:
    ///   - intensity: 0 or more; 1.5 by default.
    ///   - radius: more than 0; 2.0 by default.
    /// - Precondition: `intensity >= 0`, `radius > 0`, both finite.
    public init(intensity: Double = VignetteLook.defaultIntensity, radius: Double = VignetteLook.defaultRadius) {
        precondition(intensity >= 0 && intensity.isFinite, "vignette intensity must be 0 or more")
        precondition(radius > 0 && radius.isFinite, "vignette radius must be positive")
        self.intensity = intensity
        self.radius = radius
    }

    /// `vignette`, followed by the parameters that are not the default, e.g. `vignette:radius=1.8`.
    public var name: String {
        var name = "vignette"
        if intensity != Self.defaultIntensity { name += ":intensity=\(LookParameter.format(intensity))" }
        if radius != Self.defaultRadius { name += ":radius=\(LookParameter.format(radius))" }
        return name
    }

    /// The factor a pixel's channels are multiplied by, from its offsets (in pixels, from the
    /// pixel's centre to the picture's centre) and the picture's size: the formula above in `Double`.
    public func factor(dx: Double, dy: Double, pictureWidth: Int, pictureHeight: Int) -> Double {
        let halfDiagonalSquared = (Double(pictureWidth) * Double(pictureWidth) + Double(pictureHeight) * Double(pictureHeight)) / 4
        let relative = (dx * dx + dy * dy) / halfDiagonalSquared / (radius * radius)
        return min(max(1 - intensity * relative, 0), 1)
    }

    /// Darkens the content rectangle in place.
    ///
    /// The squared offsets are a column table and a per-row value; a pixel costs an addition,
    /// a multiply-add, a clamp and three multiplications in `Float` (within 10⁻⁵ of a step of
    /// the formula in `Double`).
    /// - Parameters:
    ///   - buffer: the slide; its bars are not touched.
    ///   - slideIndex: unused: the vignette is the same on every slide.
    public func apply(to buffer: inout PixelBuffer, slideIndex: Int) {
        let width = buffer.width
        let content = buffer.contentRect
        let x0 = max(content.x, 0), x1 = min(content.maxX, width)
        let y0 = max(content.y, 0), y1 = min(content.maxY, buffer.height)
        guard intensity > 0, x0 < x1, y0 < y1 else { return }
        let w = Double(content.width), h = Double(content.height)
        let cx = Double(content.x) + w / 2, cy = Double(content.y) + h / 2
        // factor = 1 − k · (dx² + dy²), with k = intensity / (h² · radius²).
        let k = intensity / ((w * w + h * h) / 4) / (radius * radius)
        let columns = (x0..<x1).map { x -> Float in
            let dx = Double(x) + 0.5 - cx
            return Float(k * dx * dx)
        }
        buffer.withUnsafeMutableBufferPointer { pixels in
            columns.withUnsafeBufferPointer { columns in
                for y in y0..<y1 {
                    let dy = Double(y) + 0.5 - cy
                    let rowTerm = Float(k * dy * dy)
                    var pixel = pixels.baseAddress! + (y * width + x0) * 3
                    for column in columns {
                        let factor = min(max(1 - (column + rowTerm), 0), 1)
                        pixel[0] = SepiaTables.rounded(Float(pixel[0]) * factor)
                        pixel[1] = SepiaTables.rounded(Float(pixel[1]) * factor)
                        pixel[2] = SepiaTables.rounded(Float(pixel[2]) * factor)
                        pixel += 3
                    }
                }
            }
        }
    }
}
