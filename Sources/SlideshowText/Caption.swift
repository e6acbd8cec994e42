/// The words drawn on one photo: a line or a few of plain text and where they go.
///
/// The text is always sanitised (see ``TextSanitizer``): control characters are gone, line
/// breaks and tabs are spaces, runs of spaces are one, and it is never empty. `%`, `\`, `<`
/// and `&` are plain characters: the text is drawn as text, never read as markup or a format.
public struct Caption: Sendable, Hashable {
    /// Where the caption sits in the frame, inside the title-safe area.
    public enum Position: String, Sendable, Hashable, CaseIterable {
        /// Along the bottom of the title-safe area (the default).
        case bottom
        /// Along the top of the title-safe area.
        case top
        /// In the middle of the frame.
        case centre
    }

    /// The sanitised text; never empty.
    public let text: String
    /// Where it goes.
    public var position: Position

    /// A caption from text, sanitised; nil when nothing is left to draw (an empty caption is no caption).
    /// - Parameters:
    ///   - text: the words, as the manifest, the command line or the photo gave them.
    ///   - position: where the caption goes; bottom by default.
    public init?(_ text: String, position: Position = .bottom) {
        let clean = TextSanitizer.sanitize(text)
        guard !clean.isEmpty else { return nil }
        self.text = clean
        self.position = position
    }

    /// A caption from bytes that should be UTF-8 (a photo's metadata), repaired and sanitised.
    ///
    /// Invalid UTF-8 becomes U+FFFD and brings a warning naming `source`.
    /// - Parameters:
    ///   - bytes: the raw text.
    ///   - position: where the caption goes.
    ///   - source: what the bytes came from (a photo's path), for the warning.
    /// - Returns: the caption (nil when nothing is left to draw) and the warnings.
    public static func decoding(
        utf8 bytes: some Collection<UInt8>, position: Position = .bottom, source: String
    ) -> (caption: Caption?, warnings: [TextWarning]) {
        let (text, repaired) = TextSanitizer.decode(utf8: bytes)
        let warnings = repaired
            ? [TextWarning(source: source, reason: "its caption is not valid UTF-8; the broken bytes are shown as \u{FFFD}")]
            : []
        return (Caption(text, position: position), warnings)
    }
}

/// Something about a caption, a card or a font the user should know although the show renders.
public struct TextWarning: Sendable, Hashable, CustomStringConvertible {
    /// What it is about: a photo's path, a font family or a font file.
    public var source: String
    /// A short, lower-case reason.
    public var reason: String

    /// Creates a warning.
    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    /// `<source>: <reason>`.
    public var description: String { "\(source): \(reason)" }
}

/// Turns text from anywhere into text that can be drawn safely.
package enum TextSanitizer {
    /// At most this many Unicode scalars reach the shaper: far more than three lines hold at any
    /// caption size, so a 10 kB caption costs what a 1 kB one does and is still ellipsised.
    package static let maximumScalars = 1000

    /// The text with control characters dropped, line breaks and tabs turned into spaces, runs
    /// of white space made one space, ends trimmed, and cut to ``maximumScalars`` (with `…`).
    ///
    /// Control characters are Unicode's C0 and C1 sets and DEL; format characters that shape
    /// text (ZWJ for emoji, the bidi marks) are kept.
    package static func sanitize(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        var count = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isSpace = value == 0x09 || value == 0x0A || value == 0x0B || value == 0x0C || value == 0x0D
                || value == 0x85 || value == 0x2028 || value == 0x2029
                || (scalar.properties.isWhitespace && value != 0x00A0 && value != 0x202F)
            if isSpace {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if value < 0x20 || (0x7F...0x9F).contains(value) { continue }
            if count + (pendingSpace ? 2 : 1) > maximumScalars {
                scalars.append("\u{2026}")
                break
            }
            if pendingSpace {
                scalars.append(" ")
                count += 1
                pendingSpace = false
            }
            scalars.append(scalar)
            count += 1
        }
        return String(scalars)
    }

    /// Decodes UTF-8, replacing each maximal invalid sequence with U+FFFD.
    /// - Returns: the text and whether anything was replaced.
    package static func decode(utf8 bytes: some Collection<UInt8>) -> (text: String, repaired: Bool) {
        if let valid = String(validating: bytes, as: UTF8.self) { return (valid, false) }
        return (String(decoding: bytes, as: UTF8.self), true)
    }
}
