internal import CFFmpeg
import Foundation
import SlideshowFFmpeg
import SlideshowPixels

/// Decodes a clip's video and gives one upright RGB frame for each frame of the show.
///
/// The show runs at a constant frame rate; a clip's frames come when they come (phones record
/// at a variable rate). Output frame `k` shows the clip at `inPoint + k / fps`, and for each
/// such time `t` the reader gives the last decoded frame whose timestamp is at most `t` (the
/// first frame, for times before it). Times are the stream's timestamps after libavformat
/// applied the edit list, less the container's start time, so a clip starts at zero.
///
/// Only two decoded frames are kept (the one shown and the next one), each converted to RGB
/// once, however long it is held: memory does not grow with the clip.
///
/// Interlaced pictures are deinterlaced (``Deinterlacer``, libavfilter's `bwdif`), each by its
/// own flag (a stream that mixes progressive and interlaced pictures has only the interlaced
/// ones filtered), or by the stream's field order for codecs whose frames carry no flag: one
/// picture per field pair when the show's rate is below one and a half times the clip's frame
/// rate (a 50i clip, 25 frames a second, in a 25- or 30-fps show), one per field otherwise (in a
/// 50- or 60-fps show), each field at its own time. ``nextFrame()`` gives a
/// picture of its own; a player that composes frames asks ``advance()`` whether the picture
/// changed and has it drawn (``draw(into:at:)``) straight into its frame. A trimmed clip seeks to
/// the keyframe before its in-point and decodes forward from there. libavcodec decodes on its
/// own threads (frame and slice threads, one a core).
///
/// A clip that stops early (truncated, damaged) holds its last good frame for the rest of its
/// length and records a ``ClipWarning``; damaged packets are skipped and counted. Reading
/// always ends: every loop either consumes a packet or reaches the end of the file.
public final class ClipReader {
    /// What the clip is.
    public let info: ClipInfo
    /// The size of the frames given (upright).
    public let size: Size
    /// The number of frames ``nextFrame()`` gives in all.
    public let frameCount: Int
    /// Frames libavcodec has decoded so far (shown or not): what a trimmed clip's seek saves.
    public private(set) var decodedFrames = 0
    /// What went wrong along the way and was worked around.
    public private(set) var warnings: [ClipWarning] = []

    private let input: OwnedInputFormat
    private let decoder: OwnedCodecContext
    private let streamIndex: Int32
    private let timeBase: AVRational
    /// The clock frames are timed on: the stream's time base with twice the ticks, so that a
    /// field's time (half a frame) is whole.
    private let clock: AVRational
    private var feed: PacketFeed
    /// The decoder's output, before it is deinterlaced or moved into `next`.
    private let decoded: OwnedFrame
    /// The times of `shown` and `next` on `clock`.
    private var shownTime: Int64 = 0
    private var nextTime: Int64 = 0
    /// The time of the frame decoded last, in the stream's time base.
    private var lastDecodedTime: Int64?
    /// Built at the first interlaced picture.
    private var deinterlacer: Deinterlacer?
    private var deinterlacerEnded = false
    private let deinterlaceRate: Deinterlacer.Rate
    /// Whether the codec's frames say which are interlaced (else the stream's field order does).
    private let framesCarryFieldFlags: Bool
    private var shown: OwnedFrame
    private var next: OwnedFrame
    private var hasShown = false
    private var hasNext = false
    private var shownPicture: PixelBuffer?
    private let converter: ClipFrameConverter
    private let fps: Int32
    private let inPoint: MediaTime
    /// Clip time zero on `clock`.
    private let zero: Int64
    private var produced = 0
    private var ended = false
    private var skippedPackets = 0

    /// Opens a clip and seeks to its in-point.
    /// - Parameters:
    ///   - source: the clip.
    ///   - size: the upright size of the frames to give (the clip's picture fitted by the caller).
    ///   - framesPerSecond: the show's frame rate.
    ///   - inPoint: where in the clip to start (clip time, from zero).
    ///   - duration: how long to play; to the clip's end when nil.
    ///   - limits: what a clip may be at most.
    /// - Throws: ``ClipError``, the kinds ``ClipProbe/probe(_:limits:)`` throws, and `.decodeFailed`
    ///   when the decoder cannot be opened.
    public convenience init(source: ClipSource, size: Size, framesPerSecond: Int, inPoint: MediaTime = .zero, duration: MediaTime? = nil,
                            limits: ClipLimits = .default) throws(ClipError) {
        try self.init(source: source, size: size, framesPerSecond: framesPerSecond, inPoint: inPoint, duration: duration,
                      limits: limits, threads: nil)
    }

