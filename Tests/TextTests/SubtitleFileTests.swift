import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowKit
import SlideshowPixels
import SlideshowPlan
import SlideshowText
import SlideshowWriter

/// The captions as the MP4's mov_text track and a WebVTT file beside the video: each cue is its photo's share, to the frame.
@Suite("Captions as the MP4's subtitle track and a WebVTT file")
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
        let prepared = try await show.validate()
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
    func refusedBeforeRendering() async throws {
        let folder = try TemporaryFolder()
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("out.vtt")))
        let show = try Self.show(folder, captions: [Caption("A"), nil, nil], length: .total(seconds: 1))
        await #expect(throws: RenderError.self) { try await show.validate() }
        var same = show
        same.text.webVTT = show.output
        await #expect(throws: RenderError.invalid("\(show.output): the WebVTT file is the video's file")) { try await same.validate() }
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

    @Test("the MP4's mov_text track, read back by ffmpeg as SRT, has every caption at its photo's time within a frame, with its language",
          .enabled(if: photos != nil && which("ffmpeg") != nil, "skipped: needs ../shared/photos and ffmpeg"))
    func subtitleTrackReadBack() async throws {
        let folder = try TemporaryFolder()
        var show = try Self.show(folder, captions: [Caption("Erste Worte"), nil, Caption("Ende & <b>")], length: .total(seconds: 2.2))
        show.text.webVTT = nil
        show.text.language = "deu"
        let prepared = try await show.validate()
        _ = try await prepared.render()
        let probe = try run(which("ffprobe")!, ["-v", "error", "-select_streams", "s", "-show_entries", "stream=codec_name:stream_tags=language",
                                                "-of", "csv=p=0", show.output])
        #expect(String(decoding: probe.stdout, as: UTF8.self) == "mov_text,deu\n")
        let srt = try run(which("ffmpeg")!, ["-v", "error", "-i", show.output, "-map", "0:s", "-f", "srt", "-"])
        #expect(srt.status == 0, "\(srt.stderr)")
        // SRT: number, "start --> end" (HH:MM:SS,mmm), text.
        let blocks = String(decoding: srt.stdout, as: UTF8.self).components(separatedBy: "\n\n").map { $0.split(separator: "\n") }.filter { $0.count >= 3 }
        func seconds(_ stamp: Substring) -> Double {
            let parts = stamp.replacingOccurrences(of: ",", with: ".").split(separator: ":").compactMap { Double($0) }
            return parts[0] * 3600 + parts[1] * 60 + parts[2]
        }
        #expect(blocks.map { String($0[2]) } == ["Erste Worte", "Ende & <b>"])
        let frame = 1.0 / 25
        for (block, photo) in zip(blocks, [0, 2]) {
            let times = block[1].components(separatedBy: " --> ").map { seconds(Substring($0)) }
            let share = prepared.timeline.frames(ofPhoto: photo)
            #expect(abs(times[0] - Double(share.lowerBound) * frame) <= frame, "\(block)")
            #expect(abs(times[1] - Double(share.upperBound) * frame) <= frame, "\(block)")
        }
    }

    @Test("with burnIn off the pictures are the uncaptioned show's, and the track still carries the captions",
          .enabled(if: photos != nil && which("ffmpeg") != nil, "skipped: needs ../shared/photos and ffmpeg"))
    func trackOnly() async throws {
        let folder = try TemporaryFolder()
        var trackOnly = try Self.show(folder, captions: [Caption("Nur Spur"), nil, nil], length: .total(seconds: 1))
        trackOnly.text.webVTT = nil
        trackOnly.text.burnIn = false
        var plain = trackOnly
        plain.text.captions = []
        plain.output = folder.path("plain.mp4")
        _ = try await trackOnly.render()
        _ = try await plain.render()
        let size = trackOnly.video.size
        #expect(try FrameDecoder.frames(of: trackOnly.output, pixelFormat: "gray", width: size.width, height: size.height)
                == FrameDecoder.frames(of: plain.output, pixelFormat: "gray", width: size.width, height: size.height))
        let srt = try run(which("ffmpeg")!, ["-v", "error", "-i", trackOnly.output, "-map", "0:s", "-f", "srt", "-"])
        #expect(String(decoding: srt.stdout, as: UTF8.self).contains("Nur Spur"))
    }

    @Test("a language that is not ISO 639-2 is refused, naming the setting")
    func badLanguage() {
        var options = SlideshowOptions()
        options.captionLanguage = "english"
        #expect(throws: OptionError(.captionLanguage, "'english' is not an ISO 639-2 language code: three letters a to z, e.g. eng, deu or und")) {
            try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        }
    }
}
