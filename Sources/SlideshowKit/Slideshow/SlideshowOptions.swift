/// A slideshow's settings as a person writes them, on the command line (`slideshow make`) or
/// in a batch manifest, and the one set of rules that turns them into a ``Slideshow``.
///
/// Sizes, looks, colours and presets are text here, exactly as typed; ``slideshow(photos:output:overwrite:)``
/// parses and checks them all, and says which setting is at fault:
///
/// ```swift
/// var options = SlideshowOptions()
/// options.duration = 6
/// options.filter = "minimal-life"
/// let show = try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
/// ```
public struct SlideshowOptions: Sendable, Hashable {
    /// Total length in seconds; 3 when neither this nor ``slideDuration`` is given.
    public var duration: Double?
    /// Seconds per photo, instead of ``duration``.
    public var slideDuration: Double?
    /// The frame size, `WxH` with even, positive numbers; `1920x1080` by default.
    public var size: String
    /// Frames per second, 1 to 240; 30 by default.
    public var fps: Int
    /// The look, or a chain of looks with parameters, e.g. `minimal-life,vignette:radius=1.8`
    /// (see ``Looks/parse(_:)`` and ``Looks/catalogue``); `original` by default.
    public var filter: String
    /// Letterbox, fill or blur; letterbox by default.
    public var fit: FitMode
    /// The colour of the letterbox bars, `#RRGGBB`; black by default.
    public var background: String
    /// x264's constant rate factor, 1 to 51 (VideoSettings/crfRange); 20 by default.
    public var crf: Int
    /// x264's preset, `ultrafast` to `placebo` (``VideoSettings/presets``); `medium` by default.
    public var preset: String
    /// How held frames are written; ``HoldStrategy/skip`` by default.
    public var hold: HoldStrategy
    /// The transition at each cut; `none` (a hard cut) by default.
    public var transition: TransitionEffect = .none
    /// Seconds each transition lasts, 0 or more; 0.5 by default.
    public var transitionDuration: Double = 0.5
    /// Seconds of fade from black at the start, 0 or more; 0 by default.
    public var fadeIn: Double = 0
    /// Seconds of fade to black at the end, 0 or more; 0 by default.
    public var fadeOut: Double = 0
    /// How photos move; `none` by default.
    public var motion: MotionStyle = .none
    /// How far the view changes under motion, 0 to 1; 0.1 by default.
    public var zoom: Double = 0.1
    /// Per-photo settings (a manifest's photo objects): empty, or one per photo.
    public var photoSettings: [PhotoSettings] = []
    /// Per-photo durations in seconds (nil: the show's share): empty, or one per photo. Photos
    /// without one take ``slideDuration`` each, or share what is left of ``duration`` (3 s by default).
    public var photoDurations: [Double?] = []
    /// Whether each photo's capture date is printed in its lower right corner; off by default.
    public var dateStamp: Bool = false
    /// How the date is written: `ymd`, `mdy`, `dmy` or `iso` (``DateImprint/Format``); `ymd` by default.
    public var dateFormat: String = DateImprint.Format.ymd.rawValue
    /// The MP4's title tag; none by default.
    public var title: String?
    /// Which part of a photo `fill` keeps: `faces` (the default) or `center`.
    public var framing: Framing = .faces
    /// The music's file (``Soundtrack``); none by default.
    public var audio: String? = nil
    /// The AAC bit rate, e.g. `192k` or `128000`; `192k` by default.
    public var audioBitrate: String = "192k"
    /// Seconds into the music where the show's sound starts; 0 by default.
    public var audioStart: Double = 0
    /// Seconds of fade-in; 0 by default.
    public var audioFadeIn: Double = 0
    /// Seconds of fade-out, capped at half the show; 2 by default.
    public var audioFadeOut: Double = 2
    /// Whether music shorter than the show loops (with a 100 ms crossfade); true by default.
    public var audioLoop: Bool = true
    /// The integrated loudness to bring the music to, in LUFS; none by default.
    public var loudness: Double? = nil
    /// Whether the show lasts as long as the music (`--duration audio`); false by default.
    public var durationFollowsAudio: Bool = false

