import Foundation
import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowPixels
import SlideshowWriter

/// The project's three sample photos.
private let samples = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) }

/// A small, quick slideshow (tests run in debug builds).
private func job(_ index: Int, _ photos: [Photo], _ output: String, seconds: Double = 1) -> BatchJob {
    BatchJob(index: index, slideshow: Slideshow(photos: photos, output: output, length: .total(seconds: seconds),
                                                video: VideoSettings(size: Size(width: 96, height: 64))))
}

/// Runs a batch to its end.
private func results(of runner: BatchRunner) async -> (results: [BatchResult], progress: [(index: Int, RenderProgress)]) {
    var results: [BatchResult] = []
    var progress: [(index: Int, RenderProgress)] = []
    for await event in runner.run() {
        switch event {
        case .finished(let result): results.append(result)
        case .progress(let index, let value): progress.append((index, value))
        }
    }
    return (results, progress)
}

@Suite("BatchRunner: bounded concurrency, isolated failures")
struct BatchRunnerTests {
    @Test("good jobs land while a broken and a missing photo fail theirs, leaving nothing")
    func mixed() async throws {
        let folder = try TemporaryFolder()
        let broken = folder.path("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x5A, count: 200)).write(to: URL(fileURLWithPath: broken))
        let jobs = [
            job(0, samples, folder.path("a.mp4")),
            job(1, [samples[0], Photo(path: broken)], folder.path("b.mp4")),
            job(2, [Photo(path: folder.path("missing.jpg"))], folder.path("c.mp4")),
            job(3, [samples[2]], folder.path("d.mp4")),
            job(4, [samples[1]], folder.path("no-such-folder/e.mp4")),
        ]
        let (found, _) = try await results(of: BatchRunner(jobs: jobs, concurrency: 2))
        let byIndex = Dictionary(uniqueKeysWithValues: found.map { ($0.index, $0) })
        #expect(found.count == 5 && byIndex.count == 5)
        #expect(byIndex.mapValues(\.status) == [0: .ok, 1: .failed, 2: .failed, 3: .ok, 4: .failed])
        guard case .failed(.photo(let bad)) = byIndex[1]?.outcome else { Issue.record("job 1: \(String(describing: byIndex[1]))"); return }
        #expect(bad.path == broken)
        guard case .failed(.photo(let missing)) = byIndex[2]?.outcome else { Issue.record("job 2"); return }
        #expect(missing.path == folder.path("missing.jpg") && missing.kind == .notFound)
        guard case .failed(.output(let output)) = byIndex[4]?.outcome else { Issue.record("job 4"); return }
        #expect(output.kind == .noSuchFolder)
        guard case .rendered(let rendered) = byIndex[0]?.outcome else { Issue.record("job 0"); return }
        #expect(rendered.frames == 30 && rendered.output == folder.path("a.mp4"))
        #expect(folder.contents() == ["a.mp4", "broken.jpg", "d.mp4"])
        #expect(try ProbedVideo(path: folder.path("a.mp4")).decodedFrames == 30)
        #expect(try ProbedVideo(path: folder.path("d.mp4")).decodedFrames == 30)
    }

    @Test("one at a time: each job finishes before the next reports progress")
    func oneAtATime() async throws {
        let folder = try TemporaryFolder()
        let jobs = (0..<4).map { job($0, samples, folder.path("\($0).mp4")) }
        var order: [String] = []
        for await event in try BatchRunner(jobs: jobs, concurrency: 1).run() {
            switch event {
            case .progress(let index, _): if order.last != "p\(index)" { order.append("p\(index)") }
            case .finished(let result): order.append("f\(result.index)")
            }
        }
        #expect(order == ["p0", "f0", "p1", "f1", "p2", "f2", "p3", "f3"])
    }

    @Test("skipExisting skips jobs whose output exists and leaves the file alone")
    func skipExisting() async throws {
        let folder = try TemporaryFolder()
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("a.mp4")))
        let jobs = [job(0, samples, folder.path("a.mp4")), job(1, samples, folder.path("b.mp4"))]
        let (found, _) = try await results(of: BatchRunner(jobs: jobs, concurrency: 2, skipExisting: true))
        #expect(Dictionary(uniqueKeysWithValues: found.map { ($0.index, $0.status) }) == [0: .skipped, 1: .ok])
        #expect(try String(contentsOfFile: folder.path("a.mp4"), encoding: .utf8) == "keep")
        // Without it, the existing file fails its job and is still untouched.
        let (again, _) = try await results(of: BatchRunner(jobs: [jobs[0]], concurrency: 1))
        guard case .failed(.output(let error)) = again.first?.outcome else { Issue.record("\(again)"); return }
        #expect(error.kind == .outputExists)
        #expect(try String(contentsOfFile: folder.path("a.mp4"), encoding: .utf8) == "keep")
    }

    @Test("cancelling the batch stops it: no more jobs start, and nothing partial is left")
    func cancel() async throws {
        let folder = try TemporaryFolder()
        let long = (0..<6).map { index in
            BatchJob(index: index, slideshow: Slideshow(
                photos: Array(repeating: samples, count: 10).flatMap { $0 }, output: folder.path("\(index).mp4"),
                length: .total(seconds: 60), video: VideoSettings(size: Size(width: 320, height: 240), hold: .encode)))
        }
        let stream = try BatchRunner(jobs: long, concurrency: 2).run()
        let reader = Task {
            var finished: [BatchResult] = []
            for await event in stream {
                if case .finished(let result) = event { finished.append(result) }
                if case .progress = event, finished.isEmpty { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return finished
        }
        let finished = await reader.value
        #expect(finished.count < 6)
        #expect(finished.allSatisfy { $0.outcome == .failed(.cancelled) })
        // The writer's tasks may take a moment to unlink their temporary files.
        for _ in 0..<100 where !folder.contents().isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(folder.contents().isEmpty)
    }
}

@Suite("BatchRunner: the concurrency is 1 to 1024, and no more jobs start than there are")
struct BatchRunnerConcurrencyTests {
    @Test("a concurrency outside 1 to 1024 is refused, naming the range, as --jobs is")
    func outOfRange() throws {
        #expect(BatchRunner.concurrencyRange == 1...1024)
        for concurrency in [0, -1, 1025, .max] {
            #expect { try BatchRunner(jobs: [], concurrency: concurrency) } throws: { error in
                (error as? BatchRunner.ConcurrencyError)?.description == "concurrency \(concurrency) is not between 1 and 1024"
            }
        }
        #expect(BatchRunner.defaultConcurrency >= 1 && BatchRunner.defaultConcurrency <= 1024)
    }

    // A guard against spinning for ever, not a speed test: in the whole suite other tests hold the
    // cooperative threads (two on two cores) with synchronous waits, and the jobs, which hop
    // between the pool and those threads, took over a minute there while they take a second alone.
    @Test("the greatest concurrency runs two jobs and ends", .timeLimit(.minutes(5)))
    func largestConcurrency() async throws {
        let folder = try TemporaryFolder()
        let jobs = [job(0, [samples[0]], folder.path("a.mp4")), job(1, [samples[1]], folder.path("b.mp4"))]
        // The time limit is the guard against spinning for ever (no timed assertion: it flaked under ThreadSanitizer).
        let (found, _) = try await results(of: BatchRunner(jobs: jobs, concurrency: 1024))
        #expect(found.map(\.status) == [.ok, .ok])
        // No jobs at all: nothing to start, whatever the concurrency.
        #expect(try await results(of: BatchRunner(jobs: [], concurrency: 1024)).results.isEmpty)
    }
}

