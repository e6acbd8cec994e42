import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowKit

/// A manifest's folders and `pick`: listed and picked when the manifest is read, refused by field.
@Suite struct ManifestPickTests {
    static func folderOfSamples(_ folder: TemporaryFolder) throws -> String {
        let root = folder.path("photos")
        try FileManager.default.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("landscape.jpg"), toPath: root + "/a.jpg")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("landscape.jpg"), toPath: root + "/a-copy.jpg")
        try FileManager.default.copyItem(atPath: TestEnvironment.sample("square.jpg"), toPath: root + "/sub/b.jpg")
        try Data("<x/>".utf8).write(to: URL(fileURLWithPath: root + "/a.xmp"))
        return root
    }

    @Test func aFolderInPhotosIsListedRelativeToTheManifest() throws {
        let folder = try TemporaryFolder()
        _ = try Self.folderOfSamples(folder)
        let manifest = try BatchManifest(data: Data(#"[{"photos": ["photos"], "output": "out.mp4", "duration": 6}]"#.utf8), relativeTo: folder.url.path)
        #expect(manifest.jobs[0].slideshow.photos.map(\.path) == ["a-copy.jpg", "a.jpg", "sub/b.jpg"].map { folder.path("photos/" + $0) })
    }

    @Test func pickPicksOnePerMoment() throws {
        let folder = try TemporaryFolder()
        _ = try Self.folderOfSamples(folder)
        for pick in [#""pick": 5"#, #""pick": "auto""#] {
            let manifest = try BatchManifest(data: Data(#"{"photos": ["photos"], "output": "out.mp4", "duration": 6, \#(pick)}"#.utf8), relativeTo: folder.url.path)
            // Two moments: the byte-identical copy counts with its original.
            #expect(manifest.jobs[0].slideshow.photos.count == 2, "\(pick)")
        }
    }

    @Test func aJobWithAPickCarriesItsExplanation() throws {
        let folder = try TemporaryFolder()
        _ = try Self.folderOfSamples(folder)
        let manifest = try BatchManifest(data: Data(#"[{"photos": ["photos"], "output": "out.mp4", "duration": 6, "pick": 1}, {"photos": ["photos"], "output": "all.mp4", "duration": 6}]"#.utf8),
                                         relativeTo: folder.url.path)
        let pick = try #require(manifest.jobs[0].pick)
        #expect(pick.picked == manifest.jobs[0].slideshow.photos.map(\.path))
        #expect(pick.decisions.map(\.path).sorted() == ["a-copy.jpg", "a.jpg", "sub/b.jpg"].map { folder.path("photos/" + $0) })
        #expect(pick.decisions.filter(\.isPicked).count == 1)
        #expect(pick.moments == 2)
        // A folder without a pick plays every photo, and has no explanation to give.
        #expect(manifest.jobs[1].pick == nil)
    }

    @Test(arguments: [(#""pick": 0"#, "pick: must be 1 or more, or \"auto\""),
                      (#""pick": "lots""#, "pick: 'lots' is not a number of photos or \"auto\""),
                      (#""pick": true"#, "pick: must be a number of photos or \"auto\"")])
    func aBadPickIsRefusedByField(_ field: String, _ message: String) throws {
        let text = #"{"photos": ["a.jpg"], "output": "out.mp4", \#(field)}"#
        #expect(throws: InvalidManifest.self) { try BatchManifest(data: Data(text.utf8), relativeTo: nil) }
        do {
            _ = try BatchManifest(data: Data(text.utf8), relativeTo: nil)
        } catch {
            #expect(error.errors.map { "\($0.field ?? ""): \($0.reason)" } == [message])
        }
    }
}
