import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowAudio
import SlideshowFormats
import SlideshowImages
import SlideshowKit
import SlideshowSupport

/// The cuts on the beat and the photo order as ``Slideshow/validate()`` applies them: once, on
/// the headers and the music it already read, before the one frame plan.
@Suite struct PreparedBeatsTests {
    private let photos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map(TestEnvironment.sample)

    @Test func beatsMoveTheCutsAndThePlanIsMadeOnce() async throws {
        guard let music = clip("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3") else { return withKnownIssue(noSharedClips) { throw SkipNote() } }
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: (photos + photos).map(Photo.init(path:)), output: folder.path("a.mp4"), length: .total(seconds: 15))
        show.soundtrack = Soundtrack(path: music)
        show.cuts = .beats
        show.transition = .fade
        let probe = ReadProbe()
        let prepared = try await ReadProbe.$current.withValue(probe) { try await show.validate() }
        #expect(probe.plans.load(ordering: .relaxed) == 1)
        let grid = try #require(prepared.beatGrid)
        #expect(prepared.warnings.isEmpty)
        #expect(prepared.timeline.frameCount == 450)
        let starts = (0..<6).map { prepared.timeline.frames(ofPhoto: $0).lowerBound }
        #expect(starts != [0, 75, 150, 225, 300, 375])
        #expect(prepared.plan.photoStarts == starts)
        // Every cut within half a frame of a beat of the grid as heard (the music outlasts the show; the show
        // enters it less than a frame in, where its beats fall on the frames).
        let entry = try #require(prepared.beats?.music?.entry)
        #expect(entry >= 0 && entry < 1.0 / 30)
        for cut in starts.dropFirst() {
            let time = Double(cut) / 30
            #expect(abs(grid.time(ofBeat: grid.beat(nearest: time + entry)) - entry - time) <= 0.5 / 30 + 1e-9, "cut at \(time) s")
        }
        // Even cuts without --cuts beats: the same show, the same frames, no grid.
        show.cuts = .even
        let even = try await show.validate()
        #expect(even.beatGrid == nil && (0..<6).map { even.timeline.frames(ofPhoto: $0).lowerBound } == [0, 75, 150, 225, 300, 375])
    }

    @Test func musicWithoutABeatKeepsEvenCutsWithAWarning() async throws {
        let folder = try TemporaryFolder()
        let music = folder.path("silence.wav")
        let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-f", "lavfi", "-i", "anullsrc=r=48000:cl=stereo", "-t", "8", "-y", music])
        try #require(made.status == 0)
        var show = Slideshow(photos: photos.map(Photo.init(path:)), output: folder.path("a.mp4"), length: .total(seconds: 6))
        show.soundtrack = Soundtrack(path: music)
        show.cuts = .beats
        let prepared = try await show.validate()
        #expect(prepared.beatGrid == nil)
        #expect(prepared.warnings.map(\.message) == [BeatCutFallback.noSteadyBeat.description] && prepared.warnings.allSatisfy { $0.kind == .beats })
        #expect((0..<3).map { prepared.timeline.frames(ofPhoto: $0).lowerBound } == [0, 60, 120])
    }

    @Test func aShowShorterThanAFewBarsOrOfOnePhotoKeepsItsCuts() async throws {
        guard let music = clip("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3") else { return withKnownIssue(noSharedClips) { throw SkipNote() } }
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: photos.map(Photo.init(path:)), output: folder.path("a.mp4"), length: .total(seconds: 3))
        show.soundtrack = Soundtrack(path: music)
        show.cuts = .beats
        let short = try await show.validate()
        #expect(short.beatGrid == nil)
        #expect(short.warnings.map(\.message) == ["the show is shorter than the 4 s of music a steady beat is found in; the cuts stay even"])
        #expect((0..<3).map { short.timeline.frames(ofPhoto: $0).lowerBound } == [0, 30, 60])
        show.photos = [Photo(path: photos[0])]
        show.length = .total(seconds: 10)
        let single = try await show.validate()
        #expect(single.beatGrid == nil && single.warnings.isEmpty && single.timeline.frameCount == 300)
    }

    @Test func beatsWithoutMusicIsTheCutsSettingsFault() {
        var show = Slideshow(photos: photos.map(Photo.init(path:)), output: "a.mp4")
        show.cuts = .beats
        #expect(throws: OptionError(.cuts, "cutting on the beat needs music: give an audio file too")) { try show.checkSettings() }
    }

    @Test func orderMovesEachPhotosOwnSettingsWithIt() async throws {
        let folder = try TemporaryFolder()
        // Named so that name order reverses the given order: c, b, a → a, b, c.
        var paths: [String] = []
        for (name, source) in zip(["c.jpg", "b.jpg", "a.jpg"], photos) {
            try FileManager.default.copyItem(atPath: source, toPath: folder.path(name))
            paths.append(folder.path(name))
        }
        var show = Slideshow(photos: paths.map(Photo.init(path:)), output: folder.path("a.mp4"), length: .perPhoto(seconds: [1, 2, 3]))
        show.photoSettings = [PhotoSettings(transition: .fade), PhotoSettings(motion: .kenburns), PhotoSettings()]
        show.order = .name
        let prepared = try await show.validate()
        #expect(prepared.slideshow.photos.map(\.path) == paths.reversed())
        #expect(prepared.slideshow.photoSettings == [PhotoSettings(), PhotoSettings(motion: .kenburns), PhotoSettings(transition: .fade)])
        #expect((0..<3).map { prepared.timeline.frames(ofPhoto: $0) } == [0..<90, 90..<150, 150..<180])
        let sizes = try photos.reversed().map { try ImageManager().inspect(Photo(path: $0)).storedSize }
        #expect(prepared.photos.map(\.storedSize) == sizes)
        #expect(prepared.warnings.isEmpty)
    }
}