@Suite("BatchCancellation: stopping a batch while its stream is read")
struct BatchCancellationTests {
    @Test("cancelled mid-job: the stream reports the stopped job as cancelled and ends; nothing partial is left", .timeLimit(.minutes(5)))
    func cancelWhileReading() async throws {
        let folder = try TemporaryFolder()
        // A job still encoding when it is cancelled, then one that never starts.
        var long = job(0, Array(repeating: samples, count: 4).flatMap { $0 }, folder.path("long.mp4"), seconds: 60)
        long.slideshow.video = VideoSettings(size: Size(width: 320, height: 240), hold: .encode)
        let jobs = [long, job(1, [samples[0]], folder.path("never.mp4"))]
        let cancellation = BatchCancellation()
        var runner = try BatchRunner(jobs: jobs, concurrency: 1)
        runner.cancellation = cancellation
        var results: [BatchResult] = []
        for await event in runner.run() {
            switch event {
            case .progress(_, let progress) where progress.completedPhotos >= 1: cancellation.cancel()
            case .finished(let result): results.append(result)
            default: break
            }
        }
        #expect(cancellation.isCancelled)
        #expect(cancellation.waitUntilEnded(timeout: 0))
        #expect(results.map(\.index) == [0])
        #expect(results.first?.outcome == .failed(.cancelled))
        #expect(folder.contents().isEmpty)
    }

    @Test("cancelled before it starts: no job starts, and waiting ends at once")
    func cancelBeforeStart() async throws {
        let folder = try TemporaryFolder()
        let cancellation = BatchCancellation()
        cancellation.cancel()
        var runner = try BatchRunner(jobs: [job(0, [samples[0]], folder.path("a.mp4"))], concurrency: 1)
        runner.cancellation = cancellation
        var results: [BatchResult] = []
        for await case .finished(let result) in runner.run() { results.append(result) }
        #expect(results.isEmpty)
        #expect(cancellation.waitUntilEnded(timeout: 5))
        #expect(folder.contents().isEmpty)
    }
}
