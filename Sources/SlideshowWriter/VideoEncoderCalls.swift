package import CFFmpeg
import SlideshowFFmpeg

/// The libavcodec calls every video encoder of the writer makes alike, once opened: its global
/// header, sending pictures and the end of them, receiving packets. ``H264Encoder`` (x264 and
/// x265) and ``ReferenceFrameEncoder`` (libaom, libvpx) each own their context and packet and
/// open them their own way (``VideoSettings/describePictures(to:)`` for what they set alike);
/// this is the rest.
package protocol VideoEncoderCalls: AnyObject {
    /// The opened codec context.
    var context: UnsafeMutablePointer<AVCodecContext> { get }
    /// The packet the encoder's output is received into, owned by the encoder.
    var packetOwner: OwnedPacket { get }
}

extension VideoEncoderCalls {
    /// The encoder's global header: x264's SPS and PPS, x265's VPS, SPS and PPS (Annex B);
    /// AV1's sequence header OBU; empty for VP9.
    package var extradata: [UInt8] {
        guard let data = context.pointee.extradata, context.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(context.pointee.extradata_size)))
    }

    /// Sends one picture (pts on the encoder's own clock); `forceKey` makes it a key frame (an
    /// IDR in H.264 and HEVC).
    /// - Returns: false when the encoder is full and its output must be received first.
    package func send(_ frame: UnsafeMutablePointer<AVFrame>, pts: Int64, forceKey: Bool) throws(FFmpegError) -> Bool {
        frame.pointee.pts = pts
        frame.pointee.pict_type = forceKey ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        let code = avcodec_send_frame(context, frame)
        if code == shim_averror_eagain() { return false }
        try check(code, "avcodec_send_frame")
        return true
    }

    /// Signals the end of the pictures: the encoder then gives out what it still holds.
    package func sendEndOfStream() throws(FFmpegError) {
        let code = avcodec_send_frame(context, nil)
        if code == shim_averror_eof() { return }
        try check(code, "avcodec_send_frame(NULL)")
    }

    /// Asks for the next packet; on `.packet`, `body` sees it (valid only inside the call).
    package func receive(_ body: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws -> EncoderOutput {
        let packet = packetOwner.pointer
        let code = avcodec_receive_packet(context, packet)
        if code == shim_averror_eagain() { return .needsInput }
        if code == shim_averror_eof() { return .endOfStream }
        try check(code, "avcodec_receive_packet")
        defer { av_packet_unref(packet) }
        try body(packet)
        return .packet
    }
}

extension VideoSettings {
    /// Sets on an encoder's context what every video encoder of the writer is given alike: the
    /// size, 8-bit 4:2:0 (10-bit for HDR) at ``framesPerSecond`` with square pixels, and the
    /// colour tags, limited-range BT.709 (BT.2020 with PQ or HLG for HDR), which the encoder
    /// writes into its stream (VUI) and the muxer into the file (`colr`).
    package func describePictures(to context: UnsafeMutablePointer<AVCodecContext>) {
        context.pointee.width = Int32(size.width)
        context.pointee.height = Int32(size.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: Int32(framesPerSecond))
        context.pointee.framerate = AVRational(num: Int32(framesPerSecond), den: 1)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        if let hdr {
            // HEVC Main 10: libx265 writes these into the VUI, the MP4 muxer into `colr` nclx.
            context.pointee.pix_fmt = AV_PIX_FMT_YUV420P10LE
            context.pointee.colorspace = AVCOL_SPC_BT2020_NCL
            context.pointee.color_primaries = AVCOL_PRI_BT2020
            context.pointee.color_trc = hdr == .pq ? AVCOL_TRC_SMPTE2084 : AVCOL_TRC_ARIB_STD_B67
        }
    }
}
