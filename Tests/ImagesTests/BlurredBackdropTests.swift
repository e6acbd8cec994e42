import Testing
@testable import SlideshowKit
import SlideshowCompositor
import SlideshowPixels

/// `--fit blur`: the backdrop is the picture, blurred and darkened, with no bars and no seams.
@Suite("Blurred backdrop")
struct BlurredBackdropTests {
    /// A 96x54 slide with a 30x54 portrait picture in the middle: left half red, right half
    /// blue, with a white stripe (hard edges to blur).
    static func portraitSlide() -> PixelBuffer {
        var buffer = PixelBuffer(size: Size(width: 96, height: 54), filledWith: RGBColor(red: 0, green: 255, blue: 0))
        buffer.contentRect = Rect(x: 32, y: 0, width: 30, height: 54)
        for y in 0..<54 {
            for x in 32..<62 {
                buffer[x, y] = y >= 20 && y < 24 ? RGBColor(red: 255, green: 255, blue: 255)
                    : x < 47 ? RGBColor(red: 200, green: 0, blue: 0) : RGBColor(red: 0, green: 0, blue: 200)
            }
        }
        return buffer
    }

    @Test("a plain picture gives a plain backdrop at 0.6 of its colour: no bar colour anywhere")
    func plainPicture() {
        var buffer = PixelBuffer(size: Size(width: 64, height: 36), filledWith: .black)
        buffer.contentRect = Rect(x: 22, y: 0, width: 20, height: 36)
        for y in 0..<36 { for x in 22..<42 { buffer[x, y] = RGBColor(red: 100, green: 200, blue: 50) } }
        BlurredBackdrop.fill(&buffer)
        for y in 0..<36 {
            for x in 0..<64 {
                let want = buffer.contentRect.contains(x: x, y: y) ? RGBColor(red: 100, green: 200, blue: 50) : RGBColor(red: 60, green: 120, blue: 30)
                #expect(buffer[x, y] == want, "(\(x), \(y))")
            }
        }
    }

    @Test("the picture is untouched; the bars are gone; neighbours differ by at most 3 levels (no blocks, no seams)")
    func smooth() {
        let input = Self.portraitSlide()
        var buffer = input
        BlurredBackdrop.fill(&buffer)
        let content = input.contentRect
        var worst = 0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                if content.contains(x: x, y: y) {
                    #expect(buffer[x, y] == input[x, y])
                    continue
                }
                #expect(buffer[x, y].green < 40, "bar colour left at (\(x), \(y))")
                for (nx, ny) in [(x + 1, y), (x, y + 1)] where nx < buffer.width && ny < buffer.height && !content.contains(x: nx, y: ny) {
                    let a = buffer[x, y], b = buffer[nx, ny]
                    worst = max(worst, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
                }
            }
        }
        #expect(worst <= 3)
        // The left of the backdrop comes from the red half, the right from the blue half.
        #expect(buffer[2, 10].red > buffer[2, 10].blue && buffer[93, 10].blue > buffer[93, 10].red)
    }

    @Test("the same slide gives the same bytes; a picture that fills the frame is left alone")
    func deterministic() {
        var a = Self.portraitSlide(), b = Self.portraitSlide()
        BlurredBackdrop.fill(&a)
        BlurredBackdrop.fill(&b)
        #expect(a == b)
        var full = Self.portraitSlide()
        full.contentRect = Rect(full.size)
        let before = full
        BlurredBackdrop.fill(&full)
        #expect(full == before)
    }

    @Test("a landscape between top and bottom bars, and a picture smaller than the grid")
    func otherShapes() {
        var wide = PixelBuffer(size: Size(width: 64, height: 64), filledWith: .black)
        wide.contentRect = Rect(x: 0, y: 24, width: 64, height: 16)
        for y in 24..<40 { for x in 0..<64 { wide[x, y] = RGBColor(red: 10, green: 20, blue: 250) } }
        BlurredBackdrop.fill(&wide)
        #expect(wide[5, 5] == RGBColor(red: 6, green: 12, blue: 150) && wide[60, 60] == RGBColor(red: 6, green: 12, blue: 150))
        var tiny = PixelBuffer(size: Size(width: 160, height: 90), filledWith: .black)
        tiny.contentRect = Rect(x: 78, y: 44, width: 2, height: 2)
        for y in 44..<46 { for x in 78..<80 { tiny[x, y] = RGBColor(red: 250, green: 250, blue: 250) } }
        BlurredBackdrop.fill(&tiny)
        #expect(tiny[0, 0] == RGBColor(red: 150, green: 150, blue: 150) && tiny[159, 89] == RGBColor(red: 150, green: 150, blue: 150))
    }
}
