package import CFFmpeg
import SlideshowFFmpeg

/// libx264 through libavcodec: one `AVCodecContext` and its options, owned.
///
/// High profile, yuv420p, CRF rate control, BT.709 limited-range tags written into the VUI,
/// and a global header (SPS/PPS in extradata) as MP4 needs. Two roles (``Role``): the stills
/// encoder, without B-frames (decode order is presentation order), and a motion run's, with.
/// With ``VideoCodec/hevc`` it is libx265 instead (Main profile, ``VideoSettings/x265Parameters``
/// for the stills, ``VideoSettings/motionX265Parameters`` for a motion run's).
package final class H264Encoder: VideoEncoderCalls {
    /// x264's threads: two, whatever the machine (see ``VideoSettings/x264Parameters``).
    package static let threads = 2

    /// What x264 does differently on a motion run's P frames: each macroblock's 8x8
    /// partitions share one reference picture (`mixed-refs=0`) instead of each searching its
    /// own among preset medium's 3.
    ///
    /// On a dissolve or a zoom the reference that matters is the frame before. Measured on the
    /// stills encoder's settings (no B-frames), x264 took 25–28% less CPU on a crossfade and
    /// on a Ken Burns zoom without mixed references, within 1% of the bytes at the same CRF
    /// and the same SSIM; with the motion encoder's B-frames, 7% less CPU on R3's 270 frames
    /// (13.8 against 14.8 s) for 1% more bytes at the same SSIM (README, "Speed of transitions
    /// and motion"). Dropping the P sub-partitions altogether (`p8x8`) saves 40–46%, but then
    /// a macroblock half picture, half letterbox bar moves as one and the bars beside it are
    /// no longer exactly their colour.
    package static let pFrameOptions = "mixed-refs=0"

    /// What an encoder is given.
    package enum Role: Sendable {
        /// Held pictures, each an IDR, and in a show of cuts everything: the one encoder a
        /// show opens first (SPS/PPS id 0).
        case stills
        /// One run of consecutive moving frames (a transition, Ken Burns, a clip), opened
        /// for the run and ended with it (SPS/PPS id 1): B-frames and mb-tree
        /// (``VideoSettings/motionX264Parameters``).
        case motion
    }

    /// The B-frames between a motion encoder's P frames (``VideoSettings/motionX264Parameters``).
    package static let motionBFrames = 3
    /// How many places later in decode order than in presentation order a motion run's frame
    /// can come: one, as its B-frames are not references (no pyramid): the P frame after them
    /// is decoded first, and each B-frame one place after its own frame.
    package static let motionDecodeDelay: Int64 = 1

    /// The codec context and the packet it fills: each freed once, by its own owner.
    private let codecContext: OwnedCodecContext
    package let packetOwner: OwnedPacket
    package var context: UnsafeMutablePointer<AVCodecContext> { codecContext.pointer }

    /// Opens the encoder.
    ///
    /// The settings are not checked here (``VideoSettings/problem`` is, by the writer, before
    /// anything is opened); settings libx264 refuses all the same fail as an ``FFmpegError``,
    /// and whatever was allocated is freed once, by its owner.
    /// - Throws: ``FFmpegError`` when libx264 is missing, rejects an option, or leaves one unrecognised.
    /// - Parameter pFrameOptions: x264's options for a motion run's P frames (``pFrameOptions``
    ///   unless a test compares).
    /// - Parameter role: what the encoder is given: held pictures (and, in a show of cuts, all
    ///   of it), or one run of moving frames (``Role/motion``).
    package init(settings: VideoSettings, globalHeader: Bool, role: Role = .stills,
         pFrameOptions: String = H264Encoder.pFrameOptions) throws(FFmpegError) {
        _ = quietFFmpegLogging
        let name = settings.codec.encoderName
        codecContext = try OwnedCodecContext(encoderNamed: name)
        packetOwner = try OwnedPacket()
        let context = codecContext.pointer

        settings.describePictures(to: context)
        context.pointee.max_b_frames = role == .motion ? Int32(Self.motionBFrames) : 0
        if globalHeader {
            context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }

        if settings.codec == .hevc {
            var options = [(key: "preset", value: settings.preset)]
            if let tune = settings.tune, VideoSettings.hevcTunes.contains(tune) { options.append(("tune", tune)) }
            options += [("crf", role == .motion ? String(settings.hevcMotionCRF) : String(settings.crf)),
                        ("profile", settings.hdr == nil ? "main" : "main10"),
                        ("forced-idr", "1"),
                        ("x265-params", role == .motion ? settings.motionX265Parameters : settings.x265Parameters)]
            try codecContext.open(options: options, name: name)
            return
        }
        var options = [(key: "preset", value: settings.preset)]
        if let tune = settings.tune { options.append(("tune", tune)) }
        options += [("crf", String(role == .motion ? settings.motionCRF : settings.crf)),
                    ("profile", "high"),
                    ("forced-idr", "1"),
                    ("x264-params", role == .motion ? settings.motionX264Parameters(pFrameOptions: pFrameOptions) : settings.x264Parameters)]
        try codecContext.open(options: options, name: name)
    }
}

