import Foundation
import Testing
@testable import SlideshowKit
import TestSupport

/// The captions as a WebVTT file beside the video: each cue is its photo's share, to the frame.
@Suite("Captions as a WebVTT file")
struct SubtitleFileTests {
    static var photos: [Photo]? { ShowCaptionTests.photos }

    static func show(_ folder: TemporaryFolder, captions: [Caption?], length: SlideshowLength) throws -> Slideshow {
        var show = Slideshow(photos: try #require(photos) + [try #require(photos)[0]], output: folder.path("out.mp4"), length: length,
                             video: VideoSettings(size: Size(width: 320, height: 180), framesPerSecond: 25))
        show.text.captions = captions
        show.text.webVTT = folder.path("out.vtt")
        return show
    }

    @Test("the file beside the video has a cue per captioned photo at its share's frames; the cues match the timeline",
          .enabled(if: photos != nil, TestEnvironment.noSharedPhotos))
    func cuesAtTheirPhotosTimes() async throws {
        let folder = try TemporaryFolder()
        // 1.3 s at 25 fps in three: 33 frames, shared 11 + 11 + 11 (0.44 s each).
        let show = try Self.show(folder, captions: [Caption("Tom & Jerry <3"), nil, Caption("Ende")], length: .total(seconds: 1.3))
        let prepared = try show.validate()
        #expect(prepared.subtitleCues.map(\.text) == ["Tom & Jerry <3", "Ende"])
        _ = try await prepared.render()
        let text = try String(contentsOfFile: folder.path("out.vtt"), encoding: .utf8)
        let frames = (0..<3).map { prepared.timeline.frames(ofPhoto: $0) }
        func stamp(_ frame: Int) -> String { WebVTT.timestamp(MediaTime(value: Int64(frame), timescale: 25)) }
        #expect(text == """
            WEBVTT

            1
            \(stamp(frames[0].lowerBound)) --> \(stamp(frames[0].upperBound))
            Tom &amp; Jerry &lt;3

            2
            \(stamp(frames[2].lowerBound)) --> \(stamp(frames[2].upperBound))
            Ende

            """)
        #expect(frames[2].upperBound == prepared.timeline.frameCount)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)) == ["out.mp4", "out.vtt"])
    }

    @Test("a WebVTT file already there without overwrite, or the video's own path, is refused before anything is written",
          .enabled(if: photos != nil, TestEnvironment.noSharedPhotos))
    func refusedBeforeRendering() throws {
        let folder = try TemporaryFolder()
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("out.vtt")))
        let show = try Self.show(folder, captions: [Caption("A"), nil, nil], length: .total(seconds: 1))
        #expect(throws: RenderError.self) { try show.validate() }
        var same = show
        same.text.webVTT = show.output
        #expect(throws: RenderError.invalid("\(show.output): the WebVTT file is the video's file")) { try same.validate() }
        #expect(try String(contentsOfFile: folder.path("out.vtt"), encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: show.output))
    }

    @Test("a render that fails leaves no WebVTT file behind",
          .enabled(if: photos != nil, TestEnvironment.noSharedPhotos))
    func failedRenderLeavesNothing() async throws {
        let folder = try TemporaryFolder()
        var show = try Self.show(folder, captions: [Caption("A"), nil, nil], length: .total(seconds: 1))
        // A photo whose header reads but whose data is cut short fails while rendering.
        let source = try #require(TestEnvironment.sharedPhoto("malformed_truncated.jpg"))
        show.photos[1] = Photo(path: source)
        await #expect(throws: RenderError.self) { try await show.render() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
