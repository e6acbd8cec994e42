import ArgumentParser
import Dispatch
import Foundation
import SlideshowKit
import Synchronization
import SlideshowSupport

/// `slideshow make`: one slideshow.
struct MakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Render photos into an MP4 slideshow, with music if given.",
        discussion: """
            The output appears only when it is complete: a failed or interrupted render \
            leaves nothing behind and never touches an existing file.
            """
    )

    @Argument(help: ArgumentHelp(SlideshowOptions.Field.photos.setting))
    var photos: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp(SlideshowOptions.Field.output.setting))
    var output: String?

    @OptionGroup var options: RenderOptions

    @Flag(help: "Replace the output file if it exists.")
    var overwrite = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Print one JSON object describing the result on stdout.")
    var json = false

    @Flag(help: "Render nothing: list the photos the show would play (with --pick, every input picked or left out and why; with --json, as one JSON object).")
    var dryRun = false

    /// The show the words describe: made once, by validate(), and rendered by run().
    private var show: Slideshow?

    /// Warnings from making ``show`` (text that was not UTF-8), printed when it renders.
    private var textWarnings: [String] = []

    /// The items the show plays: folders listed, picks made; by validate().
    private var selection: PhotoSelection?

    /// The parsed arguments, without ``show`` and ``selection``, which are made from them.
    private enum CodingKeys: CodingKey {
        case photos, output, options, overwrite, quiet, json, dryRun
    }

    /// The words become the library's options here, once: a usage error (status 64) names the
    /// option at fault; the library checks the show's rules (``Slideshow/checkSettings()``).
    mutating func validate() throws {
        guard !photos.isEmpty else { throw ValidationError("give at least one photo") }
        guard output != nil || dryRun else { throw ValidationError("give the output file: -o FILE (only --dry-run goes without one)") }
        let selection = try options.selection(photos: photos, output: output)
        self.selection = selection
        show = try options.slideshow(photos: selection.photos, output: plannedOutput, overwrite: overwrite, warnings: &textWarnings)
    }

    /// The output, or with `--dry-run` and no `-o` a name that is never written: the show's
    /// settings are checked as for an MP4.
    private var plannedOutput: String { output ?? "slideshow.mp4" }

    func run() async throws {
        ProcessTuning.configureForRendering()
        // A signal stops the render and gives it 0.4 s to remove its temporary file (one it
        // was just creating included) before the tool exits.
        let render = Mutex<Task<RenderResult, any Error>?>(nil)
        let rendering = DispatchGroup()
        Terminal.installSignalHandlers {
            render.withLock { $0 }?.cancel()
            _ = rendering.wait(timeout: .now() + 0.4)
            return "no output was written"
        }
        let selection = try self.selection ?? options.selection(photos: photos, output: output)
        if !quiet, let warning = selection.warning { Terminal.say("slideshow: warning: \(warning)") }
        if dryRun {
            Terminal.report(json ? PickListing.json(selection) + "\n" : PickListing.text(selection))
            return
        }
        if !quiet, !json, let report = selection.report { Terminal.say("slideshow: \(PickListing.summary(report))") }
        // The library reads the files and lays the show out once, in validate().
        var warnings = textWarnings
        let show = try self.show ?? options.slideshow(photos: selection.photos, output: plannedOutput, overwrite: overwrite, warnings: &warnings)
        if !quiet { for warning in warnings { Terminal.say("slideshow: warning: \(warning)") } }
        let prepared: PreparedSlideshow
        do {
            prepared = try await show.validate()
        } catch {
            // A setting that does not fit the files (a clip's part outside it) is a usage error.
            if case .usage(let problem) = error { Terminal.fail(RenderOptions.message(for: problem), status: 64) }
            Terminal.fail(Terminal.describe(error))
        }
        if !quiet, let warning = prepared.planWarning {
            Terminal.say("slideshow: warning: \(warning)")
        }
        let bar = (quiet || !Terminal.isTerminal(.standardError)) ? nil : ProgressBar(total: show.photos.count)
        rendering.enter()
        let task = Task {
            defer { rendering.leave() }
            return try await prepared.render { progress in bar?.update(progress.completedPhotos) }
        }
        render.withLock { $0 = task }
        if Terminal.stopping.load(ordering: .sequentiallyConsistent) { task.cancel() }
        let result: RenderResult
        do {
            result = try await task.value
        } catch {
            if Terminal.stopping.load(ordering: .sequentiallyConsistent) { Terminal.waitForStop() }
            bar?.clear()
            Terminal.fail((error as? RenderError).map(Terminal.describe) ?? "\(error)")
        }
        bar?.clear()
        Terminal.warn(result.warnings)
        if json {
            var report = Report(result)
            report.pick = selection.report.map(ReportPick.init)
            Terminal.report(report.json() + "\n")
        } else if !quiet {
            Terminal.say("\(result.output): \(result.draft ? "draft, " : "")\(result.frames) frames, \(String(format: "%.3f", result.duration.seconds)) s, \(result.size) at \(result.framesPerSecond) fps, \(result.look), \(result.bytes) bytes in \(String(format: "%.2f", result.seconds)) s")
        }
    }
}