extension VideoSettings {
    /// The `x265-params` of the HEVC stills encoder (``VideoCodec/hevc``): held pictures, and
    /// every picture of a show of cuts, as x264's stills encoder; a moving show's runs go to
    /// encoders of their own (``motionX265Parameters``), or, without motion runs, to this one.
    ///
    /// No B-frames (decode order is presentation order, and each held picture comes out before
    /// its held frames); closed GOPs, so that every keyframe is an IDR, from which the held
    /// frames' picture order counts (``HEVCSkipFrameWriter``); one frame thread and a pool of
    /// ``H264Encoder/threads`` for wavefronts, whatever the machine; no SEI with x265's version
    /// and options, nor its log on stderr. With held frames skipped, no lookahead (nothing to
    /// look at: each picture after a hold is an IDR) and no scene cuts. In a show of cuts
    /// (``composesFrames`` false), coding units of 16x16 and up (`min-cu-size=16`, now 32, below): x265's
    /// intra search of 8x8 CUs is most of its time on a photo and buys next to nothing there.
    /// Three 1080p photos as IDRs at `medium`, CRF 20: 0.88 s instead of 2.07 s, 203,627 bytes
    /// instead of 200,577, SSIM 0.995768 against 0.995788 (`superfast` took 1.75 s, `ultrafast`
    /// 0.70 s for SSIM 0.994863). On moving frames the small CUs matter (a 640x360 Ken Burns
    /// show with dissolves: 9% more bytes for a lower SSIM without them), so a show that
    /// composes frames keeps x265's 8x8 (and the motion runs' encoders must have the same SPS:
    /// ``HEVCSharedSequence``).
    ///
    /// A show of cuts also takes x265's quickest rate-distortion level (`rd=1`) and
    /// `splitrd-skip` (no RD analysis of a split whose cost already exceeds the CU's), which
    /// on intra pictures decides the same bytes: R1 (3 camera photos, 3 s, 1080p, release build,
    /// 7 alternating runs, medians of user + sys CPU) took 1.08 s instead of 1.33 s (H.264: 0.67 s),
    /// 547,805 bytes instead of 550,352 for an SSIM of the three pictures of 0.991123 instead of
    /// 0.991156 (against the show at H.264 CRF 1), the same within 0.1% of the bytes at equal
    /// SSIM. `rd=2` saved less; `sao=0`, `aq-mode=0`, `min-cu-size=32` and `ctu=32` cost more bytes
    /// at equal SSIM than they save; `fast-intra`, `rskip`, `wpp=0`, `pools=none` saved nothing.
    /// Then `limit-sao` (SAO's search cut short; the same bytes within 5 on the three pictures) and
    /// `qg-size=64` (adaptive quantisation in 64x64 groups: 0.9% more bytes for an SSIM 0.00012
    /// higher, which would cost about 2% at CRF 20): R1 1.07 s against 1.13 s (H.264 0.66 s),
    /// 552,610 bytes, SSIM 0.991247 (9 alternating runs, a noisy machine: within its noise).
    /// Last, coding units of 32x32 and up (`min-cu-size=32`), for issue 34's time target (a show
    /// of cuts in HEVC at most 1.5x its H.264 render's CPU): x265 alone on R1's three pictures
    /// (ffmpeg, medium, CRF 20, 3 runs each) took 0.36–0.40 s of CPU instead of 0.62–0.67 s, for
    /// 555,380 bytes instead of 542,080 (+2.5%) at an SSIM of 0.988934 instead of 0.989292
    /// (about 5% more bytes at equal SSIM): still a third smaller than H.264's 861,041.
    package var x265Parameters: String {
        var parameters = "bframes=0:open-gop=0:frame-threads=1:pools=\(H264Encoder.threads):info=0:log-level=error"
        if hold == .skip {
            parameters += ":rc-lookahead=0:cutree=0:scenecut=0"
            if !composesFrames { parameters += ":min-cu-size=32:rd=1:splitrd-skip=1:limit-sao=1:qg-size=64" }
        }
        if hdr != nil {
            // One reference picture: x265 keeps fewer 10-bit pictures. On the 1080p HDR dissolve
            // show's 90 frames (ffmpeg + libx265, medium, CRF 20, these parameters): peak 223 MB
            // instead of 259 MB, 6.6 s of CPU instead of 7.2 s, 603,083 bytes instead of
            // 601,286 (+0.3%) for an SSIM of 0.998647 instead of 0.998645.
            parameters += ":ref=1"
        }
        if hdr == .pq {
            // HDR10: the mastering display and content light level as SEI at each IDR.
            parameters += ":hdr10=1:master-display=\(HDRMetadata.x265MasteringDisplay):max-cll=\(HDRMetadata.maxCLL),\(HDRMetadata.maxFALL)"
        }
        if losslessHEVC { parameters += ":lossless=1" }
        return parameters
    }

