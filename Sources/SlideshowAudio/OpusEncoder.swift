package import CFFmpeg
import SlideshowFFmpeg

/// libopus through libavcodec (48 kHz stereo, 20 ms frames), for WebM files.
///
/// The sound is cut into the encoder's frames (960 samples) by ``EncoderFrames``, as AAC's are,
/// interleaved (libopus takes it so). Opus starts with a pre-skip (libopus's
/// look-ahead, 312 samples at 48 kHz): the encoder gives it as `initial_padding` and its first
/// packet's time is −312; the WebM muxer writes it as the track's `CodecDelay`, so decoders
/// drop those samples and the first one heard is the show's sample 0. The last packet is
/// padded to a whole frame; how much of it is padding comes with it (side data, written as
/// WebM's `DiscardPadding`), so the decoded sound is exactly as long as the samples given.
package final class OpusEncoder: SoundEncoder {
    private let frames: EncoderFrames

    package var context: UnsafeMutablePointer<AVCodecContext> { frames.context }
    package var priming: Int64 { Int64(frames.context.pointee.initial_padding) }

    /// Opens the encoder.
    /// - Parameter bitrate: bits per second.
    /// - Throws: ``FFmpegError`` when libopus is missing or refuses the settings.
    package init(bitrate: Int) throws(FFmpegError) {
        _ = quietFFmpegLogging
        let codec = try OwnedCodecContext(encoderNamed: "libopus")
        let context = codec.pointer
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        context.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(AudioFormat.channels))
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(AudioFormat.sampleRate))
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) | Int32(AV_CODEC_FLAG_BITEXACT)
        try codec.open(options: [("application", "audio")], name: "libopus")
        // libopus takes interleaved float, in frames of the size it opened with (960: 20 ms).
        frames = try EncoderFrames(codec: codec, name: "libopus", frameSize: Int(context.pointee.frame_size), planar: false)
    }

    package func encode(_ samples: [Float]) throws(FFmpegError) -> [EncodedAudioPacket] { try frames.encode(samples) }

    /// Encodes what is left (libopus pads a shorter last frame, and says by how much) and drains it.
    package func finish() throws(FFmpegError) -> [EncodedAudioPacket] { try frames.finish() }
}
