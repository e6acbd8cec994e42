import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowKit
import SlideshowSupport
import SlideshowWriter
import SlideshowPixels

/// A shared medium, when the shared files are there.
private func sharedMedium(_ name: String) -> String? {
    let path = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media/\(name)").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

@Suite("Each photo file is opened once to check it and once to render it")
struct FileOpensTests {
    @Test("a HEIC (whose boxes need the whole file) and a WebP: one opening each for validation, one for the render",
          .enabled(if: sharedMedium("heic_iphonexr_grid_landscape.heic") != nil, "needs ../shared/media"))
    func heicOpenedOnceEach() async throws {
        let heic = try #require(sharedMedium("heic_iphonexr_grid_landscape.heic"))
        let webp = try #require(sharedMedium("webp_lossy_icc_exif_xmp_flower.webp"))
        let folder = try TemporaryFolder()
        let show = Slideshow(photos: [Photo(path: heic), Photo(path: webp)], output: folder.path("out.mp4"), length: .total(seconds: 1),
                             video: VideoSettings(size: Size(width: 64, height: 48), framesPerSecond: 2))
        let checking = ReadProbe()
        let prepared = try await ReadProbe.$current.withValue(checking) { try await show.validate() }
        // The header's prefix and, for these formats, the rest of the file, from one opening.
        #expect(checking.photoOpens.load(ordering: .relaxed) == 2)
        #expect(checking.photoHeaders.load(ordering: .relaxed) == 2)
        let rendering = ReadProbe()
        _ = try await ReadProbe.$current.withValue(rendering) { try await prepared.render() }
        // One decode each: the bytes are not kept from validation to the render (a long show's
        // files would then all be in memory at once).
        #expect(rendering.photoOpens.load(ordering: .relaxed) == 2)
        #expect(rendering.photoHeaders.load(ordering: .relaxed) == 0)
    }
}
