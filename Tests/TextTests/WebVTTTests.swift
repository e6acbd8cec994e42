import Foundation
import Testing
@testable import SlideshowKit
import SlideshowPixels
import SlideshowText

/// Subtitle cues as a WebVTT file: exact text.
@Suite("WebVTT")
struct WebVTTTests {
    @Test("the exact file: header, numbered cues, HH:MM:SS.mmm, escaped text, empty cues left out")
    func exactDocument() {
        let cues = [
            SubtitleCue(start: .zero, end: MediaTime(value: 3, timescale: 1), text: "Fish & chips <b>not bold</b> -->"),
            SubtitleCue(start: MediaTime(value: 3, timescale: 1), end: MediaTime(value: 36_036, timescale: 10_000),
                        text: "  two\nlines\u{7} "),
            SubtitleCue(start: MediaTime(value: 1001, timescale: 30_000), end: MediaTime(value: 2002, timescale: 30_000), text: "\u{1}"),
            SubtitleCue(start: MediaTime(value: 37_234_567, timescale: 10_000), end: MediaTime(value: 360_000_000, timescale: 1000),
                        text: "Привет 100% \\ מים"),
        ]
        #expect(WebVTT.document(cues) == """
            WEBVTT

            1
            00:00:00.000 --> 00:00:03.000
            Fish &amp; chips &lt;b&gt;not bold&lt;/b&gt; --&gt;

            2
            00:00:03.000 --> 00:00:03.604
            two lines

            3
            01:02:03.457 --> 100:00:00.000
            Привет 100% \\ מים

            """)
    }

    @Test("timestamps round to the nearest millisecond")
    func timestamps() {
        #expect(WebVTT.timestamp(MediaTime(value: 1001, timescale: 30_000)) == "00:00:00.033")
        #expect(WebVTT.timestamp(MediaTime(value: 1, timescale: 2000)) == "00:00:00.001")
        #expect(WebVTT.timestamp(MediaTime(value: 59_999_9, timescale: 10_000)) == "00:01:00.000")
        #expect(WebVTT.timestamp(MediaTime(value: -5, timescale: 1)) == "00:00:00.000")
    }

    @Test("escaping works scalar by scalar, even before a combining mark")
    func escapeBeforeCombiningMark() {
        #expect(WebVTT.escape("<\u{301}a&\u{308}") == "&lt;\u{301}a&amp;\u{308}")
    }

    @Test("the file written is the document")
    func writes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cues-\(UUID().uuidString).vtt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cues = [SubtitleCue(start: .zero, end: MediaTime(value: 1, timescale: 1), text: "a")]
        try WebVTT.write(cues, to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.000\na\n")
    }
}
