import Testing
import SlideshowKit

/// The pure part: cuts moved to a given grid, the grid step chosen, the bounds kept, the
/// beats carried across loop seams. Every figure is worked out by hand in the comments.
@Suite struct BeatCutPlannerTests {
    /// 10 photos in 30 s at 30 fps: shares of 3 s (6 beats at 120 BPM), so every 2nd beat.
    /// Beats at 0.1 + 0.5k; the even beats (0.1, 1.1, …, 3.1, …) are 0.1 s from each cut,
    /// the odd ones 0.4 s: every cut moves 3 frames later.
    @Test func everySecondBeatForThreeSecondShares() throws {
        let grid = BeatGrid(period: 0.5, phase: 0.1, confidence: 1)
        let even = (1..<10).map { $0 * 90 }
        let cuts = try BeatCutPlanner.place(frameCount: 900, framesPerSecond: 30, evenCuts: even, grid: grid, music: MusicLayout()).get()
        #expect(cuts.beatsPerStep == 2)
        #expect(cuts.cuts == even.map { $0 + 3 })
        #expect(cuts.frameCount == 900)
        #expect(cuts.durations(framesPerSecond: 30) == [3.1] + [Double](repeating: 3, count: 8) + [2.9])
    }

    /// 4 photos in 40 s at 25 fps: shares of 10 s (20 beats), so every 4th beat. Beats at
    /// 0.3 + 0.5k: beats 20, 40, 60 (10.3, 20.3, 30.3 s) are 0.3 s from the cuts, beats 19,
    /// 39, 59 (9.8, 19.8, 29.8 s) 0.2 s: that set wins.
    @Test func everyFourthBeatForLongShares() throws {
        let grid = BeatGrid(period: 0.5, phase: 0.3, confidence: 1)
        let cuts = try BeatCutPlanner.place(frameCount: 1000, framesPerSecond: 25, evenCuts: [250, 500, 750], grid: grid, music: MusicLayout()).get()
        #expect(cuts.beatsPerStep == 4)
        #expect(cuts.cuts == [245, 495, 745])
    }

    /// Shares of 0.6 s against a beat a second: cut 1 (1.2 s) goes to 1.5 s, and photo 1's
    /// share grows from 18 to 30 frames, past 22 (125%).
    @Test func sharesOutOfBoundsFallBack() {
        let grid = BeatGrid(period: 1, phase: 0.5, confidence: 1)
        let placed = BeatCutPlanner.place(frameCount: 180, framesPerSecond: 30, evenCuts: (1..<10).map { $0 * 18 }, grid: grid, music: MusicLayout())
        #expect(placed == .failure(.shareOutOfBounds(photo: 1)))
        #expect(BeatCutFallback.shareOutOfBounds(photo: 1).description == "photo 2's time would change by more than 25% to cut on the beat; the cuts stay even")
    }

    @Test func noGridFallsBack() {
        let placed = BeatCutPlanner.place(frameCount: 300, framesPerSecond: 30, evenCuts: [150], grid: nil, music: MusicLayout())
        #expect(placed == .failure(.noSteadyBeat))
    }

    /// One photo has no cut to move.
    @Test func onePhotoKeepsItsFrames() throws {
        let grid = BeatGrid(period: 0.5, phase: 0, confidence: 1)
        let cuts = try BeatCutPlanner.place(frameCount: 75, framesPerSecond: 25, evenCuts: [], grid: grid, music: MusicLayout()).get()
        #expect(cuts.cuts.isEmpty && cuts.frameCount == 75 && cuts.photoStarts == [0])
    }

    /// Music of 10 s that does not loop under a 20 s show: no beat near the cut at 15 s.
    @Test func musicThatEndsLeavesCutsWithoutBeats() {
        let grid = BeatGrid(period: 0.5, phase: 0, confidence: 1)
        let music = MusicLayout(start: 0, passLength: 10, loops: false)
        let placed = BeatCutPlanner.place(frameCount: 600, framesPerSecond: 30, evenCuts: [150, 300, 450], grid: grid, music: music)
        #expect(placed == .failure(.noBeatNearCut(cut: 2)))
    }

