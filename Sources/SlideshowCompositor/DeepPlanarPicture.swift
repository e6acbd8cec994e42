import SlideshowPixels
import SlideshowFormats

/// An HDR picture's planes: 16-bit code values.
package typealias DeepPlanarPicture = Planes<UInt16>

extension Planes where Sample == UInt16 {
    /// The planes of a packed HDR picture.
    package convenience init(_ picture: HDRPixelBuffer) {
        self.init(width: picture.width, height: picture.height)
        picture.samples.withUnsafeBufferPointer { fill(from: $0.baseAddress!) }
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
