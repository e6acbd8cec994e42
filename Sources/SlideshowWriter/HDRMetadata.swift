package import CFFmpeg
import SlideshowFFmpeg

/// What a PQ video says of its light (HDR10's static metadata, SMPTE ST 2086 and CTA-861.3):
/// the mastering display's primaries, white point and luminance range, and the content's
/// light levels. libx265 writes them as SEI (`master-display`, `max-cll`), and the stream's
/// side data carries the same values for the muxer.
///
/// The display is Display P3's primaries with a D65 white, 0.0001 to 1,000 cd/m²: the peak
/// the show's light is clipped to (``HDRSignal`` in Color). MaxCLL is that peak, as no pixel
/// is brighter; MaxFALL, the brightest frame's average, is stated at 400 cd/m², above what a
/// photo at reference white (203 cd/m²) with gain-mapped highlights averages: a
/// conservative bound, not a measurement, as the SEI is written with the first picture.
package enum HDRMetadata {
    /// Chromaticities in units of 0.00002 (x265's and SMPTE ST 2086's): green, blue, red, white.
    package static let green = (x: 13250, y: 34500), blue = (x: 7500, y: 3000), red = (x: 34000, y: 16000)
    package static let whitePoint = (x: 15635, y: 16450)
    /// Luminance range in units of 0.0001 cd/m².
    package static let maxLuminance = 10_000_000, minLuminance = 1
    /// Content light levels, cd/m².
    package static let maxCLL = 1000, maxFALL = 400

    /// x265's `master-display` value.
    package static var x265MasteringDisplay: String {
        "G(\(green.x),\(green.y))B(\(blue.x),\(blue.y))R(\(red.x),\(red.y))WP(\(whitePoint.x),\(whitePoint.y))L(\(maxLuminance),\(minLuminance))"
    }

    /// Adds the mastering display and content light level to a stream's side data.
    /// - Throws: ``FFmpegError`` (`ENOMEM`) when the side data cannot be allocated.
    package static func attach(to stream: UnsafeMutablePointer<AVStream>) throws(FFmpegError) {
        guard let display = av_stream_new_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA,
                                                     MemoryLayout<AVMasteringDisplayMetadata>.size) else {
            throw FFmpegError(call: "av_stream_new_side_data(mastering display)", code: -ENOMEM)
        }
        display.withMemoryRebound(to: AVMasteringDisplayMetadata.self, capacity: 1) { metadata in
            func chromaticity(_ value: Int) -> AVRational { AVRational(num: Int32(value), den: 50000) }
            // FFmpeg's order is red, green, blue.
            metadata.pointee.display_primaries = ((chromaticity(red.x), chromaticity(red.y)),
                                                  (chromaticity(green.x), chromaticity(green.y)),
                                                  (chromaticity(blue.x), chromaticity(blue.y)))
            metadata.pointee.white_point = (chromaticity(whitePoint.x), chromaticity(whitePoint.y))
            metadata.pointee.max_luminance = AVRational(num: Int32(maxLuminance), den: 10000)
            metadata.pointee.min_luminance = AVRational(num: Int32(minLuminance), den: 10000)
            metadata.pointee.has_primaries = 1
            metadata.pointee.has_luminance = 1
        }
        guard let light = av_stream_new_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL,
                                                   MemoryLayout<AVContentLightMetadata>.size) else {
            throw FFmpegError(call: "av_stream_new_side_data(content light level)", code: -ENOMEM)
        }
        light.withMemoryRebound(to: AVContentLightMetadata.self, capacity: 1) { metadata in
            metadata.pointee.MaxCLL = UInt32(maxCLL)
            metadata.pointee.MaxFALL = UInt32(maxFALL)
        }
    }
}
