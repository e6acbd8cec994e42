import Foundation
import SlideshowAudio
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowLooks
import SlideshowPicking
import SlideshowPlan
import SlideshowText
import SlideshowWriter

extension SlideshowOptions.Field {
    /// This setting's entry in the table: its option, its manifest key, its value, default,
    /// range and meaning (see ``Setting``).
    public var setting: Setting { Setting.byField[self]! }

    /// The table: every setting's entry, declared here once. The defaults are
    /// ``SlideshowOptions``' own (or those of the layer that owns the setting, which it reads);
    /// a range declared here is checked by ``Slideshow/checkSettings()``, one owned by a lower
    /// layer (`VideoSettings/crfRange`, `Soundtrack/bitrates`, …) is read from it.
    fileprivate var entry: Setting {
        switch self {
        case .photos:
            Setting(self, argument: true, valueName: "photo|folder", kind: .list, type: "an array of paths or photo objects",
                    summary: "The photos and video clips, in order (\(Setting.photoFormats); see `slideshow formats`), or folders: their photos and clips, recursively, in name order; hidden files, sidecars and thumbnails ignored, Live Photo movies kept with their stills, files that cannot be read left out with one warning.")
        case .output:
            Setting(self, valueName: "file.mp4", kind: .path, type: "a path", summary: "The file to write: .mp4 or .m4v (MP4: H.264 by default, HEVC or AV1, with AAC sound), .webm (WebM: VP9 by default or AV1, with Opus sound), or .gif or .webp (an animated preview).")
        case .duration:
            Setting(self, valueName: "seconds|\(DurationSetting.audioWord)", kind: .number, type: "a number of seconds",
                    summary: "Total length in seconds, or '\(DurationSetting.audioWord)': as long as the music after --audio-start.",
                    defaultValue: SettingRange.number(SlideshowLength.defaultSeconds), example: "6",
                    binding: .stored(\.durationGiven, describe: { $0.map { if case .seconds(let s) = $0 { SettingRange.number(s) } else { DurationSetting.audioWord } } },
                                     read: { $0.value(DurationSetting.self, "a number of seconds").map(Optional.some) }))
        case .slideDuration:
            .optionalNumber(self, \.slideDuration, example: "2", "Seconds per photo, instead of --duration.")
        case .size:
            .text(self, \.size, valueName: "WxH", type: "a string \"WxH\"", example: "640x360", "Frame size, even width and height.")
        case .fps:
            .integer(self, \.fps, valueName: "fps", range: SettingRange(VideoSettings.frameRates), example: "25", "Frames per second, {range}.")
        case .filter:
            .text(self, \.filter, valueName: "look[,look…]", type: "a look's name", example: "sepia",
                  "Film look, or looks separated by commas, applied left to right, each with optional :key=value parameters: \(Looks.catalogue.map(\.name).joined(separator: ", ")) (see `slideshow filters`).")
        case .fit:
            .choice(self, \.fit, valueName: "mode", example: "fill", Setting.choices(FitMode.self) { mode in
                switch mode {
                case .letterbox: "bars, the whole photo"
                case .fill: "crop to fill the frame"
                case .blur: "the whole photo over a blurred copy of itself; --background then shows only under transparency"
                }
            })
        case .background:
            .text(self, \.background, valueName: "#RRGGBB", type: "a string \"#RRGGBB\"", example: "#102030",
                  "Colour of the letterbox bars (with --fit blur, of transparent parts).")
        case .crf:
            .integer(self, \.crf, valueName: "crf", range: SettingRange(VideoSettings.crfRange), example: "23",
                     "x264 constant rate factor, {range} (lower is better quality; 0, lossless, is not possible in H.264 High).")
        case .preset:
            .text(self, \.preset, valueName: "preset", type: "a preset's name", example: "fast",
                  "x264 preset, fastest to slowest: \(VideoSettings.presets.joined(separator: ", ")).")
        case .hold:
            .choice(self, \.hold, valueName: "mode", example: "encode", Setting.choices(HoldStrategy.self) { strategy in
                switch strategy {
                case .skip: "repeat held frames without encoding them: fast, exact"
                case .encode: "encode every frame"
                }
            })
        case .platform:
            Setting(self, valueName: "platform", kind: .choice(Platform.allCases.map(\.rawValue)), type: "one of \(Platform.names)",
                    summary: "Make the show for a platform: " + Setting.choices(Platform.self) { $0.summary }
                        + " Its size, frame rate, fit (blur for a vertical or square frame) and, with music, loudness (\(SettingRange.number(Platform.reels.loudness)) LUFS) stand in for those settings' defaults (a setting given wins); captions, cards and the date stamp stay inside the part of the frame its app leaves uncovered; a longer show is refused. Figures and sources: docs/sharing.md.",
                    example: "reels",
                    binding: .stored(\.platform, describe: { $0?.rawValue }, read: { $0.choice(Platform.self).map(Optional.some) }))
        case .draft:
            .flag(self, \.draft, "A quick draft of the same show: half the width and height (a quarter of the pixels) and x264's fastest preset, to check the timing, order and captions before the final render; the output line says it is a draft.")
        case .codec:
            .choice(self, \.codec, valueName: "codec", example: "hevc", Setting.choices(VideoCodec.self) { codec in
                switch codec {
                case .h264: "H.264 High (x264), every player's"
                case .hevc: "HEVC Main (x265), tagged hvc1 for Apple's players; --crf and --preset are x265's"
                case .av1: "AV1 Main (libaom), in .webm or .mp4 (av01); --crf and --preset on x264's scale, mapped to libaom's"
                case .vp9: "VP9 profile 0 (libvpx), in .webm only; --crf and --preset mapped as for AV1"
                }
            } + " By default the output's extension chooses: H.264 for .mp4 and .m4v, VP9 for .webm; a codec the container cannot carry is refused.")
        case .hdr:
            .choice(self, \.hdr, valueName: "mode", example: "pq", Setting.choices(HDRSetting.self) { mode in
                switch mode {
                case .off: "SDR, BT.709 (gain maps ignored)"
                case .pq: "HDR10: HEVC Main 10, BT.2020, PQ, a 1000-nit mastering display; photos' gain maps applied, SDR photos' white at 203 nits"
                case .hlg: "HEVC Main 10, BT.2020, HLG for a 1000-nit display; gain maps applied as for pq"
                }
            } + " Dissolves and fades mix in linear light; wipes, slides, circles and motion move the lifted pictures; looks, blur fill, captions, title cards and the date stamp work at SDR light; clips keep their own light (HLG and PQ pass through, a look tinting their SDR range; SDR clips at 203 nits); played motion photos play as clips do; animated previews are refused with it.")
        case .transition:
            .choice(self, \.transition, valueName: "effect", example: "fade", "How each photo gives way to the next.")
        case .transitionDuration:
            .number(self, \.transitionDuration, range: SettingRange(atLeast: 0, unit: "seconds"), example: "0.8",
                    "Seconds each transition lasts ({range}), centred on its cut.")
        case .fadeIn:
            .number(self, \.fadeIn, range: SettingRange(atLeast: 0, unit: "seconds"), example: "0.5", "Seconds of fade from black at the start ({range}).")
        case .fadeOut:
            .number(self, \.fadeOut, range: SettingRange(atLeast: 0, unit: "seconds"), example: "0.5", "Seconds of fade to black at the end ({range}).")
        case .motion:
            .choice(self, \.motion, valueName: "motion", example: "kenburns", "How photos move.")
        case .zoom:
            .number(self, \.zoom, valueName: "fraction", type: "a number from {range}", range: SettingRange(0.0...1.0), example: "0.3",
                    "How far the view changes under motion, {range} (0.1: by 10%).")
        case .dateStamp:
            .flag(self, \.dateStamp, "Print each photo's capture date (EXIF DateTimeOriginal) in its lower right corner, as film cameras did.")
        case .dateFormat:
            .text(self, \.dateFormat, valueName: "format", type: "a date format's name", example: "iso",
                  "How --date-stamp writes the date: \(DateImprint.Format.allCases.map { "\($0.rawValue) (\($0.example))" }.joined(separator: ", ")).")
        case .title:
            .optionalText(self, \.title, example: "Lisbon", "The video's title tag.")
        case .framing:
            .choice(self, \.framing, valueName: "mode", example: "center", "With --fit fill, which part of the photo is kept: " + Setting.choices(Framing.self) { framing in
                switch framing {
                case .faces: "the detected faces"
                case .center: "the centre"
                }
            } + " Faces need OpenCV's cascade from opencv-data (\(FaceFraming.cascadePath)); without it, faces acts as center. They are found by \(FaceDetectionLibrary.fileName), which belongs beside the tool.")
        case .audio:
            .optionalText(self, \.audio, valueName: "file", kind: .path, type: "a path", example: "song.mp3",
                          "Music for the show (MP3, M4A, FLAC, WAV, Ogg, Opus, …), encoded as AAC-LC, exactly as long as the show.")
        case .audioBitrate:
            Setting(self, valueName: "rate", kind: .text, type: "a bit rate such as \"192k\"",
                    range: SettingRange(Soundtrack.bitrates, unit: "bits per second") { "\(Int($0) / 1000)k" }, summary: "AAC bit rate, {range}.",
                    example: "128k", needs: .audio,
                    binding: .stored(\.audioBitrate, describe: { $0 }, read: { value in
                        // A number of bits per second, or text such as "192k".
                        value.decode(Int.self).map { .success(String($0)) } ?? value.value(String.self, "a bit rate such as \"192k\"")
                    }))
        case .audioStart:
            .number(self, \.audioStart, range: SettingRange(atLeast: 0, unit: "seconds"), example: "12", needs: .audio,
                    "Start the music this many seconds in ({range}).")
        case .audioFadeIn:
            .number(self, \.audioFadeIn, range: SettingRange(atLeast: 0, unit: "seconds"), example: "1", needs: .audio,
                    "Fade the music in over this many seconds ({range}).")
        case .audioFadeOut:
            .number(self, \.audioFadeOut, range: SettingRange(atLeast: 0, unit: "seconds"), example: "3", needs: .audio,
                    "Fade the music out over this many seconds ({range}; at most half the show).")
        case .audioLoop:
            .flag(self, \.audioLoop, inverted: true, needs: .audio,
                  "Play music shorter than the show once, then silence (by default it loops, with a \(Int((Soundtrack.crossfade.seconds * 1000).rounded())) ms crossfade).")
        case .loudness:
            .optionalNumber(self, \.loudness, valueName: "LUFS", type: "a number of LUFS, e.g. -16", range: SettingRange(Soundtrack.loudnessRange, unit: "LUFS"),
                            example: "-16", needs: .audio,
                            "Bring the music to this integrated loudness, {range} (e.g. -16 for phones, -23 for broadcast), true peak at most \(SettingRange.number(Soundtrack.truePeakCeiling)) dBTP.")
        case .cuts:
            .choice(self, \.cuts, valueName: "style", example: "beats", Setting.choices(CutStyle.self) { style in
                switch style {
                case .even: "the time shared out evenly"
                case .beats: "each cut on a beat of the music, every 1st, 2nd or 4th; each photo's time within 25% of its even share; clips keep their length; even cuts with a warning when the music has no steady beat or no choice of beats fits; needs --audio"
                }
            })
        case .order:
            .choice(self, \.order, valueName: "order", example: "name", Setting.choices(PhotoOrder.self) { order in
                switch order {
                case .given: "as given"
                case .name: "by file name, numbers as numbers: img2 before img10"
                case .date: "by capture date, EXIF with its offset from UTC when given; photos without one last, by name, with a warning"
                }
            })
        case .motionPhotos:
            .choice(self, \.motionPhotos, valueName: "mode", example: "play", Setting.choices(MotionPhotoPlayback.self) { playback in
                switch playback {
                case .still: "the photo alone"
                case .play: "Samsung and Google motion photos and Apple Live Photos play their video, without its sound, from the photo's cut for as long as it lasts or the photo's time, then the still is held"
                }
            })
        case .captions:
            Setting(self, flag: "--caption", valueName: "text", kind: .list, type: "an array of strings, one per photo",
                    summary: "A caption for the next photo, in order; give it once per photo (\"\" for none).", example: "Lisbon",
                    binding: .stored(\.captions, argument: { $0.map { $0 ?? "" } }, stored: { (given: [String]) in given.map(Optional.some) },
                                     describe: { $0.isEmpty ? nil : $0.map { $0 ?? "" }.joined(separator: "|") },
                                     read: { $0.value([String].self, "an array of strings, one per photo").map { $0.map(Optional.some) } }))
        case .captionsFile:
            .optionalText(self, \.captionsFile, flag: "--captions", valueName: "file", kind: .path, type: "a path", example: "captions.txt",
                          "A UTF-8 text file of captions, one line per photo in order (an empty line for none); instead of --caption.")
        case .captionsFrom:
            .choice(self, \.captionsFrom, valueName: "source", example: "metadata", "Photos without a caption take one from: " + Setting.choices(CaptionSource.self) { source in
                switch source {
                case .none: "nowhere"
                case .metadata: "the photo's XMP dc:description or dc:title, IPTC Caption-Abstract or EXIF ImageDescription"
                }
            })
        case .captionPosition:
            .choice(self, \.captionPosition, valueName: "position", example: "top", "Where captions go, inside the title-safe area.")
        case .font:
            .optionalText(self, \.font, valueName: "family|file", type: "a font family or a font file's path", defaultValue: TextStyle.defaultFamily,
                          example: "Noto Serif",
                          "The captions' font: an installed family, or a font file (a path with a / or ending in .ttf, .otf, .ttc or .otc). Characters it lacks come from the Noto fonts.")
        case .webvtt:
            .optionalText(self, \.webvtt, valueName: "file.vtt", kind: .path, type: "a path", example: "out.vtt",
                          "Also write the captions, each timed to its photo, as a WebVTT file (e.g. out.vtt beside out.mp4), complete or not at all.")
        case .captionLanguage:
            .text(self, \.captionLanguage, valueName: "code", type: "an ISO 639-2 code such as \"eng\"", example: "eng",
                  "The language of the MP4's subtitle track of the captions, ISO 639-2 (eng, deu, jpn…).")
        case .burnCaptions:
            .flag(self, \.burnCaptions, inverted: true, "Do not draw the captions on the pictures: only the MP4's subtitle track (and --webvtt) carry them.")
        case .titleCard:
            .optionalText(self, \.titleCard, example: "Lisbon", "An opening title card with this title, before the first photo.")
        case .titleCardSubtitle:
            .optionalText(self, \.titleCardSubtitle, type: "a string, or \"\(TitleCard.dateRangeKeyword)\"", example: "May 2024",
                          "The title card's second line, or '\(TitleCard.dateRangeKeyword)' for the span of the photos' capture dates (e.g. 12–18 May 2024).")
        case .titleCardDuration:
            .number(self, \.titleCardDuration, range: SettingRange(atLeast: 0, unit: "seconds"), example: "3",
                    "Seconds the title card is shown ({range}), taken from --duration (the video stays as long as asked) or added before the photos with --slide-duration.")
        case .closingCard:
            .optionalText(self, \.closingCard, example: "The end", "A closing card with this title, after the last photo (over it, blurred), as long as the title card.")
        case .titleCardBackground:
            .text(self, \.titleCardBackground, valueName: "blur|#RRGGBB", type: "\"blur\" or a colour \"#RRGGBB\"", example: "#202020",
                  "What the title card is drawn over: blur (the first photo, blurred and darkened) or a colour.")
        case .muteClips:
            .flag(self, \.clipSound.muted, "Leave out the clips' own sound (the music then plays on under them, not lowered).")
        case .clipVolume:
            .number(self, \.clipSound.levelDecibels, valueName: "dB", type: "a number of dB, e.g. -6", range: SettingRange(ClipSoundSettings.levelRange, unit: "dB"),
                    example: "-6", "Raise or lower the clips' own sound by this many dB, {range} (0: as recorded).")
        case .duck:
            .number(self, \.clipSound.duckDecibels, valueName: "dB", type: "a number of dB, e.g. -12 (0: none)", range: SettingRange(ClipSoundSettings.duckRange, unit: "dB"),
                    example: "-6", "How far the music goes down under a clip with sound, {range} (0: not at all); it ramps down over \(Int((SlideshowOptions.defaults.clipSound.rampSeconds * 1000).rounded())) ms up to the clip's start and back up over as long from its end.")
        case .pick:
            Setting(self, valueName: "count|auto", kind: .text, type: "a number of photos or \"auto\"",
                    summary: "Pick the best photos and clips from everything given (folders too), in capture order: one per moment (near-duplicates and bursts grouped, the sharpest, best exposed kept), blurred, too dark or over-exposed ones and screenshots only when nothing else is left, spread over the day's parts; a number, or auto: as many as the length fits at about \(SettingRange.number(PickRules.secondsPerPick)) s each (with --slide-duration, every good moment). --dry-run lists the choice with reasons.",
                    example: "2",
                    binding: .stored(\.pick, describe: { $0?.description }, read: { value in
                        if let count = value.decode(Int.self) {
                            return PickCount(parsing: String(count)).map { .success($0) } ?? .failure(Setting.ReadProblem(reason: "must be 1 or more, or \"auto\""))
                        }
                        return value.value(String.self, "a number of photos or \"auto\"").flatMap { text in
                            PickCount(parsing: text).map { .success($0) } ?? .failure(Setting.ReadProblem(reason: "'\(text)' is not a number of photos or \"auto\""))
                        }
                    }))
        }
    }
}

