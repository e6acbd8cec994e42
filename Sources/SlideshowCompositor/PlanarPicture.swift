import SlideshowPixels

/// A picture in three separate planes, R, G and B, the layout zimg's SIMD kernels read: every
/// plane starts on a 64-byte boundary and every row is padded to a multiple of 64 bytes. Its
/// samples are bytes (``PlanarPicture``) or, in an HDR show, 16-bit PQ or HLG code values
/// (``DeepPlanarPicture``).
///
/// A moving photo's source is kept this way. It is made once, from the packed picture the
/// look and the date imprint were applied to (in HDR, lifted by its gain map), and only read
/// after that by every frame's resample (``MotionResampler``).
///
/// `@unchecked Sendable`: the planes are written only while `init` runs and never after, so
/// any number of threads may read them at once.
package final class Planes<Sample: BitwiseCopyable>: @unchecked Sendable {
    /// The alignment of planes and rows, in bytes (zimg's, in its 64-byte mode).
    package static var alignment: Int { 64 }

    /// The width in pixels.
    package let width: Int
    /// The height in pixels.
    package let height: Int
    /// Bytes from one row of a plane to the next: `width` samples rounded up to ``alignment``.
    package let stride: Int
    private let storage: UnsafeMutableRawPointer

    /// The size.
    package var size: Size { Size(width: width, height: height) }

    /// Planes of `width × height` pixels, not yet written (the kind's own `init` fills them, ``fill(from:)``).
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = Self.padded(width * MemoryLayout<Sample>.stride)
        storage = .allocate(byteCount: stride * height * 3, alignment: Self.alignment)
    }

    /// Writes the planes from a packed picture of the same size, three samples a pixel.
    func fill(from packed: UnsafePointer<Sample>) {
        let (r, g, b) = (plane(0), plane(1), plane(2))
        let (width, height, rowSamples) = (width, height, stride / MemoryLayout<Sample>.stride)
        for y in 0..<height {
            let from = packed + y * width * 3
            let row = y * rowSamples
            for x in 0..<width {
                r[row &+ x] = from[x &* 3]
                g[row &+ x] = from[x &* 3 &+ 1]
                b[row &+ x] = from[x &* 3 &+ 2]
            }
        }
    }

    deinit { storage.deallocate() }

    /// Plane `index` (0 red, 1 green, 2 blue): `height` rows of ``stride`` bytes.
    package func plane(_ index: Int) -> UnsafeMutablePointer<Sample> {
        (storage + index * stride * height).assumingMemoryBound(to: Sample.self)
    }

    /// `count` bytes rounded up to a multiple of ``alignment``.
    package static func padded(_ count: Int) -> Int {
        (count + alignment - 1) / alignment * alignment
    }
}

/// An SDR picture's planes: bytes.
package typealias PlanarPicture = Planes<UInt8>

extension Planes where Sample == UInt8 {
    /// The planes of a packed picture.
    package convenience init(_ picture: PixelBuffer) {
        self.init(width: picture.width, height: picture.height)
        picture.withUnsafeBytes { fill(from: $0.bindMemory(to: UInt8.self).baseAddress!) }
    }
}
