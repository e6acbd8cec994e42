import Foundation
import SlideshowSupport

/// One setting of a slideshow, declared once, in the table ``SlideshowOptions/Field/setting``:
/// the option `slideshow make` takes for it, the key a batch manifest gives it, what its value
/// is, its default, the values allowed and what it does.
///
/// Everything a person sees of a setting is made from its entry: the command line's options
/// and their help, a manifest's reader and its list of keys, the range checks of
/// ``Slideshow/checkSettings()``, and `docs/settings.md` (`document()`). Its default is the
/// one ``SlideshowOptions`` starts with (``SlideshowOptions/defaults``).
///
/// Adding a setting: a ``SlideshowOptions/Field`` case and its entry in the table (the
/// compiler asks for it), the ``SlideshowOptions`` property it sets, the command line's one
/// `@Option(.field)` line, and what the show does with it.
public struct Setting: Sendable {
    /// The setting.
    public let field: SlideshowOptions.Field
    /// The command line's option: `--slide-duration`, or `--no-audio-loop` for a setting that is
    /// on by default; nil for the photos, which are the command's arguments.
    public let flag: String?
    /// The key a manifest's job gives it; nil when a manifest has none.
    public let key: String?
    /// The value's name in the command line's help (`seconds`); nil for a flag, which takes none.
    public let valueName: String?
    /// What the value is, as a manifest gives it.
    public let kind: Kind
    /// The value in words, as a manifest's reader asks for it: `a number of seconds`.
    public let type: String
    /// The values allowed; nil when ``type`` says it all (or the layer that owns the rule does).
    public let range: SettingRange?
    /// What it does, in a sentence or a few; ranges and defaults come from the table.
    public let summary: String
    /// The default in words (`1920x1080`, `0.5`, `letterbox`); nil for none.
    public let defaultValue: String?
    /// A value other than the default, as the command line takes it: the docs show it, the
    /// tests give it to both readers.
    public let example: String?
    /// What a setting other than its default needs: the music (`audio`), or nil.
    public let needs: SlideshowOptions.Field?
    /// How the value reaches ``SlideshowOptions`` (nil for the photos and the output, which are
    /// not options).
    let binding: Binding?

    /// What a setting's value is.
    public enum Kind: Sendable, Hashable {
        /// A number (`0.5`).
        case number
        /// A whole number (`30`).
        case integer
        /// Text (`1920x1080`).
        case text
        /// A file's path, relative to the manifest's folder in a manifest.
        case path
        /// One of a few names.
        case choice([String])
        /// On or off: a flag on the command line (`--no-…` when `inverted`, the setting being on
        /// by default), `true` or `false` in a manifest.
        case flag(inverted: Bool)
        /// Several texts: the option repeated, an array in a manifest.
        case list
    }

    /// The command line's option without its dashes: `slide-duration`.
    public var longName: String? { flag.map { String($0.dropFirst(2)) } }

    /// Whether a value may start with `-` (a negative number): the command line then takes the
    /// word after the option as its value whatever it looks like.
    public var takesNegativeValues: Bool { (range?.lowerBound ?? 0) < 0 }

    /// Puts the command line's value for this setting into `options`: the value its option
    /// parsed, of the type ``initialArgument(as:)`` gives (`Bool` for a flag: whether it was given).
    /// - Returns: false when the value is not of that type, or the setting is not an option's.
    package func take(_ value: Any, into options: inout SlideshowOptions) -> Bool {
        binding?.take(value, &options) ?? false
    }

    /// The command line option's value before anything is given (the default), as a `T`; nil when
    /// the option's values are not `T`s.
    package func initialArgument<T>(as type: T.Type) -> T? {
        binding?.initial() as? T
    }

    /// The value `options` holds, in words (as ``defaultValue`` says the default); nil for none.
    package func value(in options: SlideshowOptions) -> String? {
        binding?.describe(options)
    }

