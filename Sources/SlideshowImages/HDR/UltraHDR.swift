import SlideshowFormats
import SlideshowFraming
import SlideshowMetadata
import SlideshowPixels

extension HDRSlide {
    /// An Ultra HDR JPEG's gain map (``JPEGGainMap``) decoded by TurboJPEG as RGB (a grey map's
    /// sample in all three channels, a three-channel map's own), not colour-managed, turned
    /// upright by the *primary* image's EXIF orientation (the gain map has none of its own),
    /// at the smallest DCT scale that still covers its share of the slide.
    /// - Parameters:
    ///   - gainMap: where the gain map lies.
    ///   - bytes: the whole file.
    ///   - slide: the slide's size; `mode` how the photo fills it (for the DCT scale).
    /// - Returns: the upright gain map; the primary image's displayed size (which the gain map
    ///   is stretched over); and the size the slide decodes the primary at (DCT-scaled,
    ///   upright), on which its fill crop is found. nil when either header does not read or the
    ///   gain map does not decode.
    package static func decodeGainMap(_ gainMap: JPEGGainMap, from bytes: [UInt8], slide: Size, mode: ContentMode)
        -> (image: RGBImage, displayed: Size, decodedPrimary: Size)? {
        guard let primary = try? JPEGHeader(parsing: bytes) else { return nil }
        let map = Array(bytes[gainMap.range])
        guard let header = try? JPEGHeader(parsing: map), (try? header.checkLimits()) != nil,
              header.components.count == 1 || header.components.count == 3 else { return nil }
        let orientation = primary.orientation ?? .up
        let displayed = orientation.displayedSize(of: primary.size)
        guard displayed.width > 0, displayed.height > 0 else { return nil }
        // The slide's fitted size, in the gain map's (upright) pixels.
        let fitted = FitGeometry(source: displayed, target: slide, mode: mode).fittedSize
        let primaryScale = DCTScale.choose(stored: primary.size, orientation: orientation, fitted: fitted)
        let decodedPrimary = orientation.displayedSize(of: primaryScale.scaled(primary.size))
        let mapDisplayed = orientation.displayedSize(of: header.size)
        let needed = Size(width: max(1, (fitted.width * mapDisplayed.width + displayed.width - 1) / displayed.width),
                          height: max(1, (fitted.height * mapDisplayed.height + displayed.height - 1) / displayed.height))
        let scale = DCTScale.choose(stored: header.size, orientation: orientation, fitted: needed)
        guard let decoder = try? TurboJPEGDecompressor() else { return nil }
        let source = JPEGMarkers.withoutExtraneousBytes(map) ?? map
        let image = try? ImageProblem.withBytes(source) { (raw) throws(ImageProblem) -> RGBImage in
            let checked = try decoder.readHeader(raw)
            try header.checkAgrees(with: checked)
            return try decoder.decompress(raw, header: checked, scale: scale)
        }
        guard let image, image.channels == 3 else { return nil }
        return (image.oriented(orientation), displayed, decodedPrimary)
    }
}
