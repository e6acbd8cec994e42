import SlideshowPixels

/// How captions and cards look: the font, the colours and the size relative to the frame.
///
/// Sizes are fractions of the frame's shorter side, so a caption is the same size on a
/// 1920x1080 landscape and a 1080x1920 portrait video, and scales with the resolution.
public struct TextStyle: Sendable, Hashable {
    /// Which font draws the text; characters it lacks come from fontconfig's fallback (the
    /// Noto fonts: every script, and colour emoji).
    public enum Font: Sendable, Hashable, CustomStringConvertible {
        /// An installed family, e.g. `Noto Sans` or `DejaVu Serif`. An unknown family falls
        /// back to ``TextStyle/defaultFamily`` with a warning.
        case family(String)
        /// A font file (TrueType, OpenType, a collection's first face), loaded through
        /// fontconfig for this style only. A file that cannot be read is an error.
        case file(path: String)

        /// The family name or the file's path.
        public var description: String {
            switch self {
            case .family(let name): name
            case .file(let path): path
            }
        }
    }

    /// The family used when none is given, or the one given is not installed.
    public static let defaultFamily = "Noto Sans"

    /// The font; ``defaultFamily`` by default.
    public var font: Font
    /// The colour of the letters; white by default.
    public var fill: RGBColor
    /// The colour of the outline and the soft shadow; black by default.
    public var outline: RGBColor
    /// The caption's em size as a fraction of the frame's shorter side (0.05: 54 px at 1080p);
    /// the renderer holds each size fraction to 0…0.25.
    public var captionSize: Double
    /// A title card's title as a fraction of the frame's shorter side.
    public var titleSize: Double
    /// A title card's second line as a fraction of the frame's shorter side.
    public var subtitleSize: Double
    /// The outline's width on each side of a letter's edge, as a fraction of the em size.
    public var outlineWidth: Double
    /// The soft shadow's blur radius as a fraction of the em size; 0 draws no shadow.
    public var shadowRadius: Double
    /// How dark the shadow is at its core, 0 to 1.
    public var shadowOpacity: Double
    /// The part of the frame captions and cards stay inside: the title-safe area (the central
    /// 90%) unless a platform's app covers more of it.
    public var safeArea: SafeArea = .titleSafe

    /// Creates a style; every argument has the default look.
    public init(
        font: Font = .family(TextStyle.defaultFamily),
        fill: RGBColor = RGBColor(red: 255, green: 255, blue: 255),
        outline: RGBColor = .black,
        captionSize: Double = 0.05,
        titleSize: Double = 0.09,
        subtitleSize: Double = 0.045,
        outlineWidth: Double = 0.07,
        shadowRadius: Double = 0.12,
        shadowOpacity: Double = 0.6
    ) {
        self.font = font
        self.fill = fill
        self.outline = outline
        self.captionSize = captionSize
        self.titleSize = titleSize
        self.subtitleSize = subtitleSize
        self.outlineWidth = outlineWidth
        self.shadowRadius = shadowRadius
        self.shadowOpacity = shadowOpacity
    }

    /// Checks the font before a render starts: a font file must be readable and a font.
    ///
    /// - Returns: warnings, e.g. that a family is not installed and the default draws instead.
    /// - Throws: ``TextError/unreadableFontFile(path:reason:)`` naming the file.
    public func check() throws(TextError) -> [TextWarning] {
        try FontMap(font: font).warnings
    }
}

/// Why text cannot be drawn.
public enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The font file given cannot be read or is not a font.
    case unreadableFontFile(path: String, reason: String)
    /// Cairo failed (out of memory, a surface too large); `call` names the function.
    case cairo(call: String, message: String)
    /// Pango or fontconfig returned nothing where it must return something.
    case pango(call: String)

    /// One line for the user, e.g. `fonts/x.ttf: not a font file fontconfig can read`.
    public var description: String {
        switch self {
        case .unreadableFontFile(let path, let reason): "\(path): \(reason)"
        case .cairo(let call, let message): "\(call): \(message)"
        case .pango(let call): "\(call) failed"
        }
    }
}
