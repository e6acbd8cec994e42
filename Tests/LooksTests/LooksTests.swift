import Testing
@testable import SlideshowKit
import SlideshowLooks
import SlideshowPixels

/// The catalogue, the bars, the grain's determinism.
@Suite struct LooksTests {
    @Test func catalogue() {
        #expect(Looks.all.map(\.name) == ["original", "minimal-life", "tumble-down", "sepia", "vignette"])
        #expect(Looks.catalogue.map(\.name) == Looks.all.map(\.name))
        #expect(Looks.original.name == "original")
        #expect(Looks.minimalLife.name == "minimal-life")
        #expect(Looks.tumbleDown.name == "tumble-down")
    }

    @Test(arguments: ["original", "minimal-life", "tumble-down", "sepia", "vignette"])
    func namedFindsEachLook(name: String) throws {
        let look = try #require(Looks.named(name))
        #expect(look.name == name)
        let summary = try #require(Looks.summary(of: name))
        #expect(!summary.isEmpty && !summary.contains("\n"))
    }

    @Test(arguments: ["", "Minimal-Life", "minimal life", "Sepia", "original+tumble-down", "vignette:radius=1"])
    func unknownNames(name: String) {
        #expect(Looks.named(name) == nil)
        #expect(Looks.summary(of: name) == nil)
    }

    @Test func summaries() {
        #expect(Looks.summary(of: "minimal-life") == "black and white, Agfa APX 400: lifted exposure, soft contrast, grain")
        #expect(Looks.summary(of: "tumble-down")?.contains("violet shadows") == true)
    }

    @Test func originalChangesNothing() {
        let input = TestImages.letterboxed()
        var buffer = input
        Looks.original.apply(to: &buffer, slideIndex: 3)
        #expect(buffer == input)
    }

    @Test("the bars outside the content rectangle keep their bytes", arguments: ["original", "minimal-life", "tumble-down", "sepia", "vignette"])
    func barsUntouched(name: String) throws {
        let look = try #require(Looks.named(name))
        let input = TestImages.letterboxed()
        var buffer = input
        look.apply(to: &buffer, slideIndex: 9)
        var changedInside = 0
        for y in 0..<input.height {
            for x in 0..<input.width {
                if input.contentRect.contains(x: x, y: y) {
                    if buffer[x, y] != input[x, y] { changedInside += 1 }
                } else {
                    #expect(buffer[x, y] == input[x, y], "bar pixel (\(x), \(y))")
                }
            }
        }
        if name != "original" {
            #expect(changedInside > 40 * 48 / 2)
        }
    }

    /// The grain belongs to the pixel's place in the buffer, not in the photo: a look applied
    /// to a content rectangle gives there what it gives on the whole buffer.
    @Test(arguments: ["minimal-life", "tumble-down"])
    func grainIsKeyedByBufferPosition(name: String) throws {
        let look = try #require(Looks.named(name))
        let letterboxed = TestImages.letterboxed()
        var whole = letterboxed
        whole.contentRect = Rect(whole.size)
        var part = letterboxed
        look.apply(to: &whole, slideIndex: 4)
        look.apply(to: &part, slideIndex: 4)
        let rect = letterboxed.contentRect
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                #expect(part[x, y] == whole[x, y])
            }
        }
    }

    @Test(arguments: ["minimal-life", "tumble-down"])
    func grainIsDeterministic(name: String) throws {
        let look = try #require(Looks.named(name))
        let input = TestImages.letterboxed()
        var first = input, second = input, other = input
        look.apply(to: &first, slideIndex: 12)
        look.apply(to: &second, slideIndex: 12)
        look.apply(to: &other, slideIndex: 13)
        #expect(first == second)
        #expect(first != other)
        // Fresh looks with the same parameters give the same bytes too.
        let copy = try #require(look as? FilmLook)
        var third = input
        FilmLook(name: copy.name, exposure: copy.exposure, contrast: copy.contrast, gamma: copy.gamma,
                 monochrome: copy.isMonochrome, violetShadows: copy.hasVioletShadows, grain: copy.grain)
            .apply(to: &third, slideIndex: 12)
        #expect(third == first)
    }

    /// The hash is SplitMix64: its first output from seed 0 is the published test value.
    @Test func grainHashIsSplitMix64() {
        #expect(FilmGrain.mix(0 &+ FilmGrain.weylStep) == 0xE220_A839_7B1D_CDAF)
        #expect(FilmGrain.mix(FilmGrain.weylStep &* 2) == 0x6E78_9E6A_A1B9_65F4)
    }

    /// Pins the grain of a few pixels so that a change to the hash, which would change every
    /// render, cannot pass unnoticed.
    @Test func grainIsPinned() {
        let seed = FilmGrain.seed(slideIndex: 0)
        #expect(FilmGrain.bits(slideIndex: 0, x: 0, y: 0) == FilmGrain.mix(seed))
        #expect(FilmGrain.bits(slideIndex: 0, x: 5, y: 7)
                == FilmGrain.mix(seed &+ ((UInt64(7) << 32) | 5) &* FilmGrain.weylStep))
        #expect(FilmGrain.bits(slideIndex: 1, x: 0, y: 0) != FilmGrain.bits(slideIndex: 0, x: 0, y: 0))
    }

    @Test func grainIsUniform() {
        var sums = (0.0, 0.0, 0.0)
        var low = 0, high = 0
        let n = 64 * 48
        for y in 0..<48 {
            for x in 0..<64 {
                let u = FilmGrain.uniforms(slideIndex: 0, x: x, y: y)
                sums.0 += u.red; sums.1 += u.green; sums.2 += u.blue
                for v in [u.red, u.green, u.blue] {
                    #expect(v >= 0 && v <= 1)
                    if v < 0.1 { low += 1 }
                    if v > 0.9 { high += 1 }
                }
            }
        }
        for mean in [sums.0, sums.1, sums.2].map({ $0 / Double(n) }) {
            #expect(abs(mean - 0.5) < 0.02, "mean \(mean)")
        }
        #expect(abs(Double(low) / Double(3 * n) - 0.1) < 0.015)
        #expect(abs(Double(high) / Double(3 * n) - 0.1) < 0.015)
    }
}