extension Setting {
    /// Every setting, in ``SlideshowOptions/Field``'s order.
    public static let all: [Setting] = SlideshowOptions.Field.allCases.map { $0.entry }

    /// The table by field.
    static let byField = Dictionary(uniqueKeysWithValues: all.map { ($0.field, $0) })

    /// The formats the items may be in: `JPEG, PNG, HEIF/HEIC, AVIF, WebP or video clips (…)`.
    static var photoFormats: String {
        let formats = ImageCapabilities.decoders.map(\.format) + ["video clips (MP4, MOV, MKV, WebM, AVI, MTS/M2TS/TS, MPG/VOB, 3GP, DV: any codec FFmpeg decodes, interlaced ones deinterlaced; clip.mov#t=2.5,8 plays 2.5 s to 8 s)"]
        return formats.count < 2 ? formats.joined() : formats.dropLast().joined(separator: ", ") + " or " + formats[formats.count - 1]
    }
}

// The kinds of entry: each reads its manifest value as its type and describes its value the same
// way for both readers, so that the command line and a manifest cannot drift apart.
private extension Setting {
    /// An entry. The flag is `--` and the field's name in kebab case unless given (none for the
    /// command's arguments), the key the field's name, the default the options' own unless
    /// given; `{range}` in the summary and the type is the range in words.
    init(_ field: SlideshowOptions.Field, flag: String? = nil, argument: Bool = false, valueName: String?, kind: Kind, type: String,
         range: SettingRange? = nil, summary: String, defaultValue: String? = nil, example: String? = nil, needs: SlideshowOptions.Field? = nil,
         binding: Binding? = nil) {
        precondition(range == nil || summary.contains("{range}"), "\(field): the summary does not say the range")
        func words(_ text: String) -> String { range.map { text.replacingOccurrences(of: "{range}", with: $0.description) } ?? text }
        self.field = field
        self.flag = argument ? nil : flag ?? "--" + Self.kebab(field.rawValue)
        self.key = field.rawValue
        self.valueName = valueName
        self.kind = kind
        self.type = words(type)
        self.range = range
        self.summary = words(summary)
        self.defaultValue = defaultValue ?? binding?.describe(SlideshowOptions.defaults)
        self.example = example
        self.needs = needs
        self.binding = binding
    }

