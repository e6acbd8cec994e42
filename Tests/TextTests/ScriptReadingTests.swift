import Foundation
import Testing
@testable import SlideshowKit
import SlideshowPixels
import SlideshowText

/// Captions in every script read back by an independent reader (tesseract OCR), and colour
/// emoji drawn in colour.
@Suite("Scripts read back")
struct ScriptReadingTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        var script: String
        var language: String
        var text: String
        var testDescription: String { script }
    }

    static let samples: [Sample] = [
        Sample(script: "Latin with diacritics", language: "fra", text: "Crème brûlée à Zürich, façade"),
        Sample(script: "Greek", language: "ell", text: "Καλημέρα από την Αθήνα"),
        Sample(script: "Cyrillic", language: "rus", text: "Привет из Москвы, зимний вечер"),
        Sample(script: "Arabic", language: "ara", text: "مرحبا بكم في القاهرة"),
        Sample(script: "Hebrew", language: "heb", text: "שלום מירושלים הבירה"),
        Sample(script: "Japanese", language: "jpn", text: "東京の夜景はとても綺麗です"),
        Sample(script: "Devanagari", language: "hin", text: "नमस्ते भारत की सुंदर शाम"),
    ]

    /// The frame and the overlay's region after drawing `text` at the bottom of a busy 1080p frame.
    static func rendered(_ text: String, renderer: TextRenderer) throws -> (PixelBuffer, Rect) {
        var frame = TextTestSupport.busyFrame(TextTestSupport.landscape)
        let overlay = try renderer.overlay(for: try #require(Caption(text)), frame: frame.size)
        frame.composite(overlay)
        return (frame, overlay.rect)
    }

    /// Every language the samples need, as `make deps` installs them.
    static let readerIsInstalled = Set(samples.map(\.language)).isSubset(of: TextTestSupport.tesseractLanguages)

    @Test("OCR finds the caption (character error rate ≤ 10%)",
          .enabled(if: readerIsInstalled, "skipped: tesseract or one of its languages (fra ell rus ara heb jpn hin) is not installed; `make deps` installs them"),
          arguments: samples)
    func readBack(sample: Sample) throws {
        let (frame, region) = try Self.rendered(sample.text, renderer: try TextRenderer())
        let read = try TextTestSupport.ocr(frame, region: region, language: sample.language)
        let rate = TextTestSupport.characterErrorRate(read: read, expected: sample.text)
        #expect(rate <= 0.10, "read \"\(read)\" for \"\(sample.text)\": CER \(rate)")
    }

    @Test("colour emoji are drawn in colour; plain text is not")
    func colourEmoji() throws {
        let renderer = try TextRenderer()
        let grey = PixelBuffer(size: TextTestSupport.landscape, filledWith: RGBColor(red: 128, green: 128, blue: 128))
        func saturatedPixels(_ text: String) throws -> Int {
            var frame = grey
            let overlay = try renderer.overlay(for: try #require(Caption(text)), frame: frame.size)
            frame.composite(overlay)
            var count = 0
            for y in overlay.rect.y..<overlay.rect.maxY {
                for x in overlay.rect.x..<overlay.rect.maxX where TextTestSupport.saturation(frame[x, y]) > 0.5 { count += 1 }
            }
            return count
        }
        // Three emoji at 54 px: thousands of strongly coloured pixels.
        #expect(try saturatedPixels("🌅🎉🍎") > 2000)
        #expect(try saturatedPixels("Sunset ABC") == 0)
    }
}
