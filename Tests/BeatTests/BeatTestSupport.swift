import Foundation
import Testing
import TestSupport
@testable import SlideshowKit

/// `../shared/clips`, or nil in a fresh clone that lacks it.
let sharedClips = TestEnvironment.sharedClips

/// The path of a shared clip; nil when `../shared` is absent.
func clip(_ name: String) -> String? { TestEnvironment.sharedClip(name) }

let noSharedClips: Comment = "skipped: ../shared/clips is absent (a fresh clone); the test needs the shared music"
let noAubioTool: Comment = "skipped: aubio's command-line tool is absent (Debian's aubio-tools; `make deps` installs it)"

/// The beats aubio's own beat tracker (`aubio beat`, Debian's aubio-tools) finds in a file, in
/// seconds: the independent reference, outside the code under test (which fits its own grid
/// to aubio's onsets and never runs aubio's tracker).
///
/// A 2048-sample window (hop 512): with aubio's default 1024, its tracker flips between the
/// beat and the off-beat on the 8-second loop's eighth-note hi-hats (it spends most of a
/// looped half minute on the off-beat), which would make it no reference at all. It runs on
/// the music file itself: on the show's sound it loses its lock at every loop seam (where the
/// crossfade moves the beat by 0.1 s) and needs seconds to find it again.
func independentBeats(_ path: String) throws -> [Double] {
    let tool = try #require(which("aubio"))
    let result = try run(tool, ["beat", "-B", "2048", "-H", "512", "-i", path], timeout: 120)
    try #require(result.status == 0, "aubio beat: \(result.stderr)")
    return result.stdoutText.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
}

/// The distance from `time` to the nearest of `times` (sorted).
func distance(_ time: Double, toNearestOf times: [Double]) -> Double {
    times.map { abs($0 - time) }.min() ?? .infinity
}

/// Even cuts as ``Timeline`` makes them.
func evenCuts(photos: Int, frameCount: Int) -> [Int] {
    (1..<photos).map { $0 * frameCount / photos }
}