    /// Creates options; the defaults are the product's.
    public init(duration: Double? = nil, slideDuration: Double? = nil, size: String = "1920x1080", fps: Int = 30,
                filter: String = "original", fit: FitMode = .letterbox, background: String = "#000000",
                crf: Int = 20, preset: String = "medium", hold: HoldStrategy = .skip) {
        self.duration = duration
        self.slideDuration = slideDuration
        self.size = size
        self.fps = fps
        self.filter = filter
        self.fit = fit
        self.background = background
        self.crf = crf
        self.preset = preset
        self.hold = hold
    }

    /// The settings, each named the way a batch manifest spells it.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The photos (the command line's arguments; a manifest's `photos`).
        case photos
        /// `duration` / `--duration`.
        case duration
        /// `slideDuration` / `--slide-duration`.
        case slideDuration
        /// `size` / `--size`.
        case size
        /// `fps` / `--fps`.
        case fps
        /// `filter` / `--filter`.
        case filter
        /// `fit` / `--fit`.
        case fit
        /// `background` / `--background`.
        case background
        /// `crf` / `--crf`.
        case crf
        /// `preset` / `--preset`.
        case preset
        /// `hold` / `--hold`.
        case hold
        /// `transition` / `--transition`.
        case transition
        /// `transitionDuration` / `--transition-duration`.
        case transitionDuration
        /// `fadeIn` / `--fade-in`.
        case fadeIn
        /// `fadeOut` / `--fade-out`.
        case fadeOut
        /// `motion` / `--motion`.
        case motion
        /// `zoom` / `--zoom`.
        case zoom
        /// `dateStamp` / `--date-stamp`.
        case dateStamp
        /// `dateFormat` / `--date-format`.
        case dateFormat
        /// `title` / `--title`.
        case title
        /// `framing` / `--framing`.
        case framing
        /// `audio` / `--audio`.
        case audio
        /// `audioBitrate` / `--audio-bitrate`.
        case audioBitrate
        /// `audioStart` / `--audio-start`.
        case audioStart
        /// `audioFadeIn` / `--audio-fade-in`.
        case audioFadeIn
        /// `audioFadeOut` / `--audio-fade-out`.
        case audioFadeOut
        /// `audioLoop` / `--no-audio-loop`.
        case audioLoop
        /// `loudness` / `--loudness`.
        case loudness

