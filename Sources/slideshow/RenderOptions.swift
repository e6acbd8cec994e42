import ArgumentParser
import Foundation
import SlideshowKit
import SlideshowSupport

/// The options that describe how a slideshow looks and is encoded. The library's
/// ``SlideshowOptions`` holds their defaults and checks them, by the same rules as a batch
/// manifest's jobs; this only names them and puts its own words on the library's errors.
struct RenderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Total length in seconds (default 3), or 'audio': as long as the music after --audio-start.", valueName: "seconds|audio"))
    var duration: DurationArgument?

    @Option(help: ArgumentHelp("Seconds per photo, instead of --duration.", valueName: "seconds"))
    var slideDuration: Double?

    @Option(help: ArgumentHelp("Frame size, even width and height.", valueName: "WxH"))
    var size: String = SlideshowOptions.defaults.size

    @Option(help: "Frames per second.")
    var fps: Int = SlideshowOptions.defaults.fps

    @Option(help: ArgumentHelp("Film look, or looks separated by commas, applied left to right, each with optional :key=value parameters: \(Looks.catalogue.map(\.name).joined(separator: ", ")) (see `slideshow filters`).", valueName: "look[,look…]"))
    var filter: String = SlideshowOptions.defaults.filter

    @Option(help: ArgumentHelp(HelpText.choices(FitMode.self) { mode in
        switch mode {
        case .letterbox: "bars, the whole photo"
        case .fill: "crop to fill the frame"
        case .blur: "the whole photo over a blurred copy of itself; --background then shows only under transparency"
        }
    }, valueName: "mode"))
    var fit: FitMode = SlideshowOptions.defaults.fit

    @Option(help: ArgumentHelp("Colour of the letterbox bars (with --fit blur, of transparent parts).", valueName: "#RRGGBB"))
    var background: String = SlideshowOptions.defaults.background

    @Option(help: "x264 constant rate factor, \(VideoSettings.crfRange.lowerBound) to \(VideoSettings.crfRange.upperBound) (lower is better quality; 0, lossless, is not possible in H.264 High).")
    var crf: Int = SlideshowOptions.defaults.crf

    @Option(help: ArgumentHelp("x264 preset, fastest to slowest: \(VideoSettings.presets.joined(separator: ", ")).", valueName: "preset"))
    var preset: String = SlideshowOptions.defaults.preset

    @Option(help: ArgumentHelp(HelpText.choices(HoldStrategy.self) { strategy in
        switch strategy {
        case .skip: "repeat held frames without encoding them: fast, exact"
        case .encode: "encode every frame"
        }
    }, valueName: "mode"))
    var hold: HoldStrategy = SlideshowOptions.defaults.hold

    @Option(help: ArgumentHelp("How each photo gives way to the next.", valueName: "effect"))
    var transition: TransitionEffect = SlideshowOptions.defaults.transition

    @Option(help: ArgumentHelp("Seconds each transition lasts, centred on its cut.", valueName: "seconds"))
    var transitionDuration: Double = SlideshowOptions.defaults.transitionDuration

    @Option(help: ArgumentHelp("Seconds of fade from black at the start.", valueName: "seconds"))
    var fadeIn: Double = SlideshowOptions.defaults.fadeIn

    @Option(help: ArgumentHelp("Seconds of fade to black at the end.", valueName: "seconds"))
    var fadeOut: Double = SlideshowOptions.defaults.fadeOut

    @Option(help: ArgumentHelp("How photos move.", valueName: "motion"))
    var motion: MotionStyle = SlideshowOptions.defaults.motion

    @Option(help: ArgumentHelp("How far the view changes under motion, 0 to 1 (0.1: by 10%).", valueName: "fraction"))
    var zoom: Double = SlideshowOptions.defaults.zoom
    @Flag(help: "Print each photo's capture date (EXIF DateTimeOriginal) in its lower right corner, as film cameras did.")
    var dateStamp = false

    @Option(help: ArgumentHelp("How --date-stamp writes the date: \(DateImprint.Format.allCases.map { "\($0.rawValue) (\($0.example))" }.joined(separator: ", ")).", valueName: "format"))
    var dateFormat: String = SlideshowOptions.defaults.dateFormat

    @Option(help: ArgumentHelp("The video's title tag.", valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp("With --fit fill, which part of the photo is kept: " + HelpText.choices(Framing.self) { framing in
        switch framing {
        case .faces: "the detected faces"
        case .center: "the centre"
        }
    } + " Faces need OpenCV's cascade from opencv-data (\(FaceFraming.cascadePath)); without it, faces acts as center.", valueName: "mode"))
    var framing: Framing = SlideshowOptions.defaults.framing

    @Option(help: ArgumentHelp("Music for the show (MP3, M4A, FLAC, WAV, Ogg, Opus, …), encoded as AAC-LC, exactly as long as the show.", valueName: "file"))
    var audio: String?

    @Option(help: ArgumentHelp("AAC bit rate.", valueName: "rate"))
    var audioBitrate: String = SlideshowOptions.defaults.audioBitrate

    @Option(help: ArgumentHelp("Start the music this many seconds in.", valueName: "seconds"))
    var audioStart: Double = SlideshowOptions.defaults.audioStart

    @Option(help: ArgumentHelp("Fade the music in over this many seconds.", valueName: "seconds"))
    var audioFadeIn: Double = SlideshowOptions.defaults.audioFadeIn

    @Option(help: ArgumentHelp("Fade the music out over this many seconds (at most half the show).", valueName: "seconds"))
    var audioFadeOut: Double = SlideshowOptions.defaults.audioFadeOut

    @Flag(help: "Play music shorter than the show once, then silence (default: loop with a 100 ms crossfade).")
    var noAudioLoop = false

    @Option(help: ArgumentHelp(HelpText.choices(CutStyle.self) { style in
        switch style {
        case .even: "the time shared out evenly"
        case .beats: "each cut on a beat of the music, every 1st, 2nd or 4th; each photo's time within 25% of its even share; clips keep their length; even cuts with a warning when the music has no steady beat or no choice of beats fits; needs --audio"
        }
    }, valueName: "style"))
    var cuts: CutStyle = SlideshowOptions.defaults.cuts

    @Option(help: ArgumentHelp(HelpText.choices(PhotoOrder.self) { order in
        switch order {
        case .given: "as given"
        case .name: "by file name, numbers as numbers: img2 before img10"
        case .date: "by capture date, EXIF with its offset from UTC when given; photos without one last, by name, with a warning"
        }
    }, valueName: "order"))
    var order: PhotoOrder = SlideshowOptions.defaults.order

    @Option(help: ArgumentHelp("Pick the best photos and clips from everything given (folders too), in capture order: one per moment (near-duplicates and bursts grouped, the sharpest, best exposed kept), blurred, too dark or over-exposed ones and screenshots only when nothing else is left, spread over the day's parts; a number, or auto: as many as the length fits at about \(String(format: "%g", PickRules.secondsPerPick)) s each (with --slide-duration, every good moment). --dry-run lists the choice with reasons.", valueName: "count|auto"))
    var pick: PickCount?

    @Option(help: ArgumentHelp(HelpText.choices(MotionPhotoPlayback.self) { playback in
        switch playback {
        case .still: "the photo alone"
        case .play: "Samsung and Google motion photos and Apple Live Photos play their video, without its sound, from the photo's cut for as long as it lasts or the photo's time, then the still is held"
        }
    }, valueName: "mode"))
    var motionPhotos: MotionPhotoPlayback = SlideshowOptions.defaults.motionPhotos

    @Option(parsing: .unconditional, help: ArgumentHelp("Bring the music to this integrated loudness (e.g. -16 for phones, -23 for broadcast), true peak at most -1 dBTP.", valueName: "LUFS"))
    var loudness: Double?

    @Option(name: .customLong("caption"), help: ArgumentHelp("A caption for the next photo, in order; give it once per photo (\"\" for none).", valueName: "text"))
    var caption: [String] = []

    @Option(help: ArgumentHelp("A UTF-8 text file of captions, one line per photo in order (an empty line for none); instead of --caption.", valueName: "file"))
    var captions: String?

    @Option(help: ArgumentHelp("Photos without a caption take one from: " + HelpText.choices(CaptionSource.self) { source in
        switch source {
        case .none: "nowhere"
        case .metadata: "the photo's XMP dc:description or dc:title, IPTC Caption-Abstract or EXIF ImageDescription"
        }
    }, valueName: "source"))
    var captionsFrom: CaptionSource = SlideshowOptions.defaults.captionsFrom

    @Option(help: ArgumentHelp("Where captions go, inside the title-safe area.", valueName: "position"))
    var captionPosition: Caption.Position = SlideshowOptions.defaults.captionPosition

    @Option(help: ArgumentHelp("The captions' font: an installed family (default \(TextStyle.defaultFamily)), or a font file (a path with a / or ending in .ttf, .otf, .ttc or .otc). Characters it lacks come from the Noto fonts.", valueName: "family|file"))
    var font: String?

    @Option(help: ArgumentHelp("Also write the captions, each timed to its photo, as a WebVTT file (e.g. out.vtt beside out.mp4), complete or not at all.", valueName: "file.vtt"))
    var webvtt: String?

    @Option(help: ArgumentHelp("The language of the MP4's subtitle track of the captions, ISO 639-2 (eng, deu, jpn…).", valueName: "code"))
    var captionLanguage: String = SlideshowOptions.defaults.captionLanguage

    @Flag(help: "Do not draw the captions on the pictures: only the MP4's subtitle track (and --webvtt) carry them.")
    var noBurnCaptions = false

    @Option(help: ArgumentHelp("An opening title card with this title, before the first photo.", valueName: "text"))
    var titleCard: String?

    @Option(help: ArgumentHelp("The title card's second line, or 'date-range' for the span of the photos' capture dates (e.g. 12–18 May 2024).", valueName: "text"))
    var titleCardSubtitle: String?

    @Option(help: ArgumentHelp("Seconds the title card is shown, taken from --duration (the video stays as long as asked) or added before the photos with --slide-duration.", valueName: "seconds"))
    var titleCardDuration: Double = SlideshowOptions.defaults.titleCardDuration

    @Option(help: ArgumentHelp("A closing card with this title, after the last photo (over it, blurred), as long as the title card.", valueName: "text"))
    var closingCard: String?

    @Option(help: ArgumentHelp("What the title card is drawn over: blur (the first photo, blurred and darkened) or a colour.", valueName: "blur|#RRGGBB"))
    var titleCardBackground: String = SlideshowOptions.defaults.titleCardBackground

    // The clips' own sound (ClipSoundSettings).
    @Flag(help: "Leave out the clips' own sound (the music then plays on under them, not lowered).")
    var muteClips = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Raise or lower the clips' own sound by this many dB, \(Int(ClipSoundSettings.levelRange.lowerBound)) to +\(Int(ClipSoundSettings.levelRange.upperBound)) (0: as recorded).", valueName: "dB"))
    var clipVolume: Double = SlideshowOptions.defaults.clipSound.levelDecibels

    @Option(parsing: .unconditional, help: ArgumentHelp("How far the music goes down under a clip with sound, in dB, \(Int(ClipSoundSettings.duckRange.lowerBound)) to 0 (0: not at all); it ramps down over \(Int(SlideshowOptions.defaults.clipSound.rampSeconds * 1000)) ms up to the clip's start and back up over as long from its end.", valueName: "dB"))
    var duck: Double = SlideshowOptions.defaults.clipSound.duckDecibels

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

    /// The option that gives a setting: `--slide-duration` for `slideDuration`, as
    /// ArgumentParser names an option after its property; the photos are the arguments.
    static func flag(for field: SlideshowOptions.Field) -> String {
        switch field {
        case .photos: return "photos"
        case .output: return "--output"
        case .audioLoop: return "--no-audio-loop"
        case .captions: return "--caption/--captions"
        case .burnCaptions: return "--no-burn-captions"
        default: return "--" + field.rawValue.unicodeScalars.map { CharacterSet.uppercaseLetters.contains($0) ? "-" + String($0).lowercased() : String($0) }.joined()
        }
    }

    /// The library's options.
    var options: SlideshowOptions {
        var options = SlideshowOptions(duration: duration?.seconds, slideDuration: slideDuration, size: size, fps: fps, filter: filter,
                                       fit: fit, background: background, crf: crf, preset: preset, hold: hold)
        options.audio = audio
        options.audioBitrate = audioBitrate
        options.audioStart = audioStart
        options.audioFadeIn = audioFadeIn
        options.audioFadeOut = audioFadeOut
        options.audioLoop = !noAudioLoop
        options.loudness = loudness
        options.durationFollowsAudio = duration == .audio
        options.transition = transition
        options.transitionDuration = transitionDuration
        options.fadeIn = fadeIn
        options.fadeOut = fadeOut
        options.motion = motion
        options.zoom = zoom
        options.dateStamp = dateStamp
        options.dateFormat = dateFormat
        options.title = title
        options.framing = framing
        options.cuts = cuts
        options.order = order
        options.pick = pick
        options.motionPhotos = motionPhotos
        options.captions = caption
        options.captionsFrom = captionsFrom
        options.captionPosition = captionPosition
        options.font = font
        options.webvtt = webvtt
        options.burnCaptions = !noBurnCaptions
        options.captionLanguage = captionLanguage
        options.titleCard = titleCard
        options.titleCardSubtitle = titleCardSubtitle
        options.titleCardDuration = titleCardDuration
        options.titleCardBackground = titleCardBackground
        options.closingCard = closingCard
        options.clipSound.muted = muteClips
        options.clipSound.levelDecibels = clipVolume
        options.clipSound.duckDecibels = duck
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
        options.captions = caption.enumerated().map { text($1, "--caption \($0 + 1)") }
        options.title = text(title, "--title")
        options.titleCard = text(titleCard, "--title-card")
        options.titleCardSubtitle = text(titleCardSubtitle, "--title-card-subtitle")
        options.closingCard = text(closingCard, "--closing-card")
        if let captions {
            if !caption.isEmpty { throw ValidationError("give --caption or --captions, not both") }
            let read = try Self.captionLines(captions)
            options.captions = read.lines
            warnings += read.warnings
        }
        // `clip.mov#t=2.5,8`: the part of a clip that plays, unless a file has that whole name.
        let items = photos.map { ClipPart.splitting($0, fileExists: { FileManager.default.fileExists(atPath: $0) }) }
        for (argument, item) in zip(photos, items) where item.part == nil && argument.contains("#t=") && !FileManager.default.fileExists(atPath: argument) {
            throw ValidationError(Message.oneLine("photos: \(argument): no such file, and '\(argument[argument.range(of: "#t=", options: .backwards)!.lowerBound...])' is not a part of a clip (#t=start,end, #t=start or #t=,end, in seconds)"))
        }
        if items.contains(where: { $0.part != nil }) {
            options.photoSettings = items.map { PhotoSettings(clipPart: $0.part) }
        }
        do {
            var show = try options.slideshow(photos: items.map { Photo(path: $0.path) }, output: output, overwrite: overwrite)
            // The captions file is read now, but no output may replace it.
            show.otherInputs = captions.map { [$0] } ?? []
            return show
        } catch {
            throw ValidationError(Self.message(for: error))
        }
    }
}

extension RenderOptions {
    /// The items the show plays: folders listed and, with `--pick`, the picks (``PhotoSelection``).
    /// - Throws: `ValidationError` naming the option at fault (nothing readable, `--pick auto`
    ///   without a length, per-photo captions with a pick).
    func selection(photos: [String], output: String) throws -> PhotoSelection {
        var options = self.options
        if captions != nil { options.captions = [nil] }
        do {
            return try options.select(photos, output: output)
        } catch {
            throw ValidationError(Self.message(for: error))
        }
    }

    /// The lines of a `--captions` file: one caption per line (`\n` or `\r\n`), the end's
    /// newline not starting another; see ``CaptionFile/decode(_:)`` for the encodings.
    /// - Returns: the lines, and a warning when bytes were not text.
    /// - Throws: `ValidationError` naming the file when it cannot be read, is not a regular
    ///   file, or is over ``CaptionFile/maximumBytes``.
    static func captionLines(_ path: String) throws -> (lines: [String?], warnings: [String]) {
        let data: [UInt8]
        do {
            data = try CaptionFile.read(path)
        } catch {
            throw ValidationError(Message.oneLine("--captions: \(path): \(error.reason)"))
        }
        let (text, problem) = CaptionFile.decode(data)
        // `\r\n` is one Character, a newline like `\n`.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return (lines, problem.map { [Message.oneLine("\(path): \($0)")] } ?? [])
    }
}

/// Help texts made from the lists the parsers use, so that they cannot fall behind them.
enum HelpText {
    /// Every name of a choice with what it does, in the choice's order:
    /// `letterbox (bars, the whole photo), fill (crop to fill the frame) or blur (…).`
    /// - Parameter meaning: what each value does; an exhaustive `switch`, so that a new value
    ///   cannot be left out.
    static func choices<T: SettingChoice>(_ type: T.Type, _ meaning: (T) -> String) -> String {
        let items = T.allCases.map { "\($0.rawValue) (\(meaning($0)))" }
        return (items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]) + "."
    }

    /// The formats the items may be in: `JPEG, PNG, HEIF/HEIC, AVIF, WebP or video clips (…)`.
    static var photoFormats: String {
        let formats = ImageCapabilities.decoders.map(\.format) + ["video clips (MP4, MOV, MKV, WebM, AVI, MTS/M2TS/TS, MPG/VOB, 3GP, DV: any codec FFmpeg decodes, interlaced ones deinterlaced; clip.mov#t=2.5,8 plays 2.5 s to 8 s)"]
        return formats.count < 2 ? formats.joined() : formats.dropLast().joined(separator: ", ") + " or " + formats[formats.count - 1]
    }
}

extension HoldStrategy: ExpressibleByArgument {}
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

/// `--duration`: seconds, or `audio` for the music's length.
enum DurationArgument: ExpressibleByArgument, Equatable {
    case seconds(Double)
    case audio

    init?(argument: String) {
        if argument == "audio" {
            self = .audio
        } else if let seconds = Double(argument) {
            self = .seconds(seconds)
        } else {
            return nil
        }
    }

    var seconds: Double? {
        if case .seconds(let seconds) = self { return seconds }
        return nil
    }
}
