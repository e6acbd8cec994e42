import Testing
@testable import SlideshowKit
import SlideshowLooks

/// Looks in a chain, written as a list or with the builder.
@Suite struct LookChainTests {
    @Test func chainEqualsLooksInTurn() {
        let input = TestImages.letterboxed()
        var chained = input, inTurn = input
        LookChain([Looks.tumbleDown, Looks.minimalLife]).apply(to: &chained, slideIndex: 6)
        Looks.tumbleDown.apply(to: &inTurn, slideIndex: 6)
        Looks.minimalLife.apply(to: &inTurn, slideIndex: 6)
        #expect(chained == inTurn)
    }

    @Test func names() {
        #expect(LookChain([Looks.tumbleDown, Looks.minimalLife]).name == "tumble-down+minimal-life")
        #expect(LookChain([Looks.minimalLife]).name == "minimal-life")
        #expect(LookChain([]).name == "original")
        #expect(LookChain([LookChain([Looks.original, Looks.tumbleDown]), Looks.minimalLife]).name
                == "original+tumble-down+minimal-life")
    }

    @Test func emptyChainChangesNothing() {
        let input = TestImages.letterboxed()
        var buffer = input
        LookChain([]).apply(to: &buffer, slideIndex: 0)
        #expect(buffer == input)
    }

    @Test(arguments: [false, true])
    func builderIfElse(blackAndWhite: Bool) {
        let chain = LookChain {
            Looks.original
            if blackAndWhite {
                Looks.minimalLife
            } else {
                Looks.tumbleDown
            }
        }
        #expect(chain.name == (blackAndWhite ? "original+minimal-life" : "original+tumble-down"))
    }

    @Test(arguments: [false, true])
    func builderIfWithoutElse(tinted: Bool) {
        let chain = LookChain {
            if tinted { Looks.tumbleDown }
            Looks.minimalLife
        }
        #expect(chain.name == (tinted ? "tumble-down+minimal-life" : "minimal-life"))
    }

    @Test func builderOptionals() {
        let wanted: String? = "tumble-down"
        let absent: String? = nil
        let chain = LookChain {
            if let wanted, let look = Looks.named(wanted) { look }
            if let absent { Looks.named(absent) }
            Looks.named("no-such-look")   // an optional look: nil adds nothing
            Looks.named("minimal-life")
        }
        #expect(chain.name == "tumble-down+minimal-life")
    }

    @Test func builderLoopsSwitchesAndLists() {
        let names = ["minimal-life", "original", "tumble-down"]
        let chain = LookChain {
            for name in names {
                switch name {
                case "original": Looks.original
                default: Looks.named(name)
                }
            }
            [Looks.original, Looks.minimalLife]
        }
        #expect(chain.name == "minimal-life+original+tumble-down+original+minimal-life")
        #expect(chain.looks.count == 5)
    }

    @Test func builderChainAppliesLikeList() {
        let input = TestImages.letterboxed()
        var built = input, listed = input
        LookChain { Looks.minimalLife; Looks.tumbleDown }.apply(to: &built, slideIndex: 2)
        LookChain([Looks.minimalLife, Looks.tumbleDown]).apply(to: &listed, slideIndex: 2)
        #expect(built == listed)
    }
}