    /// Opens a clip and seeks to its in-point, its decoder on `threads` threads (nil: ``decodeThreads(codedPixels:)``).
    package init(source: ClipSource, size: Size, framesPerSecond: Int, inPoint: MediaTime = .zero, duration: MediaTime? = nil,
                 limits: ClipLimits = .default, threads: Int?) throws(ClipError) {
        precondition(size.width > 0 && size.height > 0 && framesPerSecond > 0, "a positive size and frame rate")
        input = try ClipProbe.open(source)
        let described = try ClipProbe.describe(input, source: source, limits: limits)
        info = described.info
        streamIndex = described.stream
        self.size = size
        fps = Int32(framesPerSecond)
        self.inPoint = inPoint
        let length = duration?.seconds ?? max(info.duration - inPoint.seconds, 0)
        frameCount = max(Int((length * Double(framesPerSecond)).rounded()), 1)
        let context = input.context
        for index in 0..<Int(context.pointee.nb_streams) where index != Int(streamIndex) {
            context.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
        }
        let stream = context.pointee.streams[Int(streamIndex)]!
        timeBase = stream.pointee.time_base
        clock = av_mul_q(timeBase, AVRational(num: 1, den: 2))
        let start = context.pointee.start_time
        zero = start == shim_av_nopts_value() ? 0 : av_rescale_q(start, AVRational(num: 1, den: AV_TIME_BASE), clock)
        let clipRate = info.averageFrameRate ?? 0
        deinterlaceRate = clipRate > 0 && Double(framesPerSecond) >= 1.5 * clipRate ? .field : .frame
        framesCarryFieldFlags = Self.fieldFlaggingCodecs.contains(info.codec)
        let parameters = stream.pointee.codecpar!
        do {
            let codec = avcodec_find_decoder(parameters.pointee.codec_id)!
            decoder = try OwnedCodecContext(codec: codec)
            try check(avcodec_parameters_to_context(decoder.pointer, parameters), "avcodec_parameters_to_context")
            decoder.pointer.pointee.pkt_timebase = timeBase
            // One thread a core: libavcodec's own choice (0) is a core more, and each frame thread
            // holds its own pictures (a 4K frame is 12 MB) for no more speed once the cores are busy.
            decoder.pointer.pointee.thread_count = Int32(threads ?? Self.decodeThreads(codedPixels: info.codedSize.width * info.codedSize.height))
            decoder.pointer.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            try check(avcodec_open2(decoder.pointer, codec, nil), "avcodec_open2")
            feed = try PacketFeed(stream: streamIndex)
            shown = try OwnedFrame()
            next = try OwnedFrame()
            decoded = try OwnedFrame()
        } catch {
            throw ClipError(path: source.path, kind: .decodeFailed, reason: "cannot open its \(info.codec) decoder (\(error))")
        }
        converter = ClipFrameConverter(size: size, color: info.color, orientation: info.orientation)
        if inPoint > .zero {
            let target = av_rescale_q(zero, clock, timeBase) + av_rescale_q(inPoint.value, AVRational(num: 1, den: inPoint.timescale), timeBase)
            if av_seek_frame(context, streamIndex, target, AVSEEK_FLAG_BACKWARD) >= 0 {
                avcodec_flush_buffers(decoder.pointer)
            }
        }
    }

