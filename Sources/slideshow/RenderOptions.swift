import ArgumentParser
import Foundation
import SlideshowKit
import SlideshowSupport
import SlideshowFormats

/// The options that describe how a slideshow looks and is encoded: one line each, naming the
/// setting whose entry in the library's table (``SlideshowOptions/Field/setting``) gives the
/// option its name, help, default and way of parsing negative numbers. The table also takes
/// each value into ``SlideshowOptions`` (``options``), whose rules are a batch manifest's too.
///
/// A property is named as its option (`--no-audio-loop`: `noAudioLoop`), which is how
/// ``options`` finds its setting.
struct RenderOptions: ParsableArguments {
    @Option(.duration) var duration: DurationSetting?
    @Option(.slideDuration) var slideDuration: Double?
    // Optional: a platform's value (--for) stands in for the default of one not given.
    @Option(.size) var size: String?
    @Option(.fps) var fps: Int?
    @Option(.filter) var filter: String
    @Option(.fit) var fit: FitMode?
    @Option(.background) var background: String
    @Option(.crf) var crf: Int
    @Option(.preset) var preset: String
    @Option(.hold) var hold: HoldStrategy
    @Option(.platform) var `for`: Platform?
    @Flag(.draft) var draft: Bool
    // Optional: the output's extension chooses the codec of one not given (.webm: VP9).
    @Option(.codec) var codec: VideoCodec?
    @Option(.hdr) var hdr: HDRSetting
    @Option(.transition) var transition: TransitionEffect
    @Option(.transitionDuration) var transitionDuration: Double
    @Option(.fadeIn) var fadeIn: Double
    @Option(.fadeOut) var fadeOut: Double
    @Option(.motion) var motion: MotionStyle
    @Option(.zoom) var zoom: Double
    @Flag(.dateStamp) var dateStamp: Bool
    @Option(.dateFormat) var dateFormat: String
    @Option(.title) var title: String?
    @Option(.framing) var framing: Framing
    @Option(.audio) var audio: String?
    @Option(.audioBitrate) var audioBitrate: String
    @Option(.audioStart) var audioStart: Double
    @Option(.audioFadeIn) var audioFadeIn: Double
    @Option(.audioFadeOut) var audioFadeOut: Double
    @Flag(.audioLoop) var noAudioLoop: Bool
    @Option(.cuts) var cuts: CutStyle
    @Option(.order) var order: PhotoOrder
    @Option(.pick) var pick: PickCount?
    @Option(.motionPhotos) var motionPhotos: MotionPhotoPlayback
    @Option(.loudness) var loudness: Double?
    @Option(.captions) var caption: [String]
    @Option(.captionsFile) var captions: String?
    @Option(.captionsFrom) var captionsFrom: CaptionSource
    @Option(.captionPosition) var captionPosition: Caption.Position
    @Option(.font) var font: String?
    @Option(.webvtt) var webvtt: String?
    @Option(.captionLanguage) var captionLanguage: String
    @Flag(.burnCaptions) var noBurnCaptions: Bool
    @Option(.titleCard) var titleCard: String?
    @Option(.titleCardSubtitle) var titleCardSubtitle: String?
    @Option(.titleCardDuration) var titleCardDuration: Double
    @Option(.closingCard) var closingCard: String?
    @Option(.titleCardBackground) var titleCardBackground: String
    // The clips' own sound (ClipSoundSettings).
    @Flag(.muteClips) var muteClips: Bool
    @Option(.clipVolume) var clipVolume: Double
    @Option(.duck) var duck: Double

