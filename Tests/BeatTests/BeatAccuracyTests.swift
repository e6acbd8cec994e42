import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowAudio
import SlideshowPlan

/// Cuts on the beat of the shared music with a steady beat, checked against aubio's own beat
/// tracker run on the music file (start offsets, loops and their seams included).
@Suite struct BeatAccuracyTests {
    /// A show over one of the shared pieces.
    struct Show: Sendable, CustomTestStringConvertible {
        var file: String
        /// The labelled tempo (../shared/clips/MANIFEST.tsv).
        var bpm: Double
        var start: Double
        var seconds: Double
        var photos: Int
        var fps: Int
        var transitionFrames: Int
        var testDescription: String { "\(file) from \(start) s, \(seconds) s, \(photos) photos at \(fps) fps" }
    }

    /// Many photos each, so that the share of cuts near a beat is measured over many cuts (shares
    /// of 2.1 to 2.5 s, four beats or more, the shortest that nearest-beat cuts keep within ±25%
    /// for sure), and one show of long shares (every 4th beat).
    static let shows = [
        // The 8-second loop, looped under longer shows (four and three seams), from 0 and from an offset.
        Show(file: "loop_mika_sonicpi_cc0_120bpm_8s.flac", bpm: 120, start: 0, seconds: 40, photos: 18, fps: 30, transitionFrames: 0),
        Show(file: "loop_mika_sonicpi_cc0_120bpm_8s.flac", bpm: 120, start: 1.3, seconds: 24, photos: 12, fps: 25, transitionFrames: 6),
        // Drums and bass, whole and from an offset with transitions.
        Show(file: "music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3", bpm: 120, start: 0, seconds: 25, photos: 12, fps: 30, transitionFrames: 0),
        Show(file: "music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3", bpm: 120, start: 5.25, seconds: 18, photos: 8, fps: 24, transitionFrames: 8),
        // A boogie with a little swing: whole, looped from an offset, and in four long shares.
        Show(file: "music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3", bpm: 105, start: 0, seconds: 25, photos: 10, fps: 30, transitionFrames: 8),
        Show(file: "music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3", bpm: 105, start: 3, seconds: 40, photos: 16, fps: 30, transitionFrames: 0),
        Show(file: "music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3", bpm: 105, start: 0, seconds: 25, photos: 4, fps: 30, transitionFrames: 15),
        // More lengths and offsets on each piece: the loop once looped and from late in it,
        Show(file: "loop_mika_sonicpi_cc0_120bpm_8s.flac", bpm: 120, start: 0, seconds: 12, photos: 5, fps: 30, transitionFrames: 0),
        Show(file: "loop_mika_sonicpi_cc0_120bpm_8s.flac", bpm: 120, start: 2.5, seconds: 30, photos: 13, fps: 25, transitionFrames: 0),
        // the drums and bass' first 20 s (a line through its onsets gave 119.6 BPM, 3 cuts of 7
        // 50 to 75 ms off) and its middle. (Not its last 12 or 13 s: from 10 s, 2 of 4 cuts are
        // 52 and 56 ms from aubio's beats, which run at 122 BPM there between its resets; from
        // 12 s the fit finds 121 BPM. Measured, not asserted.)
        Show(file: "music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3", bpm: 120, start: 0, seconds: 20, photos: 8, fps: 30, transitionFrames: 0),
        Show(file: "music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3", bpm: 120, start: 3, seconds: 10, photos: 4, fps: 30, transitionFrames: 0),
        Show(file: "music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3", bpm: 120, start: 3, seconds: 16, photos: 5, fps: 60, transitionFrames: 12),
        // and the boogie's middle, its first 12 s and a short show from an offset.
        Show(file: "music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3", bpm: 105, start: 10, seconds: 12, photos: 5, fps: 30, transitionFrames: 0),
        Show(file: "music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3", bpm: 105, start: 0, seconds: 12, photos: 6, fps: 24, transitionFrames: 6),
        Show(file: "music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3", bpm: 105, start: 1.3, seconds: 8, photos: 4, fps: 30, transitionFrames: 0),
    ]

