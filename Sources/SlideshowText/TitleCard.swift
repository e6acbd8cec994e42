import SlideshowPixels

/// An opening (or closing) card: a title and an optional second line, centred on the frame.
public struct TitleCard: Sendable, Hashable {
    /// The title, sanitised like a caption; never empty.
    public let title: String
    /// The second line (e.g. the photos' date range), sanitised; nil when there is none.
    public let subtitle: String?
    /// The word that asks for the photos' date range as the second line (`--title-card-subtitle date-range`).
    public static let dateRangeKeyword = "date-range"

    /// A card; nil when the title is empty after sanitising (an empty title is no card).
    /// - Parameters:
    ///   - title: the big line.
    ///   - subtitle: the smaller line under it; empty or nil for none.
    public init?(title: String, subtitle: String? = nil) {
        let clean = TextSanitizer.sanitize(title)
        guard !clean.isEmpty else { return nil }
        self.title = clean
        let second = subtitle.map(TextSanitizer.sanitize) ?? ""
        self.subtitle = second.isEmpty ? nil : second
    }
}

extension TextRenderer {
    /// Draws a title card over a background: the title (bold, at most two lines) and the second
    /// line under it (at most two lines), centred together in the frame, inside its title-safe area.
    /// - Parameters:
    ///   - card: the words.
    ///   - background: a frame-sized picture to draw on, e.g. a blurred first photo.
    /// - Returns: the background with the card drawn on it.
    /// - Throws: ``TextError/cairo(call:message:)`` when cairo cannot draw.
    public func draw(_ card: TitleCard, over background: PixelBuffer) throws(TextError) -> PixelBuffer {
        var frame = background
        for overlay in try overlays(for: card, frame: background.size) { frame.composite(overlay) }
        return frame
    }

    /// Draws a title card on a plain colour.
    /// - Parameters:
    ///   - card: the words.
    ///   - frame: the output size.
    ///   - color: the background colour; black by default.
    /// - Throws: ``TextError/cairo(call:message:)`` when cairo cannot draw.
    public func draw(_ card: TitleCard, frame: Size, color: RGBColor = .black) throws(TextError) -> PixelBuffer {
        try draw(card, over: PixelBuffer(size: frame, filledWith: color))
    }

    /// The card's lines as placed overlays: the title, then the second line if any.
    ///
    /// For a card that fades in and out: composite these onto each frame with an opacity.
    /// - Throws: ``TextError/cairo(call:message:)`` when cairo cannot draw.
    public func overlays(for card: TitleCard, frame: Size) throws(TextError) -> [TextOverlay] {
        let safe = style.safeArea.rect(in: frame)
        var blocks = [try drawBlock(card.title, em: Self.em(style.titleSize, of: frame), bold: true, maxLines: 2,
                                    maxWidth: safe.width, layers: .all)]
        if let subtitle = card.subtitle {
            blocks.append(try drawBlock(subtitle, em: Self.em(style.subtitleSize, of: frame), bold: false, maxLines: 2,
                                        maxWidth: safe.width, layers: .all))
        }
        // The blocks' padding (outline and shadow room) is the gap between them.
        let total = blocks.reduce(0) { $0 + $1.height }
        // Centred in the safe area (for the title-safe area, in the frame).
        var y = max(safe.y, (2 * safe.y + safe.height - total) / 2)
        return blocks.map { block in
            defer { y += block.height }
            let rect = Rect(x: safe.x + (safe.width - block.width) / 2, y: y, width: block.width, height: block.height)
            return TextOverlay(rect: rect, pixels: block.pixels)
        }
    }
}