    /// For ArgumentParser's `Missing value for '--duration <…>'` when the value given was a
    /// negative number (`--duration -1`, read as an option of its own): how to pass one,
    /// ` (write --duration=-1 for a negative value)`; empty otherwise.
    static func negativeValueHint(for message: String, arguments: [String]) -> String {
        guard let start = message.range(of: "Missing value for '")?.upperBound else { return "" }
        let name = String(message[start...].prefix { $0 != " " && $0 != "'" })
        guard name.hasPrefix("--"), let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return "" }
        let value = arguments[index + 1]
        guard value.hasPrefix("-"), Double(value) != nil else { return "" }
        return " (write \(name)=\(value) for a negative value)"
    }

    func validate() throws {
        // ArgumentParser validates this group before `make` itself: a repeat is refused first.
        try MakeCommand.refuseRepeatedOptions()
    }

    /// The library's error in the command line's words: `--size: '97x64' must …`.
    static func message(for error: OptionError) -> String {
        if let other = error.conflicting {
            return "give \(flag(for: other)) or \(flag(for: error.field)), not both"
        }
        return Message.oneLine("\(flag(for: error.field)): \(error.reason)")
    }

    /// The option that gives a setting (``Setting/flag``): `--slide-duration` for `slideDuration`;
    /// the photos are the arguments.
    static func flag(for field: SlideshowOptions.Field) -> String {
        field.setting.flag ?? field.rawValue
    }

    /// The settings by the name of the property that holds their option: `noAudioLoop` for `--no-audio-loop`.
    private static let settingByProperty = Dictionary(uniqueKeysWithValues: Setting.all.compactMap { setting in
        setting.longName.map { name in
            (name.split(separator: "-").enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined(), setting)
        }
    })

    /// The library's options: each option's value, taken by its setting's entry in the table.
    var options: SlideshowOptions {
        var options = SlideshowOptions()
        for child in Mirror(reflecting: self).children {
            guard let label = child.label, let parsed = child.value as? any ParsedOption else { continue }
            let name = String(label.drop { $0 == "_" })
            guard let setting = Self.settingByProperty[name] else {
                preconditionFailure("RenderOptions.\(name) is not the option of a setting")
            }
            // An option without a value until given: not given, the library's default stands.
            let value = parsed.parsedValue
            let mirror = Mirror(reflecting: value)
            let isOptional = mirror.displayStyle == .optional
            if isOptional, mirror.children.isEmpty, !setting.take(value, into: &options) { continue }
            guard setting.take(value, into: &options) else {
                preconditionFailure("RenderOptions.\(name) is not the option of a setting of its type")
            }
            if isOptional, !mirror.children.isEmpty, SlideshowOptions.settingsKeptWhenGiven.contains(setting.field) { options.given.insert(setting.field) }
        }
        return options
    }

    /// The slideshow these options describe.
    /// - Parameter warnings: gets one line for each text that was not UTF-8 (its bad bytes
    ///   shown as U+FFFD), for the caller to print.
    /// - Throws: `ValidationError` naming the option at fault.
    func slideshow(photos: [String], output: String, overwrite: Bool, warnings: inout [String]) throws -> Slideshow {
        var options = self.options
        // Text, not paths: a byte that is not UTF-8 (carried from argv as a PathBytes escape) is U+FFFD.
        func text(_ value: String?, _ name: String) -> String? {
            guard let value else { return nil }
            let (clean, replaced) = CaptionFile.replacingPathEscapes(value)
            if replaced { warnings.append("\(name): not UTF-8 text; the bytes that are not are shown as \u{FFFD}") }
            return clean
        }
        options.captions = caption.enumerated().map { text($1, "\(Self.flag(for: .captions)) \($0 + 1)") }
        options.title = text(title, Self.flag(for: .title))
        options.titleCard = text(titleCard, Self.flag(for: .titleCard))
        options.titleCardSubtitle = text(titleCardSubtitle, Self.flag(for: .titleCardSubtitle))
        options.closingCard = text(closingCard, Self.flag(for: .closingCard))
        // `clip.mov#t=2.5,8`: the part of a clip that plays, unless a file has that whole name.
        let items = photos.map { ClipPart.splitting($0, fileExists: { FileManager.default.fileExists(atPath: $0) }) }
        for (argument, item) in zip(photos, items) where item.part == nil && argument.contains("#t=") && !FileManager.default.fileExists(atPath: argument) {
            throw ValidationError(Message.oneLine("photos: \(argument): no such file, and '\(argument[argument.range(of: "#t=", options: .backwards)!.lowerBound...])' is not a part of a clip (#t=start,end, #t=start or #t=,end, in seconds)"))
        }
        if items.contains(where: { $0.part != nil }) {
            options.photoSettings = items.map { PhotoSettings(clipPart: $0.part) }
        }
        do {
            return try options.slideshow(photos: items.map { Photo(path: $0.path) }, output: output, overwrite: overwrite)
        } catch {
            throw ValidationError(Self.message(for: error))
        }
    }
}

extension RenderOptions {
    /// The items the show plays: folders listed and, with `--pick`, the picks (``PhotoSelection``).
    /// - Throws: `ValidationError` naming the option at fault (nothing readable, `--pick auto`
    ///   without a length, per-photo captions with a pick).
    func selection(photos: [String], output: String?) throws -> PhotoSelection {
        do {
            return try options.select(photos, output: output)
        } catch {
            throw ValidationError(Self.message(for: error))
        }
    }
}

/// An option's or a flag's value once parsed, whatever its type: what ``RenderOptions/options`` reads.
private protocol ParsedOption {
    var parsedValue: Any { get }
}

extension Option: ParsedOption {
    fileprivate var parsedValue: Any { wrappedValue }
}

extension Flag: ParsedOption {
    fileprivate var parsedValue: Any { wrappedValue }
}

extension ArgumentHelp {
    /// The help of a setting's option: its summary and value's name from the table, with the
    /// default when `showingDefault` (an option without a value of its own until given, whose
    /// default ArgumentParser cannot show).
    init(_ setting: Setting, showingDefault: Bool = false) {
        self.init(setting.help(showingDefault: showingDefault), valueName: setting.valueName)
    }
}

extension Option where Value: ExpressibleByArgument {
    /// A setting's option: its name, help and default from the setting's entry in the table.
    init(_ field: SlideshowOptions.Field) {
        let setting = field.setting
        guard let initial = setting.initialArgument(as: Value.self), let name = setting.longName else {
            preconditionFailure("\(field) has no option of type \(Value.self)")
        }
        self.init(wrappedValue: initial, name: .customLong(name), parsing: setting.takesNegativeValues ? .unconditional : .next,
                  help: ArgumentHelp(setting))
    }
}

extension Option {
    /// A setting's option without a value until given (the library's default stands).
    init<T: ExpressibleByArgument>(_ field: SlideshowOptions.Field) where Value == T? {
        let setting = field.setting
        guard let name = setting.longName else { preconditionFailure("\(field) has no option") }
        self.init(name: .customLong(name), parsing: setting.takesNegativeValues ? .unconditional : .next, help: ArgumentHelp(setting, showingDefault: true))
    }

    /// A setting's option given once per value (`--caption a --caption b`).
    init<T: ExpressibleByArgument>(_ field: SlideshowOptions.Field) where Value == [T] {
        let setting = field.setting
        guard let name = setting.longName else { preconditionFailure("\(field) has no option") }
        self.init(wrappedValue: [], name: .customLong(name), help: ArgumentHelp(setting))
    }
}

extension Flag where Value == Bool {
    /// A setting's flag: given, it turns the setting on, or off for a `--no-…` flag.
    init(_ field: SlideshowOptions.Field) {
        let setting = field.setting
        guard let name = setting.longName else { preconditionFailure("\(field) has no flag") }
        self.init(wrappedValue: false, name: .customLong(name), help: ArgumentHelp(setting))
    }
}

extension HoldStrategy: ExpressibleByArgument {}
extension Platform: ExpressibleByArgument {}
extension VideoCodec: ExpressibleByArgument {}
extension HDRSetting: ExpressibleByArgument {}
extension FitMode: ExpressibleByArgument {}
extension TransitionEffect: ExpressibleByArgument {}
extension MotionStyle: ExpressibleByArgument {}
extension Framing: ExpressibleByArgument {}
extension CutStyle: ExpressibleByArgument {}
extension PhotoOrder: ExpressibleByArgument {}
extension PickCount: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}
extension MotionPhotoPlayback: ExpressibleByArgument {}
extension CaptionSource: ExpressibleByArgument {}
extension Caption.Position: ExpressibleByArgument {}

extension DurationSetting: ExpressibleByArgument {
    /// `--duration 6` or `--duration audio` (``DurationSetting/init(parsing:)``).
    public init?(argument: String) { self.init(parsing: argument) }
}
