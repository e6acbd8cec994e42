import Foundation
import SlideshowFormats
import SlideshowSupport
import SlideshowText

/// One job of a batch: its place in the manifest and the slideshow it renders.
public struct BatchJob: Sendable {
    /// The job's place in the manifest, counting from 0. Reports and ``BatchManifest/shard(_:of:)`` use it.
    public var index: Int
    /// The slideshow to render, its paths resolved against the manifest's folder.
    public var slideshow: Slideshow
    /// What reading the manifest found about the job that did not stop it: files its folders'
    /// listing left out (``RenderWarning/Kind/selection``). Its render's result repeats them first.
    public var warnings: [RenderWarning]
    /// With a pick (the job's `pick`): every input, picked or left out and why. Its result carries it.
    public var pick: PickReport?

    /// Creates a job.
    public init(index: Int, slideshow: Slideshow, warnings: [RenderWarning] = [], pick: PickReport? = nil) {
        self.index = index
        self.slideshow = slideshow
        self.warnings = warnings
        self.pick = pick
    }
}

/// The jobs of a batch render, read from a manifest and checked in full before anything renders.
///
/// A manifest is a JSON array of job objects, or JSON Lines: one job object per line (blank
/// lines are ignored). Each job has the settings of `slideshow make`:
///
/// ```json
/// {"photos": ["a.jpg", "b.jpg"], "output": "out/ab.mp4", "duration": 6, "filter": "minimal-life"}
/// ```
///
/// `photos` (a non-empty array of paths, or of photo objects ``photoFields``: a path with the
/// photo's own `duration`, `transition` to the next photo and `motion`) and `output` are
/// required; every other setting of ``SlideshowOptions`` is optional, by the name of its
/// ``SlideshowOptions/Field`` (``fields``), with the same defaults and rules: `duration` or
/// `slideDuration` (seconds, and `duration` may be `"audio"`), `size` (`"WxH"`), `fit`
/// (``FitMode``'s names), `transition`, `motion`, the music's `audio` (a path), and so on.
/// Relative paths are relative to the manifest's folder.
///
/// Photos are not read here (only looked up, to compare them with the outputs): a missing or
/// broken photo fails its job when it renders, not the manifest.
public struct BatchManifest: Sendable {
    /// The jobs, in the manifest's order (a parsed manifest's job `i` is `jobs[i]`).
    public var jobs: [BatchJob]

    /// The keys a job may have.
    public static let fields: [String] = ["photos", "output"] + Setting.all.compactMap(\.key).filter { $0 != "photos" && $0 != "output" }

    /// The keys a photo object of a job's `photos` may have (a photo may also be just its path).
    public static let photoFields = ["path", "duration", "transition", "motion", "caption", "in", "out"]

    /// The largest manifest read, in bytes: 16 MiB, some 80,000 jobs of a few photos each.
    ///
    /// Reading stops there, so that a stream that never ends (`yes | slideshow batch -`) or a
    /// huge file is refused at once instead of filling memory; a bigger batch is several
    /// manifests. Checking a manifest takes a few times its size in memory.
    public static let maximumBytes = 16 << 20

    /// Creates a manifest of jobs already made.
    public init(jobs: [BatchJob]) {
        self.jobs = jobs
    }

