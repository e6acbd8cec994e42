import SlideshowPixels

/// How the writer fills the frames between two appended pictures.
public enum HoldStrategy: String, Sendable, Hashable, CaseIterable {
    /// The writer repeats the picture itself with all-skip P slices, a few bytes and no
    /// encoding time each; every held frame decodes to exactly the picture's bytes. The default.
    case skip
    /// The encoder encodes every frame, held or not: the conventional path, slower.
    case encode
}

/// The video codec a show is written in.
public enum VideoCodec: String, Sendable, Hashable, CaseIterable {
    /// H.264 High (libx264), `avc1` in MP4: the default, and every player's.
    case h264
    /// HEVC Main (libx265), `hvc1` in MP4 (the tag Apple's players ask for). x265's CRF scale
    /// and presets; of the tunes, x265 has `psnr`, `ssim`, `grain`, `fastdecode`,
    /// `zerolatency` and `animation` (others, such as the default `stillimage`, are left out).
    case hevc
    /// AV1 Main (libaom), in WebM, or `av01` in MP4. Held frames are `show_existing_frame`
    /// headers (``AV1ShowExisting``); ``VideoSettings/crf`` and ``VideoSettings/preset`` are
    /// x264's, mapped to libaom's scale (``VideoSettings/av1Quantizer``).
    case av1
    /// VP9 profile 0 (libvpx), in WebM. Held frames are one-byte `show_existing_frame` frames
    /// (``VP9ShowExisting``); CRF and preset mapped as AV1's.
    case vp9

    /// The libavcodec encoder.
    package var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .hevc: "libx265"
        case .av1: "libaom-av1"
        case .vp9: "libvpx-vp9"
        }
    }

    /// Whether the writer repeats held pictures with `show_existing_frame` (VP9, AV1) rather
    /// than with skip slices of its own (H.264, HEVC).
    package var showsExistingFrames: Bool { self == .av1 || self == .vp9 }

    /// The containers this codec is written in, the first the default.
    public var containers: [VideoContainer] {
        switch self {
        case .h264, .hevc: [.mp4]
        case .av1: [.webm, .mp4]
        case .vp9: [.webm]
        }
    }
}

/// The container a video is written in, chosen by the output's extension.
public enum VideoContainer: String, Sendable, Hashable, CaseIterable {
    /// MP4 (`.mp4`, `.m4v`): H.264, HEVC or AV1, with AAC.
    case mp4
    /// WebM (`.webm`): VP9 or AV1, with Opus.
    case webm

    /// libavformat's muxer.
    package var formatName: String { rawValue }

    /// The extensions (compared without case) that name this container.
    public var fileExtensions: [String] { self == .mp4 ? ["mp4", "m4v"] : ["webm"] }

    /// The codec an output of this container gets when none is asked for: H.264 in MP4, VP9 in WebM.
    public var defaultCodec: VideoCodec { self == .mp4 ? .h264 : .vp9 }

    /// The container an output path names by its extension, or nil.
    public init?(outputPath: String) {
        let name = outputPath.split(separator: "/").last.map(String.init) ?? outputPath
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let suffix = name[name.index(after: dot)...].lowercased()
        guard let container = Self.allCases.first(where: { $0.fileExtensions.contains(suffix) }) else { return nil }
        self = container
    }
}

/// What the video stream is: size, rate and the encoder's settings.
public struct VideoSettings: Sendable, Hashable {
    /// The frame size; both dimensions even and positive.
    public var size: Size
    /// Frames per second of the constant frame rate.
    public var framesPerSecond: Int
    /// x264's constant rate factor, 1 (best) to 51; 20 by default. 0 would be lossless,
    /// which the H.264 High profile cannot carry (it needs High 4:4:4 Predictive), so it is refused.
    public var crf: Int
    /// x264's preset, `ultrafast` to `placebo`; `medium` by default.
    public var preset: String
    /// x264's tune (one of ``tunes``, or several joined by commas); `stillimage` by default.
    public var tune: String?
    /// How held frames are written.
    public var hold: HoldStrategy
    /// The codec: H.264 by default.
    public var codec: VideoCodec
    /// The container, when the writer is told it (the renderer sets it from the output's
    /// extension); nil: MP4. A codec it cannot carry is a ``problem``.
    public var container: VideoContainer?
    /// An HDR video's transfer (PQ or HLG), or nil for SDR (BT.709), the default. An HDR video
    /// is HEVC Main 10 (``VideoCodec/hevc``), 4:2:0 in 10 bits, BT.2020 primaries and matrix;
    /// its pictures are appended as ``HDRPixelBuffer``s.
    public var hdr: HDRTransfer? = nil
    /// Whether the show has composed frames (transitions, motion, fades, clips), or only held
    /// pictures, each an IDR; the renderer sets it from the plan. With held frames skipped, a
    /// show that composes frames gives its runs of moving frames to encoders of their own
    /// (``WriterEngine``, ``MotionRuns``); a show of cuts opens the one encoder it always had,
    /// and is written exactly as before motion runs existed.
    package var composesFrames = true
    /// Whether a show that composes frames gives its runs to motion encoders (``MotionRuns``);
    /// when false the one encoder takes them as P frames, without mixed references
    /// (``H264Encoder/pFrameOptions``). The renderer turns it off for shows with a clip of
    /// 4K or more, whose decoder's pictures leave no room for a motion encoder's lookahead
    /// within 300 MB.
    package var motionRuns = true
    /// Whether x265 codes every picture losslessly (`lossless=1`, ``x265Parameters``): never in a
    /// show; the benchmark renders with it (and every held frame encoded) to hand ffmpeg + libx265
    /// exactly the pictures a show gives its encoder.
    package var losslessHEVC = false

