import Foundation
import SlideshowAudio
import SlideshowFormats
import SlideshowFraming
import SlideshowLooks
import SlideshowPicking
import SlideshowPixels
import SlideshowPlan
import SlideshowSupport
import SlideshowText
import SlideshowWriter

/// A slideshow's settings as a person writes them, on the command line (`slideshow make`) or
/// in a batch manifest, and the product's defaults (``defaults``).
///
/// Sizes, looks, colours and presets are text here, exactly as typed; ``slideshow(photos:output:overwrite:)``
/// parses them into a ``Slideshow`` and checks it by the show's own rules
/// (``Slideshow/checkSettings()``), and says which setting is at fault:
///
/// ```swift
/// var options = SlideshowOptions()
/// options.duration = 6
/// options.filter = "minimal-life"
/// let show = try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
/// ```
public struct SlideshowOptions: Sendable, Hashable {
    /// The product's defaults, declared here once: the command line's options, a manifest's
    /// fields, ``Slideshow`` and `Soundtrack` all read theirs from these. The encoder's own
    /// (size, frame rate, CRF, preset, hold) are `VideoSettings`', the look's `Looks/original`'s
    /// and the length's `SlideshowLength/default`'s, read here from the layers that own them.
    public static let defaults = SlideshowOptions()

    // Each setting's option, manifest key, default in words, range and meaning are its entry in
    // the table (``Field/setting``); the values below are the defaults, declared only here (or by
    // the layer that owns the setting: `VideoSettings`, `Looks`, `ClipSoundSettings`).

    /// Total length in seconds; nil: `SlideshowLength/default` unless ``slideDuration`` is given.
    public var duration: Double? = nil
    /// Seconds per photo, instead of ``duration``.
    public var slideDuration: Double? = nil
    /// The frame size, `WxH` with even, positive numbers.
    public var size: String = VideoSettings().size.description
    /// Frames per second (`VideoSettings/frameRates`).
    public var fps: Int = VideoSettings().framesPerSecond
    /// The look, or a chain of looks with parameters, e.g. `minimal-life,vignette:radius=1.8`
    /// (see `Looks/parse(_:)` and `Looks/catalogue`).
    public var filter: String = Looks.original.name
    /// Letterbox, fill or blur.
    public var fit: FitMode = .letterbox
    /// The colour of the letterbox bars, `#RRGGBB`.
    public var background: String = "#000000"
    /// x264's constant rate factor (`VideoSettings/crfRange`).
    public var crf: Int = VideoSettings().crf
    /// x264's preset (`VideoSettings/presets`).
    public var preset: String = VideoSettings().preset
    /// How held frames are written.
    public var hold: HoldStrategy = VideoSettings().hold
    /// The platform the show is made for (``Platform``): its size, frame rate, fit and (with
    /// music) loudness replace those settings' defaults, unless they are in ``given`` or hold a
    /// value other than the default; its safe area holds the captions, cards and date imprint;
    /// a longer show than it takes is refused.
    public var platform: Platform? = nil
    /// A draft: a quarter of the pixels (half the width and height, even) and x264's fastest
    /// preset, to see the timing, order and captions before the final render.
    public var draft: Bool = false
    /// Those of ``Platform/settings`` given explicitly (the command line's options, a
    /// manifest's keys): a ``platform`` does not replace them even when they hold the default.
    public var given: Set<Field> = []
    /// The video codec (``VideoCodec``). Unless it is in ``given`` or holds a value other than
    /// the default, the output's container chooses it: VP9 for a `.webm` output
    /// (`VideoContainer/defaultCodec`).
    public var codec: VideoCodec = VideoSettings().codec

    /// The settings recorded in ``given`` when they are given: a platform's, and the codec (a
    /// `.webm` output chooses VP9 unless a codec is given).
    public static let settingsKeptWhenGiven: Set<Field> = Platform.settings.union([.codec])

