import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowKit

/// Picking from real photos and variants made of them: near-duplicates grouped into one pick,
/// the sharp, well-exposed original kept over its blurred, over-exposed and dark copies,
/// screenshots left out, the same folder always giving the same picks.
@Suite(.enabled(if: PickFixtures.available, PickFixtures.unavailable))
struct VariantPickTests {
    /// A folder of one scene's variants (all at 10:00:00 + k s) and other scenes an hour apart.
    static func makeSet(_ folder: TemporaryFolder, variants: [Variant], others: Int = 1) throws -> String {
        let root = folder.path("set")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for (k, variant) in variants.enumerated() {
            try PickFixtures.make(variant, of: PickFixtures.scenes[0], at: "\(root)/nikon-\(variant.rawValue).jpg", date: "2024:05:12 10:00:0\(k)")
        }
        for k in 0..<others {
            try PickFixtures.make(.original, of: PickFixtures.scenes[k + 1], at: "\(root)/scene\(k + 1).jpg", date: "2024:05:12 1\(k + 1):00:00")
        }
        return root
    }

    @Test func nearDuplicatesByCropAndRecompressionYieldExactlyOnePick() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeSet(folder, variants: [.original, .cropped, .recompressed], others: 2)
        var options = SlideshowOptions(duration: 30)
        options.pick = .count(10)
        let selection = try options.select([root])
        let report = try #require(selection.report)
        #expect(report.moments == 3)
        #expect(selection.photos.filter { $0.contains("nikon-") }.count == 1)
        #expect(selection.photos.count == 3)
        for decision in report.decisions where decision.path.contains("nikon-") && !decision.isPicked {
            #expect(decision.reason.code == "duplicate", "\(decision.path): \(decision.message)")
        }
    }

    @Test(arguments: [Variant.blurred, .overexposed, .dark])
    func aFlawedCopyIsNeverPickedOverItsSibling(_ flawed: Variant) throws {
        let folder = try TemporaryFolder()
        // The flawed copy first, so that capture order would favour it.
        let root = try Self.makeSet(folder, variants: [flawed, .original], others: 1)
        var options = SlideshowOptions(duration: 30)
        options.pick = .count(10)
        let report = try #require(try options.select([root]).report)
        #expect(report.picked.contains(root + "/nikon-original.jpg"))
        #expect(!report.picked.contains(root + "/nikon-\(flawed.rawValue).jpg"))
        let decision = try #require(report.decisions.first { $0.path.hasSuffix("nikon-\(flawed.rawValue).jpg") })
        #expect(decision.reason == .duplicate(of: root + "/nikon-original.jpg"), "\(decision.message) \(String(describing: decision.summary))")
    }

    @Test(arguments: [(Variant.veryBlurred, "blurred"), (.overexposed, "overexposed"), (.dark, "too-dark")])
    func aFlawedPhotoAloneIsLeftOutForAGoodOne(_ flawed: Variant, _ code: String) throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeSet(folder, variants: [flawed], others: 1)
        var options = SlideshowOptions(duration: 3)
        options.pick = .count(1)
        let report = try #require(try options.select([root]).report)
        #expect(report.picked == [root + "/scene1.jpg"])
        let decision = try #require(report.decisions.first { $0.path.hasSuffix("nikon-\(flawed.rawValue).jpg") })
        #expect(decision.reason.code == code, "\(decision.message) \(String(describing: decision.summary))")
    }

    @Test func screenshotsAreLeftOutUnlessNothingElse() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeSet(folder, variants: [.original], others: 1)
        try PickFixtures.screenshot(at: root + "/screen.png")
        var options = SlideshowOptions(duration: 6)
        options.pick = .count(2)
        let report = try #require(try options.select([root]).report)
        #expect(!report.picked.contains(root + "/screen.png"))
        #expect(report.decisions.first { $0.path.hasSuffix("screen.png") }?.reason == .screenshot)
        // Alone, it is picked.
        let alone = try #require(try options.select([root + "/screen.png"]).report)
        #expect(alone.picked == [root + "/screen.png"])
    }

    @Test func theSameFolderGivesTheSamePicksAndEveryInputIsExplained() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeSet(folder, variants: [.original, .blurred, .cropped], others: 3)
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: root + "/anim.gif"))
        try Data("<x/>".utf8).write(to: URL(fileURLWithPath: root + "/scene1.xmp"))
        var options = SlideshowOptions(duration: 9)
        options.pick = .auto
        let first = try options.select([root])
        let second = try options.select([root])
        let files = try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasSuffix(".xmp") }.map { root + "/" + $0 }
        let reversed = try options.select(files.sorted().reversed())
        #expect(first.report == second.report)
        #expect(reversed.photos == first.photos)
        let report = try #require(first.report)
        #expect(report.target == 3)
        #expect(report.why == "9 s at about 3 s a photo")
        #expect(report.picked.count == 3)
        // Every file but the sidecar, once.
        #expect(report.decisions.map(\.path).sorted() == files.sorted())
        #expect(report.decisions.first { $0.path.hasSuffix("anim.gif") }?.reason.code == "unreadable")
        #expect(first.warning?.hasPrefix("1 file cannot be read and is left out: \(root)/anim.gif") == true)
    }
}
