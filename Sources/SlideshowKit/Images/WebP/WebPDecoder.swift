internal import CWebP

/// What a WebP file holds, read with libwebp: lossy (VP8), lossless (VP8L) or extended
/// (VP8X, with alpha, ICC and EXIF chunks) still images.
///
/// Animated WebPs are refused with ``PhotoError/Kind/unsupported``: a slideshow shows one
/// picture per photo, and an animation's first frame is often a blank or partial canvas,
/// so the user is told rather than shown something they did not choose.
struct WebPPicture {
    /// The decoded pixels as stored: 3 channels, or 4 (straight alpha) when the image has alpha.
    var image: RGBImage
    /// The `ICCP` chunk's profile, or sRGB.
    var color: Result<EmbeddedColor, ColorProblem>
    /// The EXIF orientation (``Orientation/up`` when there is none).
    var orientation: Orientation
}

/// The header of a WebP file: enough for ``ImageManager/inspect(_:)``.
struct WebPHeader {
    var size: Size
    var hasAlpha: Bool
    var orientation: Orientation
    var color: Result<EmbeddedColor, ColorProblem>
    /// What the `EXIF` chunk says (``PhotoMetadata``, read by walking the RIFF chunks).
    var metadata: PhotoMetadata

    /// Reads the bitstream's features (`WebPGetFeatures`) and the container's chunks (`WebPDemux`).
    /// - Parameters:
    ///   - bytes: the whole file.
    /// - Throws: `.truncated` or `.corrupt` with libwebp's status, `.unsupported` for an animation,
    ///   `.tooLarge` over the caps.
    init(parsing bytes: [UInt8]) throws(ImageProblem) {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else { throw WebPDecoder.problem(status) }
        guard features.has_animation == 0 else {
            throw ImageProblem(.unsupported, "an animated WebP is not supported (only still images are)")
        }
        size = Size(width: Int(features.width), height: Int(features.height))
        hasAlpha = features.has_alpha != 0
        metadata = PhotoMetadata(reading: bytes, format: .webp)
        orientation = metadata.orientation ?? .up
        if let icc = bytes.withUnsafeBufferPointer({ WebPContainer($0)?.iccProfile() }) {
            color = icc.isEmpty ? .failure(ColorProblem("its colour profile is empty")) : .success(.icc(icc))
        } else {
            color = .success(.sRGB)
        }
    }

    /// Refuses images whose decode would cost too much, before anything is allocated.
    /// - Throws: `.tooLarge` over ``ImageManager/maximumPixels`` or ``ImageLimits/maximumIntermediateBytes``
    ///   (the RGB(A) image libwebp decodes into; WebP itself stops at 16383x16383).
    func checkLimits() throws(ImageProblem) {
        try ImageManager.checkPixelCount(size, format: "WebP")
        let bytes = size.width * size.height * (hasAlpha ? 4 : 3)
        if bytes > ImageLimits.maximumIntermediateBytes {
            throw ImageProblem(.tooLarge,
                               "a WebP of \(size) needs \(bytes >> 20) MiB to decode, over the \(ImageLimits.maximumIntermediateBytes >> 20) MiB cap")
        }
    }
}

/// Owns one libwebp demuxer (`WebPDemux` … `WebPDemuxDelete`) over bytes it borrows: it
/// lives only inside the closure that lends them.
private final class WebPContainer {
    private let demuxer: OpaquePointer

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { return nil }
        self.demuxer = demuxer
    }

    deinit { WebPDemuxDelete(demuxer) }

    /// The first `ICCP` chunk's payload (the EXIF chunk is read by ``MetadataBlocks/webp(_:)``).
    func iccProfile() -> [UInt8]? {
        func chunk(_ fourCC: String) -> [UInt8]? {
            var iterator = WebPChunkIterator()
            guard WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&iterator) }
            guard let start = iterator.chunk.bytes else { return [] }
            return Array(UnsafeBufferPointer(start: start, count: iterator.chunk.size))
        }
        return chunk("ICCP")
    }
}

/// Decodes a WebP file's still image with libwebp's advanced API (`WebPDecode` into memory owned here).
enum WebPDecoder {
    /// Decodes the whole file.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - header: what ``WebPHeader`` said.
    /// - Throws: `.truncated`, `.corrupt` or `.unsupported` with libwebp's status.
    static func decode(_ bytes: [UInt8], header: WebPHeader) throws(ImageProblem) -> WebPPicture {
        let channels = header.hasAlpha ? 4 : 3
        let size = header.size
        let rowBytes = size.width * channels
        let length = rowBytes * size.height
        var status = VP8_STATUS_OK
        let pixels = [UInt8](unsafeUninitializedCapacity: length + ImageLimits.rowPadding) { buffer, count in
            var config = WebPDecoderConfig()
            if WebPInitDecoderConfig(&config) == 0 {
                status = VP8_STATUS_INVALID_PARAM
            } else {
                config.output.colorspace = header.hasAlpha ? MODE_RGBA : MODE_RGB
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = buffer.baseAddress
                config.output.u.RGBA.stride = Int32(rowBytes)
                config.output.u.RGBA.size = length
                status = bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
                WebPFreeDecBuffer(&config.output)
            }
            if status != VP8_STATUS_OK { buffer.initialize(repeating: 0) }
            (buffer.baseAddress! + length).initialize(repeating: 0, count: ImageLimits.rowPadding)
            count = buffer.count
        }
        guard status == VP8_STATUS_OK else { throw problem(status) }
        return WebPPicture(image: RGBImage(width: size.width, height: size.height, channels: channels, pixels: pixels),
                           color: header.color, orientation: header.orientation)
    }

    /// The problem a libwebp status stands for.
    static func problem(_ status: VP8StatusCode) -> ImageProblem {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA, VP8_STATUS_SUSPENDED:
            return ImageProblem(.truncated, "truncated WebP data (libwebp: not enough data)")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return ImageProblem(.unsupported, "unsupported WebP (libwebp: unsupported feature)")
        case VP8_STATUS_OUT_OF_MEMORY:
            return ImageProblem(.tooLarge, "the WebP cannot be decoded (libwebp: out of memory)")
        default:
            return ImageProblem(.corrupt, "corrupt WebP data (libwebp: bitstream error \(status.rawValue))")
        }
    }
}
