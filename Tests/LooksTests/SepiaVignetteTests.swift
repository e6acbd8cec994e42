import Foundation
import Testing
@testable import SlideshowKit
import SlideshowKit
import SlideshowLooks
import SlideshowPixels

/// Sepia and vignette against their formulas, computed per pixel in `Double`.
@Suite struct SepiaVignetteTests {
    /// The sepia formula of ``SepiaLook``'s documentation, in `Double`.
    static func referenceSepia(_ c: RGBColor, intensity: Double) -> RGBColor {
        let v = [Double(c.red), Double(c.green), Double(c.blue)]
        let m = SepiaLook.matrix
        func channel(_ row: Int) -> UInt8 {
            let s = min(m[row][0] * v[0] + m[row][1] * v[1] + m[row][2] * v[2], 255)
            return UInt8((v[row] + (s - v[row]) * intensity).rounded())
        }
        return RGBColor(red: channel(0), green: channel(1), blue: channel(2))
    }

    @Test("sepia within one step of its formula on 4913 colours", arguments: [0.0, 0.3, 0.8, 1.0])
    func sepiaMatchesFormula(intensity: Double) {
        let input = TestImages.colorGrid(repeats: 1)
        var buffer = input
        SepiaLook(intensity: intensity).apply(to: &buffer, slideIndex: 0)
        var worst = 0
        for y in 0..<input.height {
            for x in 0..<input.width {
                let want = Self.referenceSepia(input[x, y], intensity: intensity), got = buffer[x, y]
                worst = max(worst, abs(Int(want.red) - Int(got.red)), abs(Int(want.green) - Int(got.green)),
                            abs(Int(want.blue) - Int(got.blue)))
            }
        }
        #expect(worst <= 1)
        if intensity == 0 { #expect(buffer == input) }
    }

    /// Pinned values of the full tone: white saturates to (255, 255, 239) (the blue row sums to
    /// 0.937), mid-grey to (172, 153, 120).
    @Test func sepiaPinned() {
        var buffer = PixelBuffer(size: Size(width: 3, height: 1))
        buffer[0, 0] = RGBColor(red: 255, green: 255, blue: 255)
        buffer[1, 0] = RGBColor(red: 128, green: 128, blue: 128)
        buffer[2, 0] = RGBColor(red: 0, green: 0, blue: 0)
        SepiaLook(intensity: 1).apply(to: &buffer, slideIndex: 0)
        #expect(buffer[0, 0] == RGBColor(red: 255, green: 255, blue: 239))
        #expect(buffer[1, 0] == RGBColor(red: 173, green: 154, blue: 120))
        #expect(buffer[2, 0] == RGBColor(red: 0, green: 0, blue: 0))
    }

    @Test("vignette within one step of its formula", arguments: [(1.5, 2.0), (1.2, 1.8), (4.0, 1.0), (0.0, 2.0)])
    func vignetteMatchesFormula(intensity: Double, radius: Double) {
        let input = TestImages.letterboxed()
        var buffer = input
        let look = VignetteLook(intensity: intensity, radius: radius)
        look.apply(to: &buffer, slideIndex: 0)
        let rect = input.contentRect
        let cx = Double(rect.x) + Double(rect.width) / 2, cy = Double(rect.y) + Double(rect.height) / 2
        var worst = 0
        for y in 0..<input.height {
            for x in 0..<input.width {
                let before = input[x, y], after = buffer[x, y]
                guard rect.contains(x: x, y: y) else {
                    #expect(after == before, "bar pixel (\(x), \(y))")
                    continue
                }
                let f = look.factor(dx: Double(x) + 0.5 - cx, dy: Double(y) + 0.5 - cy,
                                    pictureWidth: rect.width, pictureHeight: rect.height)
                for (a, b) in [(before.red, after.red), (before.green, after.green), (before.blue, after.blue)] {
                    worst = max(worst, abs(Int((Double(a) * f).rounded()) - Int(b)))
                }
            }
        }
        #expect(worst <= 1)
    }

    /// The formula's own values: 1 at the centre, 1 − intensity / radius² at a corner.
    @Test func vignetteFactor() {
        let look = VignetteLook()
        #expect(look.factor(dx: 0, dy: 0, pictureWidth: 1920, pictureHeight: 1080) == 1)
        #expect(abs(look.factor(dx: 960, dy: 540, pictureWidth: 1920, pictureHeight: 1080) - 0.625) < 1e-12)
        #expect(abs(VignetteLook(intensity: 8, radius: 2).factor(dx: 960, dy: 540, pictureWidth: 1920, pictureHeight: 1080)) == 0)
    }

    /// A white picture: the centre stays white, the corners darken symmetrically, to 0.625 of
    /// white near the corner.
    @Test func vignetteShape() {
        var buffer = PixelBuffer(size: Size(width: 64, height: 36), filledWith: RGBColor(red: 255, green: 255, blue: 255))
        Looks.vignette.apply(to: &buffer, slideIndex: 0)
        #expect(buffer[32, 18] == RGBColor(red: 255, green: 255, blue: 255))
        let corner = buffer[0, 0]
        #expect(corner == buffer[63, 0] && corner == buffer[0, 35] && corner == buffer[63, 35])
        #expect(abs(Int(corner.red) - 163) <= 2)
    }

    /// The vignette's centre is the picture's: the same picture between bars and alone gives
    /// the same pixels.
    @Test func vignetteFollowsThePicture() {
        let letterboxed = TestImages.letterboxed()
        var alone = PixelBuffer(size: Size(width: 48, height: 40))
        for y in 0..<40 { for x in 0..<48 { alone[x, y] = letterboxed[x + 8, y + 4] } }
        var a = letterboxed
        Looks.vignette.apply(to: &a, slideIndex: 0)
        Looks.vignette.apply(to: &alone, slideIndex: 0)
        for y in 0..<40 { for x in 0..<48 { #expect(alone[x, y] == a[x + 8, y + 4]) } }
    }

    @Test func chainsApplyLeftToRight() throws {
        let input = TestImages.letterboxed()
        var parsed = input, inTurn = input, reversed = input
        try Looks.parse("sepia:intensity=1,vignette:radius=1").apply(to: &parsed, slideIndex: 2)
        SepiaLook(intensity: 1).apply(to: &inTurn, slideIndex: 2)
        VignetteLook(radius: 1).apply(to: &inTurn, slideIndex: 2)
        VignetteLook(radius: 1).apply(to: &reversed, slideIndex: 2)
        SepiaLook(intensity: 1).apply(to: &reversed, slideIndex: 2)
        #expect(parsed == inTurn)
        #expect(parsed != reversed)
        var grey = input
        try Looks.parse("minimal-life, vignette").apply(to: &grey, slideIndex: 2)
        var expected = input
        Looks.minimalLife.apply(to: &expected, slideIndex: 2)
        Looks.vignette.apply(to: &expected, slideIndex: 2)
        #expect(grey == expected)
    }
}

/// The `--filter` syntax: names, parameters, chains and every error.
@Suite struct LookSyntaxTests {
    @Test func parsesParameters() throws {
        let vignette = try #require(try Looks.parse("vignette:intensity=1.2:radius=1.8") as? VignetteLook)
        #expect(vignette.intensity == 1.2 && vignette.radius == 1.8)
        #expect(vignette.name == "vignette:intensity=1.2:radius=1.8")
        let defaults = try #require(try Looks.parse("vignette") as? VignetteLook)
        #expect(defaults.intensity == 1.5 && defaults.radius == 2.0 && defaults.name == "vignette")
        let radiusOnly = try #require(try Looks.parse("vignette:radius=3") as? VignetteLook)
        #expect(radiusOnly.intensity == 1.5 && radiusOnly.radius == 3 && radiusOnly.name == "vignette:radius=3")
        let sepia = try #require(try Looks.parse("sepia:intensity=0.25") as? SepiaLook)
        #expect(sepia.intensity == 0.25 && sepia.name == "sepia:intensity=0.25")
        #expect((try Looks.parse("sepia") as? SepiaLook)?.intensity == 0.8)
        #expect(try Looks.parse("minimal-life").name == "minimal-life")
    }

    @Test func parsesChains() throws {
        let chain = try #require(try Looks.parse("minimal-life,vignette:radius=1.8, sepia") as? LookChain)
        #expect(chain.looks.map(\.name) == ["minimal-life", "vignette:radius=1.8", "sepia"])
        #expect(chain.name == "minimal-life+vignette:radius=1.8+sepia")
    }

    @Test(arguments: [
        ("", LookSyntaxError.empty),
        ("minimal-life,", .empty),
        (",vignette", .empty),
        ("sepai", .unknownLook("sepai")),
        ("Sepia", .unknownLook("Sepia")),
        ("minimal-life:intensity=1", .noParameters(look: "minimal-life")),
        ("vignette:radus=1", .unknownParameter(look: "vignette", key: "radus")),
        ("vignette:radius", .malformedParameter(look: "vignette", text: "radius")),
        ("vignette:=1", .malformedParameter(look: "vignette", text: "=1")),
        ("vignette:", .malformedParameter(look: "vignette", text: "")),
        ("vignette:radius=1:radius=2", .repeatedParameter(look: "vignette", key: "radius")),
        ("vignette:radius=0", .badValue(look: "vignette", key: "radius", value: "0")),
        ("vignette:radius=big", .badValue(look: "vignette", key: "radius", value: "big")),
        ("vignette:intensity=-1", .badValue(look: "vignette", key: "intensity", value: "-1")),
        ("sepia:intensity=1.5", .badValue(look: "sepia", key: "intensity", value: "1.5")),
        ("sepia:intensity=nan", .badValue(look: "sepia", key: "intensity", value: "nan")),
    ])
    func errors(text: String, expected: LookSyntaxError) {
        #expect(throws: expected) { try Looks.parse(text) }
    }

    /// The messages list what would have been accepted.
    @Test func messagesListTheValidChoices() {
        #expect(LookSyntaxError.unknownLook("sepai").description
                == "'sepai' is not a look; the looks are original, minimal-life, tumble-down, sepia, vignette")
        #expect(LookSyntaxError.unknownParameter(look: "vignette", key: "radus").description
                == "vignette has no parameter 'radus'; its parameters are intensity, radius")
        #expect(LookSyntaxError.badValue(look: "sepia", key: "intensity", value: "2").description
                == "sepia: intensity=2 is not a number from 0 to 1")
    }

    /// The options reject a bad filter as a usage error on `filter`, with the parser's message.
    @Test func optionsReportTheFilter() {
        var options = SlideshowOptions()
        options.filter = "vignette:radus=2"
        #expect(throws: OptionError(field: .filter, reason: "vignette has no parameter 'radus'; its parameters are intensity, radius")) {
            try options.validate()
        }
    }
}
