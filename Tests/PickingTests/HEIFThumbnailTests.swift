import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFormats
import SlideshowImages
import SlideshowPicking

/// Picking reads a HEIF's own thumbnail where it has one (issue 36: "HEIF thumbnails where
/// present"): the phones' 320x240 beside a 12-MP grid, upright as the picture is.
@Suite("HEIF thumbnails for picking")
struct HEIFThumbnailTests {
    /// `../shared/media`, or nil in a fresh clone.
    static let media: URL? = {
        let folder = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media")
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("MANIFEST.tsv").path) ? folder : nil
    }()

    /// Each phone HEIC's thumbnail: its size upright (the iPhone 8 Plus one turned by its `irot`
    /// like its picture; the Samsung one, stated 512x236, decodes to 235 rows through its crop),
    /// and the same picture as the full decode (their hashes a few bits apart).
    @Test(arguments: [("heic_iphonexr_grid_landscape.heic", 320, 240), ("heic_iphone8plus_grid_irot270_exif6_arrow.heic", 240, 320),
                      ("heic_samsung_s24fe_grid_exif6_no_irot.heic", 512, 235)])
    func thumbnailIsThePictureSmall(name: String, width: Int, height: Int) throws {
        guard let media = Self.media else { return withKnownIssue("skipped: ../shared/media is absent (a fresh clone)") { throw CancellationError() } }
        let path = media.appendingPathComponent(name).path
        let bytes = try PhotoFile.read(path).bytes
        let thumbnail = try #require(try HEIFDecoder(bytes, formatName: "HEIF").thumbnail(shorterSideAtLeast: 200))
        #expect(thumbnail.width == width && thumbnail.height == height, "\(thumbnail.width)x\(thumbnail.height)")
        let full = try ImageManager().decodeOriented(bytes, target: PhotoAnalysis.analysisSize, mode: .aspectFit, background: .black).0
        let small = PhotoAnalysis.measure(thumbnail.pixels, width: thumbnail.width, height: thumbnail.height, channels: 3, path: path)
        let large = PhotoAnalysis.measure(full.pixels, width: full.width, height: full.height, channels: full.channels, path: path)
        #expect((small.hash ^ large.hash).nonzeroBitCount <= 6, "\(String(small.hash, radix: 2)) against \(String(large.hash, radix: 2))")
        // None large enough: the picture is decoded as before.
        #expect(try HEIFDecoder(bytes, formatName: "HEIF").thumbnail(shorterSideAtLeast: 1000) == nil)
    }
}