    /// Reads a manifest file; relative paths in it are relative to its folder.
    /// - Parameter path: the manifest's path.
    /// - Throws: ``InvalidManifest`` when the file cannot be read, or with every problem of every job.
    /// - Throws: ``InvalidManifest`` when the file cannot be read or is over ``maximumBytes``,
    ///   or with every problem of every job.
    public init(contentsOfFile path: String) throws(InvalidManifest) {
        guard !Message.hasNUL(path) else { throw Self.unreadable(ENOENT) }
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY) }
        guard descriptor >= 0 else { throw Self.unreadable(errno) }
        defer { close(descriptor) }
        try self.init(fileDescriptor: descriptor, relativeTo: (path as NSString).deletingLastPathComponent)
    }

    /// Reads a manifest from an open file or stream, such as standard input (descriptor 0),
    /// to its end; the descriptor stays open.
    /// - Parameters:
    ///   - descriptor: the file descriptor to read.
    ///   - folder: the folder relative paths are relative to (see ``init(data:relativeTo:)``).
    /// - Throws: ``InvalidManifest`` when it cannot be read or holds more than ``maximumBytes``
    ///   (reading stops there), or with every problem of every job.
    public init(fileDescriptor descriptor: Int32, relativeTo folder: String?) throws(InvalidManifest) {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Foundation.read(descriptor, &buffer, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.unreadable(errno)
            }
            guard data.count + count <= Self.maximumBytes else { throw Self.tooLarge }
            data.append(buffer, count: count)
        }
        try self.init(data: data, relativeTo: folder)
    }

    private static func unreadable(_ code: Int32) -> InvalidManifest {
        InvalidManifest(errors: [ManifestError(job: nil, field: nil, reason: "cannot be read (\(String(cString: strerror(code))))")])
    }

    private static var tooLarge: InvalidManifest {
        InvalidManifest(errors: [ManifestError(job: nil, field: nil, reason: "the manifest is over \(maximumBytes >> 20) MiB, the cap; split it into smaller manifests")])
    }

    /// Parses a manifest: a JSON array of jobs, or JSON Lines.
    ///
    /// Every job is checked: its keys (an unknown key, such as a misspelled `durration`, or a
    /// key given twice, is an error), its required fields, each value's type and range, the
    /// settings together (a length that gives a photo no frame), its paths (no NUL character),
    /// that no two jobs write the same file (an output or a WebVTT file), and that no job writes a file any job reads
    /// (a photo or the music), however the paths are spelled (see `ManifestFiles`).
    /// - Parameters:
    ///   - data: the manifest's bytes, UTF-8, with or without a byte order mark; at most
    ///     ``maximumBytes``.
    ///   - folder: the folder relative paths are relative to; nil or empty leaves them as they
    ///     are (relative to the working folder).
    /// - Throws: ``InvalidManifest`` with every problem found: at least the first of each job,
    ///   in the jobs' order.
    public init(data: Data, relativeTo folder: String?) throws(InvalidManifest) {
        guard data.count <= Self.maximumBytes else { throw Self.tooLarge }
        var errors: [ManifestError] = []
        var jobs: [BatchJob] = []
        var files = ManifestFiles(relativeTo: folder)
        for (index, entry) in try Self.entries(of: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data).enumerated() {
            errors += entry.problems.map { ManifestError(job: index, field: $0.field, reason: $0.reason) }
            if let output = entry.output, !output.isEmpty, !Message.hasNUL(output),
               let problem = files.addOutput(output, at: Self.resolve(output, in: folder), job: index) {
                errors.append(problem)
            }
            if let webvtt = entry.options?.webvtt, !webvtt.isEmpty, !Message.hasNUL(webvtt),
               let problem = files.addOutput(webvtt, at: Self.resolve(webvtt, in: folder), job: index, field: "webvtt") {
                errors.append(problem)
            }
            let fontFile = entry.options?.font.flatMap { if case .file(let path) = TextStyle.Font(parsing: $0) { path } else { nil } }
            files.addInputs(photos: entry.photos ?? [], audio: entry.options?.audio, font: fontFile, captions: entry.options?.captionsFile, job: index)
            guard var options = entry.options else { continue }
            // The settings that name files (``Setting/Kind/path``), and a font that is a file.
            for setting in Setting.all { setting.binding?.resolve?(&options) { Self.resolve($0, in: folder) } }
            if fontFile != nil { options.font = options.font.map { Self.resolve($0, in: folder) } }
            do {
                if let photos = entry.photos, let output = entry.output, entry.problems.isEmpty {
                    let (photos, warnings, pick) = try Self.selected(photos.map { Self.resolve($0, in: folder) }, options: options, output: Self.resolve(output, in: folder))
                    jobs.append(BatchJob(index: index, slideshow: try options.slideshow(photos: photos, output: Self.resolve(output, in: folder)),
                                         warnings: warnings, pick: pick))
                } else {
                    try options.validate(photos: entry.photos?.map { Self.resolve($0, in: folder) }, output: entry.output.map { Self.resolve($0, in: folder) })
                }
            } catch {
                errors.append(ManifestError(job: index, field: error.field.rawValue, reason: error.reason))
            }
        }
        errors = Self.inJobOrder(errors + files.outputsRead())
        guard errors.isEmpty else { throw InvalidManifest(errors: errors) }
        self.jobs = jobs
    }

    /// A job's photos: folders listed and, with a pick, the picks (``SlideshowOptions/select(_:output:)``);
    /// plain files as they are, unread; files left out, in one ``RenderWarning/Kind/selection`` warning;
    /// and with a pick, its report.
    private static func selected(_ paths: [String], options: SlideshowOptions, output: String) throws(OptionError)
        -> (photos: [Photo], warnings: [RenderWarning], pick: PickReport?) {
        guard options.pick != nil || paths.contains(where: { var folder: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &folder) && folder.boolValue }) else {
            return (paths.map { Photo(path: $0) }, [], nil)
        }
        let selection = try options.select(paths, output: output)
        let warnings = selection.warning.map { warning in
            PhotoWarning(path: paths.count == 1 ? paths[0] : "photos", reason: warning)
        }.map { [RenderWarning(kind: .selection, path: paths.count == 1 ? paths[0] : nil, message: $0.description)] } ?? []
        return (selection.photos.map { Photo(path: $0) }, warnings, selection.report)
    }

    /// The jobs of shard `index` of `count`: those whose index modulo `count` is `index`.
    ///
    /// Shards 0 to `count − 1` together hold every job exactly once, so `count` machines
    /// can each run one shard of the same manifest.
    /// - Precondition: `0 <= index < count`.
    public func shard(_ index: Int, of count: Int) -> [BatchJob] {
        precondition(count > 0 && index >= 0 && index < count, "shard \(index) of \(count) does not exist")
        return jobs.filter { $0.index % count == index }
    }

    /// The errors sorted by job (the manifest's own first), keeping their order within a job.
    private static func inJobOrder(_ errors: [ManifestError]) -> [ManifestError] {
        errors.enumerated().sorted { ($0.element.job ?? -1, $0.offset) < ($1.element.job ?? -1, $1.offset) }.map(\.element)
    }

    /// A path relative to `folder`, unless it is absolute or empty (which names no file) or
    /// there is no folder.
    static func resolve(_ path: String, in folder: String?) -> String {
        guard let folder, !folder.isEmpty, !path.isEmpty, !path.hasPrefix("/") else { return path }
        return (folder as NSString).appendingPathComponent(path)
    }

    /// The job entries of a JSON array, or of JSON Lines (where a line that is not JSON is an
    /// entry with that problem, so the other lines are still checked).
    private static func entries(of data: Data) throws(InvalidManifest) -> [JobEntry] {
        let decoder = JSONDecoder()
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        guard let first = data.first(where: { !whitespace.contains($0) }) else { return [] }
        // UTF-8 JSON never holds a NUL byte; the decoder would take such text for UTF-16 or
        // UTF-32, which the rest of this reading (lines, repeated keys) does not.
        guard !data.contains(0) else {
            throw InvalidManifest(errors: [ManifestError(job: nil, field: nil, reason: "not UTF-8 text (it holds a NUL byte)")])
        }
        if first == UInt8(ascii: "[") {
            var entries: [JobEntry]
            do {
                entries = try decoder.decode([JobEntry].self, from: data)
            } catch {
                throw InvalidManifest(errors: [ManifestError(job: nil, field: nil, reason: "not a JSON array of jobs (\(syntaxError(in: data) ?? "\(error)"))")])
            }
            // The decoder accepted the text, so the scanner reads it too (the fuzz target checks this).
            guard let repeated = JSONKeyScanner.repeatedKeysOfElements(Array(data)), repeated.count == entries.count else {
                throw InvalidManifest(errors: [ManifestError(job: nil, field: nil, reason: "not a JSON array of jobs (its keys cannot be checked)")])
            }
            for index in entries.indices { entries[index].repeated(repeated[index]) }
            return entries
        }
        return data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.contains { !whitespace.contains($0) } }
            .map { number, line in
                let line = Data(line)
                do {
                    var entry = try decoder.decode(JobEntry.self, from: line)
                    if let repeated = JSONKeyScanner.repeatedKeysOfObject(Array(line)) {
                        entry.repeated(repeated)
                    } else if entry.problems.isEmpty {
                        return JobEntry(problem: "line \(number + 1) is not a JSON object whose keys can be checked")
                    }
                    return entry
                } catch {
                    return JobEntry(problem: "line \(number + 1) is not JSON (\(syntaxError(in: line) ?? "\(error)"))")
                }
            }
    }

    /// What is wrong with a text that is not JSON: JSONSerialization says where, the decoder does not.
    private static func syntaxError(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        }
    }
}