        /// The MP4 file to write (a manifest's `output`; the command line's `-o`).
        case output
    }

    /// Checks the settings without making a slideshow.
    /// - Parameter photoCount: the number of photos, to check that the length gives each a
    ///   frame; nil to leave that check for later.
    /// - Throws: ``OptionError`` naming the first setting at fault.
    public func validate(photoCount: Int? = nil) throws(OptionError) {
        _ = try settings(photoCount: photoCount)
    }

    /// The slideshow these settings describe.
    ///
    /// Only the settings are checked here; the photos are read when the show is rendered
    /// (or by ``Slideshow/validate()``).
    /// - Parameters:
    ///   - photos: the photos, in order.
    ///   - output: the MP4 file to write.
    ///   - overwrite: whether a file already at `output` may be replaced.
    /// - Throws: ``OptionError`` naming the first setting at fault: no photos, a size that is
    ///   not `WxH` or not even, a frame rate, CRF or preset out of range, an unknown look, a
    ///   colour that is not `#RRGGBB`, both durations given, a length that gives a photo no
    ///   frame or is over ``Timeline/maximumSeconds``, or a path (photo or output) with a NUL character.
    public func slideshow(photos: [Photo], output: String, overwrite: Bool = false) throws(OptionError) -> Slideshow {
        let settings = try settings(photoCount: photos.count)
        if let index = photos.firstIndex(where: { Message.hasNUL($0.path) }) {
            throw OptionError(.photos, "photo \(index) contains a NUL character, which no file name can")
        }
        if Message.hasNUL(output) { throw OptionError(.output, "contains a NUL character, which no file name can") }
        var show = Slideshow(photos: photos, output: output, length: settings.length, video: settings.video,
                             look: settings.look, contentMode: fit.contentMode, background: settings.background,
                             overwrite: overwrite)
        show.transition = transition
        show.transitionDuration = transitionDuration
        show.fadeIn = fadeIn
        show.fadeOut = fadeOut
        show.motion = motion
        show.zoom = zoom
        show.photoSettings = photoSettings
        show.backdrop = fit == .blur ? .blur : .color
        show.dateImprint = dateStamp ? settings.imprint : nil
        show.title = title
        show.framing = framing
        show.soundtrack = try soundtrack()
        return show
    }

    private func settings(photoCount: Int?) throws(OptionError) -> (video: VideoSettings, length: SlideshowLength, look: any Look, background: RGBColor, imprint: DateImprint) {
        if photoCount == 0 { throw OptionError(.photos, "no photos given") }
        guard let frameSize = Size(parsing: size), frameSize.width > 0, frameSize.height > 0 else {
            throw OptionError(.size, "'\(size)' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080")
        }
        guard frameSize.width % 2 == 0, frameSize.height % 2 == 0 else {
            throw OptionError(.size, "\(frameSize) must have an even width and height (4:2:0 video)")
        }
        // VideoSettings owns the rules for these; each is checked beside defaults (which pass)
        // so that its problem is known to be that setting's.
        for (field, alone) in [(Field.size, VideoSettings(size: frameSize)), (.fps, VideoSettings(framesPerSecond: fps)),
                               (.crf, VideoSettings(crf: crf)), (.preset, VideoSettings(preset: preset))] {
            if let problem = alone.problem { throw OptionError(field, problem) }
        }
        let video = VideoSettings(size: frameSize, framesPerSecond: fps, crf: crf, preset: preset, hold: hold)
        // Size and rate together (the H.264 level's macroblock rate).
        if let problem = video.problem { throw OptionError(.size, problem) }
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
        let imprint = DateImprint(format: format)
        if duration != nil && slideDuration != nil {
            throw OptionError(field: .slideDuration, reason: "give duration or slideDuration, not both", conflicting: .duration)
        }
        _ = try soundtrack()
        if durationFollowsAudio {
            if audio == nil {
                throw OptionError(field: .duration, reason: "a duration of 'audio' needs an audio file")
            }
            if duration != nil || slideDuration != nil {
                throw OptionError(field: .duration, reason: "give duration 'audio' or a number of seconds, not both")
            }
            try checkPlan(length: .soundtrack, photoCount: photoCount)
            return (video, .soundtrack, look, color, imprint)
        }
        var length: SlideshowLength = slideDuration.map { .perSlide(seconds: $0) } ?? .total(seconds: duration ?? 3)
        if photoDurations.contains(where: { $0 != nil }) {
            length = try perPhotoLength()
        }
        if !photoSettings.isEmpty, let photoCount, photoSettings.count != photoCount {
            throw OptionError(.photos, "\(photoSettings.count) per-photo settings for \(photoCount) photos")
        }
        if let photoCount {
            do {
                _ = try Timeline(photoCount: photoCount, length: length, framesPerSecond: fps)
            } catch {
                throw OptionError(slideDuration == nil ? .duration : .slideDuration, error.description)
            }
        }
        try checkPlan(length: length, photoCount: photoCount)
        return (video, length, look, color, imprint)
    }

    /// The length when some photos have durations of their own.
    private func perPhotoLength() throws(OptionError) -> SlideshowLength {
        if let bad = photoDurations.firstIndex(where: { $0.map { !$0.isFinite || $0 <= 0 } ?? false }) {
            throw OptionError(.photos, "photo \(bad): duration \(photoDurations[bad]!) is not a positive number of seconds")
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
            let total = duration ?? 3
            each = (total - given) / Double(others)
            guard each > 0 else {
                throw OptionError(.photos, "the photos' own durations (\(given) s) leave nothing of the \(total) s for the other \(others)")
            }
        }
        return .perPhoto(seconds: photoDurations.map { $0 ?? each })
    }

    /// Checks the transition, fade and motion settings: each 0 or more (the zoom up to 1), and
    /// none longer than the show.
    private func checkPlan(length: SlideshowLength, photoCount: Int?) throws(OptionError) {
        for (field, value) in [(Field.transitionDuration, transitionDuration), (.fadeIn, fadeIn), (.fadeOut, fadeOut)]
        where !value.isFinite || value < 0 {
            throw OptionError(field, "\(value) is not 0 or more seconds")
        }
        if !zoom.isFinite || zoom < 0 || zoom > 1 {
            throw OptionError(.zoom, "\(zoom) is not between 0 and 1")
        }
        let seconds: Double?
        switch length {
        case .total(let total): seconds = total
        case .perSlide(let each): seconds = photoCount.map { each * Double($0) }
        case .perPhoto(let each): seconds = each.reduce(0, +)
        case .soundtrack: seconds = nil
        }
        guard let seconds else { return }
        if transition != .none, transitionDuration > seconds {
            throw OptionError(.transitionDuration, "\(transitionDuration) s is longer than the show (\(seconds) s)")
        }
        if fadeIn + fadeOut > seconds {
            throw OptionError(fadeOut > 0 ? .fadeOut : .fadeIn, "\(fadeIn) s + \(fadeOut) s of fades are longer than the show (\(seconds) s)")
        }
    }
}

