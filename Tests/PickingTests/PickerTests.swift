import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowKit
import SlideshowPicking
import SlideshowPlan

/// The picker on made-up summaries: moments, quality, coverage and determinism, exactly.
@Suite struct PickerTests {
    /// Three parts of a day, two hours apart: 10, 5 and 5 moments 30 s apart.
    static func day() -> [PhotoSummary] {
        let hashes = distinctHashes(20)
        var items: [PhotoSummary] = []
        for (part, (start, count)) in [(9 * 3600, 10), (12 * 3600, 5), (15 * 3600, 5)].enumerated() {
            for k in 0..<count {
                let index = items.count
                items.append(summary("p\(part)-\(k).jpg", hash: hashes[index], seconds: Int64(start + 30 * k)))
            }
        }
        return items
    }

    @Test func picksSpreadOverThePartsOfTheDayInProportion() {
        let items = Self.day()
        let choice = Picker.pick(items, target: 8)
        let picked = choice.picked.map { items[$0].path }
        #expect(choice.clusters == 3)
        #expect(picked.filter { $0.hasPrefix("p0-") }.count == 4)
        #expect(picked.filter { $0.hasPrefix("p1-") }.count == 2)
        #expect(picked.filter { $0.hasPrefix("p2-") }.count == 2)
        // Spread within a part: one from each half of the first part's runs.
        #expect(picked.filter { $0.hasPrefix("p0-") } == ["p0-0.jpg", "p0-2.jpg", "p0-5.jpg", "p0-7.jpg"])
        // In capture order, and the others left out for coverage.
        #expect(picked == picked.sorted { PhotoOrder.naturalCompare($0, $1) == .orderedAscending })
        let left = choice.decisions.filter { !$0.isPicked }
        #expect(left.count == 12)
        #expect(left.allSatisfy { if case .coverage = $0.reason { true } else { false } })
    }

    @Test func aSmallPartStillGetsAPlace() {
        // 18 moments in the morning, 2 in the evening: 4 places give the evening one.
        let hashes = distinctHashes(20)
        var items: [PhotoSummary] = []
        for k in 0..<20 {
            let start: Int64 = k < 18 ? 9 * 3600 : 20 * 3600
            items.append(summary("m\(k).jpg", hash: hashes[k], seconds: start + Int64(20 * k)))
        }
        let picked = Picker.pick(items, target: 4).picked.map { items[$0].path }
        #expect(picked.count == 4)
        #expect(picked.filter { ["m18.jpg", "m19.jpg"].contains($0) }.count == 1)
    }

    @Test func nearDuplicatesAreOneMomentAndTheSharpestIsKept() {
        let base: UInt64 = 0xF0F0_1234_ABCD_5678
        let items = [
            summary("a.jpg", hash: base, seconds: 100, detail: 0.20),
            summary("b.jpg", hash: base ^ 0b1011, seconds: 101, detail: 0.31),                 // 3 bits: same moment, sharper
            summary("c.jpg", hash: base ^ 0x3FFF, seconds: 102, detail: 0.35),                  // 14 bits, within the burst's seconds
            summary("d.jpg", hash: base ^ 0x3FFF_0000, seconds: 4000, detail: 0.35),                 // 14 bits, an hour later: another moment
            summary("e.jpg", hash: ~base, seconds: 103, detail: 0.5),                           // another picture at the same second
        ]
        let choice = Picker.pick(items, target: 10)
        #expect(choice.moments == 3)
        #expect(choice.picked.map { items[$0].path } == ["c.jpg", "e.jpg", "d.jpg"])
        #expect(choice.decisions[0].reason == .duplicate(of: "c.jpg"))
        #expect(choice.decisions[1].reason == .duplicate(of: "c.jpg"))
    }

    @Test func aRapidBurstOfAMovingCameraIsOneMoment() {
        let base: UInt64 = 0x3B1B_0B2A_375E_5C6C
        let items = [
            summary("1.jpg", hash: base, seconds: 500, detail: 0.30),
            summary("2.jpg", hash: base ^ 0x0FFF_FFFF, seconds: 501, detail: 0.40),             // 28 bits, the next second: the same moment
            summary("3.jpg", hash: base ^ 0xFF_FFFF_F000_0000, seconds: 503, detail: 0.50),     // 28 bits from 2, 2 s later: another
            summary("4.jpg", hash: ~base, seconds: 700, detail: 0.30),                          // far in both: another
        ]
        let choice = Picker.pick(items, target: 10)
        #expect(choice.moments == 3)
        #expect(choice.decisions[0].reason == .duplicate(of: "2.jpg"))
        #expect(choice.picked.map { items[$0].path } == ["2.jpg", "3.jpg", "4.jpg"])
    }

    @Test func flawedBestsWaitForTheGoodOnesAndScreenshotsComeLast() {
        let hashes = distinctHashes(5)
        let items = [
            summary("good.jpg", hash: hashes[0], seconds: 10),
            summary("blurred.jpg", hash: hashes[1], seconds: 20, detail: 0.02),
            summary("dark.jpg", hash: hashes[2], seconds: 30, mean: 20),
            summary("bright.jpg", hash: hashes[3], seconds: 40, highlights: 0.4),
            summary("screen.png", hash: hashes[4], seconds: nil, content: .screenshot),
        ]
        let one = Picker.pick(items, target: 1)
        #expect(one.picked.map { items[$0].path } == ["good.jpg"])
        #expect(one.decisions.map(\.reason.code) == ["picked", "blurred", "too-dark", "overexposed", "screenshot"])
        // More places than good moments: the flawed ones fill them, the screenshot last.
        #expect(Picker.pick(items, target: 4).picked.map { items[$0].path }.contains("screen.png") == false)
        #expect(Picker.pick(items, target: 5).picked.map { items[$0].path }.contains("screen.png"))
        // Nothing else: the screenshot is picked.
        #expect(Picker.pick([items[4]], target: 1).picked == [0])
        #expect(Picker.pick([items[4]], target: nil).picked == [0])
    }

    @Test func theSameSummariesInAnyOrderGiveTheSamePicks() {
        let items = Self.day()
        let reference = Picker.pick(items, target: 7).picked.map { items[$0].path }
        var generator = SplitMix64(state: 7)
        for _ in 0..<5 {
            let shuffled = items.shuffled(using: &generator)
            #expect(Picker.pick(shuffled, target: 7).picked.map { shuffled[$0].path } == reference)
        }
    }

    @Test func pickCountParsing() {
        #expect(PickCount(parsing: "12") == .count(12))
        #expect(PickCount(parsing: "auto") == .auto)
        #expect(PickCount(parsing: "0") == nil)
        #expect(PickCount(parsing: "-3") == nil)
        #expect(PickCount(parsing: "many") == nil)
    }

    @Test func autoAimsAtTheLengthAtAboutThreeSecondsAPhoto() throws {
        var options = SlideshowOptions(duration: 36)
        #expect(try options.pickTarget(.auto).0 == 12)
        options.titleCard = "Day"
        #expect(try options.pickTarget(.auto).0 == 11)   // 36 − 2 s of card
        options = SlideshowOptions(slideDuration: 2)
        #expect(try options.pickTarget(.auto).0 == nil)
        #expect(throws: OptionError.self) { try SlideshowOptions().pickTarget(.auto) }
    }
}

