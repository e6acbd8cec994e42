internal import CFFmpeg
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowAudio

/// Decodes a clip's sound from its in-point for its length, as ``AudioFormat`` (48 kHz stereo
/// interleaved float), for the mixer to lay under the clip's frames.
///
/// ``AudioReader`` reads a music file from its start; a clip needs its audio from an offset
/// and, for a motion photo, from a byte range, hence this reader. Samples are placed by their
/// timestamps on the same clock as ``ClipReader``'s frames (the container's start time is
/// zero), so picture and sound stay in sync: samples before the in-point are dropped, a gap
/// before the first sample and the end past the last are silence, and exactly
/// `round(duration × 48 000)` sample frames come out in all.
public final class ClipAudioReader {
    /// The clip's path.
    public let path: String
    /// Sample frames (one left and one right sample each) that ``read()`` gives in all.
    public let totalFrames: Int

    private let input: OwnedInputFormat
    private let decoder: OwnedCodecContext
    private let timeBase: AVRational
    private var feed: PacketFeed
    private let frame: OwnedFrame
    private var resampler = FrameResampler()
    /// The sample position (48 kHz, clip time) of the next sample the resampler gives.
    private var position: Int64?
    private let startSample: Int64
    private var emitted = 0
    private let zero: Int64
    private var finished = false

