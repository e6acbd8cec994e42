import Foundation
import SlideshowSupport

/// Why a show's cuts stay even instead of moving to the beat; its description is the warning.
public enum BeatCutFallback: Error, Sendable, Hashable, CustomStringConvertible {
    /// The music has no steady beat (speech, ambient, silence), or none was found.
    case noSteadyBeat
    /// The show is shorter than the few bars of music a steady beat is found in
    /// (``BeatAnalysis/minimumLength``).
    case showTooShort
    /// The music's beat could not be read: the reason.
    case unreadableMusic(String)
    /// No beat lies near cut `cut` (0 for the cut between the first and the second photo):
    /// the music has ended there and does not loop.
    case noBeatNearCut(cut: Int)
    /// No choice of beats keeps every share within 25% of its even share: item `photo`'s
    /// (0 for the first), of `beats` beats of the finest grid, is the first that cannot be fitted.
    case shareOutOfBounds(photo: Int, beats: Double)
    /// Every choice of beats that keeps the shares leaves item `photo` alone on screen for less
    /// than half its share with its transitions (the rule ``FramePlan`` keeps).
    case transitionsDoNotFit(photo: Int)

    /// One line for the user, e.g. `the music has no steady beat; the cuts stay even`.
    public var description: String {
        switch self {
        case .noSteadyBeat: "the music has no steady beat; the cuts stay even"
        case .showTooShort:
            "the show is shorter than the \(String(format: "%g", BeatAnalysis.minimumLength)) s of music a steady beat is found in; the cuts stay even"
        case .unreadableMusic(let reason): "the music's beat could not be read (\(reason)); the cuts stay even"
        case .noBeatNearCut(let cut): "the music has no beat near cut \(cut + 1) (it ends before it); the cuts stay even"
        case .shareOutOfBounds(let photo, let beats):
            "photo \(photo + 1)'s time (\(Message.seconds((beats * 100).rounded() / 100)) beats) cannot become a whole number of beats within 25% of it while every other photo's does too; the cuts stay even"
        case .transitionsDoNotFit(let photo): "photo \(photo + 1)'s transitions would not fit its time if cut on the beat; the cuts stay even"
        }
    }

    /// The reason as a word for reports: `no-steady-beat`, `show-too-short`, `unreadable-music`,
    /// `music-ends`, `no-assignment` or `transitions-do-not-fit`.
    public var reason: String {
        switch self {
        case .noSteadyBeat: "no-steady-beat"
        case .showTooShort: "show-too-short"
        case .unreadableMusic: "unreadable-music"
        case .noBeatNearCut: "music-ends"
        case .shareOutOfBounds: "no-assignment"
        case .transitionsDoNotFit: "transitions-do-not-fit"
        }
    }

    /// The item (0 for the first, in play order) that cannot be fitted, when one is to blame:
    /// for music that ends, the one whose end has no beat.
    public var photo: Int? {
        switch self {
        case .shareOutOfBounds(let photo, _), .transitionsDoNotFit(let photo): photo
        case .noBeatNearCut(let cut): cut
        default: nil
        }
    }
}

/// A show's cuts moved to the beat.
public struct BeatCuts: Sendable, Hashable {
    /// The first frame of items 1, 2, … (one cut fewer than items), strictly increasing.
    public var cuts: [Int]
    /// The show's frames: as asked, unchanged.
    public var frameCount: Int
    /// Which beats carry cuts: every one (1), every 2nd (2) or every 4th (4).
    public var beatsPerStep: Int
    /// The grid the cuts are on.
    public var grid: BeatGrid
    /// The cuts (indices into ``cuts``) that are not on a beat: a clip's end, where its length
    /// does not end on one.
    public var offBeat: [Int] = []

    /// The first frame of each item: 0, then the cuts.
    public var photoStarts: [Int] { [0] + cuts }

