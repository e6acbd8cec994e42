import Glibc
internal import CFFmpeg
import SlideshowFFmpeg
import SlideshowSupport

/// The sound every stage after decoding works in: 48 kHz, stereo, interleaved 32-bit float
/// (left, right, left, right, …).
public enum AudioFormat {
    /// Samples per second per channel.
    public static let sampleRate = 48_000
    /// Left and right.
    public static let channels = 2
    /// The sample rates sound is taken at: 4 kHz (below any real recording: a file saying 1 Hz
    /// would be resampled 48 000 times over) to 768 kHz (the highest PCM rate recorders use).
    public static let inputRates = 4_000...768_000

    /// Why sound at `rate` samples a second is not taken, nil when it is.
    package static func rateProblem(_ rate: Int) -> String? {
        inputRates.contains(rate) ? nil
            : "its sample rate of \(rate) Hz is outside \(inputRates.lowerBound)–\(inputRates.upperBound) Hz, the rates sound is taken at"
    }
}

/// What the reader learnt of an audio file when it opened it.
package struct AudioFileInfo: Sendable, Hashable {
    /// The codec's name, e.g. `mp3`.
    package var codec: String
    /// The source's sample rate and channel count.
    package var sampleRate: Int
    package var channels: Int
    /// The stream's length in seconds as the container states it (Xing/LAME header, STREAMINFO,
    /// the MP4 edit list), or nil when it does not.
    package var duration: Double?
}

