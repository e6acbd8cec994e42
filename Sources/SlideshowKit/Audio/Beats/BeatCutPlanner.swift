/// Why a show's cuts stay even instead of moving to the beat; its description is the warning.
public enum BeatCutFallback: Error, Sendable, Hashable, CustomStringConvertible {
    /// The music has no steady beat (speech, ambient, silence), or none was found.
    case noSteadyBeat
    /// No beat lies near cut `cut` (0 for the cut between the first and the second photo):
    /// the music has ended there and does not loop.
    case noBeatNearCut(cut: Int)
    /// On every grid tried, photo `photo`'s share would move more than 25% from its even share.
    case shareOutOfBounds(photo: Int)
    /// On every grid that keeps the shares, photo `photo` would not be alone on screen for at
    /// least half its share with its transitions (the rule ``FramePlan`` keeps).
    case transitionsDoNotFit(photo: Int)

    /// One line for the user, e.g. `the music has no steady beat; the cuts stay even`.
    public var description: String {
        switch self {
        case .noSteadyBeat: "the music has no steady beat; the cuts stay even"
        case .noBeatNearCut(let cut): "the music has no beat near cut \(cut + 1) (it ends before it); the cuts stay even"
        case .shareOutOfBounds(let photo): "photo \(photo + 1)'s time would change by more than 25% to cut on the beat; the cuts stay even"
        case .transitionsDoNotFit(let photo): "photo \(photo + 1)'s transitions would not fit its time if cut on the beat; the cuts stay even"
        }
    }
}

/// A show's cuts moved to the beat.
public struct BeatCuts: Sendable, Hashable {
    /// The first frame of photos 1, 2, … (one cut fewer than photos), strictly increasing.
    public var cuts: [Int]
    /// The show's frames: as asked, unchanged.
    public var frameCount: Int
    /// Which beats carry cuts: every one (1), every 2nd (2) or every 4th (4).
    public var beatsPerStep: Int
    /// The grid the cuts are on.
    public var grid: BeatGrid

    /// The first frame of each photo: 0, then the cuts.
    public var photoStarts: [Int] { [0] + cuts }

    /// Each photo's time in seconds; ``SlideshowLength/perPhoto(seconds:)`` with these gives
    /// back exactly these cuts and ``frameCount``.
    public func durations(framesPerSecond: Int) -> [Double] {
        let bounds = photoStarts + [frameCount]
        return (0..<bounds.count - 1).map { Double(bounds[$0 + 1] - bounds[$0]) / Double(framesPerSecond) }
    }
}

/// Moves a show's cuts to the beat: a pure function of the frames, the grid and the music's layout.
///
/// **The grid.** Cuts go on every beat, every 2nd or every 4th beat. The coarser the grid, the
/// stronger the beats it keeps (with the phase chosen well, every 4th beat is a bar's first
/// in 4/4), but the farther a cut may have to move: up to half a step. So the step is
/// chosen from the shortest even share S: every 4th beat when S spans at least 8 beats,
/// every 2nd when it spans at least 4, else every beat. That keeps a cut's move within a
/// quarter of S. Of the n ways to take every nth beat (which beat counts as the first),
/// the one that moves the cuts least in total wins. When a coarser grid breaks a bound below,
/// the next finer one is tried; every beat is the last resort.
///
/// **The cuts.** Every cut moves to the nearest beat of the grid, rounded to the nearest
/// frame, so a transition's centre (which is the cut) lands there too. The frame count is
/// not touched: the show is exactly as long as asked. Each photo's share must stay within
/// ±25% of its even share (`⌈¾ share⌉ … ⌊5⁄4 share⌋` frames); with transitions, every photo
/// must still be alone on screen for half its share (``FramePlan``'s rule). Otherwise the cuts
/// stay even, and the reason says why.
///
/// Beats are in show time through ``MusicLayout``: after `--audio-start` and across loop seams.
public enum BeatCutPlanner {
    /// How far a share may move from its even share: 25%.
    public static let shareTolerance = 0.25

