package import CFFmpeg
import SlideshowFFmpeg

/// The AAC encoder's priming: its first packet's time is −1024 samples.
package enum AACEncoderPriming {
    package static let samples: Int64 = 1024
}

/// An AAC-LC packet, ready for the muxer: its bytes and its time in samples at 48 kHz.
package struct EncodedAudioPacket: Sendable {
    package var bytes: [UInt8]
    /// Presentation (= decoding) time in 1/48000 s; the first packet's is −1024 (the priming).
    package var pts: Int64
    /// Samples it decodes to.
    package var duration: Int64
    /// Samples at the end of the packet that are not part of the sound (Opus's last packet,
    /// written as WebM's `DiscardPadding`); 0 for AAC, whose MP4 edit list ends the track.
    package var discardPadding: Int64 = 0
}

/// A sound encoder the asset writer feeds: AAC-LC for MP4 (``AACEncoder``), Opus for WebM
/// (``OpusEncoder``). Both take interleaved stereo float at 48 kHz, any number of frames at a time.
package protocol SoundEncoder: AnyObject {
    /// The opened codec context, whose parameters become the file's audio stream.
    var context: UnsafeMutablePointer<AVCodecContext> { get }
    /// The samples before time 0 in the first packet (AAC's priming, Opus's pre-skip).
    var priming: Int64 { get }
    /// Encodes interleaved stereo frames; returns the packets that came out.
    func encode(_ samples: [Float]) throws(FFmpegError) -> [EncodedAudioPacket]
    /// Encodes what is left and drains the encoder.
    func finish() throws(FFmpegError) -> [EncodedAudioPacket]
}

/// FFmpeg's native AAC encoder (AAC-LC, 48 kHz stereo), fed any number of frames at a time.
///
/// Sound is cut into 1024-frame AAC frames as transcode_aac.c does with an AVAudioFifo (here a
/// Swift buffer of at most 1023 frames left over); the last frame may be shorter. The encoder
/// primes with 1024 samples: its first packet's time is −1024, which the MP4 muxer writes as
/// an edit list, so the first sample plays at t = 0. Bit-exact mode: the same sound gives
/// the same bytes.
package final class AACEncoder: SoundEncoder {
    package static let frameSize = 1024
    package var priming: Int64 { AACEncoderPriming.samples }

    private let codec: OwnedCodecContext
    private let frame: OwnedFrame
    private let packet: OwnedPacket
    /// Interleaved frames not yet encoded (fewer than `frameSize`).
    private var pending: [Float] = []
    /// The next frame's time in samples.
    private var nextPTS: Int64 = 0
    private var flushed = false

    package var context: UnsafeMutablePointer<AVCodecContext> { codec.pointer }

    /// Opens the encoder.
    /// - Parameter bitrate: bits per second.
    /// - Throws: ``FFmpegError`` when the encoder is missing or refuses the settings.
    package init(bitrate: Int) throws(FFmpegError) {
        _ = quietFFmpegLogging
        guard let encoder = avcodec_find_encoder_by_name("aac") else {
            throw FFmpegError(call: "avcodec_find_encoder_by_name(aac)", code: -ENOSYS)
        }
        codec = try OwnedCodecContext(codec: encoder)
        frame = try OwnedFrame()
        packet = try OwnedPacket()
        let context = codec.pointer
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(AudioFormat.channels))
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(AudioFormat.sampleRate))
        context.pointee.profile = FF_PROFILE_AAC_LOW
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) | Int32(AV_CODEC_FLAG_BITEXACT)
        try check(avcodec_open2(context, encoder, nil), "avcodec_open2(aac)")
        frame.pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointer.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        try check(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &context.pointee.ch_layout), "av_channel_layout_copy")
        frame.pointer.pointee.nb_samples = Int32(Self.frameSize)
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
    }

    /// Encodes interleaved stereo frames; returns the packets that came out.
    package func encode(_ samples: [Float]) throws(FFmpegError) -> [EncodedAudioPacket] {
        precondition(!flushed, "samples after the end")
        pending += samples
        var packets: [EncodedAudioPacket] = []
        let frameValues = Self.frameSize * AudioFormat.channels
        var offset = 0
        while pending.count - offset >= frameValues {
            try send(pending[offset..<(offset + frameValues)], into: &packets)
            offset += frameValues
        }
        pending.removeFirst(offset)
        return packets
    }

    /// Encodes what is left (a last, shorter frame) and drains the encoder.
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

    /// Sends one frame of at most 1024 frames (deinterleaved into the encoder's planes).
    private func send(_ samples: ArraySlice<Float>, into packets: inout [EncodedAudioPacket]) throws(FFmpegError) {
        let frames = samples.count / AudioFormat.channels
        try check(av_frame_make_writable(frame.pointer), "av_frame_make_writable")
        frame.pointer.pointee.nb_samples = Int32(frames)
        frame.pointer.pointee.pts = nextPTS
        let left = UnsafeMutableRawPointer(frame.pointer.pointee.data.0!).assumingMemoryBound(to: Float.self)
        let right = UnsafeMutableRawPointer(frame.pointer.pointee.data.1!).assumingMemoryBound(to: Float.self)
        var index = samples.startIndex
        for sample in 0..<frames {
            left[sample] = samples[index]
            right[sample] = samples[index + 1]
            index += 2
        }
        nextPTS += Int64(frames)
        while true {
            let code = avcodec_send_frame(codec.pointer, frame.pointer)
            if code == shim_averror_eagain() {
                try receive(into: &packets)
                continue
            }
            try check(code, "avcodec_send_frame(aac)")
            break
        }
        try receive(into: &packets)
    }

    private func receive(into packets: inout [EncodedAudioPacket]) throws(FFmpegError) {
        while true {
            let code = avcodec_receive_packet(codec.pointer, packet.pointer)
            if code == shim_averror_eagain() || code == shim_averror_eof() { return }
            try check(code, "avcodec_receive_packet(aac)")
            let p = packet.pointer.pointee
            packets.append(EncodedAudioPacket(bytes: Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))),
                                              pts: p.pts, duration: p.duration))
            av_packet_unref(packet.pointer)
        }
    }
}
