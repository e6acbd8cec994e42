import Foundation
import SlideshowPixels

/// One timed caption: the text a subtitle track shows from `start` to `end`.
public struct SubtitleCue: Sendable, Hashable {
    /// When the text appears.
    public var start: MediaTime
    /// When it goes; after `start`.
    public var end: MediaTime
    /// The words, sanitised like a caption (one line of plain text).
    public var text: String

    /// Creates a cue.
    /// - Parameters:
    ///   - start: when the text appears.
    ///   - end: when it goes.
    ///   - text: the words; sanitised (control characters dropped, line breaks made spaces).
    public init(start: MediaTime, end: MediaTime, text: String) {
        self.start = start
        self.end = end
        self.text = TextSanitizer.sanitize(text)
    }
}

/// Writes cues as a WebVTT file (W3C WebVTT), for web players beside the video.
public enum WebVTT {
    /// The whole file: the `WEBVTT` header, then each cue numbered from 1, blank lines between.
    ///
    /// Times are `HH:MM:SS.mmm`, rounded to the nearest millisecond; `&`, `<` and `>` in the
    /// text are written as `&amp;`, `&lt;` and `&gt;`, so no text can open a tag or end a cue
    /// (`-->`). Cues with empty text are left out.
    public static func document(_ cues: [SubtitleCue]) -> String {
        var output = "WEBVTT\n"
        var number = 0
        for cue in cues where !cue.text.isEmpty {
            number += 1
            output += "\n\(number)\n\(timestamp(cue.start)) --> \(timestamp(cue.end))\n\(escape(cue.text))\n"
        }
        return output
    }

    /// Writes ``document(_:)`` to a file as UTF-8.
    /// - Throws: the file system's error when the file cannot be written.
    public static func write(_ cues: [SubtitleCue], to path: String) throws {
        try Data(document(cues).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// `HH:MM:SS.mmm` (hours grow past two digits if they must); negative times are 0.
    public static func timestamp(_ time: MediaTime) -> String {
        let milliseconds = max(0, time.converted(to: 1000).value)
        let hours = milliseconds / 3_600_000, minutes = milliseconds / 60_000 % 60
        let seconds = milliseconds / 1000 % 60, rest = milliseconds % 1000
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(rest, 3))"
    }

    /// The text with `&`, `<` and `>` as character references.
    public static func escape(_ text: String) -> String {
        // By scalar, not by Character: a combining mark after `<` must not hide it.
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output.append(contentsOf: "&amp;".unicodeScalars)
            case "<": output.append(contentsOf: "&lt;".unicodeScalars)
            case ">": output.append(contentsOf: "&gt;".unicodeScalars)
            default: output.append(scalar)
            }
        }
        return String(output)
    }

    private static func pad(_ value: Int64, _ digits: Int) -> String {
        let text = String(value)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }
}