    /// 3 photos of 90 frames, beats every 0.7 s from 0. Every 2nd beat (1.4 s ≤ 1.5 s) puts the
    /// cuts at 2.8 s and 5.6 s (frames 84, 168; the odd beats give 105, 189): the middle share
    /// is 84 frames either way. Transitions of 40 frames take 20 + 20 ≤ 42 of it: they fit.
    /// Transitions of 44 frames (22 + 22 > 42) do not, so every beat is tried: 3.0 s goes to
    /// 2.8 s, 6.0 s to 6.3 s (frames 84, 189), a middle share of 105. Transitions of 54 frames
    /// (27 + 27 > 52) fit no grid: the cuts stay even.
    @Test func transitionsMustStillFit() throws {
        let grid = BeatGrid(period: 0.7, phase: 0, confidence: 1)
        func place(_ transition: Int) -> Result<BeatCuts, BeatCutFallback> {
            BeatCutPlanner.place(frameCount: 270, framesPerSecond: 30, evenCuts: [90, 180], transitionFrames: [transition, transition], grid: grid, music: MusicLayout())
        }
        let fitting = try place(40).get()
        #expect(fitting.cuts == [84, 168] && fitting.beatsPerStep == 2)
        let finer = try place(44).get()
        #expect(finer.cuts == [84, 189] && finer.beatsPerStep == 1)
        #expect(place(54) == .failure(.transitionsDoNotFit(photo: 1)))
    }

    /// An 8 s loop (16 beats from 0) under a 20 s show: passes start at 0, 7.9 and 15.8 s
    /// (each seam's 0.1 s crossfade), and each pass's beats are heard from the middle of the
    /// seam before it: 0 … 7.5, then 8.4 … 15.4, then 16.3 … 19.8.
    @Test func beatsCarryOnAcrossLoopSeams() {
        let grid = BeatGrid(period: 0.5, phase: 0, confidence: 1)
        let music = MusicLayout(start: 0, passLength: 8)
        #expect(music.passStarts(through: 20) == [0, 7.9, 15.8])
        let beats = music.beats(of: grid, through: 20)
        let first: [Double] = (0...15).map { Double($0) * 0.5 }
        let second: [Double] = (1...15).map { 7.9 + Double($0) * 0.5 }
        let third: [Double] = (1...8).map { 15.8 + Double($0) * 0.5 }
        let expected = first + second + third
        #expect(beats.count == expected.count)
        #expect(zip(beats.map(\.time), expected).allSatisfy { abs($0 - $1) < 1e-9 })
        // Music time repeats, so the beat indices do too: every 2nd beat is the same beats in every pass.
        #expect(beats.prefix(3).map(\.index) == [0, 1, 2] && beats[16].index == 1)
    }

    /// From 1.3 s into the same loop: beat 3 (1.5 s) is heard at 0.2 s; the pass is 6.7 s, so
    /// the next pass starts at 6.6 s and its first beat heard (1.5 s again) at 6.8 s.
    @Test func beatsAfterAnAudioStart() throws {
        let grid = BeatGrid(period: 0.5, phase: 0, confidence: 1)
        let music = MusicLayout(start: 1.3, passLength: 6.7)
        let beats = music.beats(of: grid, through: 10).map(\.time)
        #expect(abs(beats[0] - 0.2) < 1e-9)
        let seam = try #require(beats.firstIndex { $0 > 6.3 })
        #expect(abs(beats[seam - 1] - 6.2) < 1e-9 && abs(beats[seam] - 6.8) < 1e-9)
    }

    /// The grid keeps its phase in one period and reads the tempo back.
    @Test func gridArithmetic() {
        let grid = BeatGrid(period: 0.5, phase: 1.7, confidence: 0.8)
        #expect(abs(grid.phase - 0.2) < 1e-12 && grid.beatsPerMinute == 120)
        #expect(grid.beat(nearest: 10.1) == 20 && abs(grid.time(ofBeat: 20) - 10.2) < 1e-12)
        #expect(BeatGrid(period: 0.5, phase: -0.1, confidence: 1).phase == 0.4)
    }
}
