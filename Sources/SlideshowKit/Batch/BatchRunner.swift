import Dispatch
import Foundation
import SlideshowPicking
import Synchronization

/// Renders the jobs of a batch a bounded number at a time, and reports each job as it finishes.
///
/// Each job is an ordinary ``Slideshow/render(progress:)``, with the memory bounds of one
/// render; a job that fails (a broken photo, a full disk) leaves nothing at its output and
/// does not stop the others.
///
/// A process that renders many jobs should call `ProcessTuning/configureForRendering()`
/// first, as `slideshow batch` does: otherwise glibc keeps the freed space of large pixel
/// buffers in its heap, and peak memory grows with the number of jobs run (246 MB after 12
/// jobs of three camera photos one at a time, against 137 MB for one) rather than staying
/// at one render's.
///
/// ```swift
/// let manifest = try BatchManifest(contentsOfFile: "jobs.json")
/// for await event in try BatchRunner(jobs: manifest.jobs, concurrency: 2).run() {
///     if case .finished(let result) = event { print(result.index, result.status) }
/// }
/// ```
public struct BatchRunner: Sendable {
    /// The jobs to render, started in this order.
    public var jobs: [BatchJob]
    /// How many jobs render at once, within ``concurrencyRange``; no more than the jobs are
    /// started at once.
    public private(set) var concurrency: Int

    /// How many jobs may render at once: 1 to 1024. Each render holds some 60–120 MB and one or
    /// two cores' work, so no machine gains from more.
    public static let concurrencyRange = 1...1024
    /// The concurrency by default: the number of cores (at most ``concurrencyRange``'s upper bound).
    public static var defaultConcurrency: Int { min(ProcessInfo.processInfo.activeProcessorCount, concurrencyRange.upperBound) }
    /// Whether a job whose output already exists is skipped (reported as ``BatchResult/Status/skipped``)
    /// rather than rendered.
    public var skipExisting: Bool
    /// Called with each job's result the moment the job ends, from the job's task, before the
    /// stream delivers it: a reader that lags behind (blocked on a full pipe) can still tell
    /// at any moment how many jobs have ended.
    public var onFinish: (@Sendable (BatchResult) -> Void)?
    /// Called with a job's progress the moment its render reports it (from the render's feed
    /// thread, before the stream delivers the event): a program can act on it at once, e.g.
    /// cancel the batch at a given point.
    public var onProgress: (@Sendable (_ index: Int, RenderProgress) -> Void)?
    /// Stops the batch from outside its stream, which goes on to report the stopped jobs and
    /// ends once they have stopped (see ``BatchCancellation``).
    public var cancellation: BatchCancellation?

    /// Creates a runner.
    /// - Parameters:
    ///   - jobs: the jobs, e.g. a ``BatchManifest``'s or one shard of them.
    ///   - concurrency: how many jobs render at once, within ``concurrencyRange``; by default the number of cores.
    ///   - skipExisting: skip jobs whose output exists, to resume a batch that stopped.
    /// - Throws: ``ConcurrencyError`` for a concurrency outside ``concurrencyRange``.
    public init(jobs: [BatchJob], concurrency: Int = BatchRunner.defaultConcurrency, skipExisting: Bool = false) throws(ConcurrencyError) {
        try Self.check(concurrency: concurrency)
        self.jobs = jobs
        self.concurrency = concurrency
        self.skipExisting = skipExisting
    }

    /// Checks a concurrency before a runner is made (the command line's `--jobs`, before it
    /// reads the manifest).
    /// - Throws: ``ConcurrencyError`` for one outside ``concurrencyRange``.
    public static func check(concurrency: Int) throws(ConcurrencyError) {
        guard concurrencyRange.contains(concurrency) else {
            throw ConcurrencyError(reason: "\(concurrency) is not between \(concurrencyRange.lowerBound) and \(concurrencyRange.upperBound)")
        }
    }

    /// A concurrency outside ``concurrencyRange``.
    public struct ConcurrencyError: Error, Sendable, Hashable, CustomStringConvertible {
        /// `1025 is not between 1 and 1024`.
        public var reason: String
        /// `concurrency 1025 is not between 1 and 1024`.
        public var description: String { "concurrency \(reason)" }
    }

