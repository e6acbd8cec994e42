import Foundation
import SlideshowAudio
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowLooks
import SlideshowPixels
import SlideshowPlan
import SlideshowSupport
import SlideshowVideo
import SlideshowWriter
import SlideshowText

/// One slideshow to render: the photos, the output file and how it should look.
///
/// Its settings start as ``SlideshowOptions/defaults``; each one's default and range are its
/// entry in the table of settings (``SlideshowOptions/Field/setting``, `docs/settings.md`).
///
/// ```swift
/// var show = Slideshow(photos: ["a.jpg", "b.jpg", "c.jpg"].map(Photo.init), output: "out.mp4")
/// show.look = Looks.minimalLife
/// let result = try await show.render()
/// print(result.frames, result.bytes)
/// ```
public struct Slideshow: Sendable {
    /// The photos, in the order they are shown; an item whose content is a video (MP4, MOV,
    /// MKV, WebM, AVI, MPEG-TS/AVCHD, MPEG-PS, 3GP, DV, …: `ClipProbe`) is a clip, played for its own length or its part
    /// (``PhotoSettings/clipPart``).
    public var photos: [Photo]
    /// The MP4 file to write.
    public var output: String
    /// How long the show lasts; `SlideshowLength/default` by default.
    public var length: SlideshowLength
    /// Size, frame rate and encoder settings.
    public var video: VideoSettings
    /// The film look applied to each slide; `Looks/original` (none) by default.
    public var look: any Look
    /// Letterbox (`.aspectFit`, the default) or crop to fill (`.aspectFill`).
    public var contentMode: ContentMode
    /// The colour of the letterbox bars; black by default.
    public var background: RGBColor
    /// Whether a file already at ``output`` may be replaced.
    public var overwrite: Bool
    /// How each photo gives way to the next; a hard cut (`TransitionEffect/none`) by default.
    public var transition: TransitionEffect = SlideshowOptions.defaults.transition
    /// The length of each transition in seconds; shortened so that every
    /// photo is still alone on screen for at least half its share (`FramePlan/transitionCap`).
    public var transitionDuration: Double = SlideshowOptions.defaults.transitionDuration
    /// Seconds of fade from black at the start.
    public var fadeIn: Double = SlideshowOptions.defaults.fadeIn
    /// Seconds of fade to black at the end.
    public var fadeOut: Double = SlideshowOptions.defaults.fadeOut
    /// How photos move (Ken Burns); still (`MotionStyle/none`) by default.
    public var motion: MotionStyle = SlideshowOptions.defaults.motion
    /// How far the view changes under motion (0.1: by 10%).
    public var zoom: Double = SlideshowOptions.defaults.zoom
    /// Per-photo settings that override the show's: empty, or one per photo.
    public var photoSettings: [PhotoSettings] = []
    /// What surrounds a letterboxed photo: bars of ``background`` (the default) or a blurred,
    /// darkened copy of the photo filling the frame.
    public var backdrop: Backdrop = .color
    /// The orange date printed in the picture's lower right corner from each photo's EXIF
    /// capture date, as film cameras did; nil (the default) prints none.
    public var dateImprint: DateImprint?
    /// The platform the show is made for: a show longer than it takes is refused when it is
    /// laid out (``validate()``). Its size, safe area and so on are set by ``SlideshowOptions``.
    public var platform: Platform? = nil
    /// Whether this is a draft (``SlideshowOptions/draft``): the result says so.
    public var draft: Bool = false
    /// The MP4's title tag; nil (the default) writes none.
    public var title: String?
    /// Which part of a photo `aspectFill` keeps: where the faces are (the default; the centre
    /// when no detector is available) or the centre.
    public var framing: Framing = SlideshowOptions.defaults.framing
    /// The music, if any: an AAC track as long as the show, beside the video.
    public var soundtrack: Soundtrack? = nil
    /// Where the cuts fall: evenly (the default) or on the music's beats (``CutStyle``).
    public var cuts: CutStyle = SlideshowOptions.defaults.cuts
    /// The order the photos play in, applied by ``validate()`` from their headers; as given by default.
    public var order: PhotoOrder = SlideshowOptions.defaults.order
    /// The words on the show: captions, where they come from, their style (see ``ShowText``);
    /// none by default.
    public var text: ShowText = ShowText()
    /// Whether motion photos play their video before their still; ``MotionPhotoPlayback/still`` by default.
    public var motionPhotos: MotionPhotoPlayback = SlideshowOptions.defaults.motionPhotos
    /// How the clips' own sound is mixed with the music.
    public var clipSound: ClipSoundSettings = SlideshowOptions.defaults.clipSound
    /// Other files the show was made from (the file its captions were read from): no output may
    /// be one of them (``validate()`` compares them with the video and the WebVTT file). Empty by default.
    public var otherInputs: [String] = []
    /// The per-photo durations as given (nil: a share of `rest`) when ``length`` was made
    /// from them (``SlideshowOptions/photoDurations``): validation gives a clip without one its
    /// own length (``lengthWithClips(_:items:)``).
    var givenDurations: (given: [Double?], rest: SlideshowLength)? = nil
    /// What the user should know about the settings as given (a captions file that is not
    /// UTF-8 throughout): ``validate()`` puts them among ``PreparedSlideshow/textWarnings``.
    var settingWarnings: [TextWarning] = []

