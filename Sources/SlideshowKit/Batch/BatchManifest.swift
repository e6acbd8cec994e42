import Foundation

/// One job of a batch: its place in the manifest and the slideshow it renders.
public struct BatchJob: Sendable {
    /// The job's place in the manifest, counting from 0. Reports and ``BatchManifest/shard(_:of:)`` use it.
    public var index: Int
    /// The slideshow to render, its paths resolved against the manifest's folder.
    public var slideshow: Slideshow

    /// Creates a job.
    public init(index: Int, slideshow: Slideshow) {
        self.index = index
        self.slideshow = slideshow
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
/// `photos` (a non-empty array of paths) and `output` are required; `duration` or
/// `slideDuration` (seconds), `size` (`"WxH"`), `fps`, `filter`, `fit` (`letterbox` or `fill`),
/// `background` (`#RRGGBB`), `crf`, `preset` and `hold` (`skip` or `encode`) are optional, with
/// the same defaults and rules as ``SlideshowOptions``; so are the music's `audio` (a path),
/// `audioBitrate` (`"192k"` or a number), `audioStart`, `audioFadeIn`, `audioFadeOut` (seconds),
/// `audioLoop` (true or false) and `loudness` (LUFS), and `duration` may be `"audio"`.
/// Relative paths are relative to the manifest's folder.
///
/// Photos are not read here: a missing or broken photo fails its job when it renders, not the manifest.
public struct BatchManifest: Sendable {
    /// The jobs, in the manifest's order (a parsed manifest's job `i` is `jobs[i]`).
    public var jobs: [BatchJob]

    /// The keys a job may have.
    public static let fields: [String] = ["photos", "output"] + SlideshowOptions.Field.allCases.map(\.rawValue).filter { $0 != "photos" && $0 != "output" }

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
    /// and that no two jobs write the same output file, however its path is spelled (the
    /// output's folder is compared by device and inode when it exists, so a symbolic link to a
    /// folder is seen through).
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
        var outputs: [String: Int] = [:]
        for (index, entry) in try Self.entries(of: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data).enumerated() {
            errors += entry.problems.map { ManifestError(job: index, field: $0.field, reason: $0.reason) }
            if let output = entry.output, !output.isEmpty, !Message.hasNUL(output) {
                let keys = Self.identities(ofOutput: Self.resolve(output, in: folder))
                if let first = keys.lazy.compactMap({ outputs[$0] }).first {
                    errors.append(ManifestError(job: index, field: "output", reason: "job \(first) writes \(output) too"))
                } else {
                    for key in keys { outputs[key] = index }
                }
            }
            guard var options = entry.options else { continue }
            options.audio = options.audio.map { Self.resolve($0, in: folder) }
            do {
                if let photos = entry.photos, let output = entry.output, entry.problems.isEmpty {
                    let photos = photos.map { Photo(path: Self.resolve($0, in: folder)) }
                    jobs.append(BatchJob(index: index, slideshow: try options.slideshow(photos: photos, output: Self.resolve(output, in: folder))))
                } else {
                    try options.validate(photoCount: entry.photos?.count)
                }
            } catch {
                errors.append(ManifestError(job: index, field: error.field.rawValue, reason: error.reason))
            }
        }
        guard errors.isEmpty else { throw InvalidManifest(errors: errors) }
        self.jobs = jobs
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

    /// The keys under which an output is the same file as another's: its absolute path with
    /// `.` and `..` removed, and, when its folder exists, the folder's device and inode with
    /// the file's name (so a folder reached through a symbolic link is the same folder).
    static func identities(ofOutput path: String) -> [String] {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let name = (path as NSString).lastPathComponent
        var parent = (path as NSString).deletingLastPathComponent
        if parent.isEmpty { parent = "." }
        var info = stat()
        guard !name.isEmpty, name != ".", name != "..", PathBytes.withCString(parent, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            return [absolute]
        }
        return [absolute, "\u{0}\(info.st_dev):\(info.st_ino)/\(name)"]
    }

    /// A path relative to `folder`, unless it is absolute or there is no folder.
    static func resolve(_ path: String, in folder: String?) -> String {
        guard let folder, !folder.isEmpty, !path.hasPrefix("/") else { return path }
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

/// One problem of a manifest: the job and the field at fault, and why.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The job's index (from 0); nil when the manifest as a whole is at fault (not JSON, unreadable).
    public var job: Int?
    /// The field at fault, as the manifest spells it (e.g. `durration`); nil when the job as a whole is.
    public var field: String?
    /// Why, e.g. `unknown field (did you mean duration?)`.
    public var reason: String

    /// Creates an error.
    public init(job: Int?, field: String?, reason: String) {
        self.job = job
        self.field = field
        self.reason = reason
    }

    /// `job 3: durration: unknown field (did you mean duration?)`, `job 0: output: missing`, …,
    /// always one line (``Message/oneLine(_:)``).
    public var description: String {
        Message.oneLine([job.map { "job \($0)" }, field, reason].compactMap { $0 }.joined(separator: ": "))
    }
}

/// A manifest that cannot be run, with every problem found in it. Nothing was rendered.
public struct InvalidManifest: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, in the jobs' order.
    public var errors: [ManifestError]

    /// Creates the error.
    public init(errors: [ManifestError]) {
        self.errors = errors
    }

    /// One line per problem.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// One photo of a job: a path, or an object `{"path": …, "duration": …, "transition": …, "motion": …}`
/// overriding the show's settings for that photo (`transition` is the one to the next photo).
private struct PhotoEntry: Decodable {
    var path = ""
    var duration: Double?
    var transition: TransitionEffect?
    var motion: MotionStyle?
    var isObject = false
    var problems: [String] = []

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let path = try? decoder.singleValueContainer().decode(String.self) {
            self.path = path
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        isObject = true
        for key in container.allKeys.map(\.stringValue).sorted() where !["path", "duration", "transition", "motion"].contains(key) {
            problems.append("\(key): unknown field")
        }
        guard let path = try? container.decode(String.self, forKey: Key(stringValue: "path")) else {
            problems.append("path: missing, or not a string")
            return
        }
        self.path = path
        if container.contains(Key(stringValue: "duration")) {
            if let seconds = try? container.decode(Double.self, forKey: Key(stringValue: "duration")) { duration = seconds } else {
                problems.append("duration: not a number of seconds")
            }
        }
        if let name = try? container.decode(String.self, forKey: Key(stringValue: "transition")) {
            transition = TransitionEffect(rawValue: name)
            if transition == nil { problems.append("transition: '\(name)' is not a transition") }
        }
        if let name = try? container.decode(String.self, forKey: Key(stringValue: "motion")) {
            motion = MotionStyle(rawValue: name)
            if motion == nil { problems.append("motion: '\(name)' is not a motion") }
        }
    }
}

/// One job as the manifest gives it, decoded leniently: every problem is recorded instead of
/// thrown, so that all of a manifest's problems can be reported at once.
private struct JobEntry: Decodable {
    var photos: [String]?
    var output: String?
    /// The settings; nil when one could not be read, so that they are not all the job's own.
    var options: SlideshowOptions? { unreadValue ? nil : settings }
    /// The problems, in the order the fields are listed in ``BatchManifest/fields``.
    var problems: [(field: String?, reason: String)] = []
    private var settings = SlideshowOptions()
    private var unreadValue = false

    /// An entry that is not a job at all.
    init(problem: String) {
        problems = [(nil, problem)]
        unreadValue = true
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) {
        let container: KeyedDecodingContainer<Key>
        do {
            container = try decoder.container(keyedBy: Key.self)
        } catch {
            problems.append((nil, "not a JSON object"))
            unreadValue = true
            return
        }
        let known = Set(BatchManifest.fields)
        for key in container.allKeys.map(\.stringValue).sorted() where !known.contains(key) {
            let guess = BatchManifest.fields.first { editDistance($0.lowercased(), key.lowercased()) <= 2 }
            problems.append((key, "unknown field" + (guess.map { " (did you mean \($0)?)" } ?? "")))
        }

        let entries = required("photos", in: container, as: [PhotoEntry].self, "an array of paths or photo objects")
        photos = entries?.map(\.path)
        if let entries {
            for (index, entry) in entries.enumerated() {
                for problem in entry.problems { invalid("photos", "photo \(index): \(problem)") }
            }
            if entries.contains(where: { $0.isObject }) {
                settings.photoSettings = entries.map { PhotoSettings(transition: $0.transition, motion: $0.motion) }
                settings.photoDurations = entries.map(\.duration)
            }
        }
        if let photos, let empty = photos.firstIndex(of: "") { invalid("photos", "photo \(empty) is an empty path") }
        output = required("output", in: container, as: String.self, "a path")
        if output == "" { invalid("output", "is an empty path") }

        if (try? container.decodeIfPresent(String.self, forKey: Key(stringValue: "duration"))) == "audio" {
            settings.durationFollowsAudio = true
        } else {
            settings.duration = read("duration", in: container, as: Double.self, "a number of seconds")
        }
        settings.slideDuration = read("slideDuration", in: container, as: Double.self, "a number of seconds")
        if let size = read("size", in: container, as: String.self, "a string \"WxH\"") { settings.size = size }
        if let fps = read("fps", in: container, as: Int.self, "a whole number") { settings.fps = fps }
        if let filter = read("filter", in: container, as: String.self, "a look's name") { settings.filter = filter }
        if let fit = read("fit", in: container, as: String.self, "letterbox, fill or blur") {
            if let mode = FitMode(rawValue: fit) { settings.fit = mode } else { invalid("fit", "'\(fit)' is not letterbox, fill or blur") }
        }
        if let background = read("background", in: container, as: String.self, "a string \"#RRGGBB\"") { settings.background = background }
        if let crf = read("crf", in: container, as: Int.self, "a whole number") { settings.crf = crf }
        if let preset = read("preset", in: container, as: String.self, "a preset's name") { settings.preset = preset }
        if let hold = read("hold", in: container, as: String.self, "skip or encode") {
            if let strategy = HoldStrategy(rawValue: hold) { settings.hold = strategy } else { invalid("hold", "'\(hold)' is not skip or encode") }
        }
        if let transition = read("transition", in: container, as: String.self, "a transition's name") {
            if let effect = TransitionEffect(rawValue: transition) { settings.transition = effect } else {
                invalid("transition", "'\(transition)' is not one of \(TransitionEffect.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        if let seconds = read("transitionDuration", in: container, as: Double.self, "a number of seconds") { settings.transitionDuration = seconds }
        if let seconds = read("fadeIn", in: container, as: Double.self, "a number of seconds") { settings.fadeIn = seconds }
        if let seconds = read("fadeOut", in: container, as: Double.self, "a number of seconds") { settings.fadeOut = seconds }
        if let motion = read("motion", in: container, as: String.self, "a motion's name") {
            if let style = MotionStyle(rawValue: motion) { settings.motion = style } else {
                invalid("motion", "'\(motion)' is not one of \(MotionStyle.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        if let zoom = read("zoom", in: container, as: Double.self, "a number from 0 to 1") { settings.zoom = zoom }
        if let stamp = read("dateStamp", in: container, as: Bool.self, "true or false") { settings.dateStamp = stamp }
        if let format = read("dateFormat", in: container, as: String.self, "a date format's name") { settings.dateFormat = format }
        if let title = read("title", in: container, as: String.self, "a string") { settings.title = title }
        if let framing = read("framing", in: container, as: String.self, "center or faces") {
            if let value = Framing(rawValue: framing) { settings.framing = value } else { invalid("framing", "'\(framing)' is not center or faces") }
        }
        settings.audio = read("audio", in: container, as: String.self, "a path")
        if settings.audio == "" { invalid("audio", "is an empty path") }
        if let rate = try? container.decodeIfPresent(Int.self, forKey: Key(stringValue: "audioBitrate")) {
            settings.audioBitrate = String(rate)
        } else if let rate = read("audioBitrate", in: container, as: String.self, "a bit rate such as \"192k\"") {
            settings.audioBitrate = rate
        }
        if let start = read("audioStart", in: container, as: Double.self, "a number of seconds") { settings.audioStart = start }
        if let fade = read("audioFadeIn", in: container, as: Double.self, "a number of seconds") { settings.audioFadeIn = fade }
        if let fade = read("audioFadeOut", in: container, as: Double.self, "a number of seconds") { settings.audioFadeOut = fade }
        if let loop = read("audioLoop", in: container, as: Bool.self, "true or false") { settings.audioLoop = loop }
        settings.loudness = read("loudness", in: container, as: Double.self, "a number of LUFS, e.g. -16")
    }

    /// The value at a key, nil when absent or null; a value of the wrong type is a problem.
    private mutating func read<T: Decodable>(_ key: String, in container: KeyedDecodingContainer<Key>, as type: T.Type, _ expected: String) -> T? {
        do {
            return try container.decodeIfPresent(T.self, forKey: Key(stringValue: key))
        } catch {
            invalid(key, "must be \(expected)")
            return nil
        }
    }

    /// The value at a key that must be there; absent or null is a problem.
    private mutating func required<T: Decodable>(_ key: String, in container: KeyedDecodingContainer<Key>, as type: T.Type, _ expected: String) -> T? {
        guard container.contains(Key(stringValue: key)), (try? container.decodeNil(forKey: Key(stringValue: key))) == false else {
            problems.append((key, "missing (required)"))
            return nil
        }
        return read(key, in: container, as: type, expected)
    }

    /// Records the keys the job gives more than once: the decoder kept one of their values.
    mutating func repeated(_ keys: [String]) {
        for key in keys { invalid(key, "given more than once") }
    }

    private mutating func invalid(_ field: String, _ reason: String) {
        problems.append((field, reason))
        unreadValue = true
    }
}

/// The Levenshtein distance of two short strings, to suggest the field a typo meant.
private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var row = Array(0...b.count)
    for i in 1...a.count {
        var previous = row[0]
        row[0] = i
        for j in 1...b.count {
            let current = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
            previous = current
        }
    }
    return row[b.count]
}