    /// Frame threads for a clip's decoder: one a core, or one for pictures of more than 8.3 MP
    /// (4K and up), where each frame thread's pictures (12 MB a 4K frame, several held per
    /// thread) would take the render past 300 MB.
    package static func decodeThreads(codedPixels: Int) -> Int {
        isLarge(codedPixels: codedPixels) ? 1 : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Whether a clip's pictures are large enough (over 8.3 MP: 4K and up) to be decoded on one
    /// thread, and to keep a show's moving frames in one encoder (``VideoSettings/motionRuns``).
    package static func isLarge(codedPixels: Int) -> Bool { codedPixels > 3840 * 2160 / 2 }

    /// The codecs whose decoders flag each frame interlaced or not (and its field order); for
    /// the others the stream's field order decides for every frame.
    package static let fieldFlaggingCodecs: Set<String> = ["h264", "hevc", "mpeg1video", "mpeg2video", "mpeg4", "dvvideo", "mjpeg", "vc1",
                                                   "prores", "h263", "vp9", "av1", "vp8"]

    /// Whether the reader deinterlaces (it met an interlaced picture), and at which rate.
    package var deinterlacing: Deinterlacer.Rate? { deinterlacer == nil ? nil : deinterlaceRate }

    /// The show time of output frame `index`, relative to the clip's start of play.
    public func time(ofFrame index: Int) -> MediaTime { MediaTime(value: Int64(index), timescale: fps) }

    /// The next frame of the show, upright at ``size``; nil after ``frameCount`` frames.
    /// - Throws: ``ClipError`` `.unreadable` when not a single frame can be decoded, `.decodeFailed`
    ///   when the decoder or converter fails for a reason other than damaged data.
    public func nextFrame() throws(ClipError) -> PixelBuffer? {
        guard let changed = try advance() else { return nil }
        if !changed, let shownPicture { return shownPicture }
        var picture = PixelBuffer(size: size)
        try draw(into: &picture, at: Rect(size))
        shownPicture = picture
        return picture
    }

    /// Moves on to the clip's picture for the next frame of the show, without converting it.
    /// - Returns: nil after ``frameCount`` frames; else whether the picture differs from the one
    ///   of the frame before (false while a decoded frame is held, true for the first).
    /// - Throws: ``ClipError`` `.unreadable` when not a single frame can be decoded.
    package func advance() throws(ClipError) -> Bool? {
        guard produced < frameCount else { return nil }
        // Output time t on the clock: zero + inPoint + produced / fps, rounded down (a frame
        // a fraction of a tick after t is not due yet: an AVI's 1001/30000 s frames in a 30-fps show).
        let seconds = (numerator: inPoint.value * Int64(fps) + Int64(produced) * Int64(inPoint.timescale),
                       denominator: Int64(inPoint.timescale) * Int64(fps))
        let target = zero + av_rescale_rnd(seconds.numerator, Int64(clock.den), seconds.denominator * Int64(clock.num), AV_ROUND_DOWN)
        produced += 1
        var changed = produced == 1
        // Move on while the next decoded frame is due (or nothing is shown yet).
        while true {
            if !hasNext {
                guard try decodeNext() else { break }
            }
            guard !hasShown || nextTime <= target else { break }
            swap(&shown, &next)
            shownTime = nextTime
            av_frame_unref(next.pointer)
            hasShown = true
            hasNext = false
            shownPicture = nil
            changed = true
        }
        guard hasShown else {
            throw ClipError(path: info.source.path, kind: .unreadable, reason: "not a single frame of its video could be decoded")
        }
        if ended && !hasNext && !warnings.contains(where: { $0.kind == .endedEarly }) {
            let last = Double(shownTime - zero) * av_q2d(clock)
            let wanted = Double(target - zero) * av_q2d(clock)
            let frameGap = max(2 / Double(fps), 0.1)
            // Against the video's own length: sound that runs on after the pictures is no damage.
            if wanted - last > frameGap && last < (info.videoDuration ?? info.duration) - max(frameGap, 0.25) {
                warnings.append(ClipWarning(path: info.source.path, kind: .endedEarly,
                                            message: String(format: "its video stops at %.2f s of %.2f s (truncated or damaged): the last good frame is held",
                                                            last, info.duration)))
            }
        }
        return changed
    }

    /// Draws the picture ``advance()`` moved to, upright at ``size``, into the part `place` of
    /// `buffer` (the rest of `buffer` is left as it is): libswscale writes it there directly.
    /// - Precondition: ``advance()`` gave a picture; `place` is of ``size`` and inside `buffer`.
    /// - Throws: ``ClipError`` `.decodeFailed` when the converter fails.
    package func draw(into buffer: inout PixelBuffer, at place: Rect) throws(ClipError) {
        precondition(hasShown, "advance() first")
        do {
            try converter.convert(shown.pointer, into: &buffer, at: place)
        } catch {
            throw ClipError(path: info.source.path, kind: .decodeFailed, reason: "cannot convert its frames (\(error))")
        }
    }

    /// Draws the picture ``advance()`` moved to in an HDR show's light, its own (an HDR clip's
    /// PQ or HLG passes through, converted between the two, not tone-mapped), upright at
    /// ``size``, into the part `place` of `buffer` (``ClipFrameConverter/convertHDR(_:into:at:transfer:)``).
    /// - Precondition: ``advance()`` gave a picture; `place` is of ``size`` and inside `buffer`.
    /// - Throws: ``ClipError`` `.decodeFailed` when the converter fails.
    package func drawHDR(into buffer: inout HDRPixelBuffer, at place: Rect, transfer: HDRTransfer) throws(ClipError) {
        precondition(hasShown, "advance() first")
        do {
            try converter.convertHDR(shown.pointer, into: &buffer, at: place, transfer: transfer)
        } catch {
            throw ClipError(path: info.source.path, kind: .decodeFailed, reason: "cannot convert its frames (\(error))")
        }
    }

    /// A decoded frame's time in the stream's time base: its best-effort timestamp, else its
    /// pts, else (the frames a B-frame decoder gives out at the end of an AVI, which has no pts)
    /// the frame before's time and duration; the clip's start for a first frame with none.
    private func timestamp(of frame: OwnedFrame) -> Int64 {
        var t = frame.pointer.pointee.best_effort_timestamp
        if t == shim_av_nopts_value() { t = frame.pointer.pointee.pts }
        if t == shim_av_nopts_value() {
            t = lastDecodedTime.map { $0 &+ max(1, frame.pointer.pointee.pkt_duration) } ?? av_rescale_q(zero, clock, timeBase)
        }
        lastDecodedTime = t
        return t
    }

    /// Decodes (and deinterlaces) the next frame into `next`; false at the end of the stream.
    private func decodeNext() throws(ClipError) -> Bool {
        while true {
            if let deinterlacer {
                if deinterlacer.receive(into: next.pointer) == .frame {
                    let pts = next.pointer.pointee.pts
                    nextTime = pts == shim_av_nopts_value() ? nextTime : av_rescale_q(pts, deinterlacer.timeBase, clock)
                    hasNext = true
                    return true
                }
                if deinterlacerEnded { return false }
            }
            if ended {
                guard let deinterlacer, !deinterlacerEnded else { return false }
                deinterlacer.end()
                deinterlacerEnded = true
                continue
            }
            let received = avcodec_receive_frame(decoder.pointer, decoded.pointer)
            if received >= 0 {
                decodedFrames += 1
                let time = timestamp(of: decoded)
                if deinterlacer != nil || isInterlaced(decoded.pointer) {
                    try deinterlace(decoded.pointer, at: time)
                    av_frame_unref(decoded.pointer)
                    continue
                }
                av_frame_unref(next.pointer)
                av_frame_move_ref(next.pointer, decoded.pointer)
                nextTime = av_rescale_q(time, timeBase, clock)
                hasNext = true
                return true
            }
            if received == shim_averror_invaliddata() {
                noteDamage()
                continue
            }
            guard received == shim_averror_eagain() else {
                // The end of the stream, or a decoder failure mid-stream: what was decoded stands;
                // the rest is held.
                ended = true
                continue
            }
            feedDecoder()
        }
    }

    /// Whether a decoded picture is interlaced: by its own flag, or by the stream's field order
    /// for a codec whose frames carry none.
    private func isInterlaced(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        frame.pointee.interlaced_frame != 0 || (!framesCarryFieldFlags && info.fieldOrder.isInterlaced)
    }

    /// Gives a decoded picture to the deinterlacer (built at the first interlaced one).
    private func deinterlace(_ frame: UnsafeMutablePointer<AVFrame>, at time: Int64) throws(ClipError) {
        if !framesCarryFieldFlags && info.fieldOrder.isInterlaced {
            frame.pointee.interlaced_frame = 1
            frame.pointee.top_field_first = info.fieldOrder == .topFirst ? 1 : 0
        }
        frame.pointee.pts = time
        do {
            if deinterlacer == nil {
                deinterlacer = try Deinterlacer(frame: frame, timeBase: timeBase, rate: deinterlaceRate,
                                                threads: Self.decodeThreads(codedPixels: info.codedSize.width * info.codedSize.height))
            }
            guard deinterlacer!.key == Deinterlacer.Key(width: frame.pointee.width, height: frame.pointee.height,
                                                         format: frame.pointee.format) else {
                // The pictures changed size or format mid-stream: what came before stands, the
                // rest is held (as after a decoder failure).
                ended = true
                return
            }
            try deinterlacer!.send(frame)
        } catch {
            throw ClipError(path: info.source.path, kind: .decodeFailed, reason: "cannot deinterlace its frames (\(error))")
        }
    }

    /// Gives the decoder its next video packet, or the end of the stream. A packet the decoder
    /// refuses for a reason other than damage ends the stream (`EAGAIN` cannot happen: output
    /// is always drained first).
    private func feedDecoder() {
        if case .refused = feed.feed(from: input.context, to: decoder.pointer, damaged: { noteDamage() }) {
            feed.end(decoder.pointer)
        }
    }

    private func noteDamage() {
        skippedPackets += 1
        if skippedPackets == 1 {
            warnings.append(ClipWarning(path: info.source.path, kind: .damagedPackets,
                                        message: "damaged video data was skipped"))
        }
    }
}
