import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowAudio
import SlideshowFormats
import SlideshowKit
import SlideshowText

/// Cuts on the beat under an opening title card: the music starts with the video, under the
/// card, so the photos' cuts (which come the card's length after the video's start) are laid
/// on the beats the card's length into the music.
@Suite struct CardBeatsTests {
    private let photos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map(TestEnvironment.sample)

    /// A 1.3-second card (not a whole number of beats at 120 BPM: 2.6 beats, so a grid that
    /// forgot it would put every cut 0.3 s, or 0.2 s, from the beat heard).
    @Test(arguments: [1.3, 2.0])
    func cutsAfterACardAreOnTheBeatHeard(card: Double) async throws {
        guard let music = clip("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3") else { return withKnownIssue(noSharedClips) { throw SkipNote() } }
        let folder = try TemporaryFolder()
        var show = Slideshow(photos: (photos + photos).map(Photo.init(path:)), output: folder.path("a.mp4"), length: .total(seconds: 18))
        show.soundtrack = Soundtrack(path: music)
        show.cuts = .beats
        show.text.openingCard = TitleCard(title: "Lisbon")
        show.text.cardSeconds = card
        let prepared = try await show.validate()
        let grid = try #require(prepared.beatGrid)
        #expect(prepared.warnings.isEmpty)
        let cardFrames = Int((card * 30).rounded())
        #expect(show.openingCardFrames == cardFrames)
        // The photos share what the card leaves of the 18 s, exactly.
        #expect(prepared.timeline.frameCount == 540 - cardFrames)
        let starts = (0..<6).map { prepared.timeline.frames(ofPhoto: $0).lowerBound }
        #expect(prepared.plan.photoStarts == starts)
        // Each cut in the video's time (after the card) is within half a frame of a beat of the
        // music, which plays from the video's first frame (entered less than a frame in, outlasting the show).
        let entry = try #require(prepared.beats?.music?.entry)
        for cut in starts.dropFirst() {
            let video = Double(cut + cardFrames) / 30
            let off = abs(grid.time(ofBeat: grid.beat(nearest: video + entry)) - entry - video)
            #expect(off <= 0.5 / 30 + 1e-9, "cut at \(video) s of the video is \(off) s from the beat")
        }
    }

    /// The layout's beats with a lead are the beats without one, the lead earlier, from the photos' time 0.
    @Test func aLeadMovesTheBeatsIntoThePhotosTime() {
        let grid = BeatGrid(period: 0.5, phase: 0.1, confidence: 1)
        let plain = MusicLayout().beats(of: grid, through: 10).map(\.time)
        let led = MusicLayout(lead: 1.3).beats(of: grid, through: 10 - 1.3).map(\.time)
        // Beats at 0.1, 0.6, … 9.6 s of the video; the photos start at 1.3 s: 0.3, 0.8, … 8.3.
        #expect(led.count == plain.filter { $0 >= 1.3 }.count)
        for (a, b) in zip(led, plain.filter { $0 >= 1.3 }) { #expect(abs(a - (b - 1.3)) < 1e-9) }
        #expect(abs(led[0] - 0.3) < 1e-9)
    }
}
