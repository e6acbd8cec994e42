import Testing
@testable import SlideshowKit
import SlideshowLooks
import SlideshowPixels

/// The fast film looks against the floating-point reference, and the properties each look
/// promises.
@Suite struct FilmLookTests {
    static let builtIns: [ReferenceFilm] = [.minimalLife, .tumbleDown]
    static let allFilms: [ReferenceFilm] = builtIns + ReferenceFilm.custom

    @Test("the built-in looks have FILTERS.md's parameters", arguments: builtIns)
    func builtInParameters(reference: ReferenceFilm) throws {
        let look = try #require(Looks.named(reference.label) as? FilmLook)
        #expect(look.exposure == reference.exposure)
        #expect(look.contrast == reference.contrast)
        #expect(look.gamma == reference.gamma)
        #expect(look.isMonochrome == reference.monochrome)
        #expect(look.hasVioletShadows == reference.violetShadows)
        #expect(look.grain == FilmLook.GrainMask(
            brightness: reference.maskBrightness, contrast: reference.maskContrast, saturation: reference.maskSaturation))
    }

    @Test("every grey level is within one 8-bit step of the reference", arguments: allFilms, [0, 7, -3])
    func greyLevelsMatchReference(reference: ReferenceFilm, slideIndex: Int) {
        let input = TestImages.greyLevels()
        var fast = input
        reference.look.apply(to: &fast, slideIndex: slideIndex)
        let expected = reference.apply(to: input, slideIndex: slideIndex)
        let worst = TestImages.maxDifference(fast, expected)
        #expect(worst.difference <= 1, "\(worst)")
    }

    @Test("a grid of 4913 colours, each at three places, is within one 8-bit step of the reference", arguments: allFilms)
    func colorGridMatchesReference(reference: ReferenceFilm) {
        let input = TestImages.colorGrid()
        var fast = input
        reference.look.apply(to: &fast, slideIndex: 2)
        let expected = reference.apply(to: input, slideIndex: 2)
        let worst = TestImages.maxDifference(fast, expected)
        #expect(worst.difference <= 1, "\(worst)")
    }

    @Test("a letterboxed slide matches the reference inside and keeps its bars", arguments: allFilms)
    func letterboxedMatchesReference(reference: ReferenceFilm) {
        let input = TestImages.letterboxed()
        var fast = input
        reference.look.apply(to: &fast, slideIndex: 5)
        let expected = reference.apply(to: input, slideIndex: 5)
        #expect(TestImages.maxDifference(fast, expected).difference <= 1)
    }

    @Test func minimalLifeIsGrey() {
        var buffer = TestImages.colorGrid(repeats: 1)
        Looks.minimalLife.apply(to: &buffer, slideIndex: 0)
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let c = buffer[x, y]
                #expect(c.red == c.green && c.green == c.blue, "(\(x), \(y)) is \(c)")
            }
        }
    }

    @Test func tumbleDownKeepsColour() {
        var buffer = PixelBuffer(size: Size(width: 8, height: 8), filledWith: RGBColor(red: 200, green: 60, blue: 40))
        buffer[3, 3] = RGBColor(red: 40, green: 180, blue: 60)
        buffer[4, 4] = RGBColor(red: 40, green: 60, blue: 200)
        Looks.tumbleDown.apply(to: &buffer, slideIndex: 0)
        let red = buffer[0, 0], green = buffer[3, 3], blue = buffer[4, 4]
        #expect(red.red > red.green + 60 && red.red > red.blue + 60, "\(red)")
        #expect(green.green > green.red + 60 && green.green > green.blue + 60, "\(green)")
        #expect(blue.blue > blue.red + 60 && blue.blue > blue.green + 60, "\(blue)")
    }

    /// tumble-down against the same look without the tint: the two differ exactly at the grey
    /// levels whose kernel luma is under 0.3, and there the blue channel gains several steps.
    @Test func violetOnlyInShadows() {
        let noViolet = FilmLook(
            name: "no-violet", exposure: 0.02, contrast: 0.85, gamma: 1.1, monochrome: false, violetShadows: false,
            grain: FilmLook.GrainMask(brightness: 0.65, contrast: 1.13, saturation: 1.27))
        let input = TestImages.greyLevels(rows: 2)
        var tinted = input, plain = input
        Looks.tumbleDown.apply(to: &tinted, slideIndex: 1)
        noViolet.apply(to: &plain, slideIndex: 1)
        var untinted = ReferenceFilm.tumbleDown
        untinted.violetShadows = false
        var shadowLevels = 0
        for level in 0..<256 {
            let k = untinted.kernel(RGBColor(red: UInt8(level), green: UInt8(level), blue: UInt8(level)))
            let inShadow = ReferenceFilm.luma(k) < 0.3
            for y in 0..<2 {
                let a = tinted[level, y], b = plain[level, y]
                if inShadow {
                    #expect(Int(a.blue) - Int(b.blue) >= 4, "level \(level): \(a) against \(b)")
                    #expect(Int(a.red) - Int(b.red) <= 2 && a.red >= b.red, "level \(level): \(a) against \(b)")
                } else {
                    #expect(a == b, "level \(level): \(a) against \(b)")
                }
            }
            if inShadow { shadowLevels += 1 }
        }
        // The threshold falls in the shadows, neither nowhere nor everywhere.
        #expect(shadowLevels > 40 && shadowLevels < 120, "\(shadowLevels) shadow levels")
    }

    @Test("a dark pixel turns violet and a bright one does not")
    func chosenPixels() {
        // Grey 60: kernel ≈ 0.26 (< 0.3). Grey 120: kernel ≈ 0.46.
        var buffer = PixelBuffer(size: Size(width: 2, height: 1))
        buffer[0, 0] = RGBColor(red: 60, green: 60, blue: 60)
        buffer[1, 0] = RGBColor(red: 120, green: 120, blue: 120)
        Looks.tumbleDown.apply(to: &buffer, slideIndex: 0)
        let dark = buffer[0, 0], bright = buffer[1, 0]
        #expect(dark.blue > dark.red + 2 && dark.blue > dark.green + 3, "\(dark)")
        #expect(bright.red == bright.green && bright.green == bright.blue, "\(bright)")
    }
}
