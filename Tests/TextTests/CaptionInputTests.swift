import Foundation
import Testing
@testable import SlideshowKit
import SlideshowPixels
import SlideshowText

/// Bad input: broken UTF-8, control characters, markup and format characters, empty text,
/// 10 kB captions, unknown families and unreadable font files.
@Suite("Caption input")
struct CaptionInputTests {
    @Test("control characters are dropped; line breaks and tabs become one space; ends trimmed", arguments: [
        ("a\u{7}b\u{1B}c\u{7F}d\u{9B}e", "abcde"),
        ("  line one\r\nline two\ttab\u{2028}end  ", "line one line two tab end"),
        ("\u{0}x\u{85}y", "x y"),
        ("keeps\u{200D}ZWJ and\u{200F} marks", "keeps\u{200D}ZWJ and\u{200F} marks"),
        ("no\u{00A0}break", "no\u{00A0}break"),
    ])
    func controlCharacters(raw: String, expected: String) throws {
        #expect(try #require(Caption(raw)).text == expected)
    }

    @Test("an empty caption is no caption; an empty title is no card", arguments: ["", "   ", "\u{0}\u{1}\n\t", "\u{7F}"])
    func emptyIsNothing(raw: String) {
        #expect(Caption(raw) == nil)
        #expect(TitleCard(title: raw) == nil)
        #expect(TitleCard(title: "Title", subtitle: raw)?.subtitle == nil)
    }

