import SlideshowPixels

/// A picture in three separate 8-bit planes, R, G and B, the layout zimg's SIMD kernels
/// read: every plane starts on a 64-byte boundary and every row is padded to a multiple of
/// 64 bytes.
///
/// A moving photo's source is kept this way. It is made once, from the packed picture the
/// look and the date imprint were applied to, and only read after that by every frame's
/// resample (``MotionResampler``).
///
/// `@unchecked Sendable`: the planes are written only while `init` runs and never after, so
/// any number of threads may read them at once.
package final class PlanarPicture: @unchecked Sendable {
    /// The alignment of planes and rows, in bytes (zimg's, in its 64-byte mode).
    package static let alignment = 64

    /// The width in pixels.
    package let width: Int
    /// The height in pixels.
    package let height: Int
    /// Bytes from one row of a plane to the next: `width` rounded up to ``alignment``.
    package let stride: Int
    private let storage: UnsafeMutableRawPointer

    /// The size.
    package var size: Size { Size(width: width, height: height) }

    /// The planes of a packed picture.
    package init(_ picture: PixelBuffer) {
        width = picture.width
        height = picture.height
        stride = Self.padded(width)
        storage = .allocate(byteCount: stride * height * 3, alignment: Self.alignment)
        let (r, g, b) = (plane(0), plane(1), plane(2))
        let (width, height, stride) = (width, height, stride)
        picture.withUnsafeBytes { raw in
            let packed = raw.bindMemory(to: UInt8.self).baseAddress!
            for y in 0..<height {
                let from = packed + y * width * 3
                let row = y * stride
                for x in 0..<width {
                    r[row &+ x] = from[x &* 3]
                    g[row &+ x] = from[x &* 3 &+ 1]
                    b[row &+ x] = from[x &* 3 &+ 2]
                }
            }
        }
    }

    deinit { storage.deallocate() }

    /// Plane `index` (0 red, 1 green, 2 blue): `height` rows of ``stride`` bytes.
    package func plane(_ index: Int) -> UnsafeMutablePointer<UInt8> {
        (storage + index * stride * height).assumingMemoryBound(to: UInt8.self)
    }

    /// `count` rounded up to a multiple of ``alignment``.
    package static func padded(_ count: Int) -> Int {
        (count + alignment - 1) / alignment * alignment
    }
}