    /// HDR video (``HDRSetting``): off (SDR, BT.709) by default; `pq` or `hlg` make HEVC
    /// Main 10 in BT.2020 with photos' gain maps applied (the codec is then HEVC unless given).
    public var hdr: HDRSetting = .off
    /// The transition at each cut.
    public var transition: TransitionEffect = .none
    /// Seconds each transition lasts.
    public var transitionDuration: Double = 0.5
    /// Seconds of fade from black at the start.
    public var fadeIn: Double = 0
    /// Seconds of fade to black at the end.
    public var fadeOut: Double = 0
    /// How photos move.
    public var motion: MotionStyle = .none
    /// How far the view changes under motion.
    public var zoom: Double = 0.1
    /// Per-photo settings (a manifest's photo objects): empty, or one per photo.
    public var photoSettings: [PhotoSettings] = []
    /// Per-photo durations in seconds (nil: the show's share): empty, or one per photo. Photos
    /// without one take ``slideDuration`` each, or share what is left of ``duration``.
    public var photoDurations: [Double?] = []
    /// Whether each photo's capture date is printed in its lower right corner.
    public var dateStamp: Bool = false
    /// How the date is written (`DateImprint/Format`).
    public var dateFormat: String = DateImprint.Format.ymd.rawValue
    /// The MP4's title tag.
    public var title: String? = nil
    /// Which part of a photo `fill` keeps.
    public var framing: Framing = .faces
    /// The music's file (`Soundtrack`).
    public var audio: String? = nil
    /// The AAC bit rate, e.g. `192k` or `128000` (`Soundtrack/bitrates`).
    public var audioBitrate: String = "\(Soundtrack.defaults.bitrate / 1000)k"
    /// Seconds into the music where the show's sound starts.
    public var audioStart: Double = Soundtrack.defaults.start
    /// Seconds of fade-in.
    public var audioFadeIn: Double = Soundtrack.defaults.fadeIn
    /// Seconds of fade-out, capped at half the show.
    public var audioFadeOut: Double = Soundtrack.defaults.fadeOut
    /// Whether music shorter than the show loops (with a `Soundtrack/crossfade`).
    public var audioLoop: Bool = Soundtrack.defaults.loops
    /// The integrated loudness to bring the music to, in LUFS (`Soundtrack/loudnessRange`).
    public var loudness: Double? = Soundtrack.defaults.loudness
    /// Whether the show lasts as long as the music (`--duration audio`).
    public var durationFollowsAudio: Bool = false
    /// Where the cuts fall.
    public var cuts: CutStyle = .even
    /// The order the photos play in.
    public var order: PhotoOrder = .given
    /// Captions, one per photo (nil or empty: none for that photo), or empty for none.
    public var captions: [String?] = []
    /// A UTF-8 text file of captions, one line per photo (`CaptionFile`), instead of ``captions``:
    /// read when the slideshow is made (``slideshow(photos:output:overwrite:)``).
    public var captionsFile: String? = nil
    /// Where photos without a caption of their own take one from.
    public var captionsFrom: CaptionSource = .none
    /// Where captions go.
    public var captionPosition: Caption.Position = .bottom
    /// The font: a family (`Noto Serif`) or a font file (a path with a `/`, or ending in
    /// `.ttf`, `.otf`, `.ttc` or `.otc`); nil: `TextStyle/defaultFamily`.
    public var font: String? = nil
    /// A WebVTT file of the captions to write beside the video.
    public var webvtt: String? = nil
    /// Whether captions are drawn on the pictures (the MP4's subtitle track has them either way).
    public var burnCaptions: Bool = true
    /// The subtitle track's language, ISO 639-2.
    public var captionLanguage: String = "und"
    /// An opening title card's title.
    public var titleCard: String? = nil
    /// The card's second line, or `date-range` for the photos' capture dates.
    public var titleCardSubtitle: String? = nil
    /// A closing card's title.
    public var closingCard: String? = nil
    /// Seconds each card is shown.
    public var titleCardDuration: Double = 2
    /// What the card is drawn over: `blur` (the first photo, blurred) or a colour `#RRGGBB`.
    public var titleCardBackground: String = "blur"
    /// Whether motion photos play their video before their still.
    public var motionPhotos: MotionPhotoPlayback = .still
    /// How the clips' own sound is mixed with the music.
    public var clipSound: ClipSoundSettings = ClipSoundSettings()
    /// Pick the best photos from everything given (``PhotoSelection``, ``select(_:output:)``): a
    /// number, or `auto`; nil shows every item.
    public var pick: PickCount? = nil