    /// Each item's time in seconds; ``SlideshowLength/perPhoto(seconds:)`` with these gives
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
/// in 4/4), but the farther a cut may have to move. So the step is chosen from the shortest
/// even share S of a photo: every 4th beat when S spans at least 8 beats, every 2nd when it
/// spans at least 4, else every beat. Of the n ways to take every nth beat (which beat counts
/// as the first), the one whose cuts cost least in total wins (below: the more strongly its
/// beats are heard, the less they cost, so on 4/4 music it tends to the bar's first beat,
/// where the accent falls). When a coarser grid has no
/// placement, the next finer one is tried; every beat is the last resort, unless the beat is
/// the slower of two levels the music has (``BeatGrid/halved()``: a groove at 60 BPM whose
/// eighths are a 120-BPM pulse). Then the faster level's beats are tried last: shares of 2.4
/// beats at 60 BPM (2.4 s) can only take 2 beats each, too few in total, while at 120 BPM
/// they may take 4, 5 or 6 half beats.
///
/// **The cuts: one choice for the whole show.** Every cut goes to a beat of the grid (rounded
/// to the nearest frame, so a transition's centre, which is the cut, lands there too), chosen
/// together by dynamic programming over cuts × beats so that every share stays within ±25% of
/// its even share (`⌈¾ share⌉ … ⌊5⁄4 share⌋` frames), every item is still alone on screen for
/// half its share with its transitions (``FramePlan``'s rule), and the cuts cost least in
/// total: each its move from its even place, and two beats for each step of accent its beat
/// lies under twice the median beat's (``accentCost(_:beat:beatFrames:)``), so that a cut goes
/// to the more strongly heard of two beats unless it lies two beats farther for each step. A
/// cut's beats are those its bounds allow (the shares before
/// and after it summed), so a placement is found whenever one exists: with shares of 2 beats
/// or more there always is one; a share of 1.5 beats has none (no whole number of beats lies
/// within 1.125 … 1.875). The frame count is not touched: the show is exactly as long as asked.
///
/// **Clips** keep their length: the cut before a clip is on a beat, and the cut after it is
/// its end, the one cut off the beat, unless a beat lies within a quarter of a beat before
/// that end: then the clip's out-point is trimmed to it (never more, never its in-point). A
/// clip that ends the show is trimmed so that it starts on a beat when one lies within a
/// quarter of a beat after its place, else starts where its length puts it.
///
/// Beats are in show time through ``MusicLayout``: after `--audio-start` and across loop seams.
package enum BeatCutPlanner {
    /// How far a share may move from its even share: 25%.
    package static let shareTolerance = 0.25
    /// How much of a beat a clip's out-point may be trimmed to end on one: a quarter.
    package static let clipTrim = 0.25

    /// The cuts on the beat, or why they stay even.
    /// - Parameters:
    ///   - frameCount: the show's frames.
    ///   - framesPerSecond: its frame rate.
    ///   - evenCuts: the even cuts: the first frame of items 1, 2, … (``Timeline``'s).
    ///   - transitionFrames: each cut's transition length in frames (0 for a hard cut), as the
    ///     even plan uses them; empty for none.
    ///   - clips: for each item, true for a clip (its even share is its length); empty for photos only.
    ///   - grid: the music's beat, or nil when it has none.
    ///   - music: where the music starts and loops under the show.
    package static func place(frameCount: Int, framesPerSecond: Int, evenCuts: [Int], transitionFrames: [Int] = [],
                             clips: [Bool] = [], grid: BeatGrid?, music: MusicLayout) -> Result<BeatCuts, BeatCutFallback> {
        precondition(frameCount > 0 && framesPerSecond > 0, "a show has frames")
        precondition(transitionFrames.isEmpty || transitionFrames.count == evenCuts.count, "one transition per cut")
        precondition(clips.isEmpty || clips.count == evenCuts.count + 1, "one flag per item")
        let bounds = [0] + evenCuts + [frameCount]
        precondition(zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 }, "even cuts increase within the show")
        guard let grid else { return .failure(.noSteadyBeat) }
        // One item has no cut to move; clips alone keep their lengths.
        guard !evenCuts.isEmpty, clips.contains(false) || clips.isEmpty else {
            return .success(BeatCuts(cuts: evenCuts, frameCount: frameCount, beatsPerStep: 1, grid: grid, offBeat: Array(evenCuts.indices)))
        }

        let placed = place(frameCount: frameCount, framesPerSecond: framesPerSecond, bounds: bounds, transitionFrames: transitionFrames,
                           clips: clips, grid: grid, music: music)
        // The slower of two levels is the beat; the faster one's beats may have a placement.
        guard case .failure = placed, let faster = grid.halved() else { return placed }
        let onFaster = place(frameCount: frameCount, framesPerSecond: framesPerSecond, bounds: bounds, transitionFrames: transitionFrames,
                             clips: clips, grid: faster, music: music, steps: [1])
        if case .success = onFaster { return onFaster }
        return placed
    }