    @Test(arguments: shows)
    func cutsFallOnTheBeat(_ show: Show) throws {
        guard let path = clip(show.file) else { return withKnownIssue(noSharedClips) { throw SkipNote() } }
        guard which("aubio") != nil else { return withKnownIssue(noAubioTool) { throw SkipNote() } }
        let soundtrack = Soundtrack(path: path, start: show.start, fadeOut: 0)
        let pass = try #require(try soundtrack.open(measuring: true).length)
        let grid = try #require(try BeatAnalysis.grid(of: soundtrack, showLength: show.seconds), "no steady beat found")

        // The tempo: within 2% of the labelled one.
        #expect(abs(grid.beatsPerMinute - show.bpm) / show.bpm <= 0.02, "\(grid)")

        let frameCount = Int((show.seconds * Double(show.fps)).rounded())
        let even = evenCuts(photos: show.photos, frameCount: frameCount)
        let layout = MusicLayout(soundtrack: soundtrack, grid: grid, musicLength: show.start + pass, showLength: show.seconds)
        #expect((layout.passLength != nil) == (pass < show.seconds))
        let transitions = [Int](repeating: show.transitionFrames, count: show.photos - 1)
        let placed = BeatCutPlanner.place(frameCount: frameCount, framesPerSecond: show.fps, evenCuts: even,
                                          transitionFrames: transitions, grid: grid, music: layout)
        let cuts = try placed.get()

        // The length exactly as asked, and a per-photo timeline that gives back these very cuts.
        #expect(cuts.frameCount == frameCount && cuts.cuts.count == show.photos - 1)
        let timeline = try Timeline(photoCount: show.photos, length: .perPhoto(seconds: cuts.durations(framesPerSecond: show.fps)),
                                    framesPerSecond: show.fps)
        #expect(timeline.frameCount == frameCount)
        #expect((0..<show.photos).map { timeline.frames(ofPhoto: $0).lowerBound } == cuts.photoStarts)

        // Every share within ±25% of the even one.
        let bounds = cuts.photoStarts + [frameCount], evenBounds = [0] + even + [frameCount]
        for photo in 0..<show.photos {
            let share = Double(bounds[photo + 1] - bounds[photo]), evenShare = Double(evenBounds[photo + 1] - evenBounds[photo])
            #expect(abs(share - evenShare) <= 0.25 * evenShare, "photo \(photo): \(share) frames for an even \(evenShare)")
        }

        // No cut more than half a period from its place on the grid (in show time: across seams, after the offset);
        // in fact within half a frame, the rounding to frames.
        let gridBeats = layout.beats(of: grid, through: show.seconds).map(\.time)
        let times = cuts.cuts.map { Double($0) / Double(show.fps) }
        for time in times {
            let off = distance(time, toNearestOf: gridBeats)
            #expect(off <= grid.period / 2 && off <= 0.5 / Double(show.fps) + 1e-9, "cut at \(time) s is \(off) s from the grid")
        }

        // At least 90% of the cuts within 50 ms of a beat aubio's tracker finds in the music file. Each cut is taken to
        // music time by the soundtrack's own rule, worked out here from its definition: pass k starts at k × (L − C)
        // (L the music after the start, C the seam's overlap that keeps the beat), a seam's first half belonging to
        // the pass that ends.
        // The tracker needs seconds to settle (on the loop its first beats sit 0.1 s early): its beats in the
        // first 4 s of the file are no reference, and the cuts there are not measured.
        let reference = try independentBeats(path)
        let settled = 4.0
        let crossfade = layout.crossfade
        let loops = pass < show.seconds
        func musicTime(_ t: Double) -> Double {
            guard loops else { return soundtrack.start + t }
            var k = Int(t / (pass - crossfade))
            if k > 0 && t < Double(k) * (pass - crossfade) + crossfade / 2 { k -= 1 }
            return soundtrack.start + t - Double(k) * (pass - crossfade)
        }
        // Nor where the tracker itself loses the beat: a cut is measured where aubio's beats within
        // 1.5 s of it come at the labelled tempo, each interval within 15% of the period (on the drums
        // and bass, between 4 and 6.5 s, aubio plays the off-beat for three beats, 0.8 s after its last).
        let period = 60 / show.bpm
        func referenceSteady(_ t: Double) -> Bool {
            let around = reference.filter { abs($0 - t) <= 1.5 }
            return around.count >= 3 && zip(around.dropFirst(), around).allSatisfy { abs($0 - $1 - period) <= 0.15 * period }
        }
        let measured = times.map(musicTime).filter { $0 >= settled && referenceSteady($0) }
        let near = measured.filter { distance($0, toNearestOf: reference) <= 0.05 }
        #expect(Double(near.count) >= 0.9 * Double(measured.count),
                "\(near.count) of \(measured.count) cuts within 50 ms of aubio's beats; misses (music time): \(measured.filter { distance($0, toNearestOf: reference) > 0.05 })")
        #expect(measured.count >= times.count / 2, "only \(measured.count) of \(times.count) cuts measured: \(times.map(musicTime))")
    }
}

/// Thrown inside `withKnownIssue` to record why a test did not run.
struct SkipNote: Error {}
