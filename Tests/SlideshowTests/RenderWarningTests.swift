import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowKit
import SlideshowLooks
import SlideshowWriter
import SlideshowPixels

@Suite("Warnings are typed and belong to their render: a kind, the file, the line; no process-wide handler")
struct RenderWarningTests {
    /// A 16x8 grey JPEG whose EXIF capture date is `date`.
    static func photo(_ name: String, date: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path(name)
        try Data(SyntheticJPEG.grey(width: 16, height: 8, before: SyntheticJPEG.exifSegment(exifBlock(date: date))))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("two renders of the same photos each report its warnings, once each, with kind and path")
    func eachRenderHasItsOwn() async throws {
        let folder = try TemporaryFolder()
        let old = try Self.photo("old.jpg", date: "1799:01:01 00:00:00", in: folder)
        let scan = try Self.photo("scan.jpg", date: "1903:07:01 12:00:00", in: folder)
        var results: [RenderResult] = []
        for name in ["a.mp4", "b.mp4"] {
            var show = Slideshow(photos: [Photo(path: old), Photo(path: scan)], output: folder.path(name), length: .total(seconds: 1),
                                 video: VideoSettings(size: Size(width: 64, height: 48), framesPerSecond: 2))
            show.dateImprint = DateImprint()
            results.append(try await show.render())
        }
        for result in results {
            // The implausible date from validation's header read, the unrepresentable one from
            // the movie's creation time: each once, although both photos are read twice.
            #expect(result.warnings.map(\.kind) == [.photo, .photo], "\(result.warnings)")
            #expect(result.warnings.map(\.path) == [old, scan])
            #expect(result.warnings[0].message == "\(old): its capture date 1799:01:01 00:00:00 is before 1826, the year of the first photograph; it is ignored")
            #expect(result.warnings[1].message.hasPrefix("\(scan): its capture date 1903:07:01 12:00:00 is outside what an MP4's creation time can hold"))
        }
    }

    @Test("validation's warnings are the prepared show's, typed; the render repeats them without doubling them")
    func preparedWarnings() async throws {
        let folder = try TemporaryFolder()
        let old = try Self.photo("old.jpg", date: "1799:01:01 00:00:00", in: folder)
        var show = Slideshow(photos: [Photo(path: old), Photo(path: TestEnvironment.sample("square.jpg"))], output: folder.path("out.mp4"),
                             length: .total(seconds: 1), video: VideoSettings(size: Size(width: 64, height: 48), framesPerSecond: 2))
        show.order = .date
        let prepared = try await show.validate()
        #expect(prepared.warnings.map(\.kind) == [.photo, .order], "\(prepared.warnings)")
        #expect(prepared.warnings.first?.path == old && prepared.warnings.last?.path == nil)
        let result = try await prepared.render()
        #expect(result.warnings == prepared.warnings)
    }
}
