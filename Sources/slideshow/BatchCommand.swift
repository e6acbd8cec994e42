import ArgumentParser
import Foundation
import SlideshowKit
import SlideshowSupport

/// `slideshow batch`: the slideshows of a manifest, several at a time.
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render the slideshows a manifest lists, several at a time.",
        discussion: """
            The manifest is a JSON array of jobs, or JSON Lines (one job object per line). A job \
            has the settings of `make`, named as its options in camel case (\(Self.keysNamedOtherwise)): \
            \(BatchManifest.fields.prefix(2).joined(separator: " and ")), both required \
            (photos an array), then \(BatchManifest.fields.dropFirst(2).joined(separator: ", ")); \
            duration may be "\(DurationSetting.audioWord)". A photo is a path, or an object with \
            \(BatchManifest.photoFields.joined(separator: ", ")) (path required) giving that photo \
            its own length, transition to the next photo, motion and caption, and a clip the part \
            that plays (in and out, in seconds). A path may be a folder: its photos and clips, \
            recursively, as make lists them; pick (a number, or "auto") picks the best of them as \
            --pick does, when the manifest is read. Relative paths are relative \
            to the manifest's folder (the working folder for stdin). Jobs are numbered from 0. \
            The whole manifest is checked before anything renders, and no job may write a file \
            that a job reads.

            Each finished job prints one JSON line on stdout: {"error", "frames", "index", \
            "output", "photos", "seconds", "status"}, status "ok", "failed" or "skipped"; error names the \
            file and the reason when the job failed, and is null otherwise; frames is null unless ok. \
            photos is [{"path", "start"}] in play order, each photo's start in seconds, null unless ok. \
            A job with a loudness adds "measuredLoudness" and "finalLoudness" (LUFS), one with its \
            cuts on the beat "tempo" (BPM).

            Exit status: 0 every job succeeded or was skipped; 1 a job failed, or stdout could \
            not take a line; 64 a usage error or an invalid manifest (one line on stderr per \
            problem, naming the job and the field; nothing is rendered); 129 hung up (SIGHUP, \
            unless ignored by nohup), 130 interrupted (SIGINT), 143 terminated (SIGTERM): \
            finished outputs stay, unfinished ones leave nothing.
            """
    )

    /// The keys that are not their option's name in camel case, from the table of settings:
    /// `audioLoop: false for --no-audio-loop, captions for --caption, …`.
    static var keysNamedOtherwise: String {
        Setting.all.compactMap { setting -> String? in
            guard let flag = setting.flag, let key = setting.key, let name = setting.longName else { return nil }
            let camel = name.split(separator: "-").enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
            if case .flag(inverted: true) = setting.kind { return "\(key): false for \(flag)" }
            return camel == key ? nil : "\(key) for \(flag)"
        }.joined(separator: ", ")
    }

    @Argument(help: ArgumentHelp("The manifest: a JSON array of jobs or JSON Lines; - reads stdin.", valueName: "manifest.json | -"))
    var manifest: String

    @Option(help: ArgumentHelp("Jobs rendered at once, \(SettingRange(BatchRunner.concurrencyRange)) (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Render only the jobs whose index modulo n is i (0 ≤ i < n).", valueName: "i/n"))
    var shard: String?

    @Flag(help: "Skip jobs whose output exists, reporting them as skipped (to resume a batch).")
    var skipExisting = false

    @Flag(help: "Replace outputs that exist.")
    var overwrite = false

    func validate() throws {
        try Self.refuseRepeatedOptions()
        if let jobs {
            do {
                try BatchRunner.check(concurrency: jobs)
            } catch {
                throw ValidationError("--jobs \(error.reason)")
            }
        }
        _ = try shardSelection()
        if skipExisting && overwrite { throw ValidationError("give --skip-existing or --overwrite, not both") }
    }

    /// `--shard i/n` as (i, n).
    private func shardSelection() throws -> (index: Int, count: Int)? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, index >= 0, index < count else {
            throw ValidationError(Message.oneLine("--shard '\(shard)' is not i/n with 0 ≤ i < n, e.g. 0/4"))
        }
        return (index, count)
    }

    func run() async throws {
        let name = manifest == "-" ? "stdin" : manifest
        let loaded: BatchManifest
        do throws(InvalidManifest) {
            if manifest == "-" {
                loaded = try BatchManifest(fileDescriptor: STDIN_FILENO, relativeTo: nil)
            } else {
                loaded = try BatchManifest(contentsOfFile: manifest)
            }
        } catch {
            for problem in error.errors { Terminal.say("slideshow: \(name): \(problem)") }
            throw ExitCode.validationFailure
        }
        var selected = try shardSelection().map { loaded.shard($0.index, of: $0.count) } ?? loaded.jobs
        for index in selected.indices { selected[index].slideshow.overwrite = overwrite }

        ProcessTuning.configureForRendering()
        let cancellation = BatchCancellation()
        let report = BatchReport(jobs: selected, progressBar: Terminal.isTerminal(.standardError), cancellation: cancellation)
        Terminal.installSignalHandlers(report: report.interrupted)
        var runner = try BatchRunner(jobs: selected, concurrency: jobs ?? BatchRunner.defaultConcurrency, skipExisting: skipExisting)
        runner.onFinish = { report.ended($0) }
        runner.cancellation = cancellation
        var unwritable: String?
        for await event in runner.run() where unwritable == nil {
            switch event {
            case .progress(let index, let progress): report.progress(job: index, progress)
            case .finished(let result):
                // A report that cannot be written stops the batch, status 1: the jobs under way
                // stop (the stream ends once they have), and one line says how far it got.
                if let reason = report.finished(result) {
                    unwritable = reason
                    cancellation.cancel()
                }
            }
        }
        if Terminal.stopping.load(ordering: .sequentiallyConsistent) { Terminal.waitForStop() }
        if let unwritable {
            Terminal.stop(status: ExitCode.failure.rawValue) { "stdout: cannot write the report (\(unwritable)); \(report.summary())" }
        }
        if report.end() { throw ExitCode.failure }
    }
}