    /// Starts the jobs and reports their progress and results as they come.
    ///
    /// The stream ends when every job has finished. Ending the stream early (cancelling the
    /// task that reads it, or dropping it) cancels the batch: no more jobs start, the jobs under
    /// way stop and leave nothing at their outputs, and each is reported as failed with
    /// ``RenderError/cancelled`` while the stream is still read.
    /// - Returns: ``BatchEvent/progress(index:_:)`` events as each job's photos are added, and one
    ///   ``BatchEvent/finished(_:)`` per job, in the order the jobs finish.
    public func run() -> AsyncStream<BatchEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: BatchEvent.self)
        cancellation?.begin()
        let task = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                var pending = jobs[...]
                func startNext() {
                    guard !Task.isCancelled, cancellation?.isCancelled != true, let job = pending.popFirst() else { return }
                    group.addTask {
                        let result = await run(job, events: continuation)
                        onFinish?(result)
                        continuation.yield(.finished(result))
                    }
                }
                for _ in 0..<min(concurrency, jobs.count) { startNext() }
                while await group.next() != nil { startNext() }
            }
            continuation.finish()
            cancellation?.ended()
        }
        cancellation?.attach(task)
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Renders one job, or skips it.
    private func run(_ job: BatchJob, events: AsyncStream<BatchEvent>.Continuation) async -> BatchResult {
        let started = ContinuousClock.now
        func result(_ outcome: BatchResult.Outcome) -> BatchResult {
            BatchResult(index: job.index, output: job.slideshow.output, outcome: outcome, seconds: (ContinuousClock.now - started).seconds, pick: job.pick)
        }
        if skipExisting && FileManager.default.fileExists(atPath: job.slideshow.output) {
            return result(.skipped)
        }
        let index = job.index
        do {
            let onProgress = self.onProgress
            var rendered = try await job.slideshow.render { progress in
                onProgress?(index, progress)
                events.yield(.progress(index: index, progress))
            }
            rendered.warnings = job.warnings + rendered.warnings
            return result(.rendered(rendered))
        } catch {
            return result(.failed(error))
        }
    }
}

/// Stops a running batch while its stream is still read: no more jobs start, the jobs under way
/// stop and leave nothing at their outputs (each is reported as failed with
/// ``RenderError/cancelled``), and the stream ends once they have.
///
/// A program that must exit at once (on a signal, or when its report cannot be written) cancels
/// and then waits, briefly, with ``waitUntilEnded(timeout:)``: a job that was just starting could
/// otherwise create its temporary file after the program removed the others, and leave it behind.
public final class BatchCancellation: Sendable {
    private let state = Mutex<(cancelled: Bool, task: Task<Void, Never>?)>((false, nil))
    private let running = DispatchGroup()

    /// Creates a cancellation, for one ``BatchRunner/run()``.
    public init() {}

    /// Stops the batch; safe from any thread, more than once, and before the batch starts.
    public func cancel() {
        state.withLock { state -> Task<Void, Never>? in
            state.cancelled = true
            return state.task
        }?.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Blocks until every job of the batch has ended (or was never started), at most `timeout`
    /// seconds. - Returns: whether they all ended in time.
    public func waitUntilEnded(timeout: Double) -> Bool {
        running.wait(timeout: .now() + timeout) == .success
    }

    /// A run is about to start (before its task exists, which may end at once).
    func begin() {
        running.enter()
    }

    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func ended() {
        running.leave()
    }
}

/// An event of ``BatchRunner/run()``.
public enum BatchEvent: Sendable {
    /// Job `index` has added this many of its photos.
    case progress(index: Int, RenderProgress)
    /// A job is done: rendered, failed or skipped.
    case finished(BatchResult)
}

/// How one job of a batch ended.
public struct BatchResult: Sendable, Equatable {
    /// The job's index in the manifest.
    public var index: Int
    /// The job's output path.
    public var output: String
    /// What happened.
    public var outcome: Outcome
    /// Wall-clock seconds from the job's start to its end.
    public var seconds: Double
    /// The job's pick (``BatchJob/pick``): every input, picked or left out and why.
    public var pick: PickReport?

    /// Creates a result.
    public init(index: Int, output: String, outcome: Outcome, seconds: Double, pick: PickReport? = nil) {
        self.index = index
        self.output = output
        self.outcome = outcome
        self.seconds = seconds
        self.pick = pick
    }

    /// What happened to a job.
    public enum Outcome: Sendable, Equatable {
        /// The video was written.
        case rendered(RenderResult)
        /// The job failed and left nothing at its output; the error names the file and the reason.
        case failed(RenderError)
        /// The output existed already and ``BatchRunner/skipExisting`` was set.
        case skipped
    }

    /// A job's status in a report.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// The video was written.
        case ok
        /// The job failed.
        case failed
        /// The job was skipped.
        case skipped
    }

    /// The outcome's status.
    public var status: Status {
        switch outcome {
        case .rendered: .ok
        case .failed: .failed
        case .skipped: .skipped
        }
    }
}
