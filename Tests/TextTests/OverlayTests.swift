import Foundation
import Testing
@testable import SlideshowKit
import SlideshowPixels
import SlideshowText

/// Compositing an overlay onto a frame with an opacity, and title cards.
@Suite("Overlays and title cards")
struct OverlayTests {
    @Test("source-over with opacity matches the floating-point formula within one step")
    func compositeMaths() {
        var checked = 0
        for alpha in stride(from: 0, through: 255, by: 15) {
            for colour in stride(from: 0, through: alpha, by: max(1, alpha / 5)) {
                for background in stride(from: 0, through: 255, by: 51) {
                    for opacity in [0.0, 0.25, 0.5, 1.0] {
                        let overlay = TextOverlay(rect: Rect(x: 1, y: 0, width: 1, height: 1),
                                                  pixels: [0, UInt8(colour), UInt8(colour), UInt8(alpha)])
                        var frame = PixelBuffer(size: Size(width: 2, height: 1),
                                                filledWith: RGBColor(red: UInt8(background), green: 0, blue: UInt8(background)))
                        frame.composite(overlay, opacity: opacity)
                        let o = (opacity * 255).rounded() / 255
                        let expected = Double(colour) * o + Double(background) * (1 - Double(alpha) / 255 * o)
                        #expect(abs(Double(frame[1, 0].red) - expected) <= 1)
                        #expect(abs(Double(frame[1, 0].blue) - Double(background) * (1 - Double(alpha) / 255 * o)) <= 1)
                        #expect(frame[0, 0] == RGBColor(red: UInt8(background), green: 0, blue: UInt8(background)))
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 1000)
    }

    @Test("opacity 0 changes nothing, 1 draws the overlay; an overlay past the edge is clipped")
    func opacityAndClipping() throws {
        let renderer = try TextRenderer()
        let size = Size(width: 640, height: 360)
        let overlay = try renderer.overlay(for: try #require(Caption("Fade")), frame: size)
        let photo = PixelBuffer(size: size, filledWith: RGBColor(red: 30, green: 90, blue: 160))
        var none = photo
        none.composite(overlay, opacity: 0)
        #expect(none == photo)
        var half = photo, full = photo
        half.composite(overlay, opacity: 0.5)
        full.composite(overlay, opacity: 1)
        #expect(half != photo && half != full)
        var moved = overlay
        moved.rect.x = -overlay.rect.width / 2
        moved.rect.y = size.height - overlay.rect.height / 2
        var clipped = photo
        clipped.composite(moved)
        #expect(clipped != photo)
    }

    @Test("a title card is centred in the title-safe area, on a colour or over a picture",
          arguments: [TextTestSupport.landscape, TextTestSupport.portrait])
    func titleCard(frame size: Size) throws {
        let renderer = try TextRenderer()
        let card = try #require(TitleCard(title: "Summer in Lisbon", subtitle: "12 – 19 June 2023"))
        let lines = try renderer.overlays(for: card, frame: size)
        #expect(lines.count == 2 && lines[1].rect.y == lines[0].rect.maxY && lines[0].rect.height > lines[1].rect.height)
        let union = Rect(x: min(lines[0].rect.x, lines[1].rect.x), y: lines[0].rect.y,
                         width: max(lines[0].rect.maxX, lines[1].rect.maxX) - min(lines[0].rect.x, lines[1].rect.x),
                         height: lines[1].rect.maxY - lines[0].rect.y)
        #expect(TextTestSupport.inside(union, TextRenderer.titleSafeArea(of: size)))
        #expect(abs((union.y + union.maxY) - size.height) <= 1 && abs((union.x + union.maxX) - size.width) <= 1)
        // On a colour or over a picture, only pixels under the card change.
        let navy = RGBColor(red: 20, green: 30, blue: 60)
        let plain = try renderer.draw(card, frame: size, color: navy)
        #expect(TextTestSupport.changedBox(PixelBuffer(size: size, filledWith: navy), plain).map { TextTestSupport.inside($0, union) } == true)
        let picture = TextTestSupport.busyFrame(size)
        let drawn = try renderer.draw(card, over: picture)
        #expect(TextTestSupport.changedBox(picture, drawn).map { TextTestSupport.inside($0, union) } == true)
        #expect(try renderer.overlays(for: try #require(TitleCard(title: "Only a title")), frame: size).count == 1)
    }

    @Test("the title card reads back by OCR",
          .enabled(if: TextTestSupport.tesseractLanguages.contains("eng"), "skipped: tesseract (eng) is not installed; `make deps` installs it"))
    func titleCardReadBack() throws {
        let renderer = try TextRenderer()
        let size = TextTestSupport.landscape
        let card = try #require(TitleCard(title: "Summer in Lisbon"))
        let frame = try renderer.draw(card, over: TextTestSupport.busyFrame(size))
        let region = try renderer.overlays(for: card, frame: size)[0].rect
        let read = try TextTestSupport.ocr(frame, region: region, language: "eng")
        #expect(TextTestSupport.characterErrorRate(read: read, expected: card.title) <= 0.1, "read \(read)")
    }
}
