package import CFFmpeg
import SlideshowFFmpeg

/// libopus through libavcodec (48 kHz stereo, 20 ms frames), for WebM files.
///
/// The sound is cut into the encoder's frames (960 samples) as ``AACEncoder`` cuts AAC's, from
/// interleaved float (libopus takes it interleaved). Opus starts with a pre-skip (libopus's
/// look-ahead, 312 samples at 48 kHz): the encoder gives it as `initial_padding` and its first
/// packet's time is −312; the WebM muxer writes it as the track's `CodecDelay`, so decoders
/// drop those samples and the first one heard is the show's sample 0. The last packet is
/// padded to a whole frame; how much of it is padding comes with it (side data, written as
/// WebM's `DiscardPadding`), so the decoded sound is exactly as long as the samples given.
package final class OpusEncoder: SoundEncoder {
    private let codec: OwnedCodecContext
    private let frame: OwnedFrame
    private let packet: OwnedPacket
    /// Samples per Opus frame, as the opened encoder says (960: 20 ms).
    private let frameSize: Int
    private var pending: [Float] = []
    private var nextPTS: Int64 = 0
    private var flushed = false

    package var context: UnsafeMutablePointer<AVCodecContext> { codec.pointer }
    package var priming: Int64 { Int64(codec.pointer.pointee.initial_padding) }

    /// Opens the encoder.
    /// - Parameter bitrate: bits per second.
    /// - Throws: ``FFmpegError`` when libopus is missing or refuses the settings.
    package init(bitrate: Int) throws(FFmpegError) {
        _ = quietFFmpegLogging
        guard let encoder = avcodec_find_encoder_by_name("libopus") else {
            throw FFmpegError(call: "avcodec_find_encoder_by_name(libopus)", code: -ENOSYS)
        }
        codec = try OwnedCodecContext(codec: encoder)
        frame = try OwnedFrame()
        packet = try OwnedPacket()
        let context = codec.pointer
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        context.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(AudioFormat.channels))
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(AudioFormat.sampleRate))
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) | Int32(AV_CODEC_FLAG_BITEXACT)
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        try setOption(&options, "application", "audio")
        try check(avcodec_open2(context, encoder, &options), "avcodec_open2(libopus)")
        if let unrecognised = av_dict_get(options, "", nil, AV_DICT_IGNORE_SUFFIX) {
            throw FFmpegError(call: "avcodec_open2(libopus): option \(String(cString: unrecognised.pointee.key)) not recognised", code: -EINVAL)
        }
        frameSize = Int(context.pointee.frame_size)
        frame.pointer.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointer.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        try check(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &context.pointee.ch_layout), "av_channel_layout_copy")
        frame.pointer.pointee.nb_samples = Int32(frameSize)
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
    }

    package func encode(_ samples: [Float]) throws(FFmpegError) -> [EncodedAudioPacket] {
        precondition(!flushed, "samples after the end")
        pending += samples
        var packets: [EncodedAudioPacket] = []
        let frameValues = frameSize * AudioFormat.channels
        var offset = 0
        while pending.count - offset >= frameValues {
            try send(pending[offset..<(offset + frameValues)], into: &packets)
            offset += frameValues
        }
        pending.removeFirst(offset)
        return packets
    }

    package func finish() throws(FFmpegError) -> [EncodedAudioPacket] {
        guard !flushed else { return [] }
        var packets: [EncodedAudioPacket] = []
        if !pending.isEmpty {
            try send(pending[...], into: &packets)
            pending = []
        }
        flushed = true
        let code = avcodec_send_frame(codec.pointer, nil)
        if code != shim_averror_eof() { try check(code, "avcodec_send_frame(NULL)") }
        try receive(into: &packets)
        return packets
    }

    /// Sends one frame of at most ``frameSize`` frames (libopus pads a shorter last one).
    private func send(_ samples: ArraySlice<Float>, into packets: inout [EncodedAudioPacket]) throws(FFmpegError) {
        let frames = samples.count / AudioFormat.channels
        try check(av_frame_make_writable(frame.pointer), "av_frame_make_writable")
        frame.pointer.pointee.nb_samples = Int32(frames)
        frame.pointer.pointee.pts = nextPTS
        let data = UnsafeMutableRawPointer(frame.pointer.pointee.data.0!).assumingMemoryBound(to: Float.self)
        samples.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
        nextPTS += Int64(frames)
        while true {
            let code = avcodec_send_frame(codec.pointer, frame.pointer)
            if code == shim_averror_eagain() {
                try receive(into: &packets)
                continue
            }
            try check(code, "avcodec_send_frame(libopus)")
            break
        }
        try receive(into: &packets)
    }

    private func receive(into packets: inout [EncodedAudioPacket]) throws(FFmpegError) {
        while true {
            let code = avcodec_receive_packet(codec.pointer, packet.pointer)
            if code == shim_averror_eagain() || code == shim_averror_eof() { return }
            try check(code, "avcodec_receive_packet(libopus)")
            let p = packet.pointer.pointee
            var discard: Int64 = 0
            var size: Int = 0
            // AV_PKT_DATA_SKIP_SAMPLES: 32-bit LE samples to skip at the start, then at the end.
            if let side = av_packet_get_side_data(packet.pointer, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 {
                discard = Int64(UInt32(side[4]) | UInt32(side[5]) << 8 | UInt32(side[6]) << 16 | UInt32(side[7]) << 24)
            }
            packets.append(EncodedAudioPacket(bytes: Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))),
                                              pts: p.pts, duration: p.duration, discardPadding: discard))
            av_packet_unref(packet.pointer)
        }
    }
}
