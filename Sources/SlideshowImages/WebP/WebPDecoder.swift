package import CWebP
import SlideshowColor
import SlideshowMetadata
import SlideshowPixels
import SlideshowFormats

/// What a WebP file holds, read with libwebp: lossy (VP8), lossless (VP8L) or extended
/// (VP8X, with alpha, ICC and EXIF chunks) still images.
///
/// Animated WebPs are refused with ``PhotoError/Kind/unsupported``: a slideshow shows one
/// picture per photo, and an animation's first frame is often a blank or partial canvas,
/// so the user is told rather than shown something they did not choose.
package struct WebPPicture {
    /// The decoded pixels as stored: 3 channels, or 4 (straight alpha) when the image has alpha.
    package var image: RGBImage
    /// The `ICCP` chunk's profile, or sRGB.
    package var color: Result<EmbeddedColor, ColorProblem>
    /// The EXIF orientation (``Orientation/up`` when there is none).
    package var orientation: Orientation
}

/// The header of a WebP file: enough for ``ImageManager/inspect(_:)``.
package struct WebPHeader {
    package var size: Size
    package var hasAlpha: Bool
    package var orientation: Orientation
    package var color: Result<EmbeddedColor, ColorProblem>
    /// What the `EXIF` chunk says (``PhotoMetadata``, read by walking the RIFF chunks).
    package var metadata: PhotoMetadata

    /// Reads the bitstream's features (`WebPGetFeatures`) and the container's chunks (`WebPDemux`).
    /// - Parameters:
    ///   - bytes: the whole file.
    /// - Throws: `.truncated` or `.corrupt` with libwebp's status, `.unsupported` for an animation,
    ///   `.tooLarge` over the caps.
    package init(parsing bytes: [UInt8]) throws(ImageProblem) {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else { throw WebPDecoder.problem(status) }
        guard features.has_animation == 0 else {
            throw ImageProblem(.unsupported, "an animated WebP is not supported (only still images are)")
        }
        size = Size(width: Int(features.width), height: Int(features.height))
        hasAlpha = features.has_alpha != 0
        try Self.checkLossyFrame(bytes)
        metadata = PhotoMetadata(reading: bytes, format: .webp)
        orientation = metadata.orientation ?? .up
        if let icc = bytes.withUnsafeBufferPointer({ WebPContainer($0)?.iccProfile() }) {
            color = icc.isEmpty ? .failure(ColorProblem("its colour profile is empty")) : .success(.icc(icc))
        } else {
            color = .success(.sRGB)
        }
    }

    /// Refuses a lossy frame whose size its data cannot hold, before its image is allocated.
    ///
    /// A VP8 key frame's first partition holds every macroblock's prediction modes, coded with
    /// fixed probabilities that cost at least 1.6 bits a macroblock (a solid grey 4096x4096
    /// from cwebp takes 3.4): a partition of less than 1 bit a macroblock cannot be the frame
    /// its header says, and a partition longer than the chunk is cut short. Without this, a
    /// 6 KB file whose header says 16383x16383 held an 805 MB image before libwebp found its
    /// data short. (A lossless VP8L frame has no such floor: one colour costs no bits a pixel.)
    /// - Throws: `.truncated` when the first partition runs past the chunk, `.corrupt` when it
    ///   is too short for the frame's macroblocks.
    package static func checkLossyFrame(_ bytes: [UInt8]) throws(ImageProblem) {
        guard let frame = chunk("VP8 ", in: bytes), frame.count >= 10 else { return }
        let at = frame.lowerBound
        let tag = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
        guard tag & 1 == 0 else { return }  // not a key frame: libwebp refuses it
        let partition = (tag >> 5) & 0x7FFFF
        let width = (Int(bytes[at + 6]) | Int(bytes[at + 7]) << 8) & 0x3FFF
        let height = (Int(bytes[at + 8]) | Int(bytes[at + 9]) << 8) & 0x3FFF
        if partition > frame.count - 10 {
            throw ImageProblem(.truncated, "truncated WebP data (its first partition of \(partition) bytes runs past its VP8 chunk)")
        }
        let macroblocks = (width + 15) / 16 * ((height + 15) / 16)
        if partition * 8 < macroblocks {
            throw ImageProblem(.corrupt, "corrupt WebP data (its VP8 header says \(width)x\(height), but its \(partition)-byte first partition cannot hold \(macroblocks) macroblocks)")
        }
    }

    /// The payload of the first RIFF chunk of a type (a WebP's chunks start at byte 12),
    /// cut at the end of the data.
    private static func chunk(_ type: String, in bytes: [UInt8]) -> Range<Int>? {
        let code = Array(type.utf8)
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual(code) { return offset + 8..<min(bytes.count, offset + 8 + size) }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// Refuses images whose decode would cost too much, before anything is allocated.
    /// - Throws: `.tooLarge` over ``ImageManager/maximumPixels`` or ``ImageLimits/maximumIntermediateBytes``
    ///   (the RGB(A) image libwebp decodes into; WebP itself stops at 16383x16383).
    package func checkLimits() throws(ImageProblem) {
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
package enum WebPDecoder {
    /// Decodes the whole file.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - header: what ``WebPHeader`` said.
    /// - Throws: `.truncated`, `.corrupt` or `.unsupported` with libwebp's status.
    package static func decode(_ bytes: [UInt8], header: WebPHeader) throws(ImageProblem) -> WebPPicture {
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
            if status != VP8_STATUS_OK {
                // Nothing is kept: the rows libwebp did not reach stay untouched (a frame that
                // claims more than its data holds costs no more than what was decoded).
                count = 0
                return
            }
            (buffer.baseAddress! + length).initialize(repeating: 0, count: ImageLimits.rowPadding)
            count = buffer.count
        }
        guard status == VP8_STATUS_OK else { throw problem(status) }
        return WebPPicture(image: RGBImage(width: size.width, height: size.height, channels: channels, pixels: pixels),
                           color: header.color, orientation: header.orientation)
    }

    /// The problem a libwebp status stands for.
    package static func problem(_ status: VP8StatusCode) -> ImageProblem {
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
