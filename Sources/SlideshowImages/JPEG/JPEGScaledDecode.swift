import SlideshowFormats
import SlideshowFraming
import SlideshowPixels

extension TurboJPEGDecompressor {
    /// Decodes a JPEG at the smallest DCT scale that still covers a slide: the one recipe for
    /// every JPEG decode (slides, face framing, the benchmark).
    ///
    /// Lays the displayed photo (its EXIF orientation applied to the stored size) into
    /// `target` by `mode`, picks ``DCTScale/choose(stored:orientation:fitted:from:)`` for the
    /// fitted size, and has TurboJPEG decode the file without any stray bytes between its
    /// header segments (``JPEGMarkers/withoutExtraneousBytes(_:)``: they hide nothing, and
    /// TurboJPEG's stop-on-warning mode would refuse them), after checking that TurboJPEG reads
    /// the same header (``JPEGHeader/checkAgrees(with:)``). The pixels stay as stored: not
    /// turned upright, not colour-managed.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - header: what ``JPEGHeader`` read from it.
    ///   - target: the slide's size.
    ///   - mode: letterbox or crop-to-fill.
    /// - Returns: the decoded image (stored orientation, DCT-scaled) and the slide's layout.
    /// - Throws: ``ImageProblem`` from TurboJPEG (`.truncated`, `.corrupt`, `.unsupported`).
    package static func decodeCovering(_ bytes: [UInt8], header: JPEGHeader, target: Size,
                               mode: ContentMode) throws(ImageProblem) -> (image: RGBImage, geometry: FitGeometry) {
        let orientation = header.orientation ?? .up
        let geometry = FitGeometry(source: orientation.displayedSize(of: header.size), target: target, mode: mode)
        let scale = DCTScale.choose(stored: header.size, orientation: orientation, fitted: geometry.fittedSize)
        let decoder = try TurboJPEGDecompressor()
        let source = JPEGMarkers.withoutExtraneousBytes(bytes) ?? bytes
        let image = try ImageProblem.withBytes(source) { (raw) throws(ImageProblem) -> RGBImage in
            let checked = try decoder.readHeader(raw)
            try header.checkAgrees(with: checked)
            return try decoder.decompress(raw, header: checked, scale: scale)
        }
        return (image, geometry)
    }
}
