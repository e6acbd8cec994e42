internal import CFFmpeg
internal import CHeif
internal import CLCMS
internal import CWebP

/// What the image stage reads and how it manages colour, with the versions of the libraries
/// linked in (for `slideshow formats` and bug reports).
public enum ImageCapabilities {
    /// One decodable format and the library that decodes it.
    public struct Decoder: Sendable, Equatable {
        /// The format's name, e.g. `HEIF/HEIC`.
        public var format: String
        /// The library and its version, with what it covers.
        public var library: String
    }

    /// The formats, in the order a newcomer looks for them.
    public static var decoders: [Decoder] {
        [
            Decoder(format: "JPEG", library: "libjpeg-turbo (TurboJPEG 2.1 API): baseline, progressive, arithmetic; grey, YCbCr, CMYK"),
            Decoder(format: "PNG", library: "FFmpeg libavcodec \(version(Int(avcodec_version()), shifts: [16, 8, 0])): every bit depth and colour type"),
            Decoder(format: "HEIF/HEIC", library: "libheif \(String(cString: heif_get_version())), HEVC decoded by FFmpeg libavcodec "
                + "\(version(Int(avcodec_version()), shifts: [16, 8, 0])): grids, 8-12 bits, irot/imir/clap"),
            Decoder(format: "AVIF", library: "libheif \(String(cString: heif_get_version())): 8-12 bits, irot/imir/clap"),
            Decoder(format: "WebP", library: "libwebp \(version(Int(WebPGetDecoderVersion()), shifts: [16, 8, 0])): lossy, lossless, alpha (still images)"),
        ]
    }

    /// The colour management: the library, its version and what it converts.
    public static var colorManagement: String {
        let encoded = Int(cmsGetEncodedCMMversion())  // e.g. 2140 for 2.14
        return "Little CMS \(encoded / 1000).\((encoded % 1000) / 10): embedded ICC profiles (JPEG, PNG, HEIF, AVIF, WebP), "
            + "HEIF nclx and PNG gAMA/cHRM to sRGB, relative colorimetric with black-point compensation"
    }

    private static func version(_ packed: Int, shifts: [Int]) -> String {
        shifts.map { String((packed >> $0) & 0xFF) }.joined(separator: ".")
    }
}