    /// `slideDuration` as `slide-duration`.
    static func kebab(_ name: String) -> String {
        name.unicodeScalars.map { CharacterSet.uppercaseLetters.contains($0) ? "-" + String($0).lowercased() : String($0) }.joined()
    }

    static func number(_ field: SlideshowOptions.Field, _ path: WritableKeyPath<SlideshowOptions, Double> & Sendable, valueName: String = "seconds",
                       type: String = "a number of seconds", range: SettingRange? = nil, example: String, needs: SlideshowOptions.Field? = nil,
                       _ summary: String) -> Setting {
        Setting(field, valueName: valueName, kind: .number, type: type, range: range, summary: summary, example: example, needs: needs,
                binding: .stored(path, describe: { SettingRange.number($0) }, read: { $0.value(Double.self, type) }))
    }

    static func optionalNumber(_ field: SlideshowOptions.Field, _ path: WritableKeyPath<SlideshowOptions, Double?> & Sendable, valueName: String = "seconds",
                               type: String = "a number of seconds", range: SettingRange? = nil, example: String, needs: SlideshowOptions.Field? = nil,
                               _ summary: String) -> Setting {
        Setting(field, valueName: valueName, kind: .number, type: type, range: range, summary: summary, example: example, needs: needs,
                binding: .stored(path, describe: { $0.map(SettingRange.number) }, read: { $0.value(Double.self, type).map(Optional.some) }))
    }