    /// The command line's help: ``summary``, and the default when `showingDefault` (an option
    /// without a value of its own until given, whose default the parser cannot show).
    public func help(showingDefault: Bool) -> String {
        guard showingDefault, let defaultValue else { return summary }
        return "\(summary) (default: \(defaultValue))"
    }

    /// `letterbox (bars, the whole photo), fill (crop to fill the frame) or blur (…).`: every
    /// name of a choice with what it does, in the choice's order.
    /// - Parameter meaning: what each value does; an exhaustive `switch`, so that a new value
    ///   cannot be left out.
    static func choices<T: SettingChoice>(_ type: T.Type, _ meaning: (T) -> String) -> String {
        let items = T.allCases.map { "\($0.rawValue) (\(meaning($0)))" }
        return (items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]) + "."
    }
}

/// The values a number may take: `0 to 1`, `0 or more seconds`, `-40 to 20 dB`.
public struct SettingRange: Sendable, Hashable, CustomStringConvertible {
    /// The least value.
    public let lowerBound: Double
    /// The greatest value; nil for none.
    public let upperBound: Double?
    /// The unit, for the words: `seconds`, `dB`, `LUFS`; empty for none.
    public let unit: String
    /// The range in words.
    public let description: String
    /// Whether the values are whole numbers.
    public let integral: Bool

    /// `lower` to `upper`.
    public init(_ range: ClosedRange<Double>, unit: String = "") {
        self.init(lower: range.lowerBound, upper: range.upperBound, unit: unit, integral: false, format: Self.number)
    }

    /// `lower` to `upper`, whole numbers (written by `format`, e.g. `32k`).
    public init(_ range: ClosedRange<Int>, unit: String = "", format: @escaping (Double) -> String = SettingRange.number) {
        self.init(lower: Double(range.lowerBound), upper: Double(range.upperBound), unit: unit, integral: true, format: format)
    }

    /// `lower` or more.
    public init(atLeast lower: Double, unit: String = "") {
        self.init(lower: lower, upper: nil, unit: unit, integral: false, format: Self.number)
    }

    private init(lower: Double, upper: Double?, unit: String, integral: Bool, format: (Double) -> String) {
        self.integral = integral
        lowerBound = lower
        upperBound = upper
        self.unit = unit
        let words = upper.map { "\(format(lower)) to \(format($0))" } ?? "\(format(lower)) or more"
        description = unit.isEmpty ? words : "\(words) \(unit)"
    }

    /// Whether the range holds `value` (never NaN or an infinity).
    public func contains(_ value: Double) -> Bool {
        value.isFinite && value >= lowerBound && upperBound.map { value <= $0 } != false
    }

    /// Why `value` is not in the range (`2.0 is not between 0 and 1`, `-1.0 is not 0 or more
    /// seconds`), or nil when it is.
    public func problem(_ value: Double) -> String? {
        guard !contains(value) else { return nil }
        let given = unit == "seconds" ? Message.seconds(value) : integral ? Self.number(value) : "\(value)"
        guard let upperBound else { return "\(given) is not \(description)" }
        let words = "\(given) is not between \(Self.number(lowerBound)) and \(Self.number(upperBound))"
        return unit.isEmpty ? words : "\(words) \(unit)"
    }

    /// `0.5`, `1`, `-40`: a number as short as it goes.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}

/// A show's length as given (`--duration`, a manifest's `duration`): seconds in all, or
/// `audio`, as long as the music after its start.
public enum DurationSetting: Sendable, Hashable, Decodable {
    /// Seconds in all.
    case seconds(Double)
    /// As long as the music after its start (`SlideshowLength/soundtrack`).
    case audio

    /// The word for ``audio``.
    public static let audioWord = "audio"

