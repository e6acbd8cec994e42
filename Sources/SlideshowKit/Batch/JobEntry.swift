import Foundation
import SlideshowFraming
import SlideshowPicking
import SlideshowPlan
import SlideshowSupport
import SlideshowText
import SlideshowWriter

/// A key of a job or photo object, any string: unknown keys are reported, not dropped.
private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// One photo of a job: a path, or an object `{"path": …, "duration": …, "transition": …, "motion": …, "caption": …,
/// "in": …, "out": …}` overriding the show's settings for that photo (`transition` is the one to
/// the next photo; `in` and `out`, in seconds, the part of a clip that plays).
private struct PhotoEntry: Decodable {
    var path = ""
    var duration: Double?
    var transition: TransitionEffect?
    var motion: MotionStyle?
    var caption: String?
    /// A clip's in- and out-points in seconds (``ClipPart``).
    var inPoint: Double?
    var outPoint: Double?
    var isObject = false
    var problems: [String] = []

    init(from decoder: any Decoder) throws {
        if let path = try? decoder.singleValueContainer().decode(String.self) {
            self.path = path
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        isObject = true
        for key in container.allKeys.map(\.stringValue).sorted() where !BatchManifest.photoFields.contains(key) {
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
        transition = choice("transition", in: container)
        motion = choice("motion", in: container)
        for (key, isIn) in [("in", true), ("out", false)] where container.contains(Key(stringValue: key)) {
            if let seconds = try? container.decode(Double.self, forKey: Key(stringValue: key)) {
                if isIn { inPoint = seconds } else { outPoint = seconds }
            } else {
                problems.append("\(key): not a number of seconds")
            }
        }
        // The part of a clip: in ≥ 0, out > 0 and after in (the clip's own length is checked when it is read).
        if let inPoint, !(inPoint.isFinite && inPoint >= 0) {
            problems.append("in: \(Message.seconds(inPoint)) is not 0 or more seconds")
        }
        if let outPoint, !(outPoint.isFinite && outPoint > (inPoint ?? 0)) {
            problems.append("out: \(Message.seconds(outPoint)) is not after in (\(Message.seconds(inPoint ?? 0)) s)")
        }
        if container.contains(Key(stringValue: "caption")) {
            if let text = try? container.decode(String.self, forKey: Key(stringValue: "caption")) { caption = text } else {
                problems.append("caption: not a string")
            }
        }
    }

    /// The value at a key that names one of a ``SettingChoice``'s values; nil, with a problem,
    /// when it is another string or not a string.
    private mutating func choice<T: SettingChoice>(_ key: String, in container: KeyedDecodingContainer<Key>) -> T? {
        guard container.contains(Key(stringValue: key)) else { return nil }
        guard let name = try? container.decode(String.self, forKey: Key(stringValue: key)) else {
            problems.append("\(key): must be one of \(T.names)")
            return nil
        }
        switch T.named(name) {
        case .success(let value): return value
        case .failure(let error): problems.append("\(key): \(error.reason)"); return nil
        }
    }
}

/// One job as the manifest gives it, decoded leniently: every problem is recorded instead of
/// thrown, so that all of a manifest's problems can be reported at once.
struct JobEntry: Decodable {
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
                settings.photoSettings = entries.map {
                    PhotoSettings(transition: $0.transition, motion: $0.motion,
                                  clipPart: $0.inPoint == nil && $0.outPoint == nil ? nil : ClipPart(start: $0.inPoint ?? 0, end: $0.outPoint))
                }
                settings.photoDurations = entries.map(\.duration)
                if entries.contains(where: { $0.caption != nil }) { settings.captions = entries.map(\.caption) }
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
        if let fit = choice("fit", in: container, as: FitMode.self) { settings.fit = fit }
        if let background = read("background", in: container, as: String.self, "a string \"#RRGGBB\"") { settings.background = background }
        if let crf = read("crf", in: container, as: Int.self, "a whole number") { settings.crf = crf }
        if let preset = read("preset", in: container, as: String.self, "a preset's name") { settings.preset = preset }
        if let hold = choice("hold", in: container, as: HoldStrategy.self) { settings.hold = hold }
        if let transition = choice("transition", in: container, as: TransitionEffect.self) { settings.transition = transition }
        if let seconds = read("transitionDuration", in: container, as: Double.self, "a number of seconds") { settings.transitionDuration = seconds }
        if let seconds = read("fadeIn", in: container, as: Double.self, "a number of seconds") { settings.fadeIn = seconds }
        if let seconds = read("fadeOut", in: container, as: Double.self, "a number of seconds") { settings.fadeOut = seconds }
        if let motion = choice("motion", in: container, as: MotionStyle.self) { settings.motion = motion }
        if let zoom = read("zoom", in: container, as: Double.self, "a number from 0 to 1") { settings.zoom = zoom }
        if let stamp = read("dateStamp", in: container, as: Bool.self, "true or false") { settings.dateStamp = stamp }
        if let format = read("dateFormat", in: container, as: String.self, "a date format's name") { settings.dateFormat = format }
        if let title = read("title", in: container, as: String.self, "a string") { settings.title = title }
        if let framing = choice("framing", in: container, as: Framing.self) { settings.framing = framing }
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
        if let cuts = choice("cuts", in: container, as: CutStyle.self) { settings.cuts = cuts }
        if let order = choice("order", in: container, as: PhotoOrder.self) { settings.order = order }
        if let playback = choice("motionPhotos", in: container, as: MotionPhotoPlayback.self) { settings.motionPhotos = playback }
        if let captions = read("captions", in: container, as: [String].self, "an array of strings, one per photo") {
            if settings.captions.isEmpty { settings.captions = captions } else {
                invalid("captions", "give captions here or a caption in the photo objects, not both")
            }
        }
        if let source = choice("captionsFrom", in: container, as: CaptionSource.self) { settings.captionsFrom = source }
        if let position = choice("captionPosition", in: container, as: Caption.Position.self) { settings.captionPosition = position }
        settings.font = read("font", in: container, as: String.self, "a font family or a font file's path")
        settings.webvtt = read("webvtt", in: container, as: String.self, "a path")
        settings.titleCard = read("titleCard", in: container, as: String.self, "a string")
        settings.closingCard = read("closingCard", in: container, as: String.self, "a string")
        settings.titleCardSubtitle = read("titleCardSubtitle", in: container, as: String.self, "a string, or \"date-range\"")
        if let seconds = read("titleCardDuration", in: container, as: Double.self, "a number of seconds") { settings.titleCardDuration = seconds }
        if let background = read("titleCardBackground", in: container, as: String.self, "\"blur\" or a colour \"#RRGGBB\"") {
            settings.titleCardBackground = background
        }
        if let burn = read("burnCaptions", in: container, as: Bool.self, "true or false") { settings.burnCaptions = burn }
        if let language = read("captionLanguage", in: container, as: String.self, "an ISO 639-2 code such as \"eng\"") { settings.captionLanguage = language }
        // The clips' own sound.
        if let muted = read("muteClips", in: container, as: Bool.self, "true or false") { settings.clipSound.muted = muted }
        if let level = read("clipVolume", in: container, as: Double.self, "a number of dB, e.g. -6") { settings.clipSound.levelDecibels = level }
        if let duck = read("duck", in: container, as: Double.self, "a number of dB, e.g. -12 (0: none)") { settings.clipSound.duckDecibels = duck }
        // Picking (PhotoSelection): a number of photos, or "auto".
        if let count = try? container.decodeIfPresent(Int.self, forKey: Key(stringValue: "pick")) {
            if let pick = PickCount(parsing: String(count)) { settings.pick = pick } else { invalid("pick", "must be 1 or more, or \"auto\"") }
        } else if let text = read("pick", in: container, as: String.self, "a number of photos or \"auto\"") {
            if let pick = PickCount(parsing: text) { settings.pick = pick } else { invalid("pick", "'\(text)' is not a number of photos or \"auto\"") }
        }
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

    /// The value at a key that names one of a ``SettingChoice``'s values; another string, or
    /// not a string, is a problem.
    private mutating func choice<T: SettingChoice>(_ key: String, in container: KeyedDecodingContainer<Key>, as type: T.Type) -> T? {
        guard let name = read(key, in: container, as: String.self, "one of \(T.names)") else { return nil }
        switch T.named(name) {
        case .success(let value): return value
        case .failure(let error): invalid(key, error.reason); return nil
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
        for key in keys {
            // A photo object's key: `photos[2].in`.
            if key.hasPrefix("photos["), let close = key.firstIndex(of: "]"), key[close...].hasPrefix("].") {
                let index = key[key.index(key.startIndex, offsetBy: 7)..<close]
                invalid("photos", "photo \(index): \(key[key.index(close, offsetBy: 2)...]): given more than once")
            } else {
                invalid(key, "given more than once")
            }
        }
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
