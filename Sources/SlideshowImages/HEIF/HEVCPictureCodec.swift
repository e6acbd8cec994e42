package import CFFmpeg
import SlideshowFFmpeg

/// One single-threaded libavcodec HEVC decoder with its packet and frame, decoding one coded
/// picture after another: each is sent whole (Annex B NAL units, parameter sets first), the
/// decoder drained, and the decoder reset for the next. Used by ``HEVCTileDecoder`` (one per
/// worker, kept from tile to tile, so that its picture buffers come back from its pool) and by
/// ``HEVCPictureDecoder`` (libheif's plugin, one per picture).
///
/// Owns its `AVCodecContext`, `AVPacket` and `AVFrame` through ``OwnedCodecContext``,
/// ``OwnedPacket`` and ``OwnedFrame``. Not `Sendable`: one thread uses it.
package final class HEVCPictureCodec {
    /// Whether this FFmpeg was built with an HEVC decoder.
    package static var isAvailable: Bool { avcodec_find_decoder(AV_CODEC_ID_HEVC) != nil }

    private let context: OwnedCodecContext
    private let packet: OwnedPacket
    private let frame: OwnedFrame

    /// - Throws: ``FFmpegError`` when there is no HEVC decoder or it cannot start.
    package init() throws(FFmpegError) {
        _ = quietFFmpegLogging
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_HEVC) else { throw FFmpegError(call: "avcodec_find_decoder(hevc)", code: -ENOSYS) }
        context = try OwnedCodecContext(codec: codec)
        context.pointer.pointee.thread_count = 1
        try check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2(hevc)")
        packet = try OwnedPacket()
        frame = try OwnedFrame()
    }

    /// Decodes the picture in `stream` and lends it to `body`; the picture is released when
    /// `body` returns.
    /// - Returns: what `body` returns; nil when the data holds no picture.
    /// - Throws: ``FFmpegError`` when libavcodec refuses the data.
    package func decode<Result>(_ stream: [UInt8], _ body: (UnsafePointer<AVFrame>) -> Result) throws(FFmpegError) -> Result? {
        defer {
            av_frame_unref(frame.pointer)
            av_packet_unref(packet.pointer)
            avcodec_flush_buffers(context.pointer)
        }
        try check(av_new_packet(packet.pointer, Int32(stream.count)), "av_new_packet")
        stream.withUnsafeBufferPointer { packet.pointer.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        try check(avcodec_send_packet(context.pointer, packet.pointer), "avcodec_send_packet")
        try check(avcodec_send_packet(context.pointer, nil), "avcodec_send_packet")
        let received = avcodec_receive_frame(context.pointer, frame.pointer)
        if received == shim_averror_eof() { return nil }
        try check(received, "avcodec_receive_frame")
        return body(frame.pointer)
    }
}
