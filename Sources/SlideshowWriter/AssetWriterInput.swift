import Dispatch
import Synchronization
import SlideshowPixels

/// The video input of an ``AssetWriter``, in the shape of AVFoundation's `AVAssetWriterInput`.
///
/// Readiness is backpressure from the encoder: the writer's queue encodes appended buffers
/// in order, and ``isReadyForMoreMediaData`` is false while ``capacity`` buffers wait for
/// it. ``requestMediaDataWhenReady(on:using:)`` runs a block whenever the input is ready,
/// and again each time a queued buffer has been encoded: no polling, no sleeping.
public final class AssetWriterInput: @unchecked Sendable {
    // @unchecked: all mutable state is behind `state`.

    /// The video's settings.
    public let settings: VideoSettings
    /// How many appended buffers may wait for the encoder before the input stops being ready.
    public let capacity: Int

    private let state = Mutex(State())
    private let scheduler = ReadinessScheduler()

    private struct State {
        weak var writer: AssetWriter?
        var queued = 0
        var finished = false
        var stopped = false
        var bufferConsumed: (@Sendable () -> Void)?
    }

    /// Called, on the appending thread, each time the writer has consumed an appended buffer
    /// (converted it for the encoder, so the caller's buffer is no longer needed); a producer
    /// uses it to bound the buffers it keeps alive.
    package var bufferConsumed: (@Sendable () -> Void)? {
        get { state.withLock { $0.bufferConsumed } }
        set { state.withLock { $0.bufferConsumed = newValue } }
    }

    /// Creates an input.
    /// - Parameters:
    ///   - settings: the video's settings (the writer's).
    ///   - capacity: buffers that may wait for the encoder; 2 by default, enough to keep
    ///     the encoder busy while the next picture is prepared, few enough to keep memory flat.
    public init(settings: VideoSettings, capacity: Int = 2) {
        precondition(capacity > 0, "an input holds at least one buffer")
        self.settings = settings
        self.capacity = capacity
    }

    /// Whether the input takes another buffer now.
    public var isReadyForMoreMediaData: Bool {
        state.withLock { !$0.finished && ($0.stopped || $0.queued < capacity) }
    }

    /// Runs `block` on `queue` whenever the input is ready for more data.
    ///
    /// The block should append while ``isReadyForMoreMediaData`` is true, and call
    /// ``markAsFinished()`` when it has nothing more to give. It is run again when the input
    /// becomes ready again; if it returns while the input is still ready and not finished,
    /// it is run again at once. When the writer fails or is cancelled, the block runs once
    /// more so that it sees an append return false.
    public func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        scheduler.request(on: queue, isReady: { [weak self] in self?.isReadyForMoreMediaData ?? false }, block: block)
    }

    /// Says that no more buffers will come; the block is not run again.
    public func markAsFinished() {
        let writer = state.withLock {
            $0.finished = true
            return $0.writer
        }
        scheduler.cancel()
        // The writer's audio input, if any, may now run to its end.
        writer?.videoInputFinished()
    }

    // MARK: For the adaptor and the writer

    package func attach(to writer: AssetWriter) {
        state.withLock { $0.writer = writer }
    }

    package func append(_ buffer: AppendedPicture, at time: MediaTime) -> Bool {
        let writer = state.withLock { state -> AssetWriter? in
            guard !state.finished, !state.stopped, let writer = state.writer else { return nil }
            state.queued += 1
            return writer
        }
        guard let writer else { return false }
        let accepted = writer.enqueue(buffer, at: time) { [self] in
            state.withLock { $0.queued -= 1 }
            scheduler.scheduleIfReady()
        }
        if accepted {
            bufferConsumed?()
        } else {
            state.withLock { $0.queued -= 1 }
        }
        return accepted
    }

    /// The writer failed or was cancelled: wake the block so that it finds out.
    package func writerStopped() {
        state.withLock { $0.stopped = true }
        scheduler.scheduleIfReady()
    }
}

/// What a feeder did with the index ``AssetWriterInput/feed(on:_:)`` gave it.
public enum FeedStep: Sendable, Equatable {
    /// It appended the item at the index; the loop goes on with the next index.
    case appended
    /// It has nothing more to append.
    case finished
    /// It stopped early: an append failed (the writer's `error` says why) or its source failed.
    case stopped
}

extension AssetWriterInput {
    /// The ready-for-more-data loop, written once: asks `next` for items 0, 1, 2, … on
    /// `queue` whenever the input is ready, and returns when `next` says `.finished` or
    /// `.stopped`, having marked the input finished.
    ///
    /// ```swift
    /// let step = await input.feed(on: queue) { index in
    ///     guard index < pictures.count else { return .finished }
    ///     return adaptor.append(pictures[index], withPresentationTime: times[index]) ? .appended : .stopped
    /// }
    /// if step == .finished { writer.endSession(atSourceTime: end); try await writer.finishWriting() }
    /// ```
    /// - Parameters:
    ///   - queue: where `next` runs, one call at a time.
    ///   - next: appends the item at an index (or finds there is none, or fails) and says which.
    /// - Returns: `.finished` or `.stopped`, as `next` last said.
    public func feed(on queue: DispatchQueue, _ next: @escaping @Sendable (Int) -> FeedStep) async -> FeedStep {
        await withCheckedContinuation { (continuation: CheckedContinuation<FeedStep, Never>) in
            let index = Mutex(0)
            requestMediaDataWhenReady(on: queue) { [self] in
                while isReadyForMoreMediaData {
                    let current = index.withLock { $0 }
                    let step = next(current)
                    guard step == .appended else {
                        markAsFinished()
                        continuation.resume(returning: step)
                        return
                    }
                    index.withLock { $0 = current + 1 }
                }
            }
        }
    }
}

/// Appends pixel buffers to an ``AssetWriterInput`` at presentation times, in the shape of
/// AVFoundation's `AVAssetWriterInputPixelBufferAdaptor`.
public final class PixelBufferAdaptor: Sendable {
    /// The input the buffers go to.
    public let assetWriterInput: AssetWriterInput

    /// Creates an adaptor for an input.
    public init(assetWriterInput: AssetWriterInput) {
        self.assetWriterInput = assetWriterInput
    }

    /// Appends a buffer shown from `time` until the next buffer's time (or the session's end).
    ///
    /// Times must increase strictly, frame by frame: a time is placed on the frame it falls
    /// on (rounded to the nearest), and a buffer on the same frame as the previous one is
    /// refused. The buffer's size must be the video's.
    /// - Returns: true when the buffer was accepted; false when the writer is not writing or
    ///   has failed (its `error` says why), the time is not after the previous one, or the
    ///   input is finished.
    @discardableResult
    public func append(_ buffer: PixelBuffer, withPresentationTime time: MediaTime) -> Bool {
        assetWriterInput.append(.sdr(buffer), at: time)
    }

    /// Appends an HDR buffer (an HDR video's, ``VideoSettings/hdr``), as ``append(_:withPresentationTime:)-(PixelBuffer,_)``
    /// appends an SDR one; an HDR buffer in an SDR video (or the reverse) fails the writer.
    @discardableResult
    public func append(_ buffer: HDRPixelBuffer, withPresentationTime time: MediaTime) -> Bool {
        assetWriterInput.append(.hdr(buffer), at: time)
    }
}