extension SlideshowOptions {
    /// The soundtrack the audio settings describe, or nil without an audio file.
    /// - Throws: ``OptionError`` naming the audio setting at fault.
    func soundtrack() throws(OptionError) -> Soundtrack? {
        guard let audio else {
            for (field, given) in [(Field.audioStart, audioStart != 0), (.audioFadeIn, audioFadeIn != 0), (.audioFadeOut, audioFadeOut != 2),
                                   (.audioLoop, !audioLoop), (.loudness, loudness != nil), (.audioBitrate, audioBitrate != "192k")] where given {
                throw OptionError(field, "is only for a soundtrack: give an audio file too")
            }
            return nil
        }
        guard let bitrate = Self.bitrate(parsing: audioBitrate) else {
            throw OptionError(.audioBitrate, "'\(audioBitrate)' is not a bit rate such as 192k or 128000")
        }
        let soundtrack = Soundtrack(path: audio, start: audioStart, fadeIn: audioFadeIn, fadeOut: audioFadeOut, loops: audioLoop,
                                    loudness: loudness, bitrate: bitrate)
        if let problem = soundtrack.problem {
            let field: Field
            switch problem {
            case _ where !soundtrack.start.isFinite || soundtrack.start < 0: field = .audioStart
            case _ where !soundtrack.fadeIn.isFinite || soundtrack.fadeIn < 0: field = .audioFadeIn
            case _ where !soundtrack.fadeOut.isFinite || soundtrack.fadeOut < 0: field = .audioFadeOut
            case _ where !Soundtrack.bitrates.contains(bitrate): field = .audioBitrate
            default: field = .loudness
            }
            throw OptionError(field, problem)
        }
        return soundtrack
    }

    /// `192k`, `0.5M` or `128000` in bits per second.
    static func bitrate(parsing text: String) -> Int? {
        let lower = text.lowercased()
        let (digits, scale): (Substring, Double) = lower.hasSuffix("k") ? (lower.dropLast(), 1000)
            : lower.hasSuffix("m") ? (lower.dropLast(), 1_000_000) : (Substring(lower), 1)
        guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
        let bits = (value * scale).rounded()
        return bits <= Double(Int32.max) ? Int(bits) : nil
    }
}

/// Letterbox, fill or blur: how photos of another shape fill the frame, by the names the command
/// line and manifests use.
public enum FitMode: String, Sendable, Hashable, CaseIterable {
    /// The whole photo, between bars (``ContentMode/aspectFit``).
    case letterbox
    /// Cropped to fill the frame (``ContentMode/aspectFill``).
    case fill
    /// The whole photo over a blurred, darkened copy of itself that fills the frame
    /// (``ContentMode/aspectFit`` with ``Backdrop/blur``): no bars.
    case blur

    /// The library's content mode.
    public var contentMode: ContentMode {
        switch self {
        case .letterbox: .aspectFit
        case .fill: .aspectFill
        case .blur: .aspectFit
        }
    }
}

/// Why ``SlideshowOptions`` cannot make a slideshow: the setting at fault and the reason.
///
/// It speaks of settings as ``SlideshowOptions/Field`` names them; a program with its own
/// words for them (the command line's options) builds its message from ``field``, ``reason``
/// and ``conflicting``.
public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting at fault.
    public var field: SlideshowOptions.Field
    /// Why, in words that do not depend on how the setting was given, e.g.
    /// `'big' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080`.
    public var reason: String
    /// The other setting, when the fault is that both were given (``field`` is the second).
    public var conflicting: SlideshowOptions.Field?

    /// Creates an error.
    public init(field: SlideshowOptions.Field, reason: String, conflicting: SlideshowOptions.Field? = nil) {
        self.field = field
        self.reason = reason
        self.conflicting = conflicting
    }

    init(_ field: SlideshowOptions.Field, _ reason: String) {
        self.init(field: field, reason: reason)
    }

    /// `<field>: <reason>`, one line, e.g. `size: 'big' is not WIDTHxHEIGHT …`.
    public var description: String { Message.oneLine("\(field.rawValue): \(reason)") }
}