/// Decodes one audio file and resamples it to ``AudioFormat``, a chunk at a time.
///
/// Only the first audio stream libavformat rates best is read; other streams (cover art
/// in ID3 tags, video) are discarded by the demuxer. MP3 encoder delay and padding, AAC
/// priming and Opus pre-skip are trimmed by libavcodec from the demuxer's side data, so the
/// first sample read is the music's first sample.
///
/// Damage inside a stream is skipped the way players skip it: a packet the decoder refuses
/// is dropped and counted in ``skippedPackets``; a read error past the start ends the stream.
package final class AudioReader {
    package let path: String
    package let info: AudioFileInfo
    /// Packets dropped as damaged so far.
    package private(set) var skippedPackets = 0
    /// Why reading stopped early, when it did.
    package private(set) var stoppedEarly: String?

    private let input: OwnedInputFormat
    private let decoder: OwnedCodecContext
    private var feed: PacketFeed
    private let frame: OwnedFrame
    private var resampler = FrameResampler()
    private var finished = false

    /// Opens the file and its decoder.
    /// - Throws: ``AudioError``: `.missing`, `.unreadable`, `.notAudio`, `.noAudioStream`, `.unsupported`.
    package init(path: String) throws(AudioError) {
        self.path = path
        var status = stat()
        if PathBytes.withCString(path, { stat($0, &status) }) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw AudioError(path: path, kind: .missing, reason: "no such audio file") }
            throw AudioError(path: path, kind: .unreadable, reason: "cannot read the audio file (\(String(cString: strerror(code))))")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw AudioError(path: path, kind: .unreadable, reason: "is a folder, not an audio file")
        }
        // A FIFO or a device (/dev/zero) could be read for ever: refused before it is opened.
        if (status.st_mode & S_IFMT) != S_IFREG {
            throw AudioError(path: path, kind: .unreadable, reason: "is not a regular file")
        }
        if PathBytes.withCString(path, { access($0, R_OK) }) != 0 {
            throw AudioError(path: path, kind: .unreadable, reason: "cannot read the audio file (\(String(cString: strerror(errno))))")
        }
        if status.st_size == 0 {
            throw AudioError(path: path, kind: .empty, reason: "the audio file is empty (0 bytes)")
        }
        do {
            input = try OwnedInputFormat(path: path)
        } catch where error.call == "avformat_open_input" {
            throw AudioError(path: path, kind: .notAudio, reason: "not an audio file FFmpeg can read, or a damaged one (\(error.message))")
        } catch {
            throw AudioError(path: path, kind: .damaged, reason: "the audio file is damaged: its streams cannot be read (\(error.message))")
        }
        let index = av_find_best_stream(input.context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = input.context.pointee.streams[Int(index)] else {
            throw AudioError(path: path, kind: .noAudioStream, reason: "has no audio stream")
        }
        for other in 0..<Int(input.context.pointee.nb_streams) where other != Int(index) {
            input.context.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL
        }
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw AudioError(path: path, kind: .unsupported, reason: "no decoder for its \(name) audio")
        }
        do {
            decoder = try OwnedCodecContext(codec: codec)
            try check(avcodec_parameters_to_context(decoder.pointer, parameters), "avcodec_parameters_to_context")
            decoder.pointer.pointee.pkt_timebase = stream.pointee.time_base
            try check(avcodec_open2(decoder.pointer, codec, nil), "avcodec_open2")
            feed = try PacketFeed(stream: index)
            frame = try OwnedFrame()
        } catch {
            throw AudioError(path: path, kind: .damaged, reason: "cannot open its audio decoder (\(error.message))")
        }
        var duration: Double? = nil
        if stream.pointee.duration > 0 && stream.pointee.duration != shim_av_nopts_value() {
            duration = Double(stream.pointee.duration) * Double(stream.pointee.time_base.num) / Double(stream.pointee.time_base.den)
        } else if input.context.pointee.duration > 0 && input.context.pointee.duration != shim_av_nopts_value() {
            duration = Double(input.context.pointee.duration) / Double(AV_TIME_BASE)
        }
        if let problem = AudioFormat.rateProblem(Int(parameters.pointee.sample_rate)) {
            throw AudioError(path: path, kind: .unsupported, reason: problem)
        }
        info = AudioFileInfo(codec: String(cString: codec.pointee.name), sampleRate: Int(parameters.pointee.sample_rate),
                             channels: Int(parameters.pointee.ch_layout.nb_channels), duration: duration)
    }

    /// The next chunk of sound, interleaved stereo at 48 kHz; nil at the end of the stream.
    /// - Throws: ``AudioError`` `.damaged` when the decoder or resampler fails for a reason
    ///   other than damaged data.
    package func read() throws(AudioError) -> [Float]? {
        // What the resampler holds of the last frame beyond one block (``FrameResampler/blockFrames``).
        let held = try drainResampler()
        if !held.isEmpty { return held }
        if finished {
            let rest = try flushResampler()
            return rest.isEmpty ? nil : rest
        }
        while !finished {
            let received = avcodec_receive_frame(decoder.pointer, frame.pointer)
            if received >= 0 {
                defer { av_frame_unref(frame.pointer) }
                let samples = try resample(frame.pointer)
                if !samples.isEmpty { return samples }
                continue
            }
            if received == shim_averror_eof() {
                finished = true
                let rest = try flushResampler()
                return rest.isEmpty ? nil : rest
            }
            if received == shim_averror_invaliddata() {
                skippedPackets += 1
                continue
            }
            guard received == shim_averror_eagain() else {
                throw AudioError(path: path, kind: .damaged, reason: "cannot decode the audio (\(FFmpegError(call: "avcodec_receive_frame", code: received).message))")
            }
            try feedDecoder()
        }
        return nil
    }

    /// Gives the decoder its next packet of the audio stream, or the end of the stream.
    private func feedDecoder() throws(AudioError) {
        switch feed.feed(from: input.context, to: decoder.pointer, damaged: { skippedPackets += 1 }) {
        case .sent, .draining:
            break
        case .ended(let code):
            if code != shim_averror_eof() {
                stoppedEarly = FFmpegError(call: "av_read_frame", code: code).message
            }
        case .refused(let code):
            throw AudioError(path: path, kind: .damaged, reason: "cannot decode the audio (\(FFmpegError(call: "avcodec_send_packet", code: code).message))")
        }
    }

    /// Converts one decoded frame (see ``FrameResampler``), at most a block of it.
    private func resample(_ frame: UnsafeMutablePointer<AVFrame>) throws(AudioError) -> [Float] {
        // The stream's rate was checked; a frame may still change it midway.
        if let problem = AudioFormat.rateProblem(Int(frame.pointee.sample_rate)) {
            throw AudioError(path: path, kind: .unsupported, reason: problem)
        }
        do {
            return try resampler.convert(frame)
        } catch {
            throw resampleError(error)
        }
    }

    private func drainResampler() throws(AudioError) -> [Float] {
        do {
            return try resampler.drain()
        } catch {
            throw resampleError(error)
        }
    }

    private func flushResampler() throws(AudioError) -> [Float] {
        do {
            return try resampler.flush()
        } catch {
            throw resampleError(error)
        }
    }

    /// A resampler that cannot be set up for the stream's format is `.unsupported`; one that
    /// fails converting is `.damaged`.
    private func resampleError(_ error: FFmpegError) -> AudioError {
        AudioError(path: path, kind: error.call == "swr_convert" ? .damaged : .unsupported,
                   reason: "cannot resample its audio (\(error.message))")
    }
}
