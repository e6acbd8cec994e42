import Foundation
import Testing
@testable import SlideshowKit
import SlideshowPixels
import SlideshowText

/// Where captions go, how big, how they wrap, and that they stay legible on any photo.
@Suite("Caption layout")
struct CaptionLayoutTests {
    static let grey = RGBColor(red: 128, green: 128, blue: 128)

    @Test("the title-safe area is the central 90%")
    func titleSafeArea() {
        #expect(TextRenderer.titleSafeArea(of: TextTestSupport.landscape) == Rect(x: 96, y: 54, width: 1728, height: 972))
        #expect(TextRenderer.titleSafeArea(of: TextTestSupport.portrait) == Rect(x: 54, y: 96, width: 972, height: 1728))
    }

    @Test("every changed pixel lies in the title-safe area, at the caption's position",
          arguments: [TextTestSupport.landscape, TextTestSupport.portrait], Caption.Position.allCases)
    func placement(frame size: Size, position: Caption.Position) throws {
        let renderer = try TextRenderer()
        let before = PixelBuffer(size: size, filledWith: Self.grey)
        let text = "Sunset over the harbour, with a few more words to wrap on a narrow portrait frame 🌅"
        var after = before
        after.composite(try renderer.overlay(for: try #require(Caption(text, position: position)), frame: size))
        let box = try #require(TextTestSupport.changedBox(before, after))
        let safe = TextRenderer.titleSafeArea(of: size)
        #expect(TextTestSupport.inside(box, safe), "\(box) outside \(safe)")
        // Centred across; at the edge it belongs to. Lines are placed by their logical
        // height (the font's ascent and descent), so the ink sits within half an em of it.
        let halfEm = 27
        #expect(abs((box.x + box.maxX) / 2 - (safe.x + safe.maxX) / 2) <= halfEm)
        switch position {
        case .bottom: #expect(safe.maxY - box.maxY <= halfEm)
        case .top: #expect(box.y - safe.y <= halfEm)
        case .centre: #expect(abs((box.y + box.maxY) / 2 - size.height / 2) <= halfEm)
        }
    }

    @Test("the size follows the frame's shorter side: the same in landscape and portrait, half at half the size")
    func relativeSize() throws {
        let renderer = try TextRenderer()
        let caption = try #require(Caption("Hamburg"))
        let landscape = try renderer.overlay(for: caption, frame: TextTestSupport.landscape)
        let portrait = try renderer.overlay(for: caption, frame: TextTestSupport.portrait)
        let small = try renderer.overlay(for: caption, frame: Size(width: 960, height: 540))
        #expect(landscape.rect.width == portrait.rect.width && landscape.rect.height == portrait.rect.height)
        #expect(abs(Double(small.rect.width) - Double(landscape.rect.width) / 2) <= 4)
    }

    @Test("a caption too long for one line wraps on balanced lines, not a long line and a stub")
    func balancedLines() throws {
        let renderer = try TextRenderer()
        // About 1.3 times the safe width at 1080p: greedy wrapping would leave a short last line.
        let text = "The old harbour of Lisbon at sunset, seen from the castle walls above the Alfama with the river beyond it"
        _ = try renderer.overlay(for: try #require(Caption(text)), frame: TextTestSupport.landscape)
        let lines = renderer.lastLayout
        #expect(lines.lineCount == 2 && !lines.isEllipsized)
        let widths = lines.lineWidths.map(Double.init)
        #expect(try #require(widths.min()) / (try #require(widths.max())) > 0.8, "line widths \(widths)")
        // Three lines stay three, balanced too.
        let longer = text + " and the long bridge in the haze, the ferries crossing to Cacilhas"
        _ = try renderer.overlay(for: try #require(Caption(longer)), frame: TextTestSupport.landscape)
        #expect(renderer.lastLayout.lineCount == 3 && !renderer.lastLayout.isEllipsized)
        let three = renderer.lastLayout.lineWidths.map(Double.init)
        #expect(try #require(three.min()) / (try #require(three.max())) > 0.8, "line widths \(three)")
    }

    /// The pixels the letters' fill covers completely, and those within two pixels of them
    /// that the fill does not touch at all: the text and what a reader sees around it.
    static func fillAndSurround(_ fill: TextOverlay) -> (core: [(Int, Int)], around: [(Int, Int)]) {
        let width = fill.rect.width, height = fill.rect.height
        var core: [(Int, Int)] = [], around = Set<Int>()
        for y in 0..<height {
            for x in 0..<width where fill[x, y].alpha == 255 {
                core.append((x, y))
                for dy in -2...2 {
                    for dx in -2...2 {
                        let (nx, ny) = (x + dx, y + dy)
                        if nx >= 0, ny >= 0, nx < width, ny < height, fill[nx, ny].alpha == 0 { around.insert(ny * width + nx) }
                    }
                }
            }
        }
        return (core, around.map { ($0 % width, $0 / width) })
    }

    @Test("contrast between the letters and the pixels around them is at least 4.5:1 on snow and on night",
          arguments: [RGBColor(red: 255, green: 255, blue: 255), RGBColor.black])
    func contrast(photo: RGBColor) throws {
        let renderer = try TextRenderer()
        let caption = try #require(Caption("Snow and night: Zürich, Москва, 東京"))
        let size = TextTestSupport.landscape
        let fill = try renderer.overlay(for: caption, frame: size, layers: .fill)
        var frame = PixelBuffer(size: size, filledWith: photo)
        let overlay = try renderer.overlay(for: caption, frame: size)
        #expect(overlay.rect == fill.rect)
        frame.composite(overlay)
        let (core, around) = Self.fillAndSurround(fill)
        #expect(core.count > 5000 && around.count > 5000)
        let origin = overlay.rect
        for (x, y) in core { #expect(frame[origin.x + x, origin.y + y] == renderer.style.fill) }
        let worst = around.map { TextTestSupport.contrast(renderer.style.fill, frame[origin.x + $0.0, origin.y + $0.1]) }.min()
        #expect(try #require(worst) >= 4.5)
    }
}
