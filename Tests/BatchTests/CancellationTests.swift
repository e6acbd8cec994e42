import Dispatch
import Foundation
import Synchronization
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio
import SlideshowFormats
import SlideshowKit
import SlideshowSupport
import SlideshowWriter
import SlideshowPixels

/// The project's three sample photos.
private let samples = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) }

/// A long show whose every frame is a picture of its own (Ken Burns), so that the feed loop
/// appends one picture per frame: 30 photos over 60 s, 1800 frames.
private func movingShow(_ output: String) -> Slideshow {
    var show = Slideshow(photos: Array(repeating: samples, count: 10).flatMap { $0 }, output: output,
                         length: .total(seconds: 60), video: VideoSettings(size: Size(width: 160, height: 120)))
    show.motion = .kenburns
    return show
}

/// What a test's closures share across threads.
private final class Marks: Sendable {
    let atCancel = Atomic<Int>(-1)
    let entered = Atomic<Int>(0)
    let task = Mutex<Task<RenderResult, any Error>?>(nil)
}

@Suite("Cancellation: a render stops between its stages and inside its long loops, and leaves nothing")
struct CancellationTests {
    @Test("a batch job cancelled mid-render stops before its next picture and leaves nothing at its output")
    func batchJobStopsWithinAFrame() async throws {
        let folder = try TemporaryFolder()
        let show = movingShow(folder.path("long.mp4"))
        let cancellation = BatchCancellation()
        var runner = try BatchRunner(jobs: [BatchJob(index: 0, slideshow: show)], concurrency: 1)
        runner.cancellation = cancellation
        let probe = ReadProbe()
        let marks = Marks()
        // Cancelled as the first photo is done, from the feed loop itself (the stream's reader
        // may be far behind on a busy machine): the cancel comes between two pictures.
        runner.onProgress = { _, progress in
            guard progress.completedPhotos >= 1, marks.atCancel.load(ordering: .sequentiallyConsistent) < 0 else { return }
            marks.atCancel.store(probe.framesAppended.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
            cancellation.cancel()
        }
        // The runner's task, and so the job's render, inherits the probe.
        let results = await ReadProbe.$current.withValue(probe) {
            var results: [BatchResult] = []
            for await case .finished(let result) in runner.run() { results.append(result) }
            return results
        }
        let appendedAtCancel = marks.atCancel.load(ordering: .sequentiallyConsistent)
        let appended = probe.framesAppended.load(ordering: .sequentiallyConsistent)
        #expect(results.map(\.outcome) == [.failed(.cancelled)])
        // The feed loop looks at the cancel before each picture: not one more after it, of the
        // 1800 the show has.
        #expect(appendedAtCancel > 0 && appendedAtCancel < 1800)
        #expect(appended == appendedAtCancel, "\(appended - appendedAtCancel) pictures appended after the cancel")
        #expect(probe.feedStops.load(ordering: .sequentiallyConsistent) == 1)
        // Nothing at the output, no temporary file beside it.
        #expect(folder.contents().isEmpty)
    }

    @Test("a render cancelled mid-way, through its task, throws .cancelled within a picture and leaves nothing")
    func renderTaskStopsWithinAFrame() async throws {
        let folder = try TemporaryFolder()
        let show = movingShow(folder.path("long.mp4"))
        let probe = ReadProbe()
        let marks = Marks()
        let started = DispatchSemaphore(value: 0)
        let render = Task {
            started.wait()
            return try await ReadProbe.$current.withValue(probe) {
                try await show.render { progress in
                    // From the feed loop itself: the cancel comes between two pictures.
                    guard progress.completedPhotos >= 2, marks.atCancel.load(ordering: .sequentiallyConsistent) < 0 else { return }
                    marks.atCancel.store(probe.framesAppended.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
                    marks.task.withLock { $0 }?.cancel()
                }
            }
        }
        marks.task.withLock { $0 = render }
        started.signal()
        await #expect(throws: RenderError.cancelled) { try await render.value }
        let cancelledAt = marks.atCancel.load(ordering: .sequentiallyConsistent)
        #expect(cancelledAt > 0)
        // Cancelled from inside the loop: not one picture more.
        #expect(probe.framesAppended.load(ordering: .sequentiallyConsistent) == cancelledAt)
        #expect(probe.feedStops.load(ordering: .sequentiallyConsistent) == 1)
        #expect(folder.contents().isEmpty)
    }

    @Test("a render whose task is cancelled before it starts reads nothing, lays nothing out and writes nothing")
    func cancelledBeforeValidation() async throws {
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: samples, output: folder.path("show.mp4"), length: .total(seconds: 20))
        show.soundtrack = TestEnvironment.sharedClip("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3").map { Soundtrack(path: $0) }
        show.cuts = .beats
        let probe = ReadProbe()
        let render = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await ReadProbe.$current.withValue(probe) { try await show.render() }
        }
        await #expect(throws: RenderError.cancelled) { try await render.value }
        #expect(probe.photoHeaders.load(ordering: .relaxed) == 0)
        #expect(probe.musicOpens.load(ordering: .relaxed) == 0)
        #expect(probe.plans.load(ordering: .relaxed) == 0)
        #expect(folder.contents().isEmpty)
    }