    /// Creates a slideshow with the product's defaults (``SlideshowOptions/defaults``).
    public init(photos: [Photo], output: String, length: SlideshowLength = .default,
                video: VideoSettings = VideoSettings(), look: any Look = Looks.original,
                contentMode: ContentMode = SlideshowOptions.defaults.fit.contentMode,
                background: RGBColor = RGBColor(hex: SlideshowOptions.defaults.background)!, overwrite: Bool = false) {
        self.photos = photos
        self.output = output
        self.length = length
        self.video = video
        self.look = look
        self.contentMode = contentMode
        self.background = background
        self.overwrite = overwrite
    }
}

/// What fills the frame around a letterboxed photo.
public enum Backdrop: Sendable, Hashable {
    /// Bars of the slideshow's background colour.
    case color
    /// The photo itself, scaled to fill the frame, blurred and darkened (see `BlurredBackdrop`).
    case blur
}

/// How far a render is.
public struct RenderProgress: Sendable, Hashable {
    /// Photos (and clips) decoded and handed to the writer.
    public var completedPhotos: Int
    /// Photos in the show.
    public var totalPhotos: Int
    /// `completedPhotos / totalPhotos`, 0 to 1.
    public var fraction: Double { totalPhotos == 0 ? 1 : Double(completedPhotos) / Double(totalPhotos) }
}

/// An event of ``Slideshow/renderEvents()``.
public enum RenderEvent: Sendable {
    /// Progress so far.
    case progress(RenderProgress)
    /// The render is done.
    case finished(RenderResult)
}

/// What a render wrote.
public struct RenderResult: Sendable, Hashable {
    /// The output path.
    public var output: String
    /// The video's length.
    public var duration: MediaTime
    /// Frames in the video.
    public var frames: Int
    /// The frame size.
    public var size: Size
    /// Frames per second.
    public var framesPerSecond: Int
    /// The look's name.
    public var look: String
    /// The file's size in bytes.
    public var bytes: Int
    /// Wall-clock seconds the render took.
    public var seconds: Double
    /// The soundtrack's loudness before and after its gain, when a loudness was asked for.
    public var loudness: LoudnessReport? = nil
    /// Whether the render was a draft (``Slideshow/draft``).
    public var draft: Bool = false
    /// Problems that did not stop the render, each with its kind and file: validation's
    /// (``PreparedSlideshow/warnings``), then the photos' found decoding, the text's, the
    /// sound's (damaged audio packets skipped), the loudness not reached, the clips'.
    public var warnings: [RenderWarning] = []
    /// The photos' paths, in the order they played (``Slideshow/order`` applied).
    public var photos: [String] = []
    /// When each photo first appears (its first frame, a transition's centre), in play order.
    public var photoStarts: [MediaTime] = []
    /// With cuts on the beat asked for: the beat found and, when the cuts stayed even, why.
    public var beats: BeatCutReport? = nil
    /// With cuts on the beat asked for: the tempo found in the music, in beats per minute,
    /// whether or not the cuts could go on it; nil when it has no steady beat.
    public var tempo: Double? { beats?.grid?.beatsPerMinute }
}

/// Why a render failed. Each case names the file at fault and says why, in one line.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A setting breaks one of the show's rules (``Slideshow/checkSettings()``): the setting at
    /// fault and why, for a program to name it in its own words (the command line's options).
    case settings(OptionError)
    /// The text cannot be drawn: a font file that cannot be read, Cairo or Pango failing.
    case text(TextError)
    /// The length cannot make this video (no frames for the photos, too many), or a file the
    /// show writes is one it reads or another it writes.
    case invalid(String)
    /// A photo cannot be read.
    case photo(PhotoError)
    /// A clip (or a motion photo's video) cannot be played: no video stream, a codec that is
    /// not supported (named), larger than `ClipLimits`, unreadable.
    case clip(ClipError)
    /// A setting that does not fit the files it was given: a clip's part outside the clip, or
    /// clips that take the whole length asked for (the command line's usage error, status 64).
    case usage(OptionError)
    /// The soundtrack cannot be used.
    case audio(AudioError)
    /// The output cannot be written.
    case output(WriterError)
    /// The render was cancelled; nothing was left at the output path.
    case cancelled

    /// One line: control characters in paths and reasons are escaped (`Message/oneLine(_:)`).
    public var description: String {
        switch self {
        case .settings(let error): error.description
        case .text(let error): Message.oneLine(error.description)
        case .invalid(let reason): Message.oneLine(reason)
        case .photo(let error): Message.oneLine(error.description)
        case .clip(let error): Message.oneLine(error.description)
        case .usage(let error): error.description
        case .audio(let error): Message.oneLine(error.description)
        case .output(let error): Message.oneLine(error.description)
        case .cancelled: "cancelled"
        }
    }
}
