internal import CFFmpeg

/// libx264 through libavcodec: one `AVCodecContext` and its options, owned.
///
/// Configured for still photos: High profile, yuv420p, no B-frames (decode
/// order is presentation order), CRF rate control, BT.709 limited-range tags written into
/// the VUI, and a global header (SPS/PPS in extradata) as MP4 needs.
final class H264Encoder {
    /// x264's threads: two, whatever the machine (see ``VideoSettings/x264Parameters``).
    static let threads = 2

    /// What x264 does differently on P frames when pictures are skipped between holds: each
    /// macroblock's 8x8 partitions share one reference picture (`mixed-refs=0`) instead of
    /// each searching its own among preset medium's 3.
    ///
    /// With held frames skipped the encoder's only P frames are composed ones (transitions,
    /// motion), where the reference is always the frame before: without mixed references x264
    /// takes 25–28% less CPU on a crossfade and on a Ken Burns zoom, within 1% of the bytes at
    /// the same CRF and the same SSIM (issue 25; README, "Speed of transitions and motion").
    /// Dropping the P sub-partitions altogether (`p8x8`) saves 40–46%, but then a macroblock
    /// half picture, half letterbox bar moves as one and the bars beside it are no longer
    /// exactly their colour.
    ///
    /// A show of cuts (IDR pictures only) is encoded exactly as before: its pictures are the
    /// same bytes, and only x264's settings text in the first picture's SEI says `mixed_ref=0`
    /// instead of `mixed_ref=1` (the same length: the file keeps its size).
    static let pFrameOptions = "mixed-refs=0"

    /// What an encoder is given.
    enum Role: Sendable {
        /// Held pictures, each an IDR, and in a show of cuts everything: the one encoder a
        /// show opens first (SPS/PPS id 0).
        case stills
        /// One run of consecutive moving frames (a transition, Ken Burns, a clip), opened
        /// for the run and ended with it (SPS/PPS id 1): B-frames and mb-tree
        /// (``VideoSettings/motionX264Parameters``).
        case motion
    }

    /// The B-frames between a motion encoder's P frames (``VideoSettings/motionX264Parameters``).
    static let motionBFrames = 3
    /// How many frames a motion run's decode order runs ahead of its presentation: one, as its
    /// B-frames are not references (no pyramid), so each is decoded right after the P frame
    /// it precedes.
    static let motionDecodeDelay: Int64 = 1

