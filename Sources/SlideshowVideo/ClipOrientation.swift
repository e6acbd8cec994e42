import SlideshowPixels

/// How a clip's pictures are turned to stand upright: the display matrix reduced to one of
/// the eight right-angle orientations.
///
/// A display matrix `[a b u; c d v; x y w]` (16.16 fixed point, row vectors) maps a coded
/// pixel `(x, y)` to `(a·x + c·y, b·x + d·y)` on screen, y pointing down. Phones write pure
/// rotations (iPhone portrait: `[0 1; −1 0]`, which ffprobe shows as `rotation=-90`, i.e. turn
/// 90° clockwise to view); a negative determinant adds a mirror image.
public struct ClipOrientation: Sendable, Hashable, CustomStringConvertible {
    /// The signs of the matrix's 2×2 part, each −1, 0 or 1.
    public var a: Int, b: Int, c: Int, d: Int

    /// No turn.
    public static let upright = ClipOrientation(a: 1, b: 0, c: 0, d: 1)

    public init(a: Int, b: Int, c: Int, d: Int) {
        (self.a, self.b, self.c, self.d) = (a, b, c, d)
    }

    /// The orientation of a display matrix, snapped to right angles; nil when the matrix is
    /// degenerate or not a right-angle turn (a rotation of, say, 30°: played unturned).
    package init?(matrix m: [Int32]) {
        guard m.count >= 5 else { return nil }
        func sign(_ v: Int32) -> Int { abs(Double(v)) < 65536 * 0.5 ? 0 : (v > 0 ? 1 : -1) }
        let o = ClipOrientation(a: sign(m[0]), b: sign(m[1]), c: sign(m[3]), d: sign(m[4]))
        guard abs(o.a * o.d - o.b * o.c) == 1, (o.a == 0) == (o.d == 0), (o.b == 0) == (o.c == 0) else { return nil }
        self = o
    }

    /// Whether width and height trade places.
    public var swapsAxes: Bool { a == 0 }
    /// Whether the picture is mirrored (the matrix's determinant is negative).
    public var isMirrored: Bool { a * d - b * c < 0 }
    /// The clockwise turn, in degrees (0, 90, 180 or 270), applied after any mirroring of x.
    public var clockwiseDegrees: Int {
        // Undo the mirror (x → −x) first, then read the pure rotation.
        let (ra, rb) = isMirrored ? (-a, -b) : (a, b)
        switch (ra, rb) {
        case (1, 0): return 0
        case (0, 1): return 90
        case (-1, 0): return 180
        default: return 270
        }
    }

    /// The upright size of a coded size.
    public func upright(_ size: Size) -> Size {
        swapsAxes ? Size(width: size.height, height: size.width) : size
    }

    public var description: String {
        isMirrored ? "mirrored, then turned \(clockwiseDegrees)° clockwise" : "turned \(clockwiseDegrees)° clockwise"
    }

    /// Turns a buffer upright (a copy; the same buffer when upright).
    package func apply(to source: PixelBuffer) -> PixelBuffer {
        if self == .upright { return source }
        let w = source.width, h = source.height
        let out = upright(source.size)
        // Where source pixel (0, 0) lands, and the step in the output for one step in x and y.
        let originX = (a < 0 ? w - 1 : 0) + (c < 0 ? h - 1 : 0)
        let originY = (b < 0 ? w - 1 : 0) + (d < 0 ? h - 1 : 0)
        let stepX = a * 3 + b * out.width * 3, stepY = c * 3 + d * out.width * 3
        var result = PixelBuffer(size: out)
        source.withUnsafeBytes { input in
            result.withUnsafeMutableBufferPointer { output in
                let base = (originY * out.width + originX) * 3
                for y in 0..<h {
                    var target = base + y * stepY
                    var offset = y * w * 3
                    for _ in 0..<w {
                        output[target] = input[offset]
                        output[target + 1] = input[offset + 1]
                        output[target + 2] = input[offset + 2]
                        target += stepX
                        offset += 3
                    }
                }
            }
        }
        return result
    }
}
