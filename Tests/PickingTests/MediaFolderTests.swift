import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowKit
import SlideshowPicking

/// Folders as input: recursion, natural order, hidden files, sidecars, unreadable files, Live Photos.
/// Made from the project's own sample photos: no shared files needed.
@Suite struct MediaFolderTests {
    /// A tree with photos in two levels, hidden files, sidecars, a thumbnail cache, files that
    /// are not images and a Live Photo pair.
    static func makeTree(_ folder: TemporaryFolder) throws -> String {
        let root = folder.path("day")
        let fm = FileManager.default
        for sub in ["day/morning", "day/.hidden", "day/@eaDir", "day/evening/late"] {
            try fm.createDirectory(atPath: folder.path(sub), withIntermediateDirectories: true)
        }
        let photo = TestEnvironment.sample("landscape.jpg")
        let copies = ["day/img10.jpg", "day/img2.jpg", "day/morning/a.jpg", "day/evening/late/z.jpg",
                      "day/.hidden/secret.jpg", "day/.dotfile.jpg", "day/@eaDir/img2.jpg", "day/IMG_5.HEIC.jpg", "day/live.jpg"]
        for copy in copies { try fm.copyItem(atPath: photo, toPath: folder.path(copy)) }
        // Sidecars, ignored.
        for sidecar in ["day/img2.xmp", "day/img10.jpg.xmp", "day/live.AAE", "day/IMG_5.THM", "day/Thumbs.db"] {
            try Data("<x:xmpmeta/>".utf8).write(to: URL(fileURLWithPath: folder.path(sidecar)))
        }
        // Not readable: a GIF, a PDF, an empty file; a text file with a photo's name.
        try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: URL(fileURLWithPath: folder.path("day/anim.gif")))
        try Data("%PDF-1.4\n".utf8).write(to: URL(fileURLWithPath: folder.path("day/morning/ticket.pdf")))
        try Data().write(to: URL(fileURLWithPath: folder.path("day/empty.jpg")))
        // A Live Photo movie beside its still (a QuickTime header), and a clip of its own (an MP4 header).
        let quickTime: [UInt8] = [0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 0, 0] + Array("qt  ".utf8)
        try Data(quickTime).write(to: URL(fileURLWithPath: folder.path("day/live.MOV")))
        let mp4: [UInt8] = [0, 0, 0, 20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isom".utf8)
        try Data(mp4).write(to: URL(fileURLWithPath: folder.path("day/morning/clip.mp4")))
        return root
    }

    @Test func listsRecursivelyInNaturalOrderIgnoringHiddenFilesAndSidecars() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeTree(folder)
        let listing = MediaFolder.list([root])
        let names = listing.items.map { String($0.dropFirst(root.count + 1)) }
        #expect(names == ["evening/late/z.jpg", "img2.jpg", "img10.jpg", "IMG_5.HEIC.jpg", "live.jpg", "morning/a.jpg", "morning/clip.mp4"])
        #expect(listing.clips == [root + "/morning/clip.mp4"])
        #expect(listing.pairs == [MediaListing.Pair(still: root + "/live.jpg", movie: root + "/live.MOV")])
        // .hidden/, .dotfile.jpg, @eaDir/, five sidecars.
        #expect(listing.ignored == 8)
        #expect(listing.hadFolders)
    }

    @Test func unreadableFilesAreListedAndSkippedWithOneWarning() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeTree(folder)
        let listing = MediaFolder.list([root])
        #expect(listing.skipped.map(\.path) == [root + "/anim.gif", root + "/empty.jpg", root + "/morning/ticket.pdf"])
        #expect(listing.skipped[0].reason.contains("GIF"))
        #expect(listing.skipped[1].reason.contains("empty"))
        let warning = try #require(listing.warning)
        #expect(warning.hasPrefix("3 files cannot be read and are left out: \(root)/anim.gif (not a JPEG"))
        #expect(!warning.contains("\n"))
        // Through the options, the same one warning, and the items as listed.
        let selection = try SlideshowOptions().select([root])
        #expect(selection.warning == warning)
        #expect(selection.photos == listing.items)
    }

    @Test func filesGivenOnTheirOwnAreKeptAsGiven() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeTree(folder)
        let listing = MediaFolder.list([root + "/anim.gif", root + "/img10.jpg", root + "/morning"])
        #expect(listing.items == [root + "/anim.gif", root + "/img10.jpg", root + "/morning/a.jpg", root + "/morning/clip.mp4"])
        #expect(listing.skipped.map(\.path) == [root + "/morning/ticket.pdf"])
    }

    @Test func theOutputInsideTheFolderIsNotAnInput() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeTree(folder)
        let output = root + "/morning/clip.mp4"
        #expect(!MediaFolder.list([root], excluding: output).items.contains(output))
    }

    @Test func aFolderWithNothingReadableIsRefusedNamingIt() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("none"), withIntermediateDirectories: true)
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: folder.path("none/a.gif")))
        #expect(throws: OptionError.self) { try SlideshowOptions().select([folder.path("none")]) }
        do {
            _ = try SlideshowOptions().select([folder.path("none")])
        } catch {
            #expect(error.field == .photos)
            #expect(error.reason.contains("none: no photo or clip that can be read"))
        }
    }

    @Test(.enabled(if: TestEnvironment.sharedClips != nil, "skipped: ../shared/clips is absent (a fresh clone)"))
    func aLivePhotoMovieStaysWithItsStillAndCountsOnceInAPick() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("live"), withIntermediateDirectories: true)
        for (name, copy) in [("livephoto_iphone15pro_IMG_4394.HEIC", "IMG_4394.HEIC"), ("livephoto_iphone15pro_IMG_4394.mov", "IMG_4394.mov")] {
            try FileManager.default.copyItem(atPath: try #require(TestEnvironment.sharedClip(name)), toPath: folder.path("live/" + copy))
        }
        let listing = MediaFolder.list([folder.path("live")])
        #expect(listing.items == [folder.path("live/IMG_4394.HEIC")])
        #expect(listing.pairs == [MediaListing.Pair(still: folder.path("live/IMG_4394.HEIC"), movie: folder.path("live/IMG_4394.mov"))])
        // Named on their own with a pick, the movie counts with its still.
        var options = SlideshowOptions(duration: 6)
        options.pick = .count(2)
        let report = try #require(try options.select([folder.path("live/IMG_4394.HEIC"), folder.path("live/IMG_4394.mov")]).report)
        #expect(report.picked == [folder.path("live/IMG_4394.HEIC")])
        #expect(report.decisions.map(\.reason) == [.picked, .livePhotoMovie(of: folder.path("live/IMG_4394.HEIC"))])
    }
}