    @Test("the song's beat analysis stops at its next chunk once its work is cancelled",
          .enabled(if: TestEnvironment.sharedClip("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3") != nil))
    func beatAnalysisStops() throws {
        let song = try #require(TestEnvironment.sharedClip("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3"))
        let whole = try BeatAnalysis.onsetProfile(path: song, start: 0, length: 25)
        let token = Cancellation()
        token.cancel()
        let stopped = try Cancellation.$current.withValue(token) { try BeatAnalysis.onsetProfile(path: song, start: 0, length: 25) }
        #expect(whole.duration > 24)
        #expect(stopped.duration == 0 && stopped.novelty.isEmpty)
    }

    @Test("the loudness pass stops at its next chunk once its work is cancelled",
          .enabled(if: TestEnvironment.sharedClip("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3") != nil))
    func loudnessStops() throws {
        let song = try #require(TestEnvironment.sharedClip("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3"))
        var soundtrack = Soundtrack(path: song)
        soundtrack.loudness = -16
        let frames = 10 * AudioFormat.sampleRate
        #expect(try soundtrack.measureLoudness(totalFrames: frames)?.measured.isFinite == true)
        let token = Cancellation()
        token.cancel()
        // Nothing measured: the pass stopped before its first chunk (the stage then throws .cancelled).
        #expect(throws: AudioError.self) {
            try Cancellation.$current.withValue(token) { try soundtrack.measureLoudness(totalFrames: frames) }
        }
    }
}

@Suite("BlockingPool: blocking work off the cooperative threads")
struct BlockingPoolTests {
    @Test("more blocked jobs than cores hold no cooperative thread: a task that frees them still runs", .timeLimit(.minutes(1)))
    func blockedJobsLeaveTheCooperativeThreads() async throws {
        let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let pool = BlockingPool(maximumThreads: count)
        let gate = DispatchSemaphore(value: 0)
        let marks = Marks()
        // Were these waits on the cooperative threads (one per core), the task that opens the
        // gate could never run and the test would hang until its time limit.
        async let all: [Int] = withTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask {
                    await pool.run { () -> Int in
                        marks.entered.add(1, ordering: .relaxed)
                        gate.wait()
                        return index
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        while marks.entered.load(ordering: .relaxed) < count { try await Task.sleep(for: .milliseconds(5)) }
        for _ in 0..<count { gate.signal() }
        #expect(await all.sorted() == Array(0..<count))
    }

    @Test("a cancelled caller's work sees Cancellation.isCancelled on the pool's thread; an uncancelled one does not")
    func cancellationReachesThePool() async {
        let pool = BlockingPool(maximumThreads: 1)
        #expect(await pool.run { Cancellation.isCancelled } == false)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await pool.run { Cancellation.isCancelled }
        }
        #expect(await cancelled.value == true)
        // Errors come back typed.
        await #expect(throws: RenderError.cancelled) {
            try await pool.run { () throws(RenderError) -> Int in throw .cancelled }
        }
    }

    @Test("a short job does not wait behind long ones while there is room; idle threads end", .timeLimit(.minutes(1)))
    func shortJobsDoNotQueue() async throws {
        let pool = BlockingPool(maximumThreads: 8, idleSeconds: 0.2)
        let gate = DispatchSemaphore(value: 0)
        let marks = Marks()
        // Three long jobs hold three threads…
        async let long: Void = withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    await pool.run {
                        marks.entered.add(1, ordering: .relaxed)
                        gate.wait()
                    }
                }
            }
        }
        while marks.entered.load(ordering: .relaxed) < 3 { try await Task.sleep(for: .milliseconds(5)) }
        // …and a short one still runs, on a fourth (counted while it runs: once it is done, its
        // thread may end after its 0.2 s before this task looks again).
        #expect(await pool.run { pool.threads } == 4)
        for _ in 0..<3 { gate.signal() }
        await long
        // Idle past their time, the threads end.
        for _ in 0..<200 where pool.threads > 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(pool.threads == 0)
    }
}
