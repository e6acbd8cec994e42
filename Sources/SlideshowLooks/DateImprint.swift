import SlideshowMetadata
import SlideshowPixels

/// The date a film camera printed in the corner of the picture: orange seven-segment digits
/// with a faint glow, drawn without any font.
///
/// Drawn on each slide whose photo has an EXIF capture date (``CaptureDate``), after the look
/// and inside the picture (the content rectangle), at its lower right, sized by the picture's
/// shorter side `s` rather than by the frame: digits `0.05 s` tall, `0.06 s` from the right and
/// bottom edges, slanted like a data back's. Each segment is a capsule (a thick line with round
/// ends); a pixel's coverage comes from its distance to the nearest segment, so the edges are
/// smooth at any size, and the glow fades out over `0.35` of a digit's height around them.
/// The glow is added as light (a screen blend: it cannot darken, and vanishes on white), the
/// digits laid over it. The arithmetic is `Float` with no fused operations, so the bytes are
/// the same on every run.
public struct DateImprint: Sendable, Hashable {
    /// How the date is written.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// `'08 10 22`: year, month, day, the film-camera default.
        case ymd
        /// `10 22 '08`: month, day, year (the American data backs).
        case mdy
        /// `22 10 '08`: day, month, year.
        case dmy
        /// `2008-10-22`.
        case iso

