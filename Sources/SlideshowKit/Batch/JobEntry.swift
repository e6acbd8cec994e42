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
        // The part's rules (in ≥ 0, out after in) are the show's (``Slideshow/checkClipParts()``).
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
///
/// Only the value's types are checked here, each setting read as its entry in the table says
/// (``Setting``); the settings' rules are the library's, checked when the job's options make
/// its slideshow (``SlideshowOptions/slideshow(photos:output:overwrite:)``).
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
                                  clipPart: $0.inPoint == nil && $0.outPoint == nil ? nil : ClipPart(start: $0.inPoint ?? 0, end: $0.outPoint),
                                  caption: $0.caption)
                }
                settings.photoDurations = entries.map(\.duration)
            }
        }
        output = required("output", in: container, as: String.self, "a path")

        // Every other setting, as its entry in the table reads it.
        for setting in Setting.all {
            guard let key = setting.key, let binding = setting.binding else { continue }
            let coding = Key(stringValue: key)
            // Absent or null: the default.
            guard container.contains(coding), (try? container.decodeNil(forKey: coding)) == false else { continue }
            if let problem = binding.read(KeyValue(container: container, key: coding), &settings) { invalid(key, problem) } else if SlideshowOptions.settingsKeptWhenGiven.contains(setting.field) { settings.given.insert(setting.field) }
        }
    }

    /// One key's value, read as its setting's type.
    private struct KeyValue: ManifestValue {
        let container: KeyedDecodingContainer<Key>
        let key: Key

        func decode<T: Decodable>(_ type: T.Type) -> T? {
            try? container.decode(T.self, forKey: key)
        }
    }

    /// The value at a key that must be there; absent or null is a problem.
    private mutating func required<T: Decodable>(_ key: String, in container: KeyedDecodingContainer<Key>, as type: T.Type, _ expected: String) -> T? {
        guard container.contains(Key(stringValue: key)), (try? container.decodeNil(forKey: Key(stringValue: key))) == false else {
            problems.append((key, "missing (required)"))
            return nil
        }
        do {
            return try container.decode(T.self, forKey: Key(stringValue: key))
        } catch {
            invalid(key, "must be \(expected)")
            return nil
        }
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
