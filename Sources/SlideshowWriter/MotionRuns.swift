internal import CFFmpeg
import SlideshowFFmpeg

/// The encoders of a show's motion runs: pictures each followed at once by another (a
/// transition's frames, Ken Burns, a clip), each run encoded by an x264 of its own with
/// B-frames and mb-tree (``VideoSettings/motionX264Parameters``), beside the stills encoder;
/// in HEVC an x265 of its own (``VideoSettings/motionX265Parameters``, whose parameter sets
/// stand for the stills encoder's: ``HEVCSharedSequence``).
///
/// Why an encoder a run: x264's lookahead and B-frames hold pictures back, and only the end
/// of the stream gives them all out, while the picture after a run, held, goes to the stills
/// encoder and must follow every packet of it. A run starts where the frame before was
/// held (or at the show's start), so with an IDR anyway, and a fresh encoder costs nothing in
/// the stream. Every motion encoder of a show has the same settings, so the same parameter
/// sets (id 1); their SPS is the stream's only one (``SharedSequence``: the stills encoder's
/// IDRs are rewritten to it), their PPS goes into the file's `avcC` beside the stills
/// encoder's (id 0).
package final class MotionRuns {
    private let settings: VideoSettings
    /// The encoder of the run under way, or the one opened ready for the next run.
    private var encoder: H264Encoder?
    /// The motion encoders' global header (SPS and PPS, Annex B).
    package let extradata: [UInt8]
    /// Whether a run is under way: its encoder has been given pictures and not yet drained.
    package private(set) var isRunning = false

    /// Opens the first run's encoder, whose global header the file's configuration needs.
    /// - Throws: ``FFmpegError`` when libx264 refuses the settings, or gives no readable SPS.
    package init(settings: VideoSettings) throws(FFmpegError) {
        self.settings = settings
        let encoder = try H264Encoder(settings: settings, globalHeader: true, role: .motion)
        extradata = encoder.extradata
        let readable = settings.codec == .hevc ? (try? HEVCSkipFrameWriter(extradata: extradata)) != nil
                                               : EncoderParameterSets(annexB: extradata) != nil
        guard readable else {
            throw FFmpegError(call: "avcodec_open2(\(settings.codec.encoderName)): no readable sequence parameter set in the motion encoder's header",
                              code: -EINVAL)
        }
        self.encoder = encoder
    }

    /// The encoder of the run under way; at a run's first picture, a fresh one (the one
    /// opened ready, for the first run).
    package func encoderForRun() throws(FFmpegError) -> H264Encoder {
        if isRunning, let encoder { return encoder }
        let fresh: H264Encoder
        if let encoder {
            fresh = encoder
        } else {
            fresh = try H264Encoder(settings: settings, globalHeader: true, role: .motion)
            // An HEVC file has one configuration, the first run's: every run must write the same
            // sets. (H.264's runs' slices name their own SPS and PPS ids, which the file carries.)
            guard settings.codec != .hevc || fresh.extradata == extradata else {
                throw FFmpegError(call: "avcodec_open2(\(settings.codec.encoderName)): a motion run's parameter sets differ from the first run's",
                                  code: -EINVAL)
            }
        }
        encoder = fresh
        isRunning = true
        return fresh
    }

    /// The run's encoder has been drained: it is freed, and the next run opens another.
    package func endRun() {
        encoder = nil
        isRunning = false
    }
}