        /// The example the help and README show.
        public var example: String {
            switch self {
            case .ymd: "'YY M D"
            case .mdy: "M D 'YY"
            case .dmy: "D M 'YY"
            case .iso: "YYYY-MM-DD"
            }
        }
    }

    /// How the date is written; ``Format/ymd`` by default.
    public var format: Format

    /// The imprint's colour, the orange of a data back's lamp.
    public static let color = RGBColor(red: 255, green: 138, blue: 36)

    /// The part of the frame the digits and their glow stay inside besides the picture (a
    /// platform's safe area); nil: anywhere in the picture, as film cameras printed it.
    public var safeArea: SafeArea?

    /// Creates an imprint.
    public init(format: Format = .ymd, safeArea: SafeArea? = nil) {
        self.format = format
        self.safeArea = safeArea
    }

    /// The characters printed for a date: digits, `'`, `-` and spaces.
    public func text(for date: CaptureDate) -> String {
        let yy = date.year % 100 < 10 ? "0\(date.year % 100)" : "\(date.year % 100)"
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        switch format {
        case .ymd: return "'\(yy) \(date.month) \(date.day)"
        case .mdy: return "\(date.month) \(date.day) '\(yy)"
        case .dmy: return "\(date.day) \(date.month) '\(yy)"
        case .iso: return "\(date.year)-\(two(date.month))-\(two(date.day))"
        }
    }

    /// Where the digits go in a picture: the rectangle the characters span (without the glow).
    /// With a ``safeArea``, moved left and up as far as it takes for the digits and their glow
    /// to lie inside it too, in a frame of `frame`'s size.
    public func layout(text: String, in picture: Rect, frame: Size? = nil) -> (origin: (x: Double, y: Double), digitHeight: Double, width: Double) {
        let shortSide = Double(min(picture.width, picture.height))
        let height = max(6, (0.05 * shortSide).rounded())
        let margin = 0.06 * shortSide
        let width = Self.advance(of: text) * height
        var right = Double(picture.maxX) - margin, bottom = Double(picture.maxY) - margin
        if let safeArea, let frame {
            let safe = safeArea.rect(in: frame), glow = (Self.thickness / 2 + Self.glowReach) * height + 1
            right = min(right, Double(safe.maxX) - glow)
            bottom = min(bottom, Double(safe.maxY) - glow)
        }
        let x = right - width
        let y = bottom - height
        return ((x, y), height, width)
    }

    /// Draws the date for `date` on the buffer's picture.
    /// - Parameters:
    ///   - date: the photo's capture date.
    ///   - buffer: the slide; only pixels inside its content rectangle change.
    public func draw(_ date: CaptureDate, on buffer: inout PixelBuffer) {
        let text = text(for: date)
        let picture = buffer.contentRect
        let (origin, h, _) = layout(text: text, in: picture, frame: buffer.size)
        let segments = Self.segments(of: text, height: h, at: origin)
        guard !segments.isEmpty else { return }
        let half = Float(Self.thickness * h / 2), glowReach = Float(Self.glowReach * h)
        let reach = Double(half + glowReach) + 1
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for s in segments {
            minX = min(minX, Double(min(s.x0, s.x1))); maxX = max(maxX, Double(max(s.x0, s.x1)))
            minY = min(minY, Double(min(s.y0, s.y1))); maxY = max(maxY, Double(max(s.y0, s.y1)))
        }
        let x0 = max(Int((minX - reach).rounded(.down)), picture.x, 0), x1 = min(Int((maxX + reach).rounded(.up)), picture.maxX, buffer.width)
        let y0 = max(Int((minY - reach).rounded(.down)), picture.y, 0), y1 = min(Int((maxY + reach).rounded(.up)), picture.maxY, buffer.height)
        guard x0 < x1, y0 < y1 else { return }
        let color = (Float(Self.color.red), Float(Self.color.green), Float(Self.color.blue))
        let width = buffer.width
        buffer.withUnsafeMutableBufferPointer { pixels in
            for y in y0..<y1 {
                let py = Float(y) + 0.5
                for x in x0..<x1 {
                    let px = Float(x) + 0.5
                    var distance = Float.infinity
                    for s in segments where px > s.left - Float(reach) && px < s.right + Float(reach) {
                        distance = min(distance, s.distance(px, py))
                    }
                    let edge = distance - half
                    let core = min(max(0.5 - edge, 0), 1)
                    let fade = min(max(1 - edge / glowReach, 0), 1)
                    let glow = Float(Self.glowStrength) * fade * fade
                    guard core > 0 || glow > 0 else { continue }
                    let at = (y * width + x) * 3
                    func blend(_ base: UInt8, _ c: Float) -> UInt8 {
                        let b = Float(base)
                        let lit = b + (c * glow) * (1 - b / 255)           // screen
                        let out = lit + (c - lit) * core                    // over
                        return SepiaTables.rounded(min(max(out, 0), 255))
                    }
                    pixels[at] = blend(pixels[at], color.0)
                    pixels[at + 1] = blend(pixels[at + 1], color.1)
                    pixels[at + 2] = blend(pixels[at + 2], color.2)
                }
            }
        }
    }

    /// A segment's thickness, in digit heights.
    package static let thickness = 0.15
    /// How far the glow reaches beyond a segment's edge, in digit heights.
    package static let glowReach = 0.35
    /// The glow's strength at a segment's edge.
    package static let glowStrength = 0.45
    /// The slant: x moves right by this much per unit of height above the baseline.
    package static let slant = 0.1

    /// The width of a character and the space after it, in digit heights.
    package static func advance(of character: Character) -> Double {
        switch character {
        case "'": 0.3
        case " ": 0.3
        case "-": 0.6
        default: 0.72
        }
    }

    package static func advance(of text: String) -> Double {
        text.reduce(0) { $0 + advance(of: $1) } - 0.17
    }

    /// Which of the seven segments (a to g, bit 0 to 6) light up for each digit.
    package static let digitSegments: [Character: UInt8] = [
        "0": 0b0111111, "1": 0b0000110, "2": 0b1011011, "3": 0b1001111, "4": 0b1100110,
        "5": 0b1101101, "6": 0b1111101, "7": 0b0000111, "8": 0b1111111, "9": 0b1101111, "-": 0b1000000,
    ]

    /// A capsule's axis, in frame pixels.
    package struct Segment: Hashable {
        package var x0: Float, y0: Float, x1: Float, y1: Float
        package var left: Float { min(x0, x1) }
        package var right: Float { max(x0, x1) }

        /// The distance from a point to the axis.
        package func distance(_ px: Float, _ py: Float) -> Float {
            let dx = x1 - x0, dy = y1 - y0
            let length = dx * dx + dy * dy
            var t = length > 0 ? ((px - x0) * dx + (py - y0) * dy) / length : 0
            t = min(max(t, 0), 1)
            let ex = px - (x0 + t * dx), ey = py - (y0 + t * dy)
            return (ex * ex + ey * ey).squareRoot()
        }
    }

    /// The segments of a text whose first character's top left is `origin`.
    package static func segments(of text: String, height h: Double, at origin: (x: Double, y: Double)) -> [Segment] {
        let t = thickness * h, w = 0.55 * h, gap = 0.05 * h
        let inset = t / 2
        // Segment axes in a character's own box (x right, y down), then slanted and placed.
        let top = inset, middle = h / 2, bottom = h - inset
        let leftX = inset, rightX = w - inset
        let axes: [(Double, Double, Double, Double)] = [
            (leftX + gap, top, rightX - gap, top),            // a
            (rightX, top + gap, rightX, middle - gap),        // b
            (rightX, middle + gap, rightX, bottom - gap),     // c
            (leftX + gap, bottom, rightX - gap, bottom),      // d
            (leftX, middle + gap, leftX, bottom - gap),       // e
            (leftX, top + gap, leftX, middle - gap),          // f
            (leftX + gap, middle, rightX - gap, middle),      // g
        ]
        var segments: [Segment] = []
        var x = origin.x
        func place(_ ax: Double, _ ay: Double) -> (Float, Float) {
            (Float(x + ax + slant * (h - ay)), Float(origin.y + ay))
        }
        for character in text {
            if character == "'" {
                let (sx0, sy0) = place(0.12 * h, inset)
                let (sx1, sy1) = place(0.1 * h, 0.3 * h)
                segments.append(Segment(x0: sx0, y0: sy0, x1: sx1, y1: sy1))
            } else if let mask = digitSegments[character] {
                for (bit, axis) in axes.enumerated() where mask & (1 << bit) != 0 {
                    let (sx0, sy0) = place(axis.0, axis.1)
                    let (sx1, sy1) = place(axis.2, axis.3)
                    segments.append(Segment(x0: sx0, y0: sy0, x1: sx1, y1: sy1))
                }
            }
            x += advance(of: character) * h
        }
        return segments
    }
}
