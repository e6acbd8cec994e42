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
/// Sound is cut into 1024-frame AAC frames (``EncoderFrames``); the last frame may be shorter. The encoder
/// primes with 1024 samples: its first packet's time is −1024, which the MP4 muxer writes as
/// an edit list, so the first sample plays at t = 0. Bit-exact mode: the same sound gives
/// the same bytes.
package final class AACEncoder: SoundEncoder {
    package static let frameSize = 1024
    package var priming: Int64 { AACEncoderPriming.samples }

    private let frames: EncoderFrames

    package var context: UnsafeMutablePointer<AVCodecContext> { frames.context }

    /// Opens the encoder.
    /// - Parameter bitrate: bits per second.
    /// - Throws: ``FFmpegError`` when the encoder is missing or refuses the settings.
    package init(bitrate: Int) throws(FFmpegError) {
        _ = quietFFmpegLogging
        let codec = try OwnedCodecContext(encoderNamed: "aac")
        let context = codec.pointer
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(AudioFormat.channels))
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(AudioFormat.sampleRate))
        context.pointee.profile = FF_PROFILE_AAC_LOW
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) | Int32(AV_CODEC_FLAG_BITEXACT)
        try codec.open(name: "aac")
        frames = try EncoderFrames(codec: codec, name: "aac", frameSize: Self.frameSize, planar: true)
    }

    /// Encodes interleaved stereo frames (deinterleaved into the encoder's planes); returns the packets that came out.
    package func encode(_ samples: [Float]) throws(FFmpegError) -> [EncodedAudioPacket] { try frames.encode(samples) }

    /// Encodes what is left (a last, shorter frame) and drains the encoder.
    package func finish() throws(FFmpegError) -> [EncodedAudioPacket] { try frames.finish() }
}
