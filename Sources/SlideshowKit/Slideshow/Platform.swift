import SlideshowPixels
import SlideshowSupport

/// Where a show is going to be posted (`--for`, a manifest's `for`): its frame size, frame
/// rate, longest length, loudness and the safe area its app leaves uncovered.
///
/// The figures, and where each comes from, are in docs/sharing.md. A platform's values replace
/// the defaults of the settings not given (``SlideshowOptions/platform``); a show longer than
/// ``maximumSeconds`` is refused, naming the limit.
public enum Platform: String, SettingChoice, Sendable, Hashable {
    /// Instagram and Facebook Reels.
    case reels
    /// YouTube Shorts.
    case shorts
    /// TikTok.
    case tiktok
    /// Instagram and Facebook Stories, WhatsApp status.
    case story
    /// A YouTube video (landscape).
    case youtube
    /// An Instagram feed post, square.
    case square

    /// The settings whose defaults a platform's values stand in for, unless given
    /// (``SlideshowOptions/given``).
    public static let settings: Set<SlideshowOptions.Field> = [.size, .fps, .fit, .loudness]

    /// The frame size.
    public var size: Size {
        switch self {
        case .reels, .shorts, .tiktok, .story: Size(width: 1080, height: 1920)
        case .youtube: Size(width: 1920, height: 1080)
        case .square: Size(width: 1080, height: 1080)
        }
    }

    /// Frames per second.
    public var framesPerSecond: Int { 30 }

    /// The longest video the platform takes, in seconds.
    public var maximumSeconds: Double {
        switch self {
        case .reels, .shorts, .square: 180
        case .tiktok: 600
        case .story: 60
        case .youtube: 12 * 3600
        }
    }

    /// The integrated loudness the platform plays sound at, in LUFS (the music is brought to it).
    public var loudness: Double { -14 }

    /// The part of the frame the app's buttons, names and captions leave uncovered: captions,
    /// cards and the date imprint stay inside it.
    public var safeArea: SafeArea {
        switch self {
        // Meta: 14% at the top, 35% at the bottom, 6% at each side.
        case .reels, .story: SafeArea(top: 1400, bottom: 3500, left: 600, right: 600)
        // Google's vertical ads: 288 px top, 672 bottom, 48 left, 192 right of 1080x1920.
        case .shorts: SafeArea(top: 1500, bottom: 3500, left: 444, right: 1778)
        // TikTok: 250 px top, 420 bottom, 170 right of 1080x1920; the title-safe 5% on the left.
        case .tiktok: SafeArea(top: 1302, bottom: 2188, left: 500, right: 1574)
        case .youtube, .square: .titleSafe
        }
    }

    /// How photos fill the frame unless `--fit` is given: under a vertical or square frame, most
    /// photos have another shape, so the whole photo over a blurred copy of itself; letterbox
    /// (the default) for a landscape one.
    public var fit: FitMode {
        size.height >= size.width ? .blur : SlideshowOptions.defaults.fit
    }

    /// The platform in words for the help: `reels (1080x1920, 30 fps, at most 180 s)`.
    var summary: String {
        let limit = maximumSeconds >= 3600 ? "\(Int(maximumSeconds / 3600)) h" : "\(Int(maximumSeconds)) s"
        return "\(size) at \(framesPerSecond) fps, at most \(limit)"
    }
}

extension Slideshow {
    /// Why the show is too long for its ``platform``: `the show lasts 200 s; reels takes at
    /// most 180 s (3 min): make it shorter`; nil when it fits.
    /// - Parameter photoFrames: the photos' frames, cards left out (``Timeline/frameCount``).
    func lengthProblem(photoFrames: Int) -> OptionError? {
        guard let platform else { return nil }
        let fps = video.framesPerSecond
        let frames = openingCardFrames + photoFrames + closingCardFrames
        let limitFrames = Int((platform.maximumSeconds * Double(fps)).rounded())
        guard frames > limitFrames else { return nil }
        let limit = Int(platform.maximumSeconds)
        let words = limit >= 3600 ? "\(limit / 3600) h" : limit > 60 && limit % 60 == 0 ? "\(limit) s (\(limit / 60) min)" : "\(limit) s"
        return OptionError(.platform, "the show lasts \(Message.seconds(Double(frames) / Double(fps))) s; \(platform.rawValue) takes at most \(words): make it shorter")
    }
}
