import Testing
@testable import SlideshowKit
import SlideshowFraming
import SlideshowImages
import SlideshowPixels

/// One DCT scale choice with its expected factor.
struct ScaleCase: Sendable, CustomTestStringConvertible {
    var stored: Size
    var orientation: Orientation
    var target: Size
    var mode: ContentMode
    var expected: DCTScale
    var why: String

    var testDescription: String { why }
}

@Suite("DCT scale choice")
struct DCTScaleTests {
    static func scale(_ numerator: Int, _ denominator: Int) -> DCTScale {
        DCTScale(numerator: numerator, denominator: denominator)
    }

    static let cases: [ScaleCase] = [
        ScaleCase(stored: Size(width: 4288, height: 2848), orientation: .up, target: .hd1080, mode: .aspectFit,
                  expected: scale(1, 2), why: "Nikon 4288x2848 fit 1920x1080: needs 1626x1080; 3/8 is 1608x1068, 1/2 is 2144x1424"),
        ScaleCase(stored: Size(width: 3264, height: 2448), orientation: .right, target: .hd1080, mode: .aspectFit,
                  expected: scale(3, 8), why: "iPhone orientation 6 fit 1920x1080: needs 810x1080 displayed = 1080x810 stored; 3/8 is 1224x918"),
        ScaleCase(stored: Size(width: 3264, height: 2448), orientation: .right, target: Size(width: 1080, height: 1920), mode: .aspectFit,
                  expected: scale(1, 2), why: "iPhone orientation 6 fit 1080x1920: needs 1440x1080 stored; without the swap it would be 5/8"),
        ScaleCase(stored: Size(width: 3264, height: 2448), orientation: .right, target: .hd1080, mode: .aspectFill,
                  expected: scale(7, 8), why: "iPhone orientation 6 fill 1920x1080: the whole photo is 1920x2560, 2560x1920 stored; 7/8 is 2856x2142"),
        ScaleCase(stored: Size(width: 20000, height: 14000), orientation: .up, target: .hd1080, mode: .aspectFit,
                  expected: scale(1, 8), why: "20000x14000 fit 1920x1080: 1/8 (2500x1750) is the smallest there is"),
        ScaleCase(stored: Size(width: 4000, height: 3000), orientation: .up, target: .hd1080, mode: .aspectFit,
                  expected: scale(3, 8), why: "4000x3000 fit 1920x1080: needs 1440x1080; 1/4 (1000x750) would undershoot, 3/8 is 1500x1125"),
        ScaleCase(stored: Size(width: 1800, height: 1200), orientation: .up, target: Size(width: 180, height: 120), mode: .aspectFit,
                  expected: scale(1, 8), why: "1800x1200 fit 180x120: 1/8 is 225x150"),
        ScaleCase(stored: Size(width: 227, height: 149), orientation: .up, target: .hd1080, mode: .aspectFit,
                  expected: scale(1, 1), why: "a small photo enlarged: 1/1, never a DCT upscale"),
        ScaleCase(stored: Size(width: 1920, height: 1080), orientation: .up, target: .hd1080, mode: .aspectFit,
                  expected: scale(1, 1), why: "exactly the frame: 1/1"),
        ScaleCase(stored: Size(width: 3840, height: 2160), orientation: .up, target: .hd1080, mode: .aspectFill,
                  expected: scale(1, 2), why: "4K to 1080p: exactly 1/2"),
    ]

    @Test("exact choices", arguments: cases)
    func exactChoices(_ example: ScaleCase) {
        let displayed = example.orientation.displayedSize(of: example.stored)
        let geometry = FitGeometry(source: displayed, target: example.target, mode: example.mode)
        let chosen = DCTScale.choose(stored: example.stored, orientation: example.orientation, fitted: geometry.fittedSize)
        #expect(chosen == example.expected, "chose \(chosen)")
    }

    @Test("TurboJPEG offers the sixteen factors from 2/1 to 1/8")
    func availableFactors() {
        let factors = Set(DCTScale.available.map(\.description))
        #expect(DCTScale.available.count == 16)
        for factor in ["1/1", "7/8", "3/4", "5/8", "1/2", "3/8", "1/4", "1/8", "2/1"] {
            #expect(factors.contains(factor), "missing \(factor)")
        }
    }

    @Test("TJSCALED rounds up")
    func scaledRoundsUp() {
        #expect(Self.scale(1, 8).scaled(227) == 29)
        #expect(Self.scale(3, 8).scaled(2448) == 918)
        #expect(Self.scale(1, 2).scaled(Size(width: 4288, height: 2848)) == Size(width: 2144, height: 1424))
        #expect(Self.scale(1, 8).scaled(1) == 1)
    }

    @Test("the choice covers and is minimal, over a sweep", arguments: Orientation.allCases)
    func coversAndMinimal(_ orientation: Orientation) {
        let usable = DCTScale.available.filter { $0.numerator <= $0.denominator }
        for stored in [Size(width: 4288, height: 2848), Size(width: 3264, height: 2448), Size(width: 6000, height: 771),
                       Size(width: 2, height: 1), Size(width: 20000, height: 14000), Size(width: 1200, height: 1800)] {
            for target in [Size(width: 192, height: 108), .hd1080, Size(width: 1080, height: 1920), Size(width: 3840, height: 2160)] {
                for mode in [ContentMode.aspectFit, .aspectFill] {
                    let geometry = FitGeometry(source: orientation.displayedSize(of: stored), target: target, mode: mode)
                    let fitted = orientation.displayedSize(of: geometry.fittedSize)  // back to stored orientation
                    let chosen = DCTScale.choose(stored: stored, orientation: orientation, fitted: geometry.fittedSize)
                    let label = "\(stored) o\(orientation.rawValue) \(target) \(mode): \(chosen)"
                    #expect(chosen.numerator <= chosen.denominator, "\(label)")
                    let covers = { (f: DCTScale) in f.scaled(stored).width >= fitted.width && f.scaled(stored).height >= fitted.height }
                    if chosen != DCTScale.one { #expect(covers(chosen), "\(label)") }
                    // No smaller factor covers.
                    for smaller in usable where smaller.numerator * chosen.denominator < chosen.numerator * smaller.denominator {
                        #expect(!covers(smaller), "\(label): \(smaller) also covers")
                    }
                }
            }
        }
    }
}
