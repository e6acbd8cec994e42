import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio
import SlideshowFormats
import SlideshowImages
import SlideshowKit
import SlideshowLooks
import SlideshowPixels
import SlideshowPlan
import SlideshowSupport
import SlideshowWriter

/// The project's three sample photos (small headers: each is read in one go).
private let samples = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) }

/// A shared photo or medium, when the shared files are there.
private func shared(_ folder: String, _ name: String) -> String? {
    let path = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/\(folder)/\(name)").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

@Suite("One pass from settings to a show: checked once, laid out once, each file read once")
struct OnePassTests {
    @Test("a render lays the frame plan out once and reads each photo's header once")
    func planAndHeadersOnce() async throws {
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: samples, output: folder.path("show.mp4"))
        show.video = VideoSettings(size: Size(width: 160, height: 120), framesPerSecond: 10)
        show.dateImprint = DateImprint(format: .ymd)
        let probe = ReadProbe()
        _ = try await ReadProbe.$current.withValue(probe) { try await show.render() }
        #expect(probe.plans.load(ordering: .relaxed) == 1)
        #expect(probe.photoHeaders.load(ordering: .relaxed) == samples.count)
        #expect(probe.musicOpens.load(ordering: .relaxed) == 0)
    }

    @Test("validate returns the timeline, the plan and the headers; rendering the prepared show reads and lays out nothing again")
    func preparedRendersWithoutReading() async throws {
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: samples, output: folder.path("show.mp4"))
        show.video = VideoSettings(size: Size(width: 160, height: 120), framesPerSecond: 10)
        show.transition = .fade
        show.transitionDuration = 1
        let prepared = try await show.validate()
        #expect(prepared.timeline.frameCount == 30)
        #expect(prepared.plan.transitionCap == FramePlan.Cap(requested: 10, used: 5))
        #expect(prepared.planWarning == "transitions shortened from 1.0 s to 0.5 s (5 frames) so that every photo is alone on screen for at least half its time")
        #expect(prepared.photos.map(\.format) == [.jpeg, .jpeg, .jpeg])
        #expect(prepared.photos[1].orientation == .right)
        let probe = ReadProbe()
        let result = try await ReadProbe.$current.withValue(probe) { try await prepared.render() }
        #expect(result.frames == 30)
        #expect(probe.plans.load(ordering: .relaxed) == 0)
        #expect(probe.photoHeaders.load(ordering: .relaxed) == 0)
    }

    @Test("the music is opened once: validation's opening is the render's pass; a loudness measure is a second pass of its own",
          arguments: [nil, -16.0])
    func musicOpenedOnce(loudness: Double?) async throws {
        guard let music = shared("media", "wav_short_0.97s_mono.wav") else { return }
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: [samples[0]], output: folder.path("show.mp4"), length: .soundtrack)
        show.video = VideoSettings(size: Size(width: 160, height: 120), framesPerSecond: 10)
        show.soundtrack = Soundtrack(path: music, loudness: loudness)
        let probe = ReadProbe()
        let result = try await ReadProbe.$current.withValue(probe) { try await show.render() }
        #expect(result.frames == 10)
        #expect(probe.musicOpens.load(ordering: .relaxed) == (loudness == nil ? 1 : 2))
        // The same prepared show rendered twice: the second render opens the file anew.
        show.overwrite = true
        let prepared = try await show.validate()
        let twice = ReadProbe()
        try await ReadProbe.$current.withValue(twice) {
            _ = try await prepared.render()
            _ = try await prepared.render()
        }
        #expect(twice.musicOpens.load(ordering: .relaxed) == (loudness == nil ? 1 : 3))
    }

    @Test("a photo's header carries its capture date; the first photo in order that cannot be read is the error")
    func headersInParallel() async throws {
        if let nikon = shared("photos", "camera_nikon_d90_12mp.jpg") {
            #expect(try ImageManager().inspect(Photo(path: nikon)).captureDate?.description == "2011:04:25 01:55:30")
        }
        #expect(try ImageManager().inspect(samples[0]).captureDate == nil)
        let folder = try TemporaryFolder()
        let photos = samples + [Photo(path: folder.path("missing-1.jpg")), samples[2], Photo(path: folder.path("missing-2.jpg"))]
        let show = Slideshow(photos: photos, output: folder.path("show.mp4"))
        await #expect(throws: RenderError.photo(PhotoError(path: folder.path("missing-1.jpg"), kind: .notFound, reason: "no such file"))) {
            try await show.validate()
        }
    }

    @Test("a negative duration is the duration's fault, whatever the fades")
    func durationFirst() throws {
        let expected = OptionError(field: .duration, reason: "the duration must be a positive number of seconds, not -1.0 s in total")
        #expect(throws: expected) { try SlideshowOptions(duration: -1).validate() }
        var faded = SlideshowOptions(duration: -1)
        faded.fadeIn = 1
        #expect(throws: expected) { try faded.slideshow(photos: samples, output: "o.mp4") }
    }

    @Test("messages print seconds rounded to the millisecond, without float noise")
    func roundedSeconds() throws {
        #expect(Message.seconds(0.010000000000000009) == "0.01")
        #expect(Message.seconds(2) == "2.0" && Message.seconds(-1) == "-1.0" && Message.seconds(1.0 / 3) == "0.333")
        var options = SlideshowOptions()
        options.photoDurations = [0.1, 0.2]
        options.fadeIn = 0.2
        options.fadeOut = 0.2
        #expect(throws: OptionError(field: .fadeOut, reason: "0.2 s + 0.2 s of fades are longer than the show (0.3 s)")) {
            try options.slideshow(photos: Array(samples.prefix(2)), output: "o.mp4")
        }
        options.fadeIn = 0
        options.fadeOut = 0
        options.transition = .fade
        options.transitionDuration = 0.35
        #expect(throws: OptionError(field: .transitionDuration, reason: "0.35 s is longer than the show (0.3 s)")) {
            try options.slideshow(photos: Array(samples.prefix(2)), output: "o.mp4")
        }
        #expect(SlideshowLength.perPhoto(seconds: [0.1 + 0.2, 0.3]).description == "0.3 + 0.3 s")
    }

    @Test("the defaults are SlideshowOptions': a show, a soundtrack and the options agree")
    func defaultsOnce() throws {
        let defaults = SlideshowOptions.defaults
        let plain = Slideshow(photos: samples, output: "o.mp4")
        var withAudio = defaults
        withAudio.audio = "song.mp3"
        let parsed = try withAudio.slideshow(photos: samples, output: "o.mp4")
        #expect(parsed.length == plain.length && parsed.length == .total(seconds: SlideshowLength.defaultSeconds))
        #expect(parsed.video == plain.video && parsed.background == plain.background && parsed.contentMode == plain.contentMode)
        #expect(parsed.transition == plain.transition && parsed.transitionDuration == plain.transitionDuration)
        #expect(parsed.fadeIn == plain.fadeIn && parsed.fadeOut == plain.fadeOut && parsed.motion == plain.motion && parsed.zoom == plain.zoom)
        #expect(parsed.framing == plain.framing && parsed.look.name == plain.look.name && parsed.dateImprint == nil)
        #expect(parsed.soundtrack == Soundtrack(path: "song.mp3"))
        #expect(Soundtrack(path: "x").bitrate == 192_000 && Soundtrack(path: "x").fadeOut == defaults.audioFadeOut)
    }
}
