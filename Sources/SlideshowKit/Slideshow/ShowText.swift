import SlideshowImages
import SlideshowText
import SlideshowWriter

/// The words on a show: each photo's caption and how captions look.
///
/// ```swift
/// show.text.captions = [Caption("Lisbon, the first morning"), nil, Caption("Sintra")]
/// show.text.source = .metadata        // the others take their photo's own caption
/// show.text.style.font = .family("Noto Serif")
/// ```
///
/// A caption is drawn on its photo's picture, after the look (the look does not tint the
/// words) and the date imprint, inside the title-safe area. A held photo's caption is drawn
/// once, into its slide, so held frames stay free; a moving photo's is laid over each frame
/// after the picture moves, so the words stay put. Either way a caption goes with its photo:
/// in a dissolve it fades with it.
public struct ShowText: Sendable, Hashable {
    /// One caption per photo (nil: none for that photo), or empty for none.
    public var captions: [Caption?]
    /// Where a photo without a caption in ``captions`` takes one from; none by default.
    public var source: CaptionSource
    /// Where the photos' own captions (``CaptionSource/metadata``) go; those of ``captions``
    /// carry their own position.
    public var position: Caption.Position
    /// The font, colours and sizes.
    public var style: TextStyle
    /// A WebVTT file to write beside the video with each caption timed to its photo's share
    /// (``PreparedSlideshow/subtitleCues``); nil (the default) writes none. Written like the
    /// video: complete or not at all, after the video, and never over a file unless the show
    /// may overwrite.
    public var webVTT: String? = nil
    /// Whether captions are drawn on the pictures; true by default. The MP4's timed-text
    /// track (written whenever a photo has a caption) carries them either way.
    public var burnIn: Bool = true
    /// The timed-text track's language, ISO 639-2 (`eng`, `deu`, `jpn`…); `und` by default.
    public var language: String = "und"
    /// A title card before the first photo; nil (the default) shows none.
    public var openingCard: TitleCard? = nil
    /// A card after the last photo, drawn like the opening one (over the last photo, blurred); nil by default.
    public var closingCard: TitleCard? = nil
    /// Seconds the card is shown; 2 by default. Taken from a total length, added to a length per photo.
    public var cardSeconds: Double = 2
    /// What the card is drawn over; the blurred first photo by default.
    public var cardBackground: CardBackground = .blurredFirstPhoto
    /// Whether a card without a second line gets the photos' date range (`12–18 May 2024`)
    /// from their capture dates; false by default.
    public var cardDateRange: Bool = false

    /// Words on a show; by default none.
    public init(captions: [Caption?] = [], source: CaptionSource = .none, position: Caption.Position = .bottom,
                style: TextStyle = TextStyle()) {
        self.captions = captions
        self.source = source
        self.position = position
        self.style = style
    }

    /// Whether any photo may get a caption: the style's font is then checked and loaded.
    public var mayDrawText: Bool { captions.contains { $0 != nil } || source != .none }

    /// Each photo's caption: its own in ``captions``, else (with ``CaptionSource/metadata``)
    /// its metadata's, at ``position``.
    /// - Parameter photos: the photos' headers, in order.
    public func resolved(photos: [PhotoInfo]) -> [Caption?] {
        guard mayDrawText else { return [] }
        return photos.indices.map { index in
            if index < captions.count, let caption = captions[index] { return caption }
            guard source == .metadata, var caption = photos[index].caption else { return nil }
            caption.position = position
            return caption
        }
    }
}

/// Where photos take a caption from when none is given for them.
public enum CaptionSource: String, Sendable, Hashable, CaseIterable, SettingChoice {
    /// Nowhere: only the captions given.
    case none
    /// The photo's own metadata: XMP `dc:description` or `dc:title`, IPTC `Caption-Abstract`, EXIF `ImageDescription`.
    case metadata
}

extension Caption.Position: SettingChoice {}

extension TextStyle.Font {
    /// A family name, or a font file when the text names one: it contains a `/` or ends in
    /// `.ttf`, `.otf`, `.ttc` or `.otc` (any case).
    public init(parsing text: String) {
        let lower = text.lowercased()
        if text.contains("/") || [".ttf", ".otf", ".ttc", ".otc"].contains(where: lower.hasSuffix) {
            self = .file(path: text)
        } else {
            self = .family(text)
        }
    }
}

extension SlideshowOptions {
    /// The captions and their style as the show takes them.
    var showText: ShowText {
        var style = TextStyle()
        if let font, !font.isEmpty { style.font = TextStyle.Font(parsing: font) }
        // Given as a list, or in the photos' own settings (a manifest's photo objects).
        let given = photoSettings.contains { $0.caption != nil } ? photoSettings.map(\.caption) : captions
        var text = ShowText(captions: given.map { $0.flatMap { Caption($0, position: captionPosition) } },
                            source: captionsFrom, position: captionPosition, style: style)
        text.webVTT = webvtt
        text.burnIn = burnCaptions
        text.language = captionLanguage
        if let titleCard {
            let range = titleCardSubtitle == TitleCard.dateRangeKeyword
            text.openingCard = TitleCard(title: titleCard, subtitle: range ? nil : titleCardSubtitle)
            text.cardDateRange = range
        }
        text.cardSeconds = titleCardDuration
        text.closingCard = closingCard.flatMap { TitleCard(title: $0) }
        return text
    }
}

extension Slideshow {
    /// The text's rules: captions one per photo.
    /// - Throws: ``OptionError`` for captions that are not one per photo.
    func checkText(photoCount: Int?) throws(OptionError) {
        if !text.captions.isEmpty, let photoCount, text.captions.count != photoCount {
            throw OptionError(.captions, "\(text.captions.count) captions for \(photoCount) photos; give one per photo (an empty one for none)")
        }
        if !SubtitleTrack.isLanguageCode(text.language) {
            throw OptionError(.captionLanguage, "'\(text.language)' is not an ISO 639-2 language code: three letters a to z, e.g. eng, deu or und")
        }
    }

    /// The font checked before anything is rendered, when text may be drawn or a font was
    /// chosen: a font file that cannot be read is refused, naming it.
    /// - Returns: warnings, e.g. an unknown family that falls back to the default.
    /// - Throws: ``RenderError/text(_:)`` naming the font file.
    func checkFont() throws(RenderError) -> [TextWarning] {
        guard text.mayDrawText || text.style.font != .family(TextStyle.defaultFamily) else { return [] }
        do {
            return try text.style.check()
        } catch {
            throw .text(error)
        }
    }
}