    /// The codec context and the packet it fills: each freed once, by its own owner.
    private let codecContext: OwnedCodecContext
    private let packetOwner: OwnedPacket
    var context: UnsafeMutablePointer<AVCodecContext> { codecContext.pointer }
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }

    /// Opens the encoder.
    ///
    /// The settings are not checked here (``VideoSettings/problem`` is, by the writer, before
    /// anything is opened); settings libx264 refuses all the same fail as an ``FFmpegError``,
    /// and whatever was allocated is freed once, by its owner.
    /// - Throws: ``FFmpegError`` when libx264 is missing, rejects an option, or leaves one unrecognised.
    /// - Parameter pFrameOptions: x264's options for P frames (``pFrameOptions`` unless a test compares).
    /// - Parameter role: what the encoder is given: held pictures (and, in a show of cuts, all
    ///   of it), or one run of moving frames (``Role/motion``).
    init(settings: VideoSettings, globalHeader: Bool, role: Role = .stills,
         pFrameOptions: String = H264Encoder.pFrameOptions) throws(FFmpegError) {
        _ = quietFFmpegLogging
        guard let codec = avcodec_find_encoder_by_name("libx264") else {
            throw FFmpegError(call: "avcodec_find_encoder_by_name(libx264)", code: -ENOSYS)
        }
        codecContext = try OwnedCodecContext(codec: codec)
        packetOwner = try OwnedPacket()
        let context = codecContext.pointer

        context.pointee.width = Int32(settings.size.width)
        context.pointee.height = Int32(settings.size.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: Int32(settings.framesPerSecond))
        context.pointee.framerate = AVRational(num: Int32(settings.framesPerSecond), den: 1)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.max_b_frames = role == .motion ? Int32(Self.motionBFrames) : 0
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        if globalHeader {
            context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }

        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        try setOption(&options, "preset", settings.preset)
        if let tune = settings.tune { try setOption(&options, "tune", tune) }
        try setOption(&options, "crf", String(role == .motion ? settings.motionCRF : settings.crf))
        try setOption(&options, "profile", "high")
        try setOption(&options, "forced-idr", "1")
        try setOption(&options, "x264-params", role == .motion ? settings.motionX264Parameters
                                                                : settings.x264Parameters(pFrameOptions: pFrameOptions))

        try check(avcodec_open2(context, codec, &options), "avcodec_open2(libx264)")
        if let unrecognised = av_dict_get(options, "", nil, AV_DICT_IGNORE_SUFFIX) {
            let key = String(cString: unrecognised.pointee.key)
            throw FFmpegError(call: "avcodec_open2(libx264): option \(key) not recognised", code: -EINVAL)
        }
    }

    /// The SPS and PPS the encoder put in its global header, as an Annex B stream.
    var extradata: [UInt8] {
        guard let data = context.pointee.extradata, context.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(context.pointee.extradata_size)))
    }

    /// Sends one picture (pts in frames); `forceIDR` makes it an IDR picture.
    /// - Returns: false when the encoder is full and its output must be received first.
    func send(_ frame: UnsafeMutablePointer<AVFrame>, pts: Int64, forceIDR: Bool) throws(FFmpegError) -> Bool {
        frame.pointee.pts = pts
        frame.pointee.pict_type = forceIDR ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        let code = avcodec_send_frame(context, frame)
        if code == shim_averror_eagain() { return false }
        try check(code, "avcodec_send_frame")
        return true
    }

    /// Signals the end of the pictures: the encoder then gives out what it still holds.
    func sendEndOfStream() throws(FFmpegError) {
        let code = avcodec_send_frame(context, nil)
        if code == shim_averror_eof() { return }
        try check(code, "avcodec_send_frame(NULL)")
    }

    /// Asks for the next packet; on `.packet`, `body` sees it (valid only inside the call).
    func receive(_ body: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws -> EncoderOutput {
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
    /// The `x264-params` the writer gives libx264 for these settings (the benchmark's floors
    /// encode with the same).
    ///
    /// No B-frames: decode order is presentation order. A fixed thread count: x264's output
    /// depends on it, and the same inputs must give the same bytes on any machine.
    ///
    /// With held frames skipped (``HoldStrategy/skip``) the encoder sees only the distinct
    /// pictures, each one after a hold a forced IDR: there is nothing for a lookahead to look
    /// at, and it would only hold pictures (and their memory) of photos not yet due; nor is
    /// there a scene cut to detect, as every new photo is an IDR anyway. Sliced threads split
    /// each picture across the cores instead of keeping several pictures in flight: the same
    /// speed on one picture, flat memory on many. Composed frames (transitions, motion) keep
    /// slices too: frame threads measured 9% faster on the R3 show (23.2 against 25.4 s) but
    /// held 20 MB more. Those composed frames are the encoder's only P frames, and they are
    /// encoded without mixed references (``H264Encoder/pFrameOptions``).
    @_spi(Benchmark) public var x264Parameters: String { x264Parameters(pFrameOptions: H264Encoder.pFrameOptions) }

    /// The `x264-params` of a motion run's encoder (``H264Encoder/Role/motion``): x264's
    /// rate control at its best within the run, with its own parameter sets.
    ///
    /// - `bframes=3:b-pyramid=none`: B-frames, none of them a reference, so the run's last
    ///   picture, a P frame, is the last reference the decoder sees, and the writer's held
    ///   frames after it copy it (``SkipFrameWriter``);
    /// - `rc-lookahead=10:mbtree=1`: mb-tree over 10 frames, which gives the bits to what the
    ///   following frames reuse;
    /// - `psy=0`: no psychovisual rate–distortion: on moving frames it spends bits on
    ///   keeping texture that the eye does not follow (see the README, "Speed of transitions
    ///   and motion", for what each costs and buys);
    /// - `sps-id=1`: parameter sets beside the stills encoder's, both in the file's `avcC`;
    /// - the rest as the stills encoder: sliced threads, no scene cuts, no mixed references.
    ///
    /// On R3's 270 frames (`slideshow-bench --r3`), x264 alone: 4.85 Mbit/s at SSIM 0.98585
    /// and 13.8 s of CPU at ``motionCRF`` 18, against 11.02 Mbit/s, 0.98373 and 17.3 s with the
    /// stills encoder's settings at 20.
    @_spi(Benchmark) public var motionX264Parameters: String {
        "bframes=\(H264Encoder.motionBFrames):b-pyramid=none:threads=\(H264Encoder.threads):rc-lookahead=6:mbtree=1:psy=0"
            + ":scenecut=0:sliced-threads=1:\(H264Encoder.pFrameOptions):sps-id=1"
    }

    /// The CRF of motion runs: two below ``crf`` (at least 1). With mb-tree x264 lowers the
    /// quality of what is little referenced; two steps down, the moving frames measure a better
    /// SSIM than the stills encoder gives them at ``crf``, in less than half the bytes.
    @_spi(Benchmark) public var motionCRF: Int { max(Self.crfRange.lowerBound, crf - 2) }

    /// The `x264-params` with other options for the composed frames (x264's own syntax, e.g. medium's `mixed-refs=1`).
    func x264Parameters(pFrameOptions: String) -> String {
        var parameters = "bframes=0:threads=\(H264Encoder.threads)"
        if hold == .skip {
            parameters += ":rc-lookahead=0:sync-lookahead=0:mbtree=0:scenecut=0:sliced-threads=1"
            // In a show that composes frames, each picture must come out before the next is
            // sent: the next may go to a motion run's encoder, after this one's held frames.
            // x264 keeps one frame back for timestamps it may not trust, unless told the
            // input's rate is constant (it is: the writer's frames).
            if composesFrames { parameters += ":\(pFrameOptions):force-cfr=1" }
        }
        return parameters
    }
}
