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
    /// fields, ``Slideshow`` and ``Soundtrack`` all read theirs from these. The encoder's own
    /// (size, frame rate, CRF, preset, hold) are ``VideoSettings``', the look's ``Looks/original``'s
    /// and the length's ``SlideshowLength/default``'s, read here from the layers that own them.
    public static let defaults = SlideshowOptions()

    /// Total length in seconds; 3 (``SlideshowLength/default``) when neither this nor ``slideDuration`` is given.
    public var duration: Double? = nil
    /// Seconds per photo, instead of ``duration``.
    public var slideDuration: Double? = nil
    /// The frame size, `WxH` with even, positive numbers; `1920x1080` by default.
    public var size: String = VideoSettings().size.description
    /// Frames per second, 1 to 240; 30 by default.
    public var fps: Int = VideoSettings().framesPerSecond
    /// The look, or a chain of looks with parameters, e.g. `minimal-life,vignette:radius=1.8`
    /// (see ``Looks/parse(_:)`` and ``Looks/catalogue``); `original` by default.
    public var filter: String = Looks.original.name
    /// Letterbox, fill or blur; letterbox by default.
    public var fit: FitMode = .letterbox
    /// The colour of the letterbox bars, `#RRGGBB`; black by default.
    public var background: String = "#000000"
    /// x264's constant rate factor, 1 to 51 (VideoSettings/crfRange); 20 by default.
    public var crf: Int = VideoSettings().crf
    /// x264's preset, `ultrafast` to `placebo` (``VideoSettings/presets``); `medium` by default.
    public var preset: String = VideoSettings().preset
    /// How held frames are written; ``HoldStrategy/skip`` by default.
    public var hold: HoldStrategy = VideoSettings().hold
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
    public var title: String? = nil
    /// Which part of a photo `fill` keeps: `faces` (the default) or `center`.
    public var framing: Framing = .faces
    /// The music's file (``Soundtrack``); none by default.
    public var audio: String? = nil
    /// The AAC bit rate, e.g. `192k` or `128000`; `192k` by default.
    public var audioBitrate: String = "\(Soundtrack.defaults.bitrate / 1000)k"
    /// Seconds into the music where the show's sound starts; 0 by default.
    public var audioStart: Double = Soundtrack.defaults.start
    /// Seconds of fade-in; 0 by default.
    public var audioFadeIn: Double = Soundtrack.defaults.fadeIn
    /// Seconds of fade-out, capped at half the show; 2 by default.
    public var audioFadeOut: Double = Soundtrack.defaults.fadeOut
    /// Whether music shorter than the show loops (with a 100 ms crossfade); true by default.
    public var audioLoop: Bool = Soundtrack.defaults.loops
    /// The integrated loudness to bring the music to, in LUFS; none by default.
    public var loudness: Double? = Soundtrack.defaults.loudness
    /// Whether the show lasts as long as the music (`--duration audio`); false by default.
    public var durationFollowsAudio: Bool = false
    /// Where the cuts fall: `even` (the default) or on the music's `beats`.
    public var cuts: CutStyle = .even
    /// The order the photos play in: as `given` (the default), by `name` or by capture `date`.
    public var order: PhotoOrder = .given
    /// Captions, one per photo (nil or empty: none for that photo), or empty for none.
    public var captions: [String?] = []
    /// Where photos without a caption of their own take one from; ``CaptionSource/none`` by default.
    public var captionsFrom: CaptionSource = .none
    /// Where captions go: bottom, top or centre; bottom by default.
    public var captionPosition: Caption.Position = .bottom
    /// The font: a family (`Noto Serif`) or a font file (a path with a `/`, or ending in
    /// `.ttf`, `.otf`, `.ttc` or `.otc`); ``TextStyle/defaultFamily`` by default.
    public var font: String? = nil
    /// A WebVTT file of the captions to write beside the video; none by default.
    public var webvtt: String? = nil
    /// Whether captions are drawn on the pictures (the MP4's subtitle track has them either way); true by default.
    public var burnCaptions: Bool = true
    /// The subtitle track's language, ISO 639-2; `und` by default.
    public var captionLanguage: String = "und"
    /// An opening title card's title; none by default.
    public var titleCard: String? = nil
    /// The card's second line, or `date-range` for the photos' capture dates; none by default.
    public var titleCardSubtitle: String? = nil
    /// A closing card's title; none by default.
    public var closingCard: String? = nil
    /// Seconds each card is shown; 2 by default.
    public var titleCardDuration: Double = 2
    /// What the card is drawn over: `blur` (the first photo, blurred) or a colour `#RRGGBB`; `blur` by default.
    public var titleCardBackground: String = "blur"
    /// Whether motion photos play their video before their still; `still` by default.
    public var motionPhotos: MotionPhotoPlayback = .still
    /// How the clips' own sound is mixed with the music: as recorded, the music 12 dB down under it.
    public var clipSound: ClipSoundSettings = ClipSoundSettings()
    /// Pick the best photos from everything given (``PhotoSelection``, ``select(_:output:)``): a
    /// number, or `auto`; nil (the default) shows every item.
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
        /// `cuts` / `--cuts`.
        case cuts
        /// `order` / `--order`.
        case order
        /// `motionPhotos` / `--motion-photos`.
        case motionPhotos
        /// `captions` (or a photo object's `caption`) / `--caption`, `--captions`.
        case captions
        /// `captionsFrom` / `--captions-from`.
        case captionsFrom
        /// `captionPosition` / `--caption-position`.
        case captionPosition
        /// `font` / `--font`.
        case font
        /// `webvtt` / `--webvtt`.
        case webvtt
        /// `burnCaptions` / `--no-burn-captions`.
        case burnCaptions
        /// `captionLanguage` / `--caption-language`.
        case captionLanguage
        /// `titleCard` / `--title-card`.
        case titleCard
        /// `titleCardSubtitle` / `--title-card-subtitle`.
        case titleCardSubtitle
        /// `titleCardDuration` / `--title-card-duration`.
        case titleCardDuration
        /// `titleCardBackground` / `--title-card-background`.
        case titleCardBackground
        /// `closingCard` / `--closing-card`.
        case closingCard
        /// `muteClips` / `--mute-clips` (``ClipSoundSettings/muted``).
        case muteClips
        /// `clipVolume` / `--clip-volume` (``ClipSoundSettings/levelDecibels``).
        case clipVolume
        /// `duck` / `--duck` (``ClipSoundSettings/duckDecibels``; its ramps too).
        case duck
        /// `pick` / `--pick` (``PickCount``).
        case pick

        /// The MP4 file to write (a manifest's `output`; the command line's `-o`).
        case output
    }


    /// Checks the settings without making a slideshow.
    /// - Parameter photoCount: the number of photos, to check that the length gives each a
    ///   frame; nil to leave that check for later.
    /// - Throws: ``OptionError`` naming the first setting at fault.
    public func validate(photoCount: Int? = nil) throws(OptionError) {
        try check(parsed(photos: [], output: ""), photoCount: photoCount)
    }

    /// The slideshow these settings describe.
    ///
    /// The text is parsed here and the show's own rules checked (``Slideshow/checkSettings()``);
    /// the files are read when the show is rendered (or by ``Slideshow/validate()``).
    /// - Parameters:
    ///   - photos: the photos, in order.
    ///   - output: the MP4 file to write.
    ///   - overwrite: whether a file already at `output` may be replaced.
    /// - Throws: ``OptionError`` naming the first setting at fault: a size that is not `WxH`
    ///   or not even, an unknown look, a colour that is not `#RRGGBB`, both durations given, a
    ///   bit rate that is not one, and then whatever ``Slideshow/checkSettings()`` refuses.
    public func slideshow(photos: [Photo], output: String, overwrite: Bool = false) throws(OptionError) -> Slideshow {
        var show = try parsed(photos: photos, output: output)
        show.overwrite = overwrite
        do {
            try check(show, photoCount: photos.count)
        } catch where (error.field == .duration || error.field == .titleCardDuration) && Self.noneIsAnImage(photos) {
            // A show of clips alone lasts as long as they do, whatever its total:
            // ``Slideshow/validate()`` checks it again once the clips' lengths are known.
        }
        return show
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

    /// The show's own rules, in these settings' words: the show knows only its length, the
    /// options know which setting gave it.
    private func check(_ show: Slideshow, photoCount: Int?) throws(OptionError) {
        do {
            try show.checkSettings(photoCount: photoCount)
        } catch where error.field == .duration && error.conflicting == nil && slideDuration != nil {
            throw OptionError(.slideDuration, error.reason)
        }
    }

    /// The text parsed into the show's typed settings; nothing is checked here that the show
    /// checks itself.
    private func parsed(photos: [Photo], output: String) throws(OptionError) -> Slideshow {
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
        if duration != nil && slideDuration != nil {
            throw OptionError(field: .slideDuration, reason: "give duration or slideDuration, not both", conflicting: .duration)
        }
        let soundtrack = try soundtrack()
        var length: SlideshowLength
        var sharedDurations: (given: [Double?], rest: SlideshowLength)? = nil
        if durationFollowsAudio {
            if duration != nil || slideDuration != nil {
                throw OptionError(field: .duration, reason: "give duration 'audio' or a number of seconds, not both")
            }
            length = .soundtrack
        } else {
            length = slideDuration.map { .perSlide(seconds: $0) } ?? .total(seconds: duration ?? SlideshowLength.defaultSeconds)
            if photoDurations.contains(where: { $0 != nil }) {
                // Kept, so that validation can give clips without a duration their own length.
                sharedDurations = (photoDurations, slideDuration.map { .perSlide(seconds: $0) } ?? .total(seconds: duration ?? SlideshowLength.defaultSeconds))
                length = try perPhotoLength()
            }
        }
        var show = Slideshow(photos: photos, output: output, length: length,
                             video: VideoSettings(size: frameSize, framesPerSecond: fps, crf: crf, preset: preset, hold: hold),
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