    /// `6`, `2.5` or `audio`; nil for anything else.
    public init?(parsing text: String) {
        if text == Self.audioWord {
            self = .audio
        } else if let seconds = Double(text) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    /// A manifest's value: a number of seconds, or the string `audio` (a number in a string is not one).
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let seconds = try? value.decode(Double.self) {
            self = .seconds(seconds)
        } else if let text = try? value.decode(String.self), case .audio? = Self(parsing: text) {
            self = .audio
        } else {
            throw DecodingError.dataCorruptedError(in: value, debugDescription: "not a number of seconds or \"\(Self.audioWord)\"")
        }
    }
}

/// A manifest's value for one key, read as the type its setting takes.
protocol ManifestValue {
    /// The value as a `T`; nil when it is not one.
    func decode<T: Decodable>(_ type: T.Type) -> T?
}

extension Setting {
    /// How a setting's value reaches ``SlideshowOptions``, from either reader, and back out in words.
    struct Binding: Sendable {
        /// The value in `options`, in words; nil for none.
        let describe: @Sendable (SlideshowOptions) -> String?
        /// Reads a manifest's value into `options`; the problem (`must be a number of seconds`,
        /// `'x' is not one of …`) when it is not one.
        let read: @Sendable (any ManifestValue, inout SlideshowOptions) -> String?
        /// Puts the command line's value (of its option's type) into `options`; false when it
        /// is not of that type.
        let take: @Sendable (Any, inout SlideshowOptions) -> Bool
        /// The command line option's value before anything is given: the default.
        let initial: @Sendable () -> Any
        /// Resolves the path the setting holds (a manifest's relative paths); nil when it holds none.
        let resolve: (@Sendable (inout SlideshowOptions, (String) -> String) -> Void)?

        /// A setting kept at `path` as `Stored`, given on the command line as an `Argument`.
        static func stored<Stored: Sendable, Argument: Sendable>(
            _ path: WritableKeyPath<SlideshowOptions, Stored> & Sendable,
            argument: @escaping @Sendable (Stored) -> Argument, stored: @escaping @Sendable (Argument) -> Stored,
            describe: @escaping @Sendable (Stored) -> String?,
            read: @escaping @Sendable (any ManifestValue) -> Result<Stored, ReadProblem>,
            resolve: (@Sendable (inout SlideshowOptions, (String) -> String) -> Void)? = nil
        ) -> Binding {
            Binding(describe: { describe($0[keyPath: path]) },
                    read: { value, options in
                        switch read(value) {
                        case .success(let read): options[keyPath: path] = read; return nil
                        case .failure(let problem): return problem.reason
                        }
                    },
                    take: { value, options in
                        guard let value = value as? Argument else { return false }
                        options[keyPath: path] = stored(value)
                        return true
                    },
                    initial: { argument(SlideshowOptions.defaults[keyPath: path]) },
                    resolve: resolve)
        }

        /// A setting given on the command line as it is kept.
        static func stored<Stored: Sendable>(_ path: WritableKeyPath<SlideshowOptions, Stored> & Sendable,
                                             describe: @escaping @Sendable (Stored) -> String?,
                                             read: @escaping @Sendable (any ManifestValue) -> Result<Stored, ReadProblem>,
                                             resolve: (@Sendable (inout SlideshowOptions, (String) -> String) -> Void)? = nil) -> Binding {
            stored(path, argument: { $0 }, stored: { $0 }, describe: describe, read: read, resolve: resolve)
        }
    }

    /// Why a manifest's value is not one the setting takes.
    struct ReadProblem: Error {
        var reason: String
    }
}

extension ManifestValue {
    /// The value as a `T`, or the problem `must be <type>`.
    func value<T: Decodable>(_ type: T.Type, _ expected: String) -> Result<T, Setting.ReadProblem> {
        decode(T.self).map { .success($0) } ?? .failure(Setting.ReadProblem(reason: "must be \(expected)"))
    }

    /// One of a choice's names, or the problem: `must be one of …` for a value that is not a
    /// string, the choice's reason for one that is not a name.
    func choice<T: SettingChoice>(_ type: T.Type) -> Result<T, Setting.ReadProblem> {
        guard let name = decode(String.self) else { return .failure(Setting.ReadProblem(reason: "must be one of \(T.names)")) }
        return T.named(name).mapError { Setting.ReadProblem(reason: $0.reason) }
    }
}
