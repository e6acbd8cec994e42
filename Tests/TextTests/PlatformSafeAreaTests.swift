import Foundation
import Testing
@testable import SlideshowKit
import SlideshowLooks
import SlideshowMetadata
import SlideshowPixels
import SlideshowText

/// `--for <platform>` (issue 34): each platform's figures from the table, and its safe area
/// holding what the show draws: captions, title and closing cards and the date imprint,
/// measured on drawn frames (the pixels that change), as the caption tests do.
@Suite("Platforms: sizes, lengths and safe areas")
struct PlatformSafeAreaTests {
    /// A small frame of each platform's shape, so the drawing stays quick in a debug build.
    static func smallFrame(_ platform: Platform) -> Size {
        Size(width: platform.size.width / 4, height: platform.size.height / 4)
    }

    @Test("each platform's size, frame rate, length limit, loudness and fit come from the table",
          arguments: Platform.allCases)
    func table(platform: Platform) throws {
        let expected: [Platform: (size: String, seconds: Double, fit: FitMode)] = [
            .reels: ("1080x1920", 180, .blur), .shorts: ("1080x1920", 180, .blur), .tiktok: ("1080x1920", 600, .blur),
            .story: ("1080x1920", 60, .blur), .youtube: ("1920x1080", 43_200, .letterbox), .square: ("1080x1080", 180, .blur),
        ]
        let figures = try #require(expected[platform])
        #expect(platform.size.description == figures.size)
        #expect(platform.framesPerSecond == 30)
        #expect(platform.maximumSeconds == figures.seconds)
        #expect(platform.loudness == -14)
        var options = SlideshowOptions(duration: 4)
        options.platform = platform
        options.audio = "song.mp3"
        let resolved = options.resolved
        #expect(resolved.size == figures.size && resolved.fps == 30 && resolved.fit == figures.fit && resolved.loudness == -14)
        // Without music, no loudness (it needs --audio).
        options.audio = nil
        #expect(options.resolved.loudness == nil)
        // The safe area lies inside the title-safe frame's edges and leaves most of the frame.
        let safe = platform.safeArea.rect(in: platform.size)
        #expect(safe.width > platform.size.width / 2 && safe.height > platform.size.height / 3)
    }

    @Test("a setting given wins over the platform's; one given as the default too")
    func givenWins() throws {
        var options = SlideshowOptions(duration: 4, size: "640x360", fps: 25)
        options.platform = .reels
        #expect(options.resolved.size == "640x360" && options.resolved.fps == 25 && options.resolved.fit == .blur)
        // Given explicitly with the default's value (the command line's --fit letterbox).
        options.fit = .letterbox
        options.given = [.fit]
        #expect(options.resolved.fit == .letterbox)
        let show = try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        #expect(show.video.size == Size(width: 640, height: 360) && show.text.style.safeArea == Platform.reels.safeArea)
    }

    @Test("a draft: half the width and height (even), the fastest preset, under a platform too")
    func draft() throws {
        var options = SlideshowOptions(duration: 4, size: "1920x1080")
        options.draft = true
        var show = try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        #expect(show.video.size == Size(width: 960, height: 540) && show.video.preset == "ultrafast" && show.draft)
        options.size = "1000x562"
        show = try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        #expect(show.video.size == Size(width: 500, height: 280))
        options.size = SlideshowOptions.defaults.size
        options.platform = .reels
        show = try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        #expect(show.video.size == Size(width: 540, height: 960) && show.video.framesPerSecond == 30)
    }

    @Test("the title-safe area is the default, the same rectangle as before")
    func defaultUnchanged() {
        for size in [Size(width: 1920, height: 1080), Size(width: 640, height: 360), Size(width: 97, height: 63), Size(width: 2, height: 2)] {
            let marginX = (size.width * 5 + 50) / 100, marginY = (size.height * 5 + 50) / 100
            #expect(SafeArea.titleSafe.rect(in: size) == Rect(x: marginX, y: marginY, width: size.width - 2 * marginX, height: size.height - 2 * marginY))
        }
        #expect(TextStyle().safeArea == .titleSafe)
        #expect(DateImprint().safeArea == nil)
    }

    @Test("captions at every position, both cards and the date imprint lie inside the platform's safe area",
          arguments: Platform.allCases)
    func insideSafeArea(platform: Platform) throws {
        let frame = Self.smallFrame(platform)
        var options = SlideshowOptions(duration: 4, size: frame.description)
        options.platform = platform
        options.dateStamp = true
        let show = try options.slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        let safe = platform.safeArea.rect(in: frame)
        let renderer = try TextRenderer(style: show.text.style)
        let before = TextTestSupport.busyFrame(frame)
        let long = "Sunset over the harbour, with a few more words to wrap on a narrow portrait frame 🌅"
        for position in Caption.Position.allCases {
            var after = before
            after.composite(try renderer.overlay(for: try #require(Caption(long, position: position)), frame: frame))
            let box = try #require(TextTestSupport.changedBox(before, after))
            #expect(TextTestSupport.inside(box, safe), "\(platform) caption \(position): \(box) outside \(safe)")
        }
        for card in [TitleCard(title: "Summer in Lisbon, with the family", subtitle: "12–18 May 2024"), TitleCard(title: "The end")].compactMap({ $0 }) {
            let drawn = try renderer.draw(card, over: before)
            let box = try #require(TextTestSupport.changedBox(before, drawn))
            #expect(TextTestSupport.inside(box, safe), "\(platform) card: \(box) outside \(safe)")
        }
        let imprint = try #require(show.dateImprint)
        var stamped = before
        imprint.draw(try #require(CaptureDate(year: 2024, month: 12, day: 28)), on: &stamped)
        let box = try #require(TextTestSupport.changedBox(before, stamped))
        #expect(TextTestSupport.inside(box, safe), "\(platform) date: \(box) outside \(safe)")
    }

    @Test("a show longer than the platform takes is refused, naming the limit")
    func lengthLimit() throws {
        var show = Slideshow(photos: [Photo(path: "a.jpg")], output: "out.mp4")
        show.platform = .story
        #expect(show.lengthProblem(photoFrames: 60 * 30) == nil)
        let problem = try #require(show.lengthProblem(photoFrames: 61 * 30))
        #expect(problem.field == .platform)
        #expect(problem.reason == "the show lasts 61.0 s; story takes at most 60 s: make it shorter")
        show.platform = .reels
        #expect(show.lengthProblem(photoFrames: 200 * 30)?.reason == "the show lasts 200.0 s; reels takes at most 180 s (3 min): make it shorter")
    }
}