/// What a batch tells its user: one JSON line per finished job on stdout, as it finishes; the
/// progress across jobs on stderr; and, when a signal stops the batch, how many jobs finished.
///
/// Its methods are called one at a time by the batch's loop, and ``interrupted()`` by the
/// signal handler at any moment: it must answer within a second even while a line is stuck
/// on a full stdout (`slideshow batch jobs.json | sleep 1000`), so the counters have a lock
/// of their own that is never held across a write.
final class BatchReport: @unchecked Sendable {
    // @unchecked: the counters are touched only under `counts`; `lines` is held while a line
    // is written, and kept by the signal handler so that no line follows its summary.
    private let counts = NSLock()
    private let lines = NSLock()
    private let photoCounts: [Int: Int]
    private let bar: ProgressBar?
    private var finishedJobs = 0
    private var failedJobs = 0
    private var photosOfFinishedJobs = 0
    private var photosOfRunningJobs: [Int: Int] = [:]
    private var endedJobs: Set<Int> = []

    private let cancellation: BatchCancellation

    init(jobs: [BatchJob], progressBar: Bool, cancellation: BatchCancellation) {
        self.cancellation = cancellation
        photoCounts = Dictionary(uniqueKeysWithValues: jobs.map { ($0.index, $0.slideshow.photos.count) })
        bar = progressBar && !jobs.isEmpty ? ProgressBar(total: jobs.reduce(0) { $0 + $1.slideshow.photos.count }) : nil
        drawBar()
    }

    /// A job added photos.
    func progress(job index: Int, _ progress: RenderProgress) {
        // A late progress event of a job that has ended already must not count its photos twice.
        counts.withLock { if !endedJobs.contains(index) { photosOfRunningJobs[index] = progress.completedPhotos } }
        drawBar()
    }

    /// A job ended (from the job's task, the moment it ends): it counts as finished from then
    /// on, its output complete (or nothing written), whether or not its line is out yet.
    func ended(_ result: BatchResult) {
        // A job stopped by the batch's end wrote nothing: it is one of "the other" jobs.
        if result.outcome == .failed(.cancelled) { return }
        counts.withLock {
            photosOfRunningJobs[result.index] = nil
            photosOfFinishedJobs += photoCounts[result.index] ?? 0
            endedJobs.insert(result.index)
            finishedJobs += 1
            if result.status == .failed { failedJobs += 1 }
        }
    }

    /// A job's line, written at once.
    /// - Returns: nil, or why stdout did not take the line.
    func finished(_ result: BatchResult) -> String? {
        let line = JobLine(result: result).json() + "\n"
        lines.lock()
        defer { lines.unlock() }
        bar?.clear()
        if case .rendered(let render) = result.outcome {
            Terminal.warn(render.warnings)
        }
        let failure = Terminal.writeToStandardOutput(line)
        drawBar()
        return failure
    }

    /// The batch is over: removes the bar.
    /// - Returns: whether any job failed.
    func end() -> Bool {
        bar?.clear()
        return counts.withLock { failedJobs > 0 }
    }

    /// For the signal handler: stops the batch and says how many jobs finished. Waits at most
    /// 0.3 s for a line being written (then keeps that lock, so that no line follows) and 0.4 s
    /// for the jobs under way to stop and remove their files; the process exits next.
    func interrupted() -> String {
        _ = lines.lock(before: Date().addingTimeInterval(0.3))
        cancellation.cancel()
        _ = cancellation.waitUntilEnded(timeout: 0.4)
        return summary()
    }

    /// `5 of 12 jobs finished, the other 7 wrote nothing`.
    func summary() -> String {
        let finished = counts.withLock { finishedJobs }
        return "\(finished) of \(photoCounts.count) jobs finished, the other \(photoCounts.count - finished) wrote nothing"
    }

    private func drawBar() {
        guard let bar else { return }
        let (done, finished) = counts.withLock { (photosOfFinishedJobs + photosOfRunningJobs.values.reduce(0, +), finishedJobs) }
        bar.update(done, detail: ", \(finished)/\(photoCounts.count) jobs")
    }
}