    @Test("invalid UTF-8 is repaired with U+FFFD and a warning naming the source")
    func invalidUTF8() throws {
        let (caption, warnings) = Caption.decoding(utf8: [0x43, 0x61, 0x66, 0xC3, 0x28, 0xFF, 0xE2, 0x82], source: "photos/a.jpg")
        #expect(caption?.text == "Caf\u{FFFD}(\u{FFFD}\u{FFFD}")
        #expect(warnings == [TextWarning(source: "photos/a.jpg",
                                         reason: "its caption is not valid UTF-8; the broken bytes are shown as \u{FFFD}")])
        let valid = Caption.decoding(utf8: Array("Café".utf8), position: .top, source: "b.jpg")
        #expect(valid.caption == Caption("Café", position: .top) && valid.warnings.isEmpty)
        #expect(Caption.decoding(utf8: [0x01, 0x20], source: "c.jpg").caption == nil)
    }

    @Test("%, \\ and markup are literal: Pango holds the text as given and draws every character")
    func literalText() throws {
        let renderer = try TextRenderer()
        let frame = TextTestSupport.landscape
        for text in ["100% %s %d %n \\n \\", "<b>bold</b> &amp; <span size='99'>x</span>"] {
            _ = try renderer.overlay(for: try #require(Caption(text)), frame: frame)
            #expect(renderer.lastLayout.text == text)
        }
        let tagged = try renderer.overlay(for: try #require(Caption("<b>x</b>")), frame: frame)
        let plain = try renderer.overlay(for: try #require(Caption("x")), frame: frame)
        #expect(tagged.rect.width > plain.rect.width * 4)
    }

    @Test("a 10 kB caption wraps on three lines, is ellipsised and stays in the title-safe area",
          arguments: [TextTestSupport.landscape, TextTestSupport.portrait])
    func longCaption(frame: Size) throws {
        let long = String(repeating: "Words that go on and on, ", count: 400)
        #expect(long.utf8.count == 10_000)
        let noSpaces = String(repeating: "長", count: 3400)
        let renderer = try TextRenderer()
        for text in [long, noSpaces] {
            let overlay = try renderer.overlay(for: try #require(Caption(text)), frame: frame)
            #expect(renderer.lastLayout.lineCount == 3)
            #expect(renderer.lastLayout.isEllipsized)
            #expect(TextTestSupport.inside(overlay.rect, TextRenderer.titleSafeArea(of: frame)))
        }
        let cut = try #require(Caption(long)).text
        #expect(cut.unicodeScalars.count <= TextSanitizer.maximumScalars + 1 && cut.unicodeScalars.count >= TextSanitizer.maximumScalars - 1)
        #expect(cut.hasSuffix(",\u{2026}") || cut.hasSuffix("\u{2026}") && !cut.hasSuffix(" \u{2026}"))
    }

    @Test("an unknown family falls back to Noto Sans with a warning and still draws")
    func unknownFamily() throws {
        let style = TextStyle(font: .family("No Such Family 123"))
        let expected = [TextWarning(source: "No Such Family 123",
                                    reason: "no font family of that name is installed; drawn in Noto Sans")]
        #expect(try style.check() == expected)
        let renderer = try TextRenderer(style: style)
        #expect(renderer.warnings == expected)
        #expect(renderer.fonts.family == "Noto Sans")
        let overlay = try renderer.overlay(for: try #require(Caption("Hello")), frame: TextTestSupport.landscape)
        #expect(overlay.pixels.contains { $0 != 0 })
    }

    @Test("installed families and generic names need no warning", arguments: ["Noto Sans", "noto serif", "sans-serif", "monospace"])
    func knownFamily(name: String) throws {
        #expect(try TextStyle(font: .family(name)).check().isEmpty)
    }

    @Test("a font file is loaded by fontconfig for this style only, under its own family name")
    func fontFile() throws {
        let path = "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf"
        try #require(FileManager.default.fileExists(atPath: path), "fonts-noto-core is not installed; `make deps` installs it")
        let renderer = try TextRenderer(style: TextStyle(font: .file(path: path)))
        #expect(renderer.warnings.isEmpty && renderer.fonts.family == "Noto Serif")
        let caption = try #require(Caption("Serif Hamburgefonts"))
        let serif = try renderer.overlay(for: caption, frame: TextTestSupport.landscape)
        let sans = try TextRenderer().overlay(for: caption, frame: TextTestSupport.landscape)
        #expect(serif.pixels != sans.pixels)
    }

    @Test("a font file that cannot be read is an error naming it, before anything is drawn")
    func unreadableFontFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAFont = folder.appendingPathComponent("notes.ttf").path
        try Data("this is not a font".utf8).write(to: URL(fileURLWithPath: notAFont))
        let empty = folder.appendingPathComponent("empty.otf").path
        try Data().write(to: URL(fileURLWithPath: empty))
        let missing = folder.appendingPathComponent("missing.ttf").path
        let cases: [(String, TextError)] = [
            (missing, .unreadableFontFile(path: missing, reason: "no such font file")),
            (folder.path, .unreadableFontFile(path: folder.path, reason: "a folder, not a font file")),
            (notAFont, .unreadableFontFile(path: notAFont, reason: "not a font file fontconfig can read")),
            (empty, .unreadableFontFile(path: empty, reason: "not a font file fontconfig can read")),
        ]
        for (path, error) in cases {
            #expect(throws: error) { try TextStyle(font: .file(path: path)).check() }
            #expect(throws: error) { try TextRenderer(style: TextStyle(font: .file(path: path))) }
        }
        #expect(TextError.unreadableFontFile(path: notAFont, reason: "not a font file fontconfig can read").description
                == "\(notAFont): not a font file fontconfig can read")
    }
}

/// Frames and styles at the edges: nothing traps, nothing is drawn outside the frame.
@Suite("Caption edge cases")
struct CaptionEdgeCaseTests {
    @Test("tiny frames draw without trapping", arguments: [Size(width: 1, height: 1), Size(width: 16, height: 9), Size(width: 64, height: 36)])
    func tinyFrames(size: Size) throws {
        let renderer = try TextRenderer()
        var frame = PixelBuffer(size: size)
        for position in Caption.Position.allCases {
            frame.composite(try renderer.overlay(for: try #require(Caption("Tiny 東京 🎉", position: position)), frame: size))
        }
        _ = try renderer.draw(try #require(TitleCard(title: "T", subtitle: "s")), frame: size)
    }

    @Test("a style with NaN, negative or huge sizes still draws")
    func oddStyles() throws {
        let caption = try #require(Caption("Odd"))
        for style in [TextStyle(captionSize: .nan, outlineWidth: .infinity, shadowRadius: -1),
                      TextStyle(captionSize: -3, shadowOpacity: 7), TextStyle(captionSize: 50, outlineWidth: 9)] {
            let overlay = try TextRenderer(style: style).overlay(for: caption, frame: Size(width: 320, height: 180))
            #expect(overlay.pixels.count == overlay.rect.width * overlay.rect.height * 4)
        }
    }
}
