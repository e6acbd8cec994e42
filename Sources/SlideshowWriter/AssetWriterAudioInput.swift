import Dispatch
import Synchronization
import SlideshowAudio
import SlideshowPixels

/// Sound for an ``AssetWriterAudioInput``: interleaved stereo 32-bit float at 48 kHz
/// (``AudioFormat``), left then right, following on from the previous buffer.
public struct AudioSampleBuffer: Sendable, Hashable {
    /// Left, right, left, right, …
    public var samples: [Float]

    /// Creates a buffer of interleaved stereo samples.
    /// - Precondition: an even number of samples.
    public init(samples: [Float]) {
        precondition(samples.count % AudioFormat.channels == 0, "interleaved stereo holds pairs of samples")
        self.samples = samples
    }

    /// Stereo frames in the buffer.
    public var frameCount: Int { samples.count / AudioFormat.channels }
}

/// The audio input of an ``AssetWriter``, beside its video input, in the shape of
/// AVFoundation's `AVAssetWriterInput` for audio.
///
/// Buffers are contiguous: the first one starts at the session's start, each next one where
/// the previous one ended, so the track's length is the sum of the buffers' lengths. They
/// are encoded as AAC-LC (FFmpeg's native encoder, 1024-sample frames) on the appending
/// thread and muxed, interleaved with the video, on the writer's queue.
///
/// Readiness keeps the sound in step with the pictures: the input is ready while fewer than
/// ``capacity`` buffers wait for the muxer and the sound has not got more than ``lead``
/// ahead of the last video frame appended (or the video input is finished). The block given
/// to ``requestMediaDataWhenReady(on:using:)`` runs again whenever that changes.
public final class AssetWriterAudioInput: @unchecked Sendable {
    // @unchecked: all mutable state is behind `state`.

    /// The AAC bit rate in bits per second.
    public let bitrate: Int
    /// How many appended buffers may wait for the muxer before the input stops being ready.
    public let capacity: Int
    /// How far the sound may run ahead of the pictures: one second.
    public static let lead = MediaTime(value: 1, timescale: 1)

    private let state = Mutex(State())
    private let scheduler = ReadinessScheduler()

    private struct State {
        weak var writer: AssetWriter?
        var queued = 0
        var finished = false
        var stopped = false
        /// Frames appended so far.
        var appended = 0
        /// Frames the sound may reach before the video moves on; nil once the video is finished.
        var horizon: Int? = AssetWriterAudioInput.leadFrames
    }

    private static let leadFrames = Int(MediaTime.rescale(lead.value, from: lead.timescale, to: Int32(AudioFormat.sampleRate)))

    /// Creates an audio input.
    /// - Parameters:
    ///   - bitrate: the AAC bit rate in bits per second, 32 000 to 512 000 (192 000 by default).
    ///   - capacity: buffers that may wait for the muxer; 4 by default.
    public init(bitrate: Int = 192_000, capacity: Int = 4) {
        precondition(capacity > 0, "an input holds at least one buffer")
        self.bitrate = bitrate
        self.capacity = capacity
    }

    /// Whether the input takes another buffer now.
    public var isReadyForMoreMediaData: Bool {
        state.withLock { Self.ready($0, capacity: capacity) }
    }

    private static func ready(_ state: State, capacity: Int) -> Bool {
        !state.finished && (state.stopped || (state.queued < capacity && state.appended < (state.horizon ?? .max)))
    }

    /// Runs `block` on `queue` whenever the input is ready for more data; the block appends
    /// while ``isReadyForMoreMediaData`` is true and calls ``markAsFinished()`` at the end.
    public func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        scheduler.request(on: queue, isReady: { [weak self] in self?.isReadyForMoreMediaData ?? false }, block: block)
    }

    /// Says that no more sound will come: the encoder's last frame is encoded and drained.
    public func markAsFinished() {
        let writer = state.withLock { state -> AssetWriter? in
            guard !state.finished else { return nil }
            state.finished = true
            return state.writer
        }
        scheduler.cancel()
        writer?.finishAudio()
    }

    /// Appends the sound that follows the previous buffer.
    /// - Returns: true when the buffer was accepted; false when the writer is not writing or
    ///   has failed (its `error` says why) or the input is finished.
    @discardableResult
    public func append(_ buffer: AudioSampleBuffer) -> Bool {
        let writer = state.withLock { state -> AssetWriter? in
            guard !state.finished, !state.stopped, let writer = state.writer else { return nil }
            state.queued += 1
            return writer
        }
        guard let writer else { return false }
        let accepted = writer.enqueueAudio(buffer) { [self] in
            state.withLock { $0.queued -= 1 }
            scheduler.scheduleIfReady()
        }
        state.withLock {
            if accepted { $0.appended += buffer.frameCount } else { $0.queued -= 1 }
        }
        return accepted
    }

    // MARK: For the writer

    package func attach(to writer: AssetWriter) {
        state.withLock { $0.writer = writer }
    }

    /// The video reached `frame` (exclusive) at `framesPerSecond`: the sound may go `lead` beyond.
    package func videoReached(frame: Int64, framesPerSecond: Int) {
        let frames = Int(MediaTime.rescale(frame, from: Int32(framesPerSecond), to: Int32(AudioFormat.sampleRate)))
        state.withLock { state in
            if let horizon = state.horizon { state.horizon = max(horizon, frames + Self.leadFrames) }
        }
        scheduler.scheduleIfReady()
    }

    /// The video input is finished: the sound may go to its end.
    package func videoFinished() {
        state.withLock { $0.horizon = nil }
        scheduler.scheduleIfReady()
    }

    /// The writer failed or was cancelled: wake the block so that it finds out.
    package func writerStopped() {
        state.withLock { $0.stopped = true }
        scheduler.scheduleIfReady()
    }
}