    /// Opens the clip's audio, or nil when it has none.
    /// - Parameters:
    ///   - inPoint: where in the clip to start (clip time).
    ///   - duration: how long the sound lasts (the clip's play length).
    /// - Throws: ``ClipError`` `.missing`, `.unreadable`, or `.decodeFailed` (no decoder for its audio).
    public init?(source: ClipSource, inPoint: MediaTime = .zero, duration: MediaTime) throws(ClipError) {
        path = source.path
        input = try ClipProbe.open(source)
        let context = input.context
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = context.pointee.streams[Int(index)] else { return nil }
        for other in 0..<Int(context.pointee.nb_streams) where other != Int(index) {
            context.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL
        }
        timeBase = stream.pointee.time_base
        let start = context.pointee.start_time
        zero = start == shim_av_nopts_value() ? 0 : start   // AV_TIME_BASE units
        let rate = Int64(AudioFormat.sampleRate)
        startSample = inPoint.value * rate / Int64(inPoint.timescale)
        totalFrames = Int(duration.value * rate / Int64(duration.timescale))
        let parameters = stream.pointee.codecpar!
        if let problem = AudioFormat.rateProblem(Int(parameters.pointee.sample_rate)) {
            throw ClipError(path: path, kind: .decodeFailed, reason: problem)
        }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw ClipError(path: path, kind: .decodeFailed,
                            reason: "no decoder for its \(String(cString: avcodec_get_name(parameters.pointee.codec_id))) audio")
        }
        do {
            decoder = try OwnedCodecContext(codec: codec)
            try check(avcodec_parameters_to_context(decoder.pointer, parameters), "avcodec_parameters_to_context")
            decoder.pointer.pointee.pkt_timebase = timeBase
            try check(avcodec_open2(decoder.pointer, codec, nil), "avcodec_open2")
            feed = try PacketFeed(stream: index)
            frame = try OwnedFrame()
        } catch {
            throw ClipError(path: path, kind: .decodeFailed, reason: "cannot open its audio decoder (\(error))")
        }
        if inPoint > .zero {
            let target = av_rescale_q(zero, AVRational(num: 1, den: AV_TIME_BASE), timeBase)
                + av_rescale_q(inPoint.value, AVRational(num: 1, den: inPoint.timescale), timeBase)
            if av_seek_frame(context, index, target, AVSEEK_FLAG_BACKWARD) >= 0 { avcodec_flush_buffers(decoder.pointer) }
        }
    }

    /// The most sample frames one ``read()`` gives (silence included): about 1.4 s.
    package static let blockFrames = FrameResampler.blockFrames

    /// Decoded samples not yet given, and the position of the first.
    private var carried: (samples: ArraySlice<Float>, at: Int64)?

    /// The next chunk of sound (interleaved stereo), at most ``blockFrames`` sample frames;
    /// nil once ``totalFrames`` have been given. Silence (a gap, or the end after the sound
    /// stops) comes a block at a time too: a 20-minute clip with 2 s of sound costs no more.
    /// - Throws: ``ClipError`` `.decodeFailed` when the resampler fails.
    public func read() throws(ClipError) -> [Float]? {
        let channels = AudioFormat.channels
        while emitted < totalFrames {
            let left = min(totalFrames - emitted, Self.blockFrames)
            var next = carried
            if next == nil, let (samples, at) = try decodeChunk() { next = (samples[...], at) }
            guard let (samples, at) = next else {
                // The stream ended: silence for the rest.
                emitted += left
                return [Float](repeating: 0, count: left * channels)
            }
            carried = nil
            let want = Int64(emitted) + startSample   // the sample position due next
            var chunk = samples
            var first = at
            if first < want {
                // `want - first` may not fit (a hostile timestamp): then all of it is before.
                let (behind, overflow) = want.subtractingReportingOverflow(first)
                let drop = overflow ? chunk.count / channels : Int(min(behind, Int64(chunk.count / channels)))
                chunk = chunk.dropFirst(drop * channels)
                first = want
            }
            if chunk.isEmpty { continue }
            if first > want {
                // A gap (or audio that starts after the video): silence up to the first sample.
                carried = (chunk, first)
                let count = Int(min(first - want, Int64(left)))
                emitted += count
                return [Float](repeating: 0, count: count * channels)
            }
            let count = min(chunk.count / channels, left)
            if chunk.count / channels > count { carried = (chunk.dropFirst(count * channels), first + Int64(count)) }
            emitted += count
            return Array(chunk.prefix(count * channels))
        }
        return nil
    }

    /// Decodes and resamples the next frame (a block of it: ``FrameResampler``): its samples
    /// and the position of the first one.
    private func decodeChunk() throws(ClipError) -> ([Float], Int64)? {
        while !finished {
            // What the resampler holds of the last frame beyond one block comes first.
            let held = try resampled { resampler throws(FFmpegError) in try resampler.drain() }
            if !held.isEmpty, let at = position {
                position = at.addingReportingOverflow(Int64(held.count / 2)).partialValue
                return (held, at)
            }
            let received = avcodec_receive_frame(decoder.pointer, frame.pointer)
            if received >= 0 {
                defer { av_frame_unref(frame.pointer) }
                if let problem = AudioFormat.rateProblem(Int(frame.pointer.pointee.sample_rate)) {
                    throw ClipError(path: path, kind: .decodeFailed, reason: problem)
                }
                if position == nil || !resampler.isSetUp {
                    let pts = frame.pointer.pointee.best_effort_timestamp
                    let ticks = pts == shim_av_nopts_value() ? 0 : pts
                    // Timestamps come from the file: the difference is checked, not trapped.
                    let sample = av_rescale_q(ticks, timeBase, AVRational(num: 1, den: Int32(AudioFormat.sampleRate)))
                        .subtractingReportingOverflow(av_rescale_q(zero, AVRational(num: 1, den: AV_TIME_BASE), AVRational(num: 1, den: Int32(AudioFormat.sampleRate))))
                    position = sample.overflow ? 0 : sample.partialValue
                }
                let frame = frame.pointer
                let samples = try resampled { resampler throws(FFmpegError) in try resampler.convert(frame) }
                let at = position!
                position = at.addingReportingOverflow(Int64(samples.count / 2)).partialValue
                if samples.isEmpty { continue }
                return (samples, at)
            }
            if received == shim_averror_eagain() {
                feedDecoder()
                continue
            }
            if received == shim_averror_invaliddata() { continue }
            finished = true
        }
        return nil
    }

    /// Gives the decoder its next audio packet, or the end of the stream; damaged packets are
    /// skipped, and a packet the decoder refuses otherwise ends the stream.
    private func feedDecoder() {
        if case .refused = feed.feed(from: input.context, to: decoder.pointer, damaged: {}) {
            feed.end(decoder.pointer)
        }
    }

    /// What the resampler gives (see ``FrameResampler``), its failure as the clip's.
    private func resampled(_ body: (inout FrameResampler) throws(FFmpegError) -> [Float]) throws(ClipError) -> [Float] {
        do {
            return try body(&resampler)
        } catch {
            throw ClipError(path: path, kind: .decodeFailed, reason: "cannot resample its audio (\(error))")
        }
    }
}
