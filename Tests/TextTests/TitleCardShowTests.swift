import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowKit
import SlideshowMetadata
import SlideshowPixels
import SlideshowText

/// The opening title card in a rendered show: read back by OCR, its time taken from a total
/// length (the video as long as asked), the captions' cues after it.
@Suite("The opening title card in the show")
struct TitleCardShowTests {
    static let cameras = ["camera_nikon_d90_12mp.jpg", "camera_apple_iphone4s_8mp_orient6.jpg"]
    static var photos: [Photo]? {
        let paths = cameras.compactMap(TestEnvironment.sharedPhoto)
        return paths.count == cameras.count ? paths.map(Photo.init(path:)) : nil
    }

    @Test("the card opens the show for its time, taken from --duration; its second line is the photos' date range; cues follow it",
          .enabled(if: photos != nil && TextTestSupport.tesseractLanguages.contains("eng") && which("ffmpeg") != nil,
                   "skipped: needs ../shared/photos, ffmpeg and tesseract (eng)"))
    func cardOpensTheShow() async throws {
        let folder = try TemporaryFolder()
        var options = SlideshowOptions(duration: 4, size: "960x540", fps: 25)
        options.titleCard = "Holiday"
        options.titleCardSubtitle = TitleCard.dateRangeKeyword
        options.titleCardDuration = 1.5
        options.captions = ["Rug", "Phone"]
        let show = try options.slideshow(photos: try #require(Self.photos), output: folder.path("card.mp4"))
        let prepared = try await show.validate()
        let infos = prepared.photos.compactMap(\.captureDate)
        #expect(infos.count == 2)
        #expect(prepared.openingCard == TitleCard(title: "Holiday", subtitle: DateRange.text(infos)))
        #expect(prepared.timeline.frameCount == 100 - 38)   // 4 s in all at 25 fps; the card 1.5 s = 38 frames (rounded)
        let result = try await prepared.render()
        #expect(result.frames == 100)
        #expect(try ProbedVideo(path: show.output).decodedFrames == 100)
        // The title, read back from frame 10; gone once the photos start.
        let renderer = try TextRenderer()
        let overlays = try renderer.overlays(for: try #require(prepared.openingCard), frame: show.video.size)
        let frame10 = try ShowCaptionTests.frame(10, of: show.output, size: show.video.size)
        #expect(TextTestSupport.characterErrorRate(read: try TextTestSupport.ocr(frame10, region: overlays[0].rect, language: "eng"),
                                                   expected: "Holiday") <= 0.1)
        let frame50 = try ShowCaptionTests.frame(50, of: show.output, size: show.video.size)
        #expect(TextTestSupport.characterErrorRate(read: try TextTestSupport.ocr(frame50, region: overlays[0].rect, language: "eng"),
                                                   expected: "Holiday") > 0.5)
        // The cues start after the card.
        #expect(prepared.subtitleCues.map(\.start) == [MediaTime(value: 38, timescale: 25),
                                                       MediaTime(value: Int64(38 + prepared.timeline.frames(ofPhoto: 1).lowerBound), timescale: 25)])
        #expect(prepared.subtitleCues.last?.end == MediaTime(value: 100, timescale: 25))
    }

    @Test("date ranges in words", arguments: [
        (["2024:05:12 10:00:00"], "12 May 2024"),
        (["2024:05:18 10:00:00", "2024:05:12 09:00:00"], "12–18 May 2024"),
        (["2024:04:28 10:00:00", "2024:05:03 09:00:00"], "28 April – 3 May 2024"),
        (["2023:12:28 10:00:00", "2024:01:03 09:00:00"], "28 December 2023 – 3 January 2024"),
    ])
    func dateRanges(dates: [String], expected: String) throws {
        #expect(DateRange.text(try dates.map { try #require(CaptureDate(exif: $0, offset: nil)) }) == expected)
        #expect(DateRange.text([]) == nil)
    }

    @Test("a card as long as the show, or a bad background, is refused naming its setting")
    func refused() {
        var options = SlideshowOptions(duration: 2)
        options.titleCard = "Title"
        options.titleCardDuration = 2
        #expect(throws: OptionError(.titleCardDuration, "1 × 2.0 s of cards leave nothing of the 2.0 s show for the photos")) {
            try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        }
        options.titleCardDuration = 1
        options.titleCardBackground = "pink"
        #expect(throws: OptionError(.titleCardBackground, "'pink' is not blur or a colour of the form #RRGGBB")) {
            try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        }
    }

    @Test("a card that takes a show past 2,592,000 frames is refused, as a longer show is; one that leaves the photos no frame is a setting's problem (issue 31)")
    func cardLimits() {
        var options = SlideshowOptions()
        options.slideDuration = 1
        options.titleCard = "Title"
        options.titleCardDuration = 1_000_000
        #expect(throws: OptionError(.titleCardDuration, "1 × 1000000.0 s of cards at 30 fps are over 2592000 frames (24 hours at 30 fps), the longest show")) {
            try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        }
        // Within the cap alone, past it with the photos.
        options.titleCardDuration = 86_000
        options.slideDuration = 401
        #expect(throws: OptionError(.titleCardDuration, "1 × 86000.0 s of cards and the photos' 12030 frames at 30 fps are over 2592000 frames (24 hours at 30 fps), the longest show")) {
            try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        }
        options.slideDuration = 399
        #expect(throws: Never.self) { try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4") }
        // 2.99 s of a 3-s show: 90 frames of card, none for the photo.
        var total = SlideshowOptions(duration: 3)
        total.titleCard = "Title"
        total.titleCardDuration = 2.99
        #expect(throws: OptionError(.titleCardDuration, "1 × 2.99 s of cards leave the photos 0.0 s of the 3.0 s show: the duration must be a positive number of seconds, not 0.0 s in total")) {
            try total.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        }
        total.titleCardDuration = 2.9
        #expect(throws: OptionError(.titleCardDuration, "1 × 2.9 s of cards leave the photos 0.1 s of the 3.0 s show: 0.1 s in total at 30 fps gives 3 frames for 4 photos; each photo needs at least one frame")) {
            try total.slideshow(photos: Array(repeating: Photo(path: "a.jpg"), count: 4), output: "out.mp4")
        }
        // Fades are the photos': a card and fades longer than what is left are the fades' problem.
        total.titleCardDuration = 2
        total.fadeIn = 0.6
        total.fadeOut = 0.6
        #expect(throws: OptionError.self) { try total.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4") }
    }

    @Test("a closing card ends the show over the last photo; both cards' time comes out of --duration",
          .enabled(if: photos != nil && TextTestSupport.tesseractLanguages.contains("eng") && which("ffmpeg") != nil,
                   "skipped: needs ../shared/photos, ffmpeg and tesseract (eng)"))
    func closingCard() async throws {
        let folder = try TemporaryFolder()
        var options = SlideshowOptions(duration: 3, size: "960x540", fps: 25)
        options.titleCard = "Hello"
        options.closingCard = "The End"
        options.titleCardDuration = 0.8
        options.captions = ["Rug", nil]
        let show = try options.slideshow(photos: try #require(Self.photos), output: folder.path("closing.mp4"))
        let prepared = try await show.validate()
        #expect(prepared.timeline.frameCount == 75 - 40)
        let result = try await prepared.render()
        #expect(result.frames == 75)
        #expect(try ProbedVideo(path: show.output).decodedFrames == 75)
        let overlays = try TextRenderer().overlays(for: try #require(TitleCard(title: "The End")), frame: show.video.size)
        let last = try ShowCaptionTests.frame(74, of: show.output, size: show.video.size)
        #expect(TextTestSupport.characterErrorRate(read: try TextTestSupport.ocr(last, region: overlays[0].rect, language: "eng"),
                                                   expected: "The End") <= 0.1)
        #expect(prepared.subtitleTrack?.end == MediaTime(value: 75, timescale: 25))
        #expect(prepared.subtitleCues.map(\.start) == [MediaTime(value: 20, timescale: 25)])
    }
}
