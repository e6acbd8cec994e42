import SlideshowPixels

/// Drawn text, ready to lay over a frame: premultiplied pixels and where they go.
///
/// Drawn once (a held slide's caption costs nothing on its held frames) and composited with
/// an opacity as often as needed (a caption fading in and out with its photo, or moving with
/// it through a transition).
public struct TextOverlay: Sendable, Equatable {
    /// Where the overlay goes in the frame, in the frame's pixels. Inside the frame and inside
    /// the title-safe area for every caption this library draws.
    public var rect: Rect
    /// `rect.width * rect.height * 4` bytes: B, G, R, A for each pixel (cairo's ARGB32 on a
    /// little-endian machine), row after row with no padding, each colour already multiplied
    /// by its alpha (8-bit, sRGB-encoded, like ``PixelBuffer``).
    public let pixels: [UInt8]

    /// Creates an overlay.
    /// - Precondition: `pixels.count == rect.width * rect.height * 4`.
    public init(rect: Rect, pixels: [UInt8]) {
        precondition(pixels.count == rect.width * rect.height * 4, "overlay pixel count does not match its rectangle")
        self.rect = rect
        self.pixels = pixels
    }

    /// The overlay's pixel at (x, y) relative to its own top left, premultiplied.
    public subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = (y * rect.width + x) * 4
        return (pixels[offset + 2], pixels[offset + 1], pixels[offset], pixels[offset + 3])
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
                            if o == 255 {
                                let keep = 255 - alpha
                                target[t] = UInt8(min(255, Int(source[s + 2]) + (Int(target[t]) * keep + 127) / 255))
                                target[t + 1] = UInt8(min(255, Int(source[s + 1]) + (Int(target[t + 1]) * keep + 127) / 255))
                                target[t + 2] = UInt8(min(255, Int(source[s]) + (Int(target[t + 2]) * keep + 127) / 255))
                            } else {
                                let keep = 255 - (alpha * o + 127) / 255
                                target[t] = UInt8(min(255, (Int(source[s + 2]) * o + 127) / 255 + (Int(target[t]) * keep + 127) / 255))
                                target[t + 1] = UInt8(min(255, (Int(source[s + 1]) * o + 127) / 255 + (Int(target[t + 1]) * keep + 127) / 255))
                                target[t + 2] = UInt8(min(255, (Int(source[s]) * o + 127) / 255 + (Int(target[t + 2]) * keep + 127) / 255))
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
