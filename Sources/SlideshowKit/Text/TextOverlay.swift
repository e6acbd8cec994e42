/// Drawn text, ready to lay over a frame: premultiplied RGBA pixels and where they go.
///
/// Drawn once (a held slide's caption costs nothing on its held frames) and composited with
/// an opacity as often as needed (a caption fading in and out with its photo, or moving with
/// it through a transition).
public struct TextOverlay: Sendable, Equatable {
    /// Where the overlay goes in the frame, in the frame's pixels. Inside the frame and inside
    /// the title-safe area for every caption this library draws.
    public var rect: Rect
    /// `rect.width * rect.height * 4` bytes: R, G, B, A for each pixel, row after row, with
    /// each colour already multiplied by its alpha (8-bit, sRGB-encoded, like ``PixelBuffer``).
    public let pixels: [UInt8]

    /// Creates an overlay.
    /// - Precondition: `pixels.count == rect.width * rect.height * 4`.
    public init(rect: Rect, pixels: [UInt8]) {
        precondition(pixels.count == rect.width * rect.height * 4, "overlay pixel count does not match its rectangle")
        self.rect = rect
        self.pixels = pixels
    }

    /// The overlay's pixel at (x, y) relative to its own top left: premultiplied R, G, B, A.
    public subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = (y * rect.width + x) * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }
}

extension PixelBuffer {
    /// Lays `overlay` over the pixels with `opacity` (0: unchanged, 1: fully drawn).
    ///
    /// `source-over` in 8-bit sRGB values, rounded to nearest: `out = src·o + dst·(1 − a·o)`,
    /// where `src` is premultiplied. The part of the overlay outside the buffer is skipped.
    /// - Parameters:
    ///   - overlay: drawn text from a ``TextRenderer``.
    ///   - opacity: how much of it shows, clamped to 0…1; a caption fades with its photo.
    public mutating func composite(_ overlay: TextOverlay, opacity: Double = 1) {
        let o = Int((min(max(opacity, 0), 1) * 255).rounded())
        guard o > 0 else { return }
        let rect = overlay.rect
        let x0 = max(rect.x, 0), x1 = min(rect.maxX, width)
        let y0 = max(rect.y, 0), y1 = min(rect.maxY, height)
        guard x0 < x1, y0 < y1 else { return }
        let frameWidth = width
        overlay.pixels.withUnsafeBufferPointer { source in
            withUnsafeMutableBufferPointer { target in
                for y in y0..<y1 {
                    var s = ((y - rect.y) * rect.width + (x0 - rect.x)) * 4
                    var t = (y * frameWidth + x0) * 3
                    for _ in x0..<x1 {
                        let alpha = Int(source[s + 3])
                        if alpha != 0 {
                            let a = (alpha * o + 127) / 255
                            let keep = 255 - a
                            for c in 0..<3 {
                                let src = (Int(source[s + c]) * o + 127) / 255
                                target[t + c] = UInt8(min(255, src + (Int(target[t + c]) * keep + 127) / 255))
                            }
                        }
                        s += 4
                        t += 3
                    }
                }
            }
        }
    }
}
