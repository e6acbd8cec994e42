import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFormats
import SlideshowKit

/// Cuts on the beat across loop seams, checked on the sound the video carries.
///
/// Each seam's 0.1 s crossfade starts the next pass 0.1 s before the last one ends, so the
/// heard beat moves 0.1 s earlier at every seam (the music is not changed to hide it: the
/// soundtrack loops the music as it is). The cuts follow the beat as heard: the grid is laid
/// per pass (``MusicLayout``). Here the show is rendered, its sound decoded by ffmpeg and its
/// onsets found by aubio's own command-line tool, and every cut after a seam must sit on an
/// onset heard there, where a grid carried on without the seams would be 0.1 s (or more) off.
@Suite struct LoopSeamBeatTests {
    @Test func cutsAfterEachSeamAreOnTheBeatHeard() async throws {
        guard let loop = clip("loop_mika_sonicpi_cc0_120bpm_8s.flac") else { return withKnownIssue(noSharedClips) { throw SkipNote() } }
        guard let aubio = which("aubio") else { return withKnownIssue(noAubioTool) { throw SkipNote() } }
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is needed (make deps)")
        let folder = try TemporaryFolder()
        let photos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map(TestEnvironment.sample)
        // 22 s over an 8 s loop: seams at 7.9 and 15.8 s; 11 photos, a cut every 2 s or so, 60 fps.
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
        let afterSeams = cuts.filter { $0 > 7.9 + 0.05 }
        #expect(afterSeams.count >= 6)
        for cut in cuts {
            // On an onset heard (the loop's hits lie on a 0.25 s grid, its fills on 0.125 s): within 25 ms,
            // the frame's rounding (8 ms at 60 fps) and the encoder's and aubio's own few milliseconds.
            #expect(distance(cut, toNearestOf: onsets) <= 0.025, "cut at \(cut) s: \(distance(cut, toNearestOf: onsets)) s from an onset heard")
        }
        // A grid carried on across the seams as if the music did not jump would put these cuts
        // 0.1 s (after one seam) or 0.2 s (after two) from the beat heard.
        for cut in afterSeams {
            let unjumped = grid.time(ofBeat: grid.beat(nearest: cut))
            let seams = cut > 15.8 + 0.05 ? 2.0 : 1.0
            #expect(abs(abs(cut - unjumped) - (seams * 0.1).truncatingRemainder(dividingBy: grid.period)) <= 0.5 / 60 + 0.005,
                    "cut at \(cut) s is \(cut - unjumped) s from the unjumped grid")
        }
    }
}