    /// ``place(frameCount:framesPerSecond:evenCuts:transitionFrames:clips:grid:music:)`` on one
    /// grid: its coarsest step that `steps` allows first.
    private static func place(frameCount: Int, framesPerSecond: Int, bounds: [Int], transitionFrames: [Int], clips: [Bool],
                              grid: BeatGrid, music: MusicLayout, steps allowed: [Int] = [4, 2, 1]) -> Result<BeatCuts, BeatCutFallback> {
        let fps = Double(framesPerSecond)
        let show = Show(bounds: bounds, transitions: transitionFrames, clips: clips.isEmpty ? Array(repeating: false, count: bounds.count - 1) : clips,
                        trim: Int((clipTrim * grid.period * fps).rounded(.down)))
        let photoShares = show.shares.indices.filter { !show.clips[$0] }.map { show.shares[$0] }
        let shortest = Double(photoShares.min() ?? show.shares.min()!) / fps
        let steps = allowed.filter { $0 == 1 || Double($0) * grid.period <= shortest / 2 }
        let duration = Double(frameCount) / fps
        var failure: BeatCutFallback = .noSteadyBeat
        // A cut off the beat (a clip's end) costs a beat more than the least heard beat.
        let offBeat = Int((accentReach * fullAccent + 1) * grid.period * fps)
        for step in steps {
            var best: Placement?
            for offset in 0..<step {
                // Each beat's frame, and what a cut there costs beside its move (the least of
                // two beats on one frame).
                var beatCosts: [Int: Int] = [:]
                for beat in music.beats(of: grid, every: step, offset: offset, through: duration) {
                    let frame = Int((beat.time * fps).rounded())
                    guard frame > 0 && frame < frameCount else { continue }
                    beatCosts[frame] = min(beatCosts[frame] ?? .max, accentCost(grid, beat: beat.index, beatFrames: grid.period * fps))
                }
                switch show.place(on: beatCosts, penalty: offBeat, beatFrames: Double(step) * grid.period * fps) {
                case .success(let placement):
                    if best == nil || placement.cost < best!.cost { best = placement }
                case .failure(let why):
                    failure = why
                }
            }
            if let best {
                return .success(BeatCuts(cuts: best.cuts, frameCount: frameCount, beatsPerStep: step, grid: grid, offBeat: best.offBeat))
            }
        }
        return .failure(failure)
    }

    /// How much more strongly heard than the median beat a beat must be to cost nothing beside
    /// its move: twice.
    package static let fullAccent = 2.0
    /// How many beats' frames a cut costs for each step of accent (the median beat's) its beat
    /// lies under ``fullAccent``: two.
    package static let accentReach = 2.0

    /// What a cut on beat `index` costs beside its move, in frames: ``accentReach`` beats for
    /// each step of accent (``BeatGrid/accents``) it lies under ``fullAccent``. A beat on which
    /// nothing is heard costs four beats, the median beat two, a hit twice as strong as the
    /// median or more nothing: a cut goes up to two beats farther from its even place to a beat
    /// heard as strongly again. Nothing when the grid's accents are unknown (every beat alike).
    ///
    /// Measured over the 138 rendered shows of `make bench-audio` (18 songs): 87.9% of the cuts
    /// came within 50 ms of aubio's or librosa's beats and 44 lay farther than a quarter beat
    /// from both, against 86.8% and 55 when only a rest cost more (half a beat). In trials, 1
    /// beat a step gave 87.5% and 49, 3 beats 88.2% and 45.
    package static func accentCost(_ grid: BeatGrid, beat index: Int, beatFrames: Double) -> Int {
        guard !grid.accents.isEmpty else { return 0 }
        // A beat outside the part analysed counts as the median beat.
        let accent = grid.accents[index] ?? 1
        return Int((beatFrames * accentReach * (fullAccent - min(accent, fullAccent))).rounded())
    }

