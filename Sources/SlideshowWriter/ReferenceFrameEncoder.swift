package import CFFmpeg
import SlideshowFFmpeg

/// libaom (AV1) or libvpx (VP9) through libavcodec: one `AVCodecContext` and its options, owned.
///
/// 8-bit 4:2:0 (AV1 Main, VP9 profile 0), constant quality, BT.709 limited range tagged, two
/// threads with row multithreading, no look-ahead (`lag-in-frames=0`: each picture comes out
/// as one shown frame, no hidden alt-ref frames, so every packet is a frame of the show and a
/// forced key frame is the picture it was asked for), key frames only where the writer forces
/// them (``VideoSettings/referenceCodecKeyInterval``).
package final class ReferenceFrameEncoder: VideoEncoderCalls {
    private let codecContext: OwnedCodecContext
    package let packetOwner: OwnedPacket
    package var context: UnsafeMutablePointer<AVCodecContext> { codecContext.pointer }

    /// - Throws: ``FFmpegError`` when the encoder is missing, rejects an option or leaves one unrecognised.
    package init(settings: VideoSettings, globalHeader: Bool) throws(FFmpegError) {
        precondition(settings.codec.showsExistingFrames)
        _ = quietFFmpegLogging
        let name = settings.codec.encoderName
        codecContext = try OwnedCodecContext(encoderNamed: name)
        packetOwner = try OwnedPacket()
        let context = codecContext.pointer
        settings.describePictures(to: context)
        context.pointee.thread_count = Int32(H264Encoder.threads)
        context.pointee.gop_size = Int32(VideoSettings.referenceCodecKeyInterval)
        context.pointee.bit_rate = 0
        context.pointee.flags |= Int32(AV_CODEC_FLAG_BITEXACT)
        if globalHeader { context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER) }

        try codecContext.open(options: settings.referenceCodecOptions.map { (key: $0.0, value: $0.1) }, name: name)
    }
}

extension VideoSettings {
    /// Frames between key frames the encoder may choose itself: practically none (the writer
    /// forces one at each held picture and after each hold).
    package static let referenceCodecKeyInterval = 1 << 20

    /// libaom's `cpu-used` (0 slowest to 8) or libvpx's (0 to 5 under `deadline=good`) for x264's preset.
    package var referenceCodecSpeed: Int {
        let index = Self.presets.firstIndex(of: preset) ?? 5
        //                  ultrafast superfast veryfast faster fast medium slow slower veryslow placebo
        // A show of cuts codes key frames and copies: libaom's fastest realtime speed, 10. A
        // moving show codes motion, where speed 7 makes 27% fewer bytes than 10 at the same
        // SSIM for the same CPU (R3's first 60 frames at 1080p: 383 KB against 524 KB at
        // quantizer 24, SSIM 0.96545 against 0.96513, 3.2 s against 3.1 s).
        let av1: [Int] = composesFrames ? [8, 8, 8, 8, 7, 7, 6, 6, 5, 5] : [10, 10, 10, 10, 10, 10, 9, 8, 7, 6]
        let vp9: [Int] = composesFrames ? [5, 5, 5, 5, 4, 4, 3, 2, 1, 0] : [5, 5, 5, 4, 4, 3, 2, 1, 1, 0]
        return (codec == .av1 ? av1 : vp9)[index]
    }

    /// The encoder's constant quality (0 to 63) for x264's CRF (1 to 51): the CRF plus an
    /// offset per codec, chosen so that the default CRF 20 gives about x264's SSIM on a moving
    /// show (docs/usage.md, "Codecs").
    package var referenceCodecQuantizer: Int {
        let offset = codec == .av1 ? (composesFrames ? VideoSettings.av1MotionQuantizerOffset : VideoSettings.av1QuantizerOffset)
                                   : (composesFrames ? VideoSettings.vp9MotionQuantizerOffset : VideoSettings.vp9QuantizerOffset)
        return min(63, max(0, crf + offset))
    }

    /// libaom's intra tools a show of cuts goes without: directional angle deltas, chroma from
    /// luma, the smooth, Paeth and recursive filter predictors. Its pictures are all key frames,
    /// whose intra search is most of libaom's time: three 1080p photos as key frames took
    /// 0.52 s of CPU instead of 0.82 s, for 2% more bytes and SSIM 0.98619 against 0.98642
    /// (`ffmpeg -c:v libaom-av1 -usage realtime -aom-params cpu-used=10:…`). Moving frames
    /// keep them.
    package static let av1StillsParameters = ":enable-filter-intra=0:enable-smooth-intra=0:enable-paeth-intra=0:enable-cfl-intra=0:enable-angle-delta=0"

    package static let av1QuantizerOffset = 12
    /// A moving show's: libaom's realtime mode needs quantizer 16 or so for x264's SSIM on R3
    /// (quantizer 18: 5,071,959 bytes, SSIM 0.98168; 12: 9,719,328 bytes, 0.98521; x264 at
    /// CRF 20: 4,735,117 bytes, 0.98392), so the default keeps H.264's quality, not its size.
    package static let av1MotionQuantizerOffset = -4
    package static let vp9QuantizerOffset = 12
    /// A moving show's: on R3's first 60 frames at 1080p, libvpx at quantizer 20 (speed 3) made
    /// 652,170 bytes at SSIM 0.97054, x264's motion settings at CRF 15 866,784 bytes at 0.97049.
    package static let vp9MotionQuantizerOffset = 2

    /// The encoder's options (libavcodec's names).
    package var referenceCodecOptions: [(String, String)] {
        var options: [(String, String)] = [("crf", String(referenceCodecQuantizer)), ("lag-in-frames", "0"), ("row-mt", "1")]
        switch codec {
        case .av1:
            // libavcodec's own cpu-used stops at 8; libaom's realtime mode goes to 10.
            options += [("usage", "realtime"), ("aom-params", "cpu-used=\(referenceCodecSpeed)" + (composesFrames ? "" : Self.av1StillsParameters))]
        case .vp9:
            options += [("cpu-used", String(referenceCodecSpeed)), ("deadline", "good"), ("auto-alt-ref", "0")]
        case .h264, .hevc:
            preconditionFailure("not a reference-frame codec")
        }
        return options
    }
}
