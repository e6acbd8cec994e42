import Foundation
import Synchronization
import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowLooks
import SlideshowPixels
import SlideshowWriter

/// The project's three sample photos.
private let samples = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) }

@Suite("The library API: Slideshow.render, renderEvents, SlideshowOptions")
struct LibraryAPITests {
    @Test("render writes the show, reports each photo, and returns what ffprobe finds")
    func render() async throws {
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: samples, output: folder.path("show.mp4"))
        show.length = .total(seconds: 2)
        show.video = VideoSettings(size: Size(width: 160, height: 120), framesPerSecond: 25)
        show.look = Looks.tumbleDown
        let seen = Seen()
        let result = try await show.render { seen.add($0) }
        #expect(seen.values.map(\.completedPhotos) == [1, 2, 3])
        #expect(seen.values.allSatisfy { $0.totalPhotos == 3 })
        #expect(result.output == folder.path("show.mp4"))
        #expect(result.frames == 50 && result.duration == MediaTime(value: 2, timescale: 1))
        #expect(result.size == Size(width: 160, height: 120) && result.framesPerSecond == 25 && result.look == "tumble-down")
        let bytes = try FileManager.default.attributesOfItem(atPath: folder.path("show.mp4"))[.size] as? Int
        #expect(result.bytes == bytes && result.bytes > 0)
        let probed = try ProbedVideo(path: folder.path("show.mp4"))
        #expect(probed.decodedFrames == 50)
        #expect(probed.formatDuration == "2.000000")
        #expect(probed.stream["width"] == "160" && probed.stream["height"] == "120" && probed.stream["r_frame_rate"] == "25/1")
        #expect(folder.contents() == ["show.mp4"])
    }

    @Test("renderEvents streams progress and ends with the result; a bad photo ends it with a typed error")
    func events() async throws {
        let folder = try TemporaryFolder()
        let show = try SlideshowOptions(duration: 1, size: "160x120").slideshow(photos: samples, output: folder.path("events.mp4"))
        var progress: [Int] = []
        var finished: RenderResult?
        for try await event in show.renderEvents() {
            switch event {
            case .progress(let value): progress.append(value.completedPhotos)
            case .finished(let result): finished = result
            }
        }
        #expect(progress == [1, 2, 3])
        #expect(finished?.frames == 30)
        #expect(try ProbedVideo(path: folder.path("events.mp4")).decodedFrames == 30)

        let missing = Slideshow(photos: [Photo(path: folder.path("nope.jpg"))], output: folder.path("never.mp4"))
        do {
            for try await _ in missing.renderEvents() {}
            Issue.record("a missing photo rendered")
        } catch let error as RenderError {
            guard case .photo(let photo) = error else { Issue.record("\(error)"); return }
            #expect(photo.path == folder.path("nope.jpg") && photo.kind == .notFound)
        }
        #expect(folder.contents() == ["events.mp4"])
    }

    @Test("SlideshowOptions names the setting at fault, in the settings' own words", arguments: [
        (SlideshowOptions(size: "big"), SlideshowOptions.Field.size, "size: 'big' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080"),
        (SlideshowOptions(size: "321x240"), .size, "size: 321x240 must have an even width and height (4:2:0 video)"),
        (SlideshowOptions(size: "8x8"), .size, "size: size 8x8 is smaller than 16 pixels a side"),
        (SlideshowOptions(fps: 0), .fps, "fps: frame rate 0 is not between 1 and 240"),
        (SlideshowOptions(crf: 52), .crf, "crf: CRF 52 is not between 1 and 51"),
        (SlideshowOptions(preset: "warp"), .preset, "preset: preset 'warp' is not one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo"),
        (SlideshowOptions(filter: "sepai"), .filter, "filter: 'sepai' is not a look; the looks are original, minimal-life, tumble-down, sepia, vignette"),
        (SlideshowOptions(background: "red"), .background, "background: 'red' is not a colour of the form #RRGGBB"),
        (SlideshowOptions(duration: 1, slideDuration: 1), .slideDuration, "slideDuration: give duration or slideDuration, not both"),
        (SlideshowOptions(duration: 0.05), .duration, "duration: 0.05 s in total at 30 fps gives 2 frames for 3 photos; each photo needs at least one frame"),
        (SlideshowOptions(slideDuration: -1), .slideDuration, "slideDuration: the duration must be a positive number of seconds, not -1.0 s per slide"),
    ])
    func optionErrors(options: SlideshowOptions, field: SlideshowOptions.Field, message: String) {
        #expect(throws: OptionError.self) { try options.slideshow(photos: samples, output: "x.mp4") }
        do {
            _ = try options.slideshow(photos: samples, output: "x.mp4")
        } catch {
            #expect(error.field == field)
            #expect(error.description == message)
        }
    }

    @Test("no photos is an error of the photos; the length is checked only once the photos are known")
    func photoCount() throws {
        #expect(throws: OptionError(field: .photos, reason: "no photos given")) {
            try SlideshowOptions().slideshow(photos: [], output: "x.mp4")
        }
        try SlideshowOptions(duration: 0.05).validate()
        #expect(throws: OptionError.self) { try SlideshowOptions(duration: 0.05).validate(photoCount: 3) }
    }
}

/// Progress values collected from the renderer's thread.
private final class Seen: Sendable {
    private let list = Mutex<[RenderProgress]>([])
    func add(_ value: RenderProgress) { list.withLock { $0.append(value) } }
    var values: [RenderProgress] { list.withLock { $0 } }
}