    /// One placement: the cuts, which of them are off the beat, and their total move in frames.
    package struct Placement {
        package var cuts: [Int]
        package var offBeat: [Int]
        package var cost: Int
    }

    /// The show's items as the placement sees them: their even bounds and the shares they may take.
    package struct Show {
        /// 0, the even cuts, the frame count.
        package let bounds: [Int]
        /// Each item's even share.
        package let shares: [Int]
        /// Which items are clips.
        package let clips: [Bool]
        /// Each item's least and most frames: ±25% for a photo, its length less a trim for a clip;
        /// `alone` with the transitions' rule, `bare` without it.
        package let alone: [ClosedRange<Int>?]
        package let bare: [ClosedRange<Int>]

        package init(bounds: [Int], transitions: [Int], clips: [Bool], trim: Int) {
            self.bounds = bounds
            self.clips = clips
            let shares = zip(bounds.dropFirst(), bounds).map { $0 - $1 }
            self.shares = shares
            let count = shares.count
            var alone: [ClosedRange<Int>?] = [], bare: [ClosedRange<Int>] = []
            for item in 0..<count {
                let even = shares[item]
                let range = clips[item] ? max(1, even - trim)...even
                    : max(1, Int((Double(even) * (1 - shareTolerance)).rounded(.up)))...max(1, Int((Double(even) * (1 + shareTolerance)).rounded(.down)))
                bare.append(range)
                // Alone on screen for half its share: the frames its transitions take, at most half.
                var lost = 0
                if !transitions.isEmpty {
                    if item > 0 { lost += (transitions[item - 1] + 1) / 2 }
                    if item < count - 1 { lost += transitions[item] / 2 }
                }
                let low = max(range.lowerBound, 2 * lost)
                alone.append(low <= range.upperBound ? low...range.upperBound : nil)
            }
            self.alone = alone
            self.bare = bare
        }

        /// The cuts on the beats that cost least in total, every share within its bounds, or
        /// why there are none.
        /// - Parameters:
        ///   - beats: the beats' frames, each with what a cut there costs beside its move
        ///     (``BeatCutPlanner/accentCost(_:beat:beatFrames:)``: a beat heard strongly costs less).
        ///   - penalty: what a cut off the beat costs beside its move (a beat's frames more than
        ///     any beat costs, so more than a beat's cost and a quarter beat's trim), so that a
        ///     clip is trimmed to end on a beat whenever it can be.
        ///   - beatFrames: frames between two beats of the grid, for the reason of a failure.
        package func place(on beats: [Int: Int], penalty: Int, beatFrames: Double) -> Result<Placement, BeatCutFallback> {
            switch layers(on: beats, limits: alone, penalty: penalty) {
            case .success(let placement): return .success(placement)
            case .failure(let stuck):
                let item = stuck.item
                if stuck.noBeats { return .failure(.noBeatNearCut(cut: item)) }
                // The same without the transitions' rule gets further: the transitions are to blame.
                if case .failure(let bare) = layers(on: beats, limits: bare.map { $0 }, penalty: penalty), bare.item <= item {
                    return .failure(.shareOutOfBounds(photo: bare.item, beats: Double(shares[bare.item]) / beatFrames))
                }
                return .failure(.transitionsDoNotFit(photo: item))
            }
        }

        /// Where the dynamic programme stopped: the item whose end no choice reaches, and
        /// whether there was no beat at all where that end could go.
        package struct Stuck: Error {
            package var item: Int
            package var noBeats: Bool
        }

        /// The dynamic programme: for each cut in turn, the cheapest way to reach each of its
        /// candidate frames from the previous cut's, keeping every share within `limits`.
        ///
        /// A cut's candidates are the beats within the bounds the shares before and after it
        /// allow (their least and most frames summed), and within the even shares on either
        /// side of its even place. The end of a clip may also be off the beat, where its whole
        /// length puts it (at the cost of `penalty`), as may the start of the clips that end
        /// the show, where their lengths put it. A cut on a beat costs what `costs` gives it.
        package func layers(on costs: [Int: Int], limits: [ClosedRange<Int>?], penalty: Int) -> Result<Placement, Stuck> {
            let count = shares.count
            if let blocked = limits.firstIndex(where: { $0 == nil }) { return .failure(Stuck(item: blocked, noBeats: false)) }
            let limits = limits.map { $0! }
            let frameCount = bounds[count]
            let beats = costs.keys.sorted()
            let beatSet = Set(beats)
            // Least and most frames of items ..< k (prefix) and k ..< count (suffix).
            var lowBefore = [0], highBefore = [0]
            for item in 0..<count {
                lowBefore.append(lowBefore.last! + limits[item].lowerBound)
                highBefore.append(highBefore.last! + limits[item].upperBound)
            }
            // The clips that end the show: from the first of them on, every item is a clip.
            let trailingClips = (clips.lastIndex(of: false) ?? -1) + 1

            struct State { var cost: Int; var from: Int }
            var layers: [[Int: State]] = [[0: State(cost: 0, from: 0)]]
            for cut in 1...count {
                let previous = layers[cut - 1]
                let starts = previous.keys.sorted()
                let item = cut - 1
                var candidates: [(frame: Int, onBeat: Bool)] = []
                if cut == count {
                    candidates = [(frameCount, true)]
                } else {
                    let low = max(lowBefore[cut], frameCount - (highBefore[count] - highBefore[cut]))
                    let high = min(highBefore[cut], frameCount - (lowBefore[count] - lowBefore[cut]))
                    let even = bounds[cut]
                    let from = max(low, even - shares[item] - shares[cut]), to = min(high, even + shares[item] + shares[cut])
                    guard from <= to else { return .failure(Stuck(item: item, noBeats: false)) }
                    var index = lowerBound(beats, from)
                    while index < beats.count && beats[index] <= to {
                        candidates.append((beats[index], true))
                        index += 1
                    }
                    if clips[item] {
                        for start in starts where !beatSet.contains(start + shares[item]) && start + shares[item] < frameCount {
                            candidates.append((start + shares[item], false))
                        }
                    }
                    // The clips that end the show may start where their lengths put them: the even cut.
                    if cut == trailingClips && !beatSet.contains(even) { candidates.append((even, false)) }
                    // No beat where the cut may go, and none after: the music has ended.
                    if candidates.isEmpty { return .failure(Stuck(item: item, noBeats: (beats.last ?? -1) < from)) }
                }
                var layer: [Int: State] = [:]
                for candidate in candidates {
                    let move = abs(candidate.frame - bounds[cut]) + (candidate.onBeat ? costs[candidate.frame] ?? 0 : penalty)
                    for start in starts {
                        let share = candidate.frame - start
                        guard limits[item].contains(share) else { continue }
                        // A clip keeps its length, or ends on a beat a little earlier; the clips
                        // that end the show start on a beat or where their lengths put them.
                        if clips[item] && share != shares[item] && !candidate.onBeat { continue }
                        if clips[item] && share != shares[item] && cut == count && !beatSet.contains(start) { continue }
                        let cost = previous[start]!.cost + move
                        if let known = layer[candidate.frame], known.cost < cost || (known.cost == cost && known.from <= start) { continue }
                        layer[candidate.frame] = State(cost: cost, from: start)
                    }
                }
                if layer.isEmpty { return .failure(Stuck(item: item, noBeats: false)) }
                layers.append(layer)
            }
            var cuts: [Int] = []
            var frame = frameCount
            for cut in stride(from: count, to: 1, by: -1) {
                frame = layers[cut][frame]!.from
                cuts.append(frame)
            }
            cuts.reverse()
            let offBeat = cuts.indices.filter { !beatSet.contains(cuts[$0]) }
            return .success(Placement(cuts: cuts, offBeat: offBeat, cost: layers[count][frameCount]!.cost))
        }

        /// The first index of `sorted` whose value is at least `value`.
        private func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }
}
