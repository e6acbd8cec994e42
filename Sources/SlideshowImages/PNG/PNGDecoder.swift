internal import CFFmpeg
import SlideshowFFmpeg
import SlideshowMetadata
import SlideshowPixels
import SlideshowFormats

/// Owns a libavcodec PNG decoder, its frame and its packet, and decodes one PNG file.
///
/// libavcodec's decoder (`AV_CODEC_ID_PNG`, fed with `avcodec_send_packet` and read with
/// `avcodec_receive_frame`) handles every bit depth, palette, interlacing and CRC checking;
/// its frame is then converted with libswscale to RGB24, or to RGBA and composited over the
/// background when the format has alpha. Not `Sendable`: one call of ``ImageManager`` owns it.
package final class PNGDecoder {
    /// The decoder, its frame and its packet: each freed once, by its own owner.
    private let contextOwner: OwnedCodecContext
    private let frameOwner: OwnedFrame
    private let packetOwner: OwnedPacket
    private var context: UnsafeMutablePointer<AVCodecContext> { contextOwner.pointer }
    private var frame: UnsafeMutablePointer<AVFrame> { frameOwner.pointer }
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }

    /// Opens a PNG decoder.
    /// - Throws: `.unsupported` when this FFmpeg has no PNG decoder or cannot allocate one.
    package init() throws(ImageProblem) {
        _ = quietFFmpegLogging
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_PNG) else {
            throw ImageProblem(.unsupported, "this FFmpeg has no PNG decoder")
        }
        do throws(FFmpegError) {
            contextOwner = try OwnedCodecContext(codec: codec)
            frameOwner = try OwnedFrame()
            packetOwner = try OwnedPacket()
            // CRC checks on, and stop at the first damage rather than concealing it.
            contextOwner.pointer.pointee.err_recognition = AV_EF_CRCCHECK | AV_EF_EXPLODE
            contextOwner.pointer.pointee.thread_count = 1
            try check(avcodec_open2(contextOwner.pointer, codec, nil), "avcodec_open2(png)")
        } catch {
            throw ImageProblem(.unsupported, "cannot start the PNG decoder (\(error.message))")
        }
    }

    /// Decodes a whole PNG file to RGB at its own size.
    /// - Parameters:
    ///   - png: the file's bytes.
    ///   - header: what ``PNGHeader`` said (checked against the decoded frame).
    ///   - background: the colour transparent pixels are composited over.
    ///   - manage: turns the decoded RGB or RGBA pixels into sRGB, given the `iCCP` profile that
    ///     libavcodec read (frame side data), before transparency is composited.
    /// - Throws: `.corrupt` with libavcodec's message when decoding fails; `.unsupported`
    ///   when the frame cannot be converted.
    package func decode(_ png: consuming [UInt8], header: PNGHeader, background: RGBColor,
                manage: (consuming RGBImage, _ icc: [UInt8]?) -> RGBImage = { image, _ in image }) throws(ImageProblem) -> RGBImage {
        try header.checkImageData()
        // The packet holds the file without the chunks libavcodec would inflate without a limit.
        let kept = Self.decoderRanges(png)
        let packetBytes = kept.reduce(0) { $0 + $1.count }
        guard packetBytes <= Int(Int32.max), av_new_packet(packet, Int32(packetBytes)) >= 0, let data = packet.pointee.data else {
            throw ImageProblem(.unsupported, "cannot allocate \(packetBytes) bytes for the PNG decoder")
        }
        png.withUnsafeBufferPointer { file in
            var at = 0
            for range in kept {
                (data + at).update(from: file.baseAddress! + range.lowerBound, count: range.count)
                at += range.count
            }
        }
        // The packet holds the file now: the array goes before the frame is allocated.
        _ = consume png
        defer { av_packet_unref(packet) }

        var status = avcodec_send_packet(context, packet)
        // The decoder has consumed the packet (it decodes inside the call): free it before the frame is converted.
        av_packet_unref(packet)
        guard status >= 0 else { throw ImageProblem(.corrupt, "corrupt PNG data (\(Self.message(status)))") }
        status = avcodec_receive_frame(context, frame)
        if status == shim_averror_eagain() {
            // Flush: nothing more is coming.
            let flushed = avcodec_send_packet(context, nil)
            guard flushed >= 0 || flushed == shim_averror_eof() else {
                throw ImageProblem(.corrupt, "corrupt PNG data (\(Self.message(flushed)))")
            }
            status = avcodec_receive_frame(context, frame)
        }
        guard status >= 0 else { throw ImageProblem(.corrupt, "corrupt PNG data (\(Self.message(status)))") }
        defer { av_frame_unref(frame) }

        let size = Size(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        guard size == header.size else {
            throw ImageProblem(.corrupt, "corrupt PNG data (decoded \(size), the header says \(header.size))")
        }
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard let descriptor = av_pix_fmt_desc_get(format) else {
            throw ImageProblem(.unsupported, "unsupported PNG pixel format \(frame.pointee.format)")
        }
        // PAL8 carries the alpha flag too: its palette holds the tRNS alpha.
        let hasAlpha = descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
        let channels = hasAlpha ? 4 : 3
        let converter = try PhotoResampler(from: size, format: format, to: size,
                                      format: hasAlpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24,
                                      flags: SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP | SWS_FULL_CHR_H_INT)
        let planes = withUnsafeBytes(of: frame.pointee.data) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * MemoryLayout<UnsafePointer<UInt8>?>.stride, as: UnsafePointer<UInt8>?.self) }
        }
        let strides = withUnsafeBytes(of: frame.pointee.linesize) { raw in
            (0..<4).map { raw.load(fromByteOffset: $0 * MemoryLayout<Int32>.stride, as: Int32.self) }
        }
        let rowBytes = size.width * channels
        var problem: ImageProblem?
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * size.height + ImageLimits.rowPadding) { buffer, count in
            do throws(ImageProblem) {
                try converter.scale(planes: planes, strides: strides, into: buffer.baseAddress!, stride: rowBytes)
            } catch {
                problem = error
            }
            (buffer.baseAddress! + rowBytes * size.height).initialize(repeating: 0, count: ImageLimits.rowPadding)
            count = buffer.count
        }
        if let problem { throw problem }
        var icc: [UInt8]?
        if let side = av_frame_get_side_data(frame, AV_FRAME_DATA_ICC_PROFILE), side.pointee.size > 0 {
            icc = Array(UnsafeBufferPointer(start: side.pointee.data, count: Int(side.pointee.size)))
        }
        var image = manage(RGBImage(width: size.width, height: size.height, channels: channels, pixels: consume pixels), icc)
        // In place: the only reference to the pixels is the image's, so no copy is made.
        if hasAlpha { image.compositeOver(background) }
        return image
    }

    /// The most an `iCCP` chunk's profile may inflate to before libavcodec sees it: 16 MiB
    /// (the largest real profiles are a few MB).
    package static let profileInflateLimit = 16 << 20

    /// The parts of a PNG file given to libavcodec: every chunk but the text chunks (`tEXt`,
    /// `zTXt`, `iTXt`), and an `iCCP` chunk only when its profile inflates to at most
    /// ``profileInflateLimit``.
    ///
    /// libavcodec's PNG decoder inflates every compressed text chunk and the profile into
    /// memory without a limit (FFmpeg 5.1's `decode_zbuf`): a 1 MB `zTXt` chunk that inflates
    /// to 1 GB cost 2.2 GB (issue 31). The pixels never depend on these chunks: the text was
    /// read, bounded, by ``PNGTextChunks``; a dropped profile is reported as unreadable (the
    /// `iCCP` chunk was seen: ``PNGHeader/hasICCProfile``). Chunks are not otherwise checked
    /// here: from the first that does not fit in the file, the rest is kept as it is, for
    /// libavcodec to refuse.
    /// - Returns: ranges of `png`, in order, not overlapping.
    package static func decoderRanges(_ png: [UInt8]) -> [Range<Int>] {
        guard png.count > 8 else { return [0..<png.count] }
        var ranges: [Range<Int>] = []
        var kept = 0..<8   // the signature, and the chunks kept since it
        var offset = 8
        while png.count - offset >= 12 {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard length <= png.count - offset - 12 else { break }
            let end = offset + 12 + length
            let type = png[offset + 4..<offset + 8]
            let dropped: Bool
            if type.elementsEqual("tEXt".utf8) || type.elementsEqual("zTXt".utf8) || type.elementsEqual("iTXt".utf8) {
                dropped = true
            } else if type.elementsEqual("iCCP".utf8) {
                // Name, NUL, compression method, then the zlib stream.
                let payload = png[offset + 8..<offset + 8 + length]
                if let nul = payload.firstIndex(of: 0), nul + 1 < payload.endIndex {
                    dropped = Inflater.inflate(payload[(nul + 2)...], limit: profileInflateLimit) == nil
                } else {
                    dropped = true
                }
            } else {
                dropped = false
            }
            if dropped {
                if !kept.isEmpty { ranges.append(kept) }
                kept = end..<end
            } else {
                kept = kept.lowerBound..<end
            }
            offset = end
        }
        kept = kept.lowerBound..<png.count
        if !kept.isEmpty { ranges.append(kept) }
        return ranges
    }

    /// FFmpeg's message for an error code.
    package static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        shim_av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension PNGHeader {
    /// Refuses a PNG whose `IDAT` chunks are too short to hold the pixels its `IHDR` says,
    /// before the decoder allocates its frame.
    ///
    /// Deflate expands at most 1032 times (a 258-byte match in 2 bits), so the `IDAT` chunks
    /// of a true W x H picture hold at least 1/1032 of its pixel bytes. Without this, 560
    /// bytes of image data under an IHDR of 11000x11000 held a 363 MB frame (420 MB peak)
    /// before libavcodec found the data short.
    /// - Throws: `.corrupt` when the header is not what the data can be. Call it on a header
    ///   parsed `complete`, whose ``imageDataBytes`` counts every `IDAT` chunk.
    package func checkImageData() throws(ImageProblem) {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 4
        let rowBytes = (size.width * channels * bitDepth + 7) / 8
        let pixelBytes = rowBytes * size.height
        if pixelBytes > imageDataBytes * 1032 + (64 << 10) {
            throw ImageProblem(.corrupt, "corrupt PNG data (its IHDR says \(size), \(pixelBytes) bytes of pixels, more than its \(imageDataBytes) bytes of image data can hold)")
        }
    }
}