    /// The cuts on the beat, or why they stay even.
    /// - Parameters:
    ///   - frameCount: the show's frames.
    ///   - framesPerSecond: its frame rate.
    ///   - evenCuts: the even cuts: the first frame of photos 1, 2, … (``Timeline``'s).
    ///   - transitionFrames: each cut's transition length in frames (0 for a hard cut), as the
    ///     even plan uses them; empty for none.
    ///   - grid: the music's beat, or nil when it has none.
    ///   - music: where the music starts and loops under the show.
    public static func place(frameCount: Int, framesPerSecond: Int, evenCuts: [Int], transitionFrames: [Int] = [],
                             grid: BeatGrid?, music: MusicLayout) -> Result<BeatCuts, BeatCutFallback> {
        precondition(frameCount > 0 && framesPerSecond > 0, "a show has frames")
        precondition(transitionFrames.isEmpty || transitionFrames.count == evenCuts.count, "one transition per cut")
        let bounds = [0] + evenCuts + [frameCount]
        precondition(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }, "even cuts increase within the show")
        guard let grid else { return .failure(.noSteadyBeat) }
        guard !evenCuts.isEmpty else { return .success(BeatCuts(cuts: [], frameCount: frameCount, beatsPerStep: 1, grid: grid)) }

        let fps = Double(framesPerSecond)
        let shares = zip(bounds.dropFirst(), bounds).map { $0 - $1 }
        let shortest = Double(shares.min()!) / fps
        let steps = [4, 2, 1].filter { $0 == 1 || Double($0) * grid.period <= shortest / 2 }
        let duration = Double(frameCount) / fps
        var failure: BeatCutFallback = .noSteadyBeat
        for step in steps {
            var best: (cuts: [Int], moved: Double)?
            for offset in 0..<step {
                let beats = music.beats(of: grid, every: step, offset: offset, through: duration).map(\.time)
                switch snap(evenCuts, to: beats, reach: Double(step) * grid.period, fps: fps, frameCount: frameCount) {
                case .failure(let why):
                    failure = why
                case .success(let snapped):
                    if let why = check(snapped, evenShares: shares, frameCount: frameCount, transitionFrames: transitionFrames) {
                        failure = why
                        continue
                    }
                    let moved = zip(snapped, evenCuts).reduce(0.0) { $0 + abs(Double($1.0 - $1.1)) }
                    if best == nil || moved < best!.moved { best = (snapped, moved) }
                }
            }
            if let best { return .success(BeatCuts(cuts: best.cuts, frameCount: frameCount, beatsPerStep: step, grid: grid)) }
        }
        return .failure(failure)
    }

    /// Each cut moved to the nearest of `beats` (show seconds, in order), as a frame.
    static func snap(_ cuts: [Int], to beats: [Double], reach: Double, fps: Double, frameCount: Int) -> Result<[Int], BeatCutFallback> {
        var result: [Int] = []
        var lower = 0
        for (number, cut) in cuts.enumerated() {
            let time = Double(cut) / fps
            while lower + 1 < beats.count && beats[lower + 1] <= time { lower += 1 }
            let candidates = beats.isEmpty ? [] : [beats[lower]] + (lower + 1 < beats.count ? [beats[lower + 1]] : [])
            guard let nearest = candidates.min(by: { abs($0 - time) < abs($1 - time) }), abs(nearest - time) <= reach else {
                return .failure(.noBeatNearCut(cut: number))
            }
            result.append(Int((nearest * fps).rounded()))
        }
        return .success(result)
    }

    /// Why the snapped cuts break a bound, or nil when they keep them all.
    static func check(_ cuts: [Int], evenShares: [Int], frameCount: Int, transitionFrames: [Int]) -> BeatCutFallback? {
        let bounds = [0] + cuts + [frameCount]
        for photo in 0..<evenShares.count {
            let share = bounds[photo + 1] - bounds[photo]
            let even = evenShares[photo]
            let low = Int((Double(even) * (1 - shareTolerance)).rounded(.up))
            let high = Int((Double(even) * (1 + shareTolerance)).rounded(.down))
            guard share >= max(1, low), share <= high else { return .shareOutOfBounds(photo: photo) }
        }
        guard !transitionFrames.isEmpty else { return nil }
        for photo in 0..<evenShares.count {
            let share = bounds[photo + 1] - bounds[photo]
            var lost = 0
            if photo > 0 { lost += (transitionFrames[photo - 1] + 1) / 2 }
            if photo < evenShares.count - 1 { lost += transitionFrames[photo] / 2 }
            if lost > share / 2 { return .transitionsDoNotFit(photo: photo) }
        }
        return nil
    }
}
