package import CFFmpeg
import SlideshowFFmpeg

/// libaom (AV1) or libvpx (VP9) through libavcodec: one `AVCodecContext` and its options, owned.
///
/// 8-bit 4:2:0 (AV1 Main, VP9 profile 0), constant quality, BT.709 limited range tagged, two
/// threads with row multithreading, no look-ahead (`lag-in-frames=0`: each picture comes out
/// as one shown frame, no hidden alt-ref frames, so every packet is a frame of the show and a
/// forced key frame is the picture it was asked for), key frames only where the writer forces
/// them (``VideoSettings/referenceCodecKeyInterval``).
///
/// AV1 in a moving show (``VideoSettings/av1Segments``) is the exception: libaom's `good` mode,
/// with a look-ahead and hidden alt-ref frames, one encoder a stretch between key frames
/// (``Role/segment``, ``ShowExistingEngine``).
package final class ReferenceFrameEncoder: VideoEncoderCalls {
    package enum Role: Sendable {
        /// The one encoder of a show: key frames where the writer forces them.
        case whole
        /// One stretch of an AV1 moving show from a key frame to the next (a held picture and
        /// its copy, or a run of moving frames), opened for it and drained at its end; no key
        /// frame is forced: its first picture is one (``VideoSettings/av1SegmentOptions``).
        case segment
    }


    private let codecContext: OwnedCodecContext
    package let packetOwner: OwnedPacket
    package var context: UnsafeMutablePointer<AVCodecContext> { codecContext.pointer }

    /// - Throws: ``FFmpegError`` when the encoder is missing, rejects an option or leaves one unrecognised.
    package init(settings: VideoSettings, globalHeader: Bool, role: Role = .whole) throws(FFmpegError) {
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

        let options = role == .segment ? settings.av1SegmentOptions : settings.referenceCodecOptions
        try codecContext.open(options: options.map { (key: $0.0, value: $0.1) }, name: name)
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
        // moving show without motion runs (one with a 4K clip; with runs AV1 is libaom's good
        // mode, ``av1SegmentSpeed``) codes motion, where speed 7 makes 27% fewer bytes than 10 at the same
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
    /// (`ffmpeg -c:v libaom-av1 -usage realtime -aom-params cpu-used=10:…`). Nor does it update
    /// its coefficient, mode and motion-vector cost tables within a picture (`*-cost-upd-freq=3`):
    /// the three photos then took 0.37–0.44 s of CPU instead of 0.45–0.54 s, for 137 bytes more
    /// in 227,586 and SSIM 0.97598 against 0.97595 (three runs each, 2026-11-28). Moving frames
    /// keep them.
    package static let av1StillsParameters = ":enable-filter-intra=0:enable-smooth-intra=0:enable-paeth-intra=0:enable-cfl-intra=0:enable-angle-delta=0"
        + ":coeff-cost-upd-freq=3:mode-cost-upd-freq=3:mv-cost-upd-freq=3"

    package static let av1QuantizerOffset = 12
    /// A moving show's without motion runs (with them: ``av1SegmentQuantizerOffset``): libaom's realtime mode needs quantizer 16 or so for x264's SSIM on R3
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

// AV1 moving shows in libaom's `good` mode (issue 34, R3).
//
// libaom's realtime mode, which the writer uses for AV1 otherwise, needs about 1.3x x264's
// bytes for the same SSIM on a moving show; its `good` mode, with a look-ahead and hidden
// alt-ref frames, is about a quarter smaller than x264. But libaom 3.6's `good` mode cannot
// be given a forced key frame: the frame after it comes out a key frame too (`ffmpeg -usage
// good -lag-in-frames 0 -force_key_frames 'expr:eq(n,6)'`: key frames 0, 6 and 7; the same
// with lag 1 and 19, `enable-keyframe-filtering=0` and `auto-alt-ref=0`; realtime mode: 0 and
// 6), and a shown key frame is no frame a hold can show again. So a moving show opens an
// encoder for each stretch from one key frame to the next, as H.264's and HEVC's motion
// runs do (``MotionRuns``), and forces none: each encoder's first picture is a key frame.
// Every encoder has the same options, so the same sequence header, which the file's sample
// entry carries once (``ShowExistingEngine`` checks each key frame's against the first).
extension VideoSettings {
    /// Whether an AV1 show's stretches between key frames go to encoders of their own in
    /// libaom's `good` mode (a moving show with motion runs, at most 1080p's pixels), rather
    /// than one realtime encoder.
    package var av1Segments: Bool {
        codec == .av1 && composesFrames && motionRuns && size.width * size.height <= Self.av1SegmentsLargestPicture
    }

    /// The most pixels a picture of an AV1 show in `good`-mode segments has: 1920 × 1080. Its
    /// look-ahead holds 19 pictures: a 3 s fade and zoom-in show at 3840x2160 peaked at
    /// 1,236 MB (realtime: 573 MB, H.264: 711 MB), so larger shows keep the realtime encoder.
    package static let av1SegmentsLargestPicture = 1920 * 1080

    /// libaom's `good`-mode speed (0 slowest to 6) for x264's preset.
    package var av1SegmentSpeed: Int {
        let index = Self.presets.firstIndex(of: preset) ?? 5
        //                 ultrafast superfast veryfast faster fast medium slow slower veryslow placebo
        return [6, 6, 6, 6, 6, 6, 5, 4, 3, 2][index]
    }

    /// Frames of a segment encoder's look-ahead: the alt-ref frames' distance.
    package static let av1SegmentLookahead = 19

    /// The quantizer offset of `good`-mode segments (``referenceCodecQuantizer``'s, for them):
    /// at quantizer 26 R3 came out at 1,629,754 bytes, SSIM 0.98426, against x264's 4,735,117
    /// bytes and 0.98392 at CRF 20 (docs/usage.md, "Codecs"), so the default CRF 20 gives 26.
    package static let av1SegmentQuantizerOffset = 6

    /// The options of a segment's encoder (``ReferenceFrameEncoder/Role/segment``):
    /// - `usage=good` with its look-ahead and alt-ref frames;
    /// - `enable-keyframe-filtering=0`: the first picture a shown key frame, not a filtered one
    ///   hidden and shown again (a key frame shown by `show_existing_frame` refreshes every slot);
    /// - no intra-only or switch frames, nothing the writer has to read beyond a frame header's
    ///   first fields (``AV1FrameHeaderPrefix``).
    package var av1SegmentOptions: [(String, String)] {
        precondition(codec == .av1, "segments are AV1's")
        let quantizer = min(63, max(0, crf + Self.av1SegmentQuantizerOffset))
        return [("crf", String(quantizer)), ("lag-in-frames", String(Self.av1SegmentLookahead)), ("row-mt", "1"), ("usage", "good"),
                ("aom-params", "cpu-used=\(av1SegmentSpeed):enable-keyframe-filtering=0")]
    }
}