    /// The `x264-params` of the stills encoder (``H264Encoder/Role/stills``) for these settings
    /// (the benchmark's floors encode with the same).
    ///
    /// No B-frames: decode order is presentation order. A fixed thread count: x264's output
    /// depends on it, and the same inputs must give the same bytes on any machine.
    ///
    /// With held frames skipped (``HoldStrategy/skip``) the encoder sees only the distinct
    /// pictures, each one after a hold a forced IDR: there is nothing for a lookahead to look
    /// at, and it would only hold pictures (and their memory) of photos not yet due; nor is
    /// there a scene cut to detect, as every new photo is an IDR anyway. Sliced threads split
    /// each picture across the cores instead of keeping several pictures in flight: the same
    /// speed on one picture, flat memory on many. In a show that composes frames the moving
    /// frames go to motion runs' encoders (``motionX264Parameters``) and this one's settings
    /// stay the same; without motion runs (``motionRuns``) this encoder takes them as P frames,
    /// without mixed references (``H264Encoder/pFrameOptions``).
    package var x264Parameters: String {
        var parameters = "bframes=0:threads=\(H264Encoder.threads)"
        if hold == .skip {
            parameters += ":rc-lookahead=0:sync-lookahead=0:mbtree=0:scenecut=0:sliced-threads=1"
            if composesFrames && !motionRuns { parameters += ":\(H264Encoder.pFrameOptions)" }
        }
        return parameters
    }