    static func integer(_ field: SlideshowOptions.Field, _ path: WritableKeyPath<SlideshowOptions, Int> & Sendable, valueName: String,
                        range: SettingRange? = nil, example: String, _ summary: String) -> Setting {
        Setting(field, valueName: valueName, kind: .integer, type: "a whole number", range: range, summary: summary, example: example,
                binding: .stored(path, describe: { String($0) }, read: { $0.value(Int.self, "a whole number") }))
    }

    static func text(_ field: SlideshowOptions.Field, _ path: WritableKeyPath<SlideshowOptions, String> & Sendable, valueName: String,
                     type: String, example: String, _ summary: String) -> Setting {
        Setting(field, valueName: valueName, kind: .text, type: type, summary: summary, example: example,
                binding: .stored(path, describe: { $0 }, read: { $0.value(String.self, type) }))
    }

    static func optionalText(_ field: SlideshowOptions.Field, _ path: WritableKeyPath<SlideshowOptions, String?> & Sendable, flag: String? = nil,
                             valueName: String = "text", kind: Kind = .text, type: String = "a string", defaultValue: String? = nil,
                             example: String, _ summary: String) -> Setting {
        Setting(field, flag: flag, valueName: valueName, kind: kind, type: type, summary: summary, defaultValue: defaultValue, example: example,
                binding: .stored(path, describe: { $0 }, read: { $0.value(String.self, type).map(Optional.some) },
                                 resolve: kind == .path ? { @Sendable options, resolve in options[keyPath: path] = options[keyPath: path].map(resolve) } : nil))
    }