    /// The x264 presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// The x264 tunes.
    public static let tunes = ["film", "animation", "grain", "stillimage", "psnr", "ssim", "fastdecode", "zerolatency"]

    /// The constant rate factors the High profile allows: 1 to 51 (0, lossless, needs High 4:4:4 Predictive).
    public static let crfRange = 1...51

    /// The frame rates a video may have: 1 to 240 frames per second.
    public static let frameRates = 1...240

    /// Creates settings; the defaults are the product's: 1920x1080, 30 fps, CRF 20, preset medium, tune stillimage, skip holds.
    public init(size: Size = .hd1080, framesPerSecond: Int = 30, crf: Int = 20, preset: String = "medium",
                tune: String? = "stillimage", hold: HoldStrategy = .skip, codec: VideoCodec = .h264) {
        self.size = size
        self.framesPerSecond = framesPerSecond
        self.crf = crf
        self.preset = preset
        self.tune = tune
        self.hold = hold
        self.codec = codec
    }

    /// The x265 tunes (``VideoCodec/hevc``); x264's others are left out of an HEVC encoder's options.
    public static let hevcTunes = ["psnr", "ssim", "grain", "fastdecode", "zerolatency", "animation"]

    /// Why these settings cannot make a video, or nil when they can.
    public var problem: String? {
        if size.width <= 0 || size.height <= 0 { return "size \(size) must be positive" }
        if size.width % 2 != 0 || size.height % 2 != 0 { return "size \(size) must have even width and height (4:2:0 video)" }
        if size.width > 8192 || size.height > 8192 { return "size \(size) is larger than 8192 pixels a side" }
        if size.width < 16 || size.height < 16 { return "size \(size) is smaller than 16 pixels a side" }
        if !Self.frameRates.contains(framesPerSecond) {
            return "frame rate \(framesPerSecond) is not between \(Self.frameRates.lowerBound) and \(Self.frameRates.upperBound)"
        }
        if codec == .h264, H264Level.lowest(fitting: size, framesPerSecond: framesPerSecond) == nil {
            let level = H264Level.highest
            let macroblocks = H264Level.macroblocks(in: size)
            if macroblocks > level.maxFrameMacroblocks {
                return "size \(size) is \(macroblocks) macroblocks a frame, more than the \(level.maxFrameMacroblocks) H.264 allows at its highest level (6.2; 8192x4352 fits)"
            }
            return "size \(size) at \(framesPerSecond) fps is \(macroblocks * framesPerSecond) macroblocks a second, more than the \(level.maxMacroblocksPerSecond) H.264 allows at its highest level (6.2)"
        }
        if let container, !codec.containers.contains(container) {
            return "\(codec.rawValue) is not written in \(container == .webm ? "WebM" : "MP4") (\(codec.rawValue) goes in \(codec.containers.map { $0 == .webm ? "WebM (.webm)" : "MP4 (.mp4, .m4v)" }.joined(separator: " or ")))"
        }
        if hdr != nil, codec != .hevc { return "HDR video is HEVC Main 10: the codec must be hevc" }
        if crf == 0 { return codec == .h264 ? "CRF 0 (lossless) is not possible in H.264 High; give 1 to 51" : "CRF 0 is not one of 1 to 51" }
        if !Self.crfRange.contains(crf) { return "CRF \(crf) is not between \(Self.crfRange.lowerBound) and \(Self.crfRange.upperBound)" }
        if !Self.presets.contains(preset) { return "preset '\(preset)' is not one of \(Self.presets.joined(separator: ", "))" }
        if let tune, tune.split(separator: ",", omittingEmptySubsequences: false).contains(where: { !Self.tunes.contains(String($0)) }) {
            return "tune '\(tune)' is not one of \(Self.tunes.joined(separator: ", ")) (or several joined by commas)"
        }
        if let tune, tune.split(separator: ",").filter({ !["fastdecode", "zerolatency"].contains($0) }).count > 1 {
            return "tune '\(tune)' combines more than one of film, animation, grain, stillimage, psnr and ssim"
        }
        return nil
    }
}