    /// Creates options; a setting left nil keeps its default (``defaults``).
    public init(duration: Double? = nil, slideDuration: Double? = nil, size: String? = nil, fps: Int? = nil,
                filter: String? = nil, fit: FitMode? = nil, background: String? = nil,
                crf: Int? = nil, preset: String? = nil, hold: HoldStrategy? = nil) {
        self.duration = duration
        self.slideDuration = slideDuration
        if let size { self.size = size }
        if let fps { self.fps = fps }
        if let filter { self.filter = filter }
        if let fit { self.fit = fit }
        if let background { self.background = background }
        if let crf { self.crf = crf }
        if let preset { self.preset = preset }
        if let hold { self.hold = hold }
    }

    /// The settings, each named the way a batch manifest spells it; each one's option, value,
    /// default, range and meaning are its entry in the table, ``setting``.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The photos: the command line's arguments, a manifest's `photos`.
        case photos
        case duration, slideDuration, size, fps, filter, fit, background, crf, preset, hold, codec
        /// HDR video: `--hdr`, a manifest's `hdr`.
        case hdr
        /// The platform the show is for (``Platform``): `--for`, a manifest's `for`.
        case platform = "for"
        case draft
        case transition, transitionDuration, fadeIn, fadeOut, motion, zoom
        case dateStamp, dateFormat, title, framing
        case audio, audioBitrate, audioStart, audioFadeIn, audioFadeOut, audioLoop, loudness, cuts, order, motionPhotos
        /// Captions, one per photo (or a photo object's `caption`).
        case captions
        case captionsFile, captionsFrom, captionPosition, font, webvtt, burnCaptions, captionLanguage
        case titleCard, titleCardSubtitle, titleCardDuration, titleCardBackground, closingCard
        /// The clips' own sound: `ClipSoundSettings/muted`, `ClipSoundSettings/levelDecibels`,
        /// `ClipSoundSettings/duckDecibels`.
        case muteClips, clipVolume, duck
        /// A pick of the best photos (`PickCount`).
        case pick
        /// The MP4 file to write: a manifest's `output`, the command line's `-o`.
        case output
    }


    /// Checks the settings without making a slideshow.
    /// - Parameter photoCount: the number of photos, to check that the length gives each a
    ///   frame; nil to leave that check for later.
    /// - Throws: ``OptionError`` naming the first setting at fault.
    public func validate(photoCount: Int? = nil) throws(OptionError) {
        try check(parsed(photos: [], output: ""), photoCount: photoCount, outputKnown: false)
    }

    /// Checks the settings of a job whose photos or output may be unknown (a manifest's job with
    /// problems of its own): the paths known are checked too.
    func validate(photos: [String]?, output: String?) throws(OptionError) {
        try check(parsed(photos: (photos ?? []).map { Photo(path: $0) }, output: output ?? ""), photoCount: photos?.count, outputKnown: output != nil)
    }

    /// The slideshow these settings describe.
    ///
    /// The text is parsed here, the captions file read (``captionsFile``), and the show's own
    /// rules checked (``Slideshow/checkSettings()``); the photos and the music are read when the
    /// show is rendered (or by ``Slideshow/validate()``).
    /// - Parameters:
    ///   - photos: the photos, in order.
    ///   - output: the MP4 file to write.
    ///   - overwrite: whether a file already at `output` may be replaced.
    /// - Throws: ``OptionError`` naming the first setting at fault: a size that is not `WxH`
    ///   or not even, an unknown look, a colour that is not `#RRGGBB`, settings given together
    ///   that do not go together (`checkGivenSettings()`), a bit rate that is not one, a
    ///   captions file that cannot be read, and then whatever ``Slideshow/checkSettings()`` refuses.
    public func slideshow(photos: [Photo], output: String, overwrite: Bool = false) throws(OptionError) -> Slideshow {
        var show = try parsed(photos: photos, output: output)
        try readCaptionsFile(into: &show)
        show.overwrite = overwrite
        do {
            try check(show, photoCount: photos.count)
        } catch where (error.field == .duration || error.field == .titleCardDuration) && Self.noneIsAnImage(photos) {
            // A show of clips alone lasts as long as they do, whatever its total:
            // ``Slideshow/validate()`` checks it again once the clips' lengths are known.
        }
        return show
    }

    /// The captions of ``captionsFile``, one per line (`\n` or `\r\n`; the end's newline
    /// starts no other), into the show; the file becomes one of its inputs, which no output may
    /// replace, and text that is not UTF-8 a warning (`CaptionFile/decode(_:)`).
    /// - Throws: ``OptionError`` naming the file when it cannot be read, is not a regular file,
    ///   or is over `CaptionFile/maximumBytes`.
    private func readCaptionsFile(into show: inout Slideshow) throws(OptionError) {
        guard let captionsFile else { return }
        let bytes: [UInt8]
        do {
            bytes = try CaptionFile.read(captionsFile)
        } catch {
            throw OptionError(.captionsFile, "\(captionsFile): \(error.reason)")
        }
        let (text, problem) = CaptionFile.decode(bytes)
        // `\r\n` is one Character, a newline like `\n`.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if lines.last == "" { lines.removeLast() }
        show.text.captions = lines.map { Caption($0, position: captionPosition) }
        show.otherInputs.append(captionsFile)
        if let problem { show.settingWarnings.append(TextWarning(source: captionsFile, reason: problem)) }
    }

    /// Whether no item is an image by its first bytes (all clips, likely): a length that
    /// leaves each item no frame is then not refused before the items are read. False when
    /// one cannot be read (its own error comes later).
    static func noneIsAnImage(_ photos: [Photo]) -> Bool {
        photos.allSatisfy { photo in
            guard PhotoFile.isRegularFile(photo.path), let handle = FileHandle(forReadingAtPath: photo.path) else { return false }
            defer { try? handle.close() }
            guard let bytes = try? handle.read(upToCount: 64) else { return false }
            if case .supported = FormatSniffer.sniff([UInt8](bytes)) { return false }
            return true
        }
    }

    /// The show's own rules, in these settings' words: the show knows only its length and its
    /// captions, the options know which setting gave them.
    private func check(_ show: Slideshow, photoCount: Int?, outputKnown: Bool = true) throws(OptionError) {
        do {
            try show.checkSettings(photoCount: photoCount, outputKnown: outputKnown)
        } catch where error.field == .duration && error.conflicting == nil && slideDuration != nil {
            throw OptionError(.slideDuration, error.reason)
        } catch where error.field == .captions && captionsFile != nil {
            throw OptionError(.captionsFile, error.reason)
        }
    }

    /// The text parsed into the show's typed settings; nothing is checked here that the show
    /// checks itself.
    private func parsed(photos: [Photo], output: String) throws(OptionError) -> Slideshow {
        var show = try resolved.parsedAsGiven(photos: photos, output: output)
        show.platform = platform
        show.draft = draft
        if let platform {
            show.text.style.safeArea = platform.safeArea
            show.dateImprint?.safeArea = platform.safeArea
        }
        return show
    }

    /// These options with the ``platform``'s values in place of the defaults not ``given``,
    /// then, for a ``draft``, half the width and height (even) and the fastest preset.
    public var resolved: SlideshowOptions {
        var options = self
        let defaults = Self.defaults
        if let platform {
            func use<T: Equatable>(_ field: Field, _ path: WritableKeyPath<SlideshowOptions, T>, _ value: T) {
                if !given.contains(field), options[keyPath: path] == defaults[keyPath: path] { options[keyPath: path] = value }
            }
            use(.size, \.size, platform.size.description)
            use(.fps, \.fps, platform.framesPerSecond)
            use(.fit, \.fit, platform.fit)
            if audio != nil { use(.loudness, \.loudness, platform.loudness) }
        }
        if draft, let size = Size(parsing: options.size), size.width > 0, size.height > 0 {
            func half(_ side: Int) -> Int { max(2, side / 4 * 2) }
            options.size = Size(width: half(size.width), height: half(size.height)).description
            options.preset = VideoSettings.presets[0]
        }
        return options
    }

    /// The text parsed into the show's typed settings, as they stand (no platform, no draft).
    private func parsedAsGiven(photos: [Photo], output: String) throws(OptionError) -> Slideshow {
        guard let frameSize = Size(parsing: size), frameSize.width > 0, frameSize.height > 0 else {
            throw OptionError(.size, "'\(size)' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080")
        }
        guard frameSize.width % 2 == 0, frameSize.height % 2 == 0 else {
            throw OptionError(.size, "\(frameSize) must have an even width and height (4:2:0 video)")
        }
        let look: any Look
        do {
            look = try Looks.parse(filter)
        } catch {
            throw OptionError(.filter, error.description)
        }
        guard let color = RGBColor(hex: background) else {
            throw OptionError(.background, "'\(background)' is not a colour of the form #RRGGBB")
        }
        guard let format = DateImprint.Format(rawValue: dateFormat) else {
            throw OptionError(.dateFormat, "'\(dateFormat)' is not one of \(DateImprint.Format.allCases.map { "\($0.rawValue) (\($0.example))" }.joined(separator: ", "))")
        }
        try checkGivenSettings()
        let soundtrack = try soundtrack()
        var length: SlideshowLength
        var sharedDurations: (given: [Double?], rest: SlideshowLength)? = nil
        if durationFollowsAudio {
            length = .soundtrack
        } else {
            length = slideDuration.map { .perSlide(seconds: $0) } ?? .total(seconds: duration ?? SlideshowLength.defaultSeconds)
            if photoDurations.contains(where: { $0 != nil }) {
                // Kept, so that validation can give clips without a duration their own length.
                sharedDurations = (photoDurations, slideDuration.map { .perSlide(seconds: $0) } ?? .total(seconds: duration ?? SlideshowLength.defaultSeconds))
                length = try perPhotoLength()
            }
        }
        // An animated preview's own defaults, where the size and rate are the video's.
        var videoSize = frameSize, rate = fps
        if AnimatedFormat(outputPath: output) != nil {
            if size == Self.defaults.size {
                let width = AnimatedFormat.defaultWidth
                videoSize = Size(width: width, height: (frameSize.height * width / frameSize.width + 1) / 2 * 2)
            }
            if fps == Self.defaults.fps { rate = AnimatedFormat.defaultFramesPerSecond }
        }
        var video = VideoSettings(size: videoSize, framesPerSecond: rate, crf: crf, preset: preset, hold: hold, codec: codec(for: output))
        video.hdr = hdr.transfer
        // HDR is HEVC Main 10: the codec follows, unless one was given (checkSettings then says).
        if video.hdr != nil, !given.contains(.codec), codec == Self.defaults.codec { video.codec = .hevc }
        var show = Slideshow(photos: photos, output: output, length: length, video: video,
                             look: look, contentMode: fit.contentMode, background: color)
        show.transition = transition
        show.transitionDuration = transitionDuration
        show.fadeIn = fadeIn
        show.fadeOut = fadeOut
        show.motion = motion
        show.zoom = zoom
        show.photoSettings = photoSettings
        show.givenDurations = sharedDurations
        show.backdrop = fit == .blur ? .blur : .color
        show.dateImprint = dateStamp ? DateImprint(format: format) : nil
        show.title = title
        show.framing = framing
        show.soundtrack = soundtrack
        show.cuts = cuts
        show.order = order
        show.text = showText
        show.motionPhotos = motionPhotos
        show.clipSound = clipSound
        if titleCardBackground != "blur" {
            guard let color = RGBColor(hex: titleCardBackground) else {
                throw OptionError(.titleCardBackground, "'\(titleCardBackground)' is not blur or a colour of the form #RRGGBB")
            }
            show.text.cardBackground = .color(color)
        }
        return show
    }

    /// The codec for an output: ``codec`` when given or not the default, else its container's
    /// (VP9 for `.webm`).
    func codec(for output: String) -> VideoCodec {
        guard !given.contains(.codec), codec == Self.defaults.codec, let container = VideoContainer(outputPath: output) else { return codec }
        return container.defaultCodec
    }

    /// The length when some photos have durations of their own.
    private func perPhotoLength() throws(OptionError) -> SlideshowLength {
        if let bad = photoDurations.firstIndex(where: { $0.map { !$0.isFinite || $0 <= 0 } ?? false }) {
            throw OptionError(.photos, "photo \(bad): duration \(Message.seconds(photoDurations[bad]!)) is not a positive number of seconds")
        }
        let given = photoDurations.compactMap { $0 }.reduce(0, +)
        let others = photoDurations.filter { $0 == nil }.count
        let each: Double
        if let slideDuration {
            each = slideDuration
        } else if others == 0 {
            if duration != nil {
                throw OptionError(.duration, "every photo has its own duration; leave out the duration")
            }
            each = 0
        } else {
            let total = duration ?? SlideshowLength.defaultSeconds
            each = (total - given) / Double(others)
            guard each > 0 else {
                throw OptionError(.photos, "the photos' own durations (\(Message.seconds(given)) s) leave nothing of the \(Message.seconds(total)) s for the other \(others)")
            }
        }
        return .perPhoto(seconds: photoDurations.map { $0 ?? each })
    }
}