    /// The `x264-params` of a motion run's encoder (``H264Encoder/Role/motion``): x264's
    /// rate control at its best within the run, with its own parameter sets.
    ///
    /// - `bframes=3:b-pyramid=none`: B-frames, none of them a reference, so that a P frame is
    ///   decoded at most one frame before its time (``H264Encoder/motionDecodeDelay``); the
    ///   pyramid measured no better on R3;
    /// - `rc-lookahead=6:mbtree=1`: mb-tree over 6 frames, which gives the bits to what the
    ///   following frames reuse. Each frame of lookahead holds about 8 MB: R3 peaked at 312 MB
    ///   with 10 frames, 284 MB with 6, within the 300 MB budget of a moving show;
    /// - `psy=0`: no psychovisual optimisation (psy-rd, psy-trellis): on moving frames it spends
    ///   bits on keeping texture the eye does not follow; with it, R3's frames need 6.1 Mbit/s
    ///   for SSIM 0.98495 where P3's recipe has 0.9862 at that rate;
    /// - `trellis=2`: trellis quantisation in every mode decision, not only the final one:
    ///   8% fewer bytes on R3's frames at the same SSIM (3.93 against 4.28 Mbit/s at CRF 18,
    ///   SSIM 0.98407), for 27% more of x264's time; `subme=9` bought 2% for 21%, `me=umh`
    ///   and `ref=5` nothing;
    /// - B-frames coded in whole macroblocks (``motionPartitions``: the preset's partitions less
    ///   `b8x8`), which OpenH264 mispredicts;
    /// - the rest as the stills encoder (sliced threads, no scene cuts), ``H264Encoder/pFrameOptions``
    ///   on the P frames, and `sps-id=1`: parameter sets beside the stills encoder's, both in
    ///   the file's `avcC`.
    package var motionX264Parameters: String { motionX264Parameters(pFrameOptions: H264Encoder.pFrameOptions) }

    /// The motion encoder's `x264-params` with other options for its P frames (x264's own
    /// syntax, e.g. medium's `mixed-refs=1`).
    package func motionX264Parameters(pFrameOptions: String) -> String {
        "bframes=\(H264Encoder.motionBFrames):b-pyramid=none:threads=\(H264Encoder.threads):rc-lookahead=6:mbtree=1:psy=0:trellis=2"
            + ":scenecut=0:sliced-threads=1:\(pFrameOptions)" + (motionPartitions.map { ":partitions=\($0)" } ?? "") + ":sps-id=1"
    }

    /// The motion encoder's macroblock partitions: the preset's, less the B-frames' sub-16x16
    /// ones (`b8x8`, under which x264 also tries 16x8 and 8x16); nil where the preset has none
    /// (`ultrafast`, `superfast`). x264's presets: `p8x8,b8x8,i8x8,i4x4` from `veryfast` to
    /// `slow`, `p4x4` added from `slower` on.
    ///
    /// OpenH264 (2.3.1, Debian 12's: GStreamer's `openh264dec`; Firefox's WebRTC decoder)
    /// mispredicts them: a bi-predicted 16x8 or 8x16 partition comes out as its list-1
    /// prediction alone and the second partition's lands 8 pixels off (`GetInterBPred`), and
    /// B_8x8 blocks went wrong too. On the clip show of the second-decoder tests every B-frame
    /// of the run differed from FFmpeg's decode (45–68 dB, samples up to 20 apart; 35 dB in one
    /// CI run). Without `b8x8`, every I and P frame of a run decodes bit-exact and B-frames
    /// within a step of the deblocking filter (OpenH264's boundary strength inside direct
    /// macroblocks whose 8x8 blocks move apart). It costs nothing measurable: R2 at 1080p
    /// 2,555,950 bytes against 2,556,266 with SSIM 0.991924 both, R3 4,735,117 against 4,737,890
    /// with SSIM 0.983924 against 0.983933. `direct=none` as well would make B-frames bit-exact,
    /// but costs 6.4% on R2 (2,719,995 bytes) and 20% on R3 (5,682,920): B_Skip and direct
    /// macroblocks carry dissolves and zooms.
    package var motionPartitions: String? {
        switch preset {
        case "ultrafast", "superfast": nil
        case "slower", "veryslow", "placebo": "p8x8,p4x4,i8x8,i4x4"
        default: "p8x8,i8x8,i4x4"
        }
    }

    /// The CRF of motion runs: two below ``crf`` (at least 1). With mb-tree x264 lowers the
    /// quality of what little refers to; two steps down, R3's moving frames measure a better
    /// SSIM than one encoder with the stills encoder's settings gives them at ``crf`` (0.98393
    /// against 0.98382, `slideshow-bench --r3`), in 38% of the bytes.
    package var motionCRF: Int { max(Self.crfRange.lowerBound, crf - 2) }
}
