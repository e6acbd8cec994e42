import Foundation
import SlideshowColor
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

extension HDRSlide {
    /// An Ultra HDR JPEG whose base is the HDR rendition (``GainMapMetadata/isBaseHDR``), as an
    /// SDR show shows it: the gain map applied for a display of no headroom, which gives the
    /// SDR rendition its author made (ISO 21496-1's backward direction; Adobe's
    /// `BaseRenditionIsHDR`). Each pixel: its linear light (sRGB's curve) times 2 to the base's
    /// headroom (its full code is its peak), then `(HDR + baseOffset) · 2^(G·w) − alternateOffset`
    /// with the weight −1 (``GainMapMetadata/weight(forHeadroom:)``), clipped to 0…1 and encoded
    /// sRGB again. The gain map is stretched over the image by the slide's resampler.
    /// - Parameters:
    ///   - image: the primary image as decoded, colour-managed to sRGB and turned upright.
    ///   - bytes: the whole file.
    /// - Returns: the SDR rendition; nil when the file has no gain map, its base is SDR, or the
    ///   gain map does not decode (the image is then shown as it is).
    package static func sdrRendition(of image: RGBImage, bytes: [UInt8]) -> RGBImage? {
        guard image.channels == 3, let gainMap = JPEGGainMap.find(in: bytes), gainMap.metadata.isBaseHDR,
              !gainMap.metadata.channels.isEmpty,
              let decoded = decodeGainMap(gainMap, from: bytes, slide: image.size, mode: .aspectFit) else { return nil }
        let size = image.size, map = decoded.image
        var stretched = [UInt8](repeating: 0, count: size.width * size.height * 3)
        let resampled: Bool = map.pixels.withUnsafeBufferPointer { source in
            stretched.withUnsafeMutableBufferPointer { target in
                do throws(ImageProblem) {
                    try PhotoResampler.resample(source.baseAddress!, size: map.size, stride: map.rowBytes,
                                                into: target.baseAddress!, size: size, stride: size.width * 3)
                    return true
                } catch {
                    return false
                }
            }
        }
        guard resampled else { return nil }
        let curve = GainCurve.iso(gainMap.metadata)
        let (factors, base, alternate) = curve.tables(forHeadroom: 0)
        let scale = curve.baseScale
        let linear = HDRSignal.sRGBLinear
        var pixels = image.pixels
        for index in 0..<size.width * size.height * 3 {
            let channel = index % 3
            let light = (linear[Int(pixels[index])] * scale + base[channel]) * factors[channel][Int(stretched[index])] - alternate[channel]
            let c = Double(max(0, min(1, light)))
            let encoded = c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
            pixels[index] = UInt8((encoded * 255).rounded())
        }
        return RGBImage(width: image.width, height: image.height, channels: 3, pixels: pixels)
    }
}
