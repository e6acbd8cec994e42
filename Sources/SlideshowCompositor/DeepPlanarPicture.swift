import SlideshowPixels
import SlideshowFormats

/// An HDR picture's code values in three separate 16-bit planes, R, G and B, laid out as
/// zimg reads them (``PlanarPicture``'s layout with two bytes a sample): every plane on a
/// 64-byte boundary, every row padded to a multiple of 64 bytes.
///
/// An HDR moving photo's source is kept this way: made once from the lifted picture
/// (``HDRPixelBuffer``), then only read by every frame's resample
/// (``MotionResampler``).
///
/// `@unchecked Sendable`: the planes are written only while `init` runs and never after.
package final class DeepPlanarPicture: @unchecked Sendable {
    /// The width in pixels.
    package let width: Int
    /// The height in pixels.
    package let height: Int
    /// Bytes from one row of a plane to the next: `2 × width` rounded up to ``PlanarPicture/alignment``.
    package let stride: Int
    private let storage: UnsafeMutableRawPointer

    /// The size.
    package var size: Size { Size(width: width, height: height) }

    /// The planes of a packed HDR picture.
    package init(_ picture: HDRPixelBuffer) {
        width = picture.width
        height = picture.height
        stride = PlanarPicture.padded(width * 2)
        storage = .allocate(byteCount: stride * height * 3, alignment: PlanarPicture.alignment)
        let (r, g, b) = (plane(0), plane(1), plane(2))
        let (width, height, rowSamples) = (width, height, stride / 2)
        picture.samples.withUnsafeBufferPointer { packed in
            for y in 0..<height {
                let from = packed.baseAddress! + y * width * 3
                let row = y * rowSamples
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
    package func plane(_ index: Int) -> UnsafeMutablePointer<UInt16> {
        (storage + index * stride * height).assumingMemoryBound(to: UInt16.self)
    }
}

extension MotionResampler {
    /// Resamples an HDR picture's code values as ``resample(_:view:into:frameWidth:content:plainC:)``
    /// resamples bytes: the same zimg graph (bilinear, widened when reducing) on 16-bit samples.
    ///
    /// The samples are PQ or HLG code values, resampled as they are, as the SDR path resamples
    /// sRGB's: bilinear weights are never negative, so no output sample leaves the range of
    /// the source samples under it (nothing rings around a highlight's edge), and 16 bits
    /// leave no band a 10-bit video could show.
    /// - Parameters:
    ///   - frame: the frame's samples, `frameWidth × 3` a row.
    /// - Throws: ``ImageProblem`` when zimg cannot build or run the resample.
    package static func resample(_ source: DeepPlanarPicture, view: (x: Double, y: Double, width: Double, height: Double),
                                 into frame: UnsafeMutablePointer<UInt16>, frameWidth: Int, content: Rect,
                                 plainC: Bool = false) throws(ImageProblem) {
        let resize = try ZimgResize(from: source.size, view: view, to: Size(width: content.width, height: content.height),
                                    plainC: plainC, deep: true)
        let rows = try resize.outputRows()
        let stride = PlanarPicture.padded(content.width * 2)
        let ring = UnsafeMutableRawPointer.allocate(byteCount: stride * rows * 3, alignment: PlanarPicture.alignment)
        defer { ring.deallocate() }
        var target = DeepTarget(ring: ring.assumingMemoryBound(to: UInt16.self), stride: stride, mask: rows - 1, rows: rows,
                                frame: frame + (content.y * frameWidth + content.x) * 3, frameRowSamples: frameWidth * 3)
        try resize.process(source, into: &target)
    }

    /// Where zimg writes 16-bit rows, and the frame they are interleaved into.
    package struct DeepTarget {
        /// The three planes' rings, one after the other, `rows` rows of `stride` bytes each.
        package var ring: UnsafeMutablePointer<UInt16>
        /// Bytes a ring row.
        package var stride: Int
        package var mask: Int
        package var rows: Int
        /// The content rectangle's top left sample in the frame.
        package var frame: UnsafeMutablePointer<UInt16>
        package var frameRowSamples: Int

        /// Interleaves columns `left..<right` of output row `row` into the frame.
        package func pack(row: Int, left: Int, right: Int) {
            let rowSamples = stride / 2
            let r = ring + (row & mask) * rowSamples, g = r + rows * rowSamples, b = g + rows * rowSamples
            let out = frame + row * frameRowSamples
            for x in left..<right {
                out[x &* 3] = r[x]
                out[x &* 3 &+ 1] = g[x]
                out[x &* 3 &+ 2] = b[x]
            }
        }
    }
}
