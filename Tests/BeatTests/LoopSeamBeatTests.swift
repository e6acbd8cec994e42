import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFormats
import SlideshowKit

/// Cuts on the beat across loop seams, checked on the sound the video carries.
///
/// A show cut on the beat loops its music a whole number of beats at a time
/// (``MusicLayout/beatSeam(of:start:passLength:)``): the 8-second loop of 16 beats starts again
/// after 16 beats, with a 5 ms declick, where the usual 0.1 s crossfade would bring it back
/// 0.1 s early and the beat would stumble at every seam. Here the show is rendered, its sound
/// decoded by ffmpeg and its onsets found by aubio's own command-line tool: every beat of the
/// grid carried straight on across the seams has an onset heard on it, and every cut sits on one.
@Suite struct LoopSeamBeatTests {
    @Test func theBeatGoesOnAcrossEachSeam() async throws {
        guard let loop = clip("loop_mika_sonicpi_cc0_120bpm_8s.flac") else { return withKnownIssue(noSharedClips) { throw SkipNote() } }
        guard let aubio = which("aubio") else { return withKnownIssue(noAubioTool) { throw SkipNote() } }
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is needed (make deps)")
        let folder = try TemporaryFolder()
        let photos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map(TestEnvironment.sample)
        // 22 s over an 8 s loop: seams at 8 and 16 s; 11 photos, a cut every 2 s or so, 60 fps.
        var options = SlideshowOptions(duration: 22, size: "320x180", fps: 60)
        options.audio = loop
        var show = try options.slideshow(photos: (0..<11).map { Photo(path: photos[$0 % 3]) }, output: folder.path("loop.mp4"))
        show.cuts = .beats
        let prepared = try await show.validate()
        let grid = try #require(prepared.beatGrid)
        #expect(prepared.warnings.isEmpty)
        _ = try await prepared.render()

        // The video's sound as the player hears it, and aubio's onsets in it.
        let wav = folder.path("sound.wav")
        let decoded = try run(ffmpeg, ["-v", "error", "-i", folder.path("loop.mp4"), "-vn", "-ac", "1", "-ar", "44100", "-y", wav])
        try #require(decoded.status == 0, "ffmpeg: \(decoded.stderr)")
        let found = try run(aubio, ["onset", "-i", wav], timeout: 60)
        try #require(found.status == 0, "aubio onset: \(found.stderr)")
        let onsets = found.stdoutText.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }

        let cuts = (1..<11).map { Double(prepared.timeline.frames(ofPhoto: $0).lowerBound) / 60 }
        #expect(cuts.filter { $0 > 8.05 }.count >= 6)
        for cut in cuts {
            // On an onset heard (the loop's hits lie on a 0.25 s grid, its fills on 0.125 s): within 25 ms,
            // the frame's rounding (8 ms at 60 fps) and the encoder's and aubio's own few milliseconds.
            #expect(distance(cut, toNearestOf: onsets) <= 0.025, "cut at \(cut) s: \(distance(cut, toNearestOf: onsets)) s from an onset heard")
        }
        // The seam: 16 beats after the pass's start, less the 5 ms declick.
        let music = try #require(prepared.beats?.music)
        let seam = try #require(music.beatSeam)
        #expect(abs(seam - 0.005) <= 0.004, "a seam of \(seam) s")
        // The show enters the music less than a frame in, where its beats fall on the frames.
        #expect(music.entry >= 0 && music.entry < 1.0 / 60, "the show enters the music \(music.entry) s in")
        // Every beat of the first pass's grid, carried straight on to the end, has an onset heard within 20 ms
        // (with 0.1 s crossfades, those after the first seam were 25 ms from the nearest fill and 0.1 s from the hit).
        for index in grid.beat(nearest: 4)...grid.beat(nearest: 21) {
            let beat = grid.time(ofBeat: index) - music.entry
            #expect(distance(beat, toNearestOf: onsets) <= 0.02, "beat at \(beat) s: \(distance(beat, toNearestOf: onsets)) s from an onset heard")
        }
    }
}