    static func choice<T: SettingChoice>(_ field: SlideshowOptions.Field, _ path: WritableKeyPath<SlideshowOptions, T> & Sendable, valueName: String,
                                         example: String, _ summary: String) -> Setting {
        Setting(field, valueName: valueName, kind: .choice(T.allCases.map(\.rawValue)), type: "one of \(T.names)", summary: summary, example: example,
                binding: .stored(path, describe: { $0.rawValue }, read: { $0.choice(T.self) }))
    }

    /// On or off: the command line's flag turns it on, or off when `inverted`.
    static func flag(_ field: SlideshowOptions.Field, _ path: WritableKeyPath<SlideshowOptions, Bool> & Sendable, inverted: Bool = false,
                     needs: SlideshowOptions.Field? = nil, _ summary: String) -> Setting {
        Setting(field, flag: inverted ? "--no-" + kebab(field.rawValue) : nil,
                valueName: nil, kind: .flag(inverted: inverted), type: "true or false", summary: summary, needs: needs,
                binding: .stored(path, argument: { $0 != inverted }, stored: { given in given != inverted },
                                 describe: { $0 ? "on" : "off" }, read: { $0.value(Bool.self, "true or false") }))
    }
}

extension SlideshowOptions {
    /// ``duration`` and ``durationFollowsAudio`` as one setting, as the command line and a manifest give it.
    var durationGiven: DurationSetting? {
        get { durationFollowsAudio ? .audio : duration.map { .seconds($0) } }
        set {
            durationFollowsAudio = newValue == .audio
            if case .seconds(let seconds) = newValue { duration = seconds } else { duration = nil }
        }
    }
}
