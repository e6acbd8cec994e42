import Foundation

/// What the onset detector found in the part of the music analysed: the onset function hop
/// by hop, and the onsets with their strengths. Music time throughout.
package struct OnsetProfile: Sendable {
    /// Seconds per hop of ``novelty``.
    package var hopSeconds: Double
    /// The music time of the first sample analysed.
    package var start: Double
    /// Seconds analysed.
    package var duration: Double
    /// aubio's onset function (spectral flux), one value per hop.
    package var novelty: [Float]
    /// Onsets: music time and strength (the onset function's peak near it).
    package var onsets: [(time: Double, strength: Double)]
    /// The music's length when it ended before the part and was analysed repeated (a short
    /// loop, ``BeatAnalysis/onsetProfile(path:start:length:repeating:)``): times past it are
    /// its later passes; nil when the music was analysed once.
    package var pass: Double? = nil

    package init(hopSeconds: Double, start: Double, duration: Double, novelty: [Float], onsets: [(time: Double, strength: Double)]) {
        self.hopSeconds = hopSeconds
        self.start = start
        self.duration = duration
        self.novelty = novelty
        self.onsets = onsets
    }
}

/// Fits a beat grid to an ``OnsetProfile``, and checks it.
///
/// Beat trackers that follow the music as it plays lock onto 2:1 and 3:2 wrong tempi on
/// syncopated music and need seconds to settle; this fit chooses the tempo from the whole part
/// at once, with no preferred tempo (no weight that pulls every song towards 120 BPM):
///
/// 1. **Metrical family**: the autocorrelation of the onset function (its local mean removed,
///    half-wave rectified), summed over a period's octave multiples (half, one, two and four
///    periods: ``familyScore(_:lag:)``), for every period between 90 and 180 BPM in quarter-hop
///    steps. The period whose subdivision, beat, half bar and bar all recur wins: this settles
///    3:2 and 4:3 (a tresillo's loud hits 1.5 beats apart, a tabla's phrases in threes, a
///    swing's triplet eighths) without deciding the octave.
/// 2. **Phase**: on the faster of that family's levels inside ``levelRange``, the grid offset
///    where the onsets, weighted by strength, sit closest to the beats (a 20 ms Gaussian
///    kernel, scanned in 2 ms steps over one period).
/// 3. **Octave**: of the family's one or two levels there, the slower is taken (every other
///    beat of the faster, the stronger set: never its off-beats) unless the beats it skips are
///    about as strong as those it keeps (a backbeat's snares between the kicks): then the
///    faster (``octave(_:lag:)``). Of two equally plausible levels, the slower one.
/// 4. **Straight line**: each beat takes the first onset within ±70 ms (at most a sixth of a
///    period) that is at least half as strong as the strongest there; a weighted
///    least-squares line through (beat index, onset time) gives the period and phase; three
///    rounds. The whole BPM on either side of the fit replaces it when it holds the onsets
///    about as well and drifts from it at most 80 ms over the part
///    (``wholeTempo(_:period:phase:span:)``).
/// 5. **Tracked beats**: Ellis's dynamic-programming beat tracker on the onsets with the
///    faster level's period (``track(_:period:)``), each beat moved to where a line through
///    its own and its neighbours' onsets puts it (``smooth(_:period:onsets:)``); a slower
///    beat keeps every other one, those on its grid. They follow a live recording's drift,
///    where one straight line leaves the beat; the straight line of step 4 starts from the
///    line through them.
/// 6. **Check**: the share of the beats with an onset within 50 ms, against the share onsets
///    at random times would hit (1 − e^(−rate × 0.1 s)). A grid is kept when that
///    chance-corrected hit rate is at least ``minimumConfidence``, at least ``minimumBeats``
///    beats were matched, and the matched onsets sit within ``maximumResidual`` of it (RMS).
///    The straight line is taken when it passes, unless the tracked beats pass and hold the
///    onsets much closer (``trackedResidualShare``); the tracked beats when only they pass;
///    nothing when neither does (speech, ambient, silence: no steady beat).
package enum BeatGridFit {
    /// The tempi a grid may have once fitted.
    package static let tempoRange = 50.0...200.0
    /// The tempi a beat level is chosen from (one or two levels of each metrical family).
    package static let levelRange = 55.0...185.0
    /// The tempi a metrical family is named by: one octave.
    package static let familyRange = 90.0...180.0
    /// The best family's score against the median over ``familyRange``: a steady beat stands
    /// out of the autocorrelation. Measured over 10-second parts: music 1.5 (a live band) to 16
    /// (a tabla loop), mostly over 2; spoken passages made with espeak-ng 1.13 to 1.21, whose
    /// syllables can line up with a grid for a few seconds and pass the check.
    package static let minimumFamilyContrast = 1.4
    /// The faster of two levels is the beat when the beats the slower one skips are at least
    /// this share as strong as those it keeps (``octave(_:lag:)``),
    package static let fasterShare = 0.8
    /// or at least this share while the faster level's halfway onsets are at most
    /// ``cleanHalfway`` as strong as its beats.
    package static let fasterShareWhenClean = 0.5
    package static let cleanHalfway = 0.4
    /// The lowest chance-corrected hit rate of a steady beat (the shared music scores 0.9 to 1,
    /// spoken passages made with espeak-ng under 0.6).
    package static let minimumConfidence = 0.7
    /// The fewest beats matched by an onset.
    package static let minimumBeats = 8
    /// The largest RMS distance of matched onsets from the grid.
    package static let maximumResidual = 0.035
    /// Tracked beats replace a straight line that passes its check when their matched onsets'
    /// RMS distance is under this share of the line's.
    package static let trackedResidualShare = 0.7
    /// The height, as a share of the peak over the local mean, where a rise is taken to begin.
    package static let riseFraction = 0.2
    /// The smallest onset: its flux against the level of the sound in its window.
    package static let relativeFloor = 0.01
    /// An onset "on" a beat: within this many seconds.
    package static let hitTolerance = 0.05

    /// The onsets in an onset function: its peaks (the largest value within ±3 hops, ±32 ms)
    /// that stand at least 1.5 times over its mean within ±16 hops (±170 ms) and at least
    /// ``relativeFloor`` of the sound's level. An onset's time is where its rise began: where
    /// the function, going back from the peak, last crossed ``riseFraction`` of the peak's
    /// height over the mean (interpolated between hops). The flux peaks a hop or two after an
    /// attack starts; measured, on the shared 8-second drum loop (hits on an exact 0.25 s grid)
    /// the grid lands 1 ms from it, on a synthetic click track 9 ms early. The strength is
    /// the peak's height over the mean.
    package static func onsets(in novelty: [Float], levels: [Float], hopSeconds: Double, start: Double) -> [(time: Double, strength: Double)] {
        let n = novelty.map(Double.init)
        guard n.count > 7, let top = n.max(), top > 0 else { return [] }
        var prefix = [0.0]
        prefix.reserveCapacity(n.count + 1)
        for value in n { prefix.append(prefix.last! + value) }
        var result: [(time: Double, strength: Double)] = []
        for k in 3..<(n.count - 3) {
            let value = n[k]
            guard value > 1e-4 * top else { continue }
            var isPeak = true
            for other in (k - 3)...(k + 3) where other != k && (n[other] > value || (n[other] == value && other < k)) {
                isPeak = false
                break
            }
            guard isPeak else { continue }
            let low = max(0, k - 16), high = min(n.count, k + 17)
            let mean = (prefix[high] - prefix[low]) / Double(high - low)
            guard value > 1.5 * mean else { continue }
            // The flux against the sound's level over the window (4 hops): a drum hit changes
            // a good part of the spectrum, while a steady tone's flux is a ripple of a few
            // thousandths, which would otherwise make a fine periodic beat.
            var level = 0.0
            for hop in max(0, k - 3)...k where hop < levels.count { level += Double(levels[hop]) }
            guard value > relativeFloor * level else { continue }
            // Where the rise began: the last crossing of a fifth of the peak's height over the
            // mean on the way up, between hops (an attack is heard from its start, not its peak).
            let threshold = mean + riseFraction * (value - mean)
            var j = k
            while j > max(0, k - 4) && n[j - 1] >= threshold { j -= 1 }
            var rise = Double(j)
            if j > 0 && n[j - 1] < threshold && n[j] > n[j - 1] {
                rise = Double(j - 1) + (threshold - n[j - 1]) / (n[j] - n[j - 1])
            }
            result.append((start + rise * hopSeconds, value - mean))
        }
        return result
    }

    /// The grid, or nil when the profile has no steady beat.
    ///
    /// When the slower of two levels was chosen and has no grid that passes the check, the
    /// faster one is tried: a loop of a few seconds holds too few beats at the slower level
    /// (an amen break of 6.9 s: 8 beats at 70 BPM, 16 at 140).
    ///
    /// The grid's ``BeatGrid/accents`` are measured (``accents(of:in:)``), and, when the
    /// slower level is the beat, those of the faster one (``BeatGrid/fasterAccents``).
    package static func fit(_ profile: OnsetProfile) -> BeatGrid? {
        guard profile.onsets.count >= minimumBeats, let tempo = tempo(profile) else { return nil }
        var grid = fit(profile, tempo: tempo)
        if grid == nil, tempo.period > 1.5 * tempo.fast.period {
            grid = fit(profile, tempo: (tempo.fast.period, tempo.fast.phase, tempo.fast))
        }
        guard var grid else { return nil }
        grid.accents = accents(of: grid, in: profile)
        if grid.period > 1.5 * tempo.fast.period { grid.fasterAccents = accents(of: grid.halving(), in: profile) }
        return grid
    }

    /// A beat is weak when its strongest onset within ``hitTolerance`` is under this share of
    /// the median beat's (or it has none).
    package static let weakShare = 0.5

    /// How strongly each beat of the analysed part is heard: the strongest onset within
    /// ``hitTolerance`` of it, over the median beat's strongest onset (beats with none left out
    /// of the median); 0 for a beat with no onset near it. A beat under ``weakShare`` carries
    /// no attack a listener hears (a rest, a break, a held chord): ``BeatGrid/weakBeats``.
    ///
    /// The more strongly a beat is heard, the surer other trackers are of it: over the 138
    /// shows `make bench-audio` renders (6,217 beats after their first 3 s), the beats under
    /// half the median had a beat of aubio's or librosa's within 50 ms in 75% of cases, those
    /// near the median (0.9–1.2) in 84%, those at 1.6 times it or more in 98%.
    /// ``BeatCutPlanner`` prefers the strongly heard beats.
    package static func accents(of grid: BeatGrid, in profile: OnsetProfile) -> [Int: Double] {
        let end = profile.start + profile.duration
        let first = grid.beat(nearest: profile.start), last = grid.beat(nearest: end)
        guard last >= first else { return [:] }
        var strengths: [(index: Int, strength: Double)] = []
        var lower = 0
        for index in first...last {
            let time = grid.time(ofBeat: index)
            guard time >= profile.start, time <= end else { continue }
            while lower < profile.onsets.count && profile.onsets[lower].time < time - hitTolerance { lower += 1 }
            var strongest = 0.0, probe = lower
            while probe < profile.onsets.count && profile.onsets[probe].time <= time + hitTolerance {
                strongest = max(strongest, profile.onsets[probe].strength)
                probe += 1
            }
            strengths.append((index, strongest))
        }
        let heard = strengths.map(\.strength).filter { $0 > 0 }.sorted()
        guard !heard.isEmpty else { return Dictionary(uniqueKeysWithValues: strengths.map { ($0.index, 0) }) }
        let median = heard[heard.count / 2]
        return Dictionary(uniqueKeysWithValues: strengths.map { ($0.index, $0.strength / median) })
    }

    /// The grid at the tempo and phase chosen (and those of the faster level, where the beats are tracked).
    package static func fit(_ profile: OnsetProfile, tempo: (period: Double, phase: Double, fast: (period: Double, phase: Double))) -> BeatGrid? {
        // The tracker runs on the faster level, whose phase is the sure one; a slower beat keeps
        // every other tracked beat, those on its own grid.
        var beats = smooth(track(profile, period: tempo.fast.period), period: tempo.fast.period, onsets: profile.onsets)
        if tempo.period > 1.5 * tempo.fast.period {
            func offGrid(_ parity: Int) -> Double {
                var total = 0.0, count = 0.0
                for index in stride(from: parity, to: beats.count, by: 2) {
                    let beat = beats[index]
                    total += abs(beat - tempo.phase - ((beat - tempo.phase) / tempo.period).rounded() * tempo.period)
                    count += 1
                }
                return count > 0 ? total / count : .infinity
            }
            let parity = offGrid(0) <= offGrid(1) ? 0 : 1
            beats = stride(from: parity, to: beats.count, by: 2).map { beats[$0] }
        }
        var tracked: (beats: [Double], check: Check)?
        if beats.count >= 2, zip(beats, beats.dropFirst()).allSatisfy({ $0 < $1 }) {
            let check = evaluate(profile, beats: beats)
            if check.passes { tracked = (beats, check) }
        }
        // The straight line starts from the line through the tracked beats (over minutes, the
        // autocorrelation's period, a quarter hop at best, is too coarse to tell beat from beat
        // at the end), or from the tempo when they are too few.
        var start = (period: tempo.period, phase: tempo.phase)
        if beats.count >= minimumBeats, zip(beats, beats.dropFirst()).allSatisfy({ $0 < $1 }) {
            let through = BeatGrid(beats: beats, confidence: 0)
            if abs(through.period / tempo.period - 1) < 0.1 { start = (through.period, through.phase) }
        }
        let line = straightLine(profile, period: start.period, phase: start.phase)
        if let line, !(tracked.map { $0.check.residual < trackedResidualShare * line.confidenceResidual } ?? false) {
            return line.grid
        }
        if let tracked { return BeatGrid(beats: tracked.beats, confidence: tracked.check.confidence) }
        return nil
    }

    /// The straight grid through the onsets from a period and phase, when it passes its check,
    /// with its matched onsets' RMS distance.
    package static func straightLine(_ profile: OnsetProfile, period start: Double, phase startPhase: Double) -> (grid: BeatGrid, confidenceResidual: Double)? {
        var (period, phase) = (start, startPhase)
        for _ in 0..<3 {
            guard let refined = refine(profile.onsets, period: period, phase: phase) else { return nil }
            (period, phase) = refined
        }
        guard tempoRange.contains(60 / period) else { return nil }
        let check = evaluate(profile, period: period, phase: phase)
        guard check.passes else { return nil }
        // The fitted grid passed its check; a whole tempo near it replaces it when it passes too
        // (it is never what makes music without a steady beat pass).
        if let whole = wholeTempo(profile.onsets, period: period, phase: phase, span: profile.duration), tempoRange.contains(60 / whole.period) {
            let wholeCheck = evaluate(profile, period: whole.period, phase: whole.phase)
            if wholeCheck.passes {
                return (BeatGrid(period: whole.period, phase: whole.phase, confidence: wholeCheck.confidence), wholeCheck.residual)
            }
        }
        return (BeatGrid(period: period, phase: phase, confidence: check.confidence), check.residual)
    }

    /// The rises of the onset function: its local mean (±8 hops) removed, half-wave rectified.
    package static func rises(_ novelty: [Float]) -> [Double] {
        let raw = novelty.map(Double.init)
        let count = raw.count
        let half = 8
        var prefix = [0.0]
        prefix.reserveCapacity(count + 1)
        for value in raw { prefix.append(prefix.last! + value) }
        var rises = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let low = max(0, index - half), high = min(count, index + half + 1)
            let mean = (prefix[high] - prefix[low]) / Double(high - low)
            rises[index] = max(0, raw[index] - mean)
        }
        return rises
    }

    /// The autocorrelation of `signal` at lags 0 through `maxLag`, each divided by the number
    /// of products summed.
    package static func autocorrelation(_ signal: [Double], maxLag: Int) -> [Double] {
        let count = signal.count
        var result = [Double](repeating: 0, count: maxLag + 1)
        signal.withUnsafeBufferPointer { r in
            for lag in 0...maxLag where lag < count {
                var sum = 0.0
                for index in 0..<(count - lag) { sum += r[index] * r[index + lag] }
                result[lag] = sum / Double(count - lag)
            }
        }
        return result
    }

    /// A metrical family's score: the autocorrelation (linearly interpolated between lags) at
    /// half, one, two and four times `lag`.
    package static func familyScore(_ autocorrelation: [Double], lag: Double) -> Double {
        var score = 0.0
        for multiple in [0.5, 1, 2, 4] {
            let x = lag * multiple
            let index = Int(x)
            guard index >= 1, index + 1 < autocorrelation.count else { continue }
            let fraction = x - Double(index)
            score += autocorrelation[index] * (1 - fraction) + autocorrelation[index + 1] * fraction
        }
        return score
    }

    /// The beat period (seconds) and phase, and those of the family's faster level (the same
    /// when there is one level in range): the metrical family with the highest
    /// ``familyScore(_:lag:)``, then its level by ``octave(_:lag:)``; nil when the onset
    /// function is flat (silence, a steady tone) or no family stands out of it
    /// (``minimumFamilyContrast``: speech).
    package static func tempo(_ profile: OnsetProfile) -> (period: Double, phase: Double, fast: (period: Double, phase: Double))? {
        let hop = profile.hopSeconds
        let rises = rises(profile.novelty)
        guard rises.count > 32, rises.contains(where: { $0 > 0 }) else { return nil }
        let shortest = 60 / familyRange.upperBound / hop, longest = 60 / familyRange.lowerBound / hop
        let maxLag = Int((4 * longest).rounded(.up)) + 2
        guard maxLag < rises.count / 2 else { return nil }
        let correlation = autocorrelation(rises, maxLag: maxLag)
        var best = (lag: 0.0, score: 0.0)
        var scores: [Double] = []
        var lag = shortest
        while lag < longest {
            let score = familyScore(correlation, lag: lag)
            scores.append(score)
            if score > best.score { best = (lag, score) }
            lag += 0.25
        }
        scores.sort()
        guard best.score > 0, best.score >= minimumFamilyContrast * scores[scores.count / 2] else { return nil }
        return octave(profile, lag: best.lag)
    }

    /// The level of the family of `lag` (hops) that is the beat, with its phase.
    ///
    /// The family's levels inside ``levelRange`` are one or two (the range is under two
    /// octaves). The phase is found on the faster one (``bestPhase(_:period:)``); the slower
    /// one keeps every other of those beats (the stronger set), so it is always a subset of
    /// the faster one in phase, never its off-beats. The faster level is the beat when the
    /// beats the slower one would skip are about as strong as those it keeps (at least
    /// ``fasterShare``: snares on 2 and 4 against kicks on 1 and 3), or when they are at least
    /// ``fasterShareWhenClean`` as strong and the faster level's beats stand clear of their own
    /// subdivisions (the onsets halfway between them at most ``cleanHalfway`` as strong: a
    /// beat with little between its beats, as a drum part at 120 BPM with its eighths quiet).
    /// Otherwise, as between two equally plausible levels, the slower: cuts on it are on the
    /// faster level's beats too.
    ///
    /// Measured (share of the skipped beats, share of the faster level's halfway onsets): the
    /// shared drums and bass (0.59 to 0.74 and 0.29 to 0.31 over its parts) and its 8-second
    /// loop (0.90, 0.81) come out at 120 BPM; a tabla loop (0.73, 0.95) at 90, not 180; a band
    /// with a backbeat (0.75, 0.88) at 65, every other beat of 130. The limit: a kick on every
    /// beat with off-beat hats more than half as loud is a pulse at twice the tempo to this
    /// rule (as to most listeners), and is found there.
    package static func octave(_ profile: OnsetProfile, lag: Double) -> (period: Double, phase: Double, fast: (period: Double, phase: Double)) {
        var levels: [Double] = []
        for power in -3...3 {
            let period = lag * profile.hopSeconds * pow(2, Double(power))
            if levelRange.contains(60 / period) { levels.append(period) }
        }
        levels.sort()
        let fast = levels.first ?? lag * profile.hopSeconds
        let phase = bestPhase(profile.onsets, period: fast)
        guard levels.count > 1 else { return (fast, phase, (fast, phase)) }
        let slow = levels[1]
        let span = profile.start...(profile.start + profile.duration)
        let first = levelStrength(profile.onsets, period: slow, phase: phase, span: span)
        let second = levelStrength(profile.onsets, period: slow, phase: phase + fast, span: span)
        let (kept, skipped, slowPhase) = first >= second ? (first, second, phase) : (second, first, phase + fast)
        let skippedShare = kept > 0 ? skipped / kept : 1
        let on = levelStrength(profile.onsets, period: fast, phase: phase, span: span)
        let halfway = levelStrength(profile.onsets, period: fast, phase: phase + fast / 2, span: span)
        let halfwayShare = on > 0 ? halfway / on : 1
        if skippedShare >= fasterShare || (skippedShare >= fasterShareWhenClean && halfwayShare <= cleanHalfway) {
            return (fast, phase, (fast, phase))
        }
        let reduced = slowPhase.truncatingRemainder(dividingBy: slow)
        return (slow, reduced < 0 ? reduced + slow : reduced, (fast, phase))
    }

    /// The mean, over the beats of a grid within `span`, of the strongest onset within ±70 ms
    /// (at most a sixth of a period) of each (0 for a beat with none).
    package static func levelStrength(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double, span: ClosedRange<Double>) -> Double {
        let window = min(0.07, period / 6)
        let first = Int(((span.lowerBound - phase) / period).rounded(.up))
        let last = Int(((span.upperBound - phase) / period).rounded(.down))
        guard last >= first else { return 0 }
        var total = 0.0
        var lower = 0
        for index in first...last {
            let beat = phase + Double(index) * period
            while lower < onsets.count && onsets[lower].time < beat - window { lower += 1 }
            var strongest = 0.0
            var probe = lower
            while probe < onsets.count && onsets[probe].time <= beat + window {
                strongest = max(strongest, onsets[probe].strength)
                probe += 1
            }
            total += strongest
        }
        return total / Double(last - first + 1)
    }

    /// How tightly the tracker keeps the period: the cost of a beat interval `t` against the
    /// period `p` is `tightness × log(t / p)²`, in units of the onset train's standard
    /// deviation. High enough that a steady song's beats stay on its line (one hop off a
    /// 0.5 s beat costs a fifth of a typical onset) while a tempo that drifts a few percent
    /// over many beats is followed.
    package static let tightness = 400.0

    /// Ellis's dynamic-programming beat tracker ("Beat tracking by dynamic programming", 2007)
    /// on the onsets (each one's strength at its rise's hop): the beats, music time, that
    /// maximise the onsets' strength under them less the cost of each interval's departure
    /// from `period`. Empty when there are no onsets.
    package static func track(_ profile: OnsetProfile, period: Double) -> [Double] {
        let hop = profile.hopSeconds
        let count = profile.novelty.count
        let periodHops = period / hop
        guard count > 0, periodHops >= 2 else { return [] }
        var train = [Double](repeating: 0, count: count)
        for onset in profile.onsets {
            let k = Int(((onset.time - profile.start) / hop).rounded())
            if k >= 0 && k < count { train[k] += onset.strength }
        }
        let mean = train.reduce(0, +) / Double(count)
        let deviation = (train.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(count)).squareRoot()
        guard deviation > 0 else { return [] }
        for k in 0..<count { train[k] /= deviation }
        let shortest = max(1, Int((periodHops / 2).rounded())), longest = Int((2 * periodHops).rounded())
        let penalty = (shortest...longest).map { -tightness * pow(log(Double($0) / periodHops), 2) }
        var score = train
        var previous = [Int](repeating: -1, count: count)
        score.withUnsafeMutableBufferPointer { score in
            for t in shortest..<count {
                var best = -Double.infinity, from = -1
                for offset in shortest...min(longest, t) {
                    let candidate = score[t - offset] + penalty[offset - shortest]
                    if candidate > best { best = candidate; from = t - offset }
                }
                if best > 0 {
                    score[t] += best
                    previous[t] = from
                }
            }
        }
        // The last beat: the best score in the last period; then back through the chain.
        let tail = max(0, count - Int(periodHops.rounded()))
        var t = tail
        for k in tail..<count where score[k] > score[t] { t = k }
        var beats: [Double] = []
        while t >= 0 {
            beats.append(profile.start + Double(t) * hop)
            t = previous[t]
        }
        return beats.reversed()
    }

    /// Beats from the tracker made smooth: each beat's onset (as ``beatOnsets(_:period:beats:)``
    /// picks it) and those of its four neighbours on either side, a least-squares line through
    /// (beat, onset time), and the beat where that line puts it (the tracked time when fewer
    /// than three of them have an onset). A beat lands on the attacks around it, not on the
    /// hop the tracker chose, and one late or early note moves it little.
    package static func smooth(_ beats: [Double], period: Double, onsets: [(time: Double, strength: Double)]) -> [Double] {
        let picked = beatOnsets(onsets, period: period, beats: beats)
        let reach = 4
        return beats.indices.map { index in
            var (n, sx, sy, sxx, sxy) = (0.0, 0.0, 0.0, 0.0, 0.0)
            for other in max(0, index - reach)...min(beats.count - 1, index + reach) {
                guard let time = picked[other] else { continue }
                let x = Double(other - index)
                n += 1; sx += x; sy += time; sxx += x * x; sxy += x * time
            }
            let determinant = n * sxx - sx * sx
            guard n >= 3, determinant > 0 else { return beats[index] }
            let slope = (n * sxy - sx * sy) / determinant
            return (sy - slope * sx) / n
        }
    }

    /// Each beat's onset: within ±70 ms (at most a sixth of a period), the earliest at least
    /// half as strong as the strongest there; nil where there is none.
    package static func beatOnsets(_ onsets: [(time: Double, strength: Double)], period: Double, beats: [Double]) -> [Double?] {
        let window = min(0.07, period / 6)
        var lower = 0
        return beats.map { beat in
            while lower < onsets.count && onsets[lower].time < beat - window { lower += 1 }
            var upper = lower
            var strongest = 0.0
            while upper < onsets.count && onsets[upper].time <= beat + window {
                strongest = max(strongest, onsets[upper].strength)
                upper += 1
            }
            guard upper > lower else { return nil }
            return onsets[lower..<upper].first { $0.strength >= strongest / 2 }!.time
        }
    }

    /// The largest drift, over the analysed part, between the fitted period and a whole tempo
    /// it is moved to: 80 ms from the first beat to the last.
    package static let wholeTempoDrift = 0.08
    /// How well a whole tempo must hold the onsets, against the fitted period: 90% of its score
    /// (``bestPhase(_:period:)``'s).
    package static let wholeTempoScore = 0.9

    /// The period and phase of a whole tempo in beats per minute near the fitted one, when one
    /// holds the onsets about as well; nil to keep the fit.
    ///
    /// Music made on a computer or to a click has a whole tempo (120, 105 BPM), and the shared
    /// music does. The line through the onsets (``refine(_:period:phase:)``) follows where the
    /// strongest onsets lean over the part analysed: a bass line that plays ahead of the beat
    /// in one bar and behind it in the next, on the shared 120 BPM drums and bass, gives
    /// 119.6 BPM over its first 20 s, 0.3% slow, which moves the grid 50 ms from the beat by
    /// its end. So the whole tempi on either side are tried: one is taken when moving to it
    /// drifts at most ``wholeTempoDrift`` over the part (the two grids agree, within the
    /// tolerance the fit itself has) and it scores at least ``wholeTempoScore`` of the fitted
    /// period. Its grid is laid through the fitted beat nearest the middle of the onsets, its
    /// phase looked for within 40 ms of there (scanned over the whole period, it could land on
    /// the off-beats of a slower level: measured on a backbeat at 65 BPM, a quarter of the
    /// way between beats), and fitted again to the onsets with the period held
    /// (``refinePhase(_:period:phase:)``).
    package static func wholeTempo(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double, span: Double) -> (period: Double, phase: Double)? {
        guard let firstOnset = onsets.first, let lastOnset = onsets.last else { return nil }
        let bpm = 60 / period
        // The beat nearest the middle of the onsets: the whole tempo's grid is laid through it, and
        // its phase is looked for within 40 ms of there (a grid that agrees with the fitted one,
        // not one on its off-beats).
        let middle = Int((((firstOnset.time + lastOnset.time) / 2 - phase) / period).rounded())
        let anchor = phase + Double(middle) * period
        let fitted = bestPhase(scoring: onsets, period: period, near: phase, within: 0.04).score
        guard fitted > 0 else { return nil }
        var best: (period: Double, phase: Double, score: Double)?
        for whole in Set([bpm.rounded(.down), bpm.rounded(.up)]) where whole > 0 {
            let candidate = 60 / whole
            guard span * abs(1 - candidate / period) <= wholeTempoDrift else { continue }
            let (phase, score) = bestPhase(scoring: onsets, period: candidate, near: anchor - Double(middle) * candidate, within: 0.04)
            if score >= wholeTempoScore * fitted, score > best?.score ?? -1 { best = (candidate, phase, score) }
        }
        guard let best else { return nil }
        var phase = best.phase
        for _ in 0..<3 { phase = refinePhase(onsets, period: best.period, phase: phase) ?? phase }
        return (best.period, phase)
    }

    /// The offset within `within` seconds of `near` (2 ms steps) where the onsets, weighted by
    /// strength, sit closest to the beats, and its score (as ``bestPhase(scoring:period:)``).
    package static func bestPhase(scoring onsets: [(time: Double, strength: Double)], period: Double, near: Double, within: Double) -> (phase: Double, score: Double) {
        let steps = Int((within / 0.002).rounded())
        var best = (phase: near, score: -1.0)
        for step in -steps...steps {
            let phase = near + Double(step) * 0.002
            let score = phaseScore(onsets, period: period, phase: phase)
            if score > best.score { best = (phase, score) }
        }
        return best
    }

    /// The onsets' strengths, each weighted by a 20 ms Gaussian of its distance to the nearest beat.
    package static func phaseScore(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double) -> Double {
        let sigma = 0.02
        var score = 0.0
        for onset in onsets {
            var distance = (onset.time - phase).truncatingRemainder(dividingBy: period)
            if distance < 0 { distance += period }
            if distance > period / 2 { distance -= period }
            score += onset.strength * exp(-distance * distance / (2 * sigma * sigma))
        }
        return score
    }

    /// The offset in `0 ..< period` where the onsets, weighted by strength, sit closest to the beats.
    package static func bestPhase(_ onsets: [(time: Double, strength: Double)], period: Double) -> Double {
        bestPhase(scoring: onsets, period: period).phase
    }

    /// The best offset in `0 ..< period` and its score: the onsets' strengths, each weighted by
    /// a 20 ms Gaussian of its distance to the nearest beat (2 ms steps).
    package static func bestPhase(scoring onsets: [(time: Double, strength: Double)], period: Double) -> (phase: Double, score: Double) {
        let steps = max(1, Int(period / 0.002))
        var best = (phase: 0.0, score: -1.0)
        for step in 0..<steps {
            let phase = Double(step) * period / Double(steps)
            let score = phaseScore(onsets, period: period, phase: phase)
            if score > best.score { best = (phase, score) }
        }
        return best
    }

    /// One round of refinement: one onset for each beat, then a weighted least-squares line
    /// through (beat index, time). Nil when fewer than two beats match.
    ///
    /// A beat's onset is the earliest within the window that is at least half as strong as the
    /// strongest there: a flam or a kick with a bass note just after it is heard from its first
    /// attack, so the grid goes there rather than to the louder second hit.
    package static func refine(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double) -> (period: Double, phase: Double)? {
        let near = beatOnsets(onsets, period: period, phase: phase)
        guard near.count >= 2 else { return nil }
        var (sw, sx, sy, sxx, sxy) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for (index, onset) in near {
            let (w, x, y) = (onset.strength, Double(index), onset.time)
            sw += w; sx += w * x; sy += w * y; sxx += w * x * x; sxy += w * x * y
        }
        let determinant = sw * sxx - sx * sx
        guard determinant > 0 else { return nil }
        let slope = (sw * sxy - sx * sy) / determinant
        let intercept = (sy - slope * sx) / sw
        guard slope > 0 else { return nil }
        return (slope, intercept)
    }

    /// The phase alone fitted again with the period held: the mean distance of each beat's
    /// onset (as ``refine(_:period:phase:)`` picks it) added to `phase`; nil when no beat has one.
    ///
    /// Every beat counts once, however loud: on the shared drums and bass, a few loud bass notes
    /// played late would otherwise pull the grid 5 ms later (measured against aubio's tracker,
    /// one beat in 40 more within 50 ms with equal weights).
    package static func refinePhase(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double) -> Double? {
        let picked = beatOnsets(onsets, period: period, phase: phase)
        guard !picked.isEmpty else { return nil }
        let moves = picked.reduce(0.0) { $0 + $1.onset.time - (phase + Double($1.index) * period) }
        return phase + moves / Double(picked.count)
    }

    /// Each beat's onset: within ±70 ms (at most a sixth of a period) of the beat, the earliest
    /// at least half as strong as the strongest there; in beat order (so that sums over them
    /// come out the same in every run, whatever a dictionary's order).
    package static func beatOnsets(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double) -> [(index: Int, onset: (time: Double, strength: Double))] {
        let window = min(0.07, period / 6)
        var near: [Int: [(time: Double, strength: Double)]] = [:]
        for onset in onsets {
            let index = Int(((onset.time - phase) / period).rounded())
            let distance = onset.time - (phase + Double(index) * period)
            guard abs(distance) <= window else { continue }
            near[index, default: []].append(onset)
        }
        return near.keys.sorted().map { index in
            let candidates = near[index]!
            let strongest = candidates.map(\.strength).max()!
            return (index, candidates.first { $0.strength >= strongest / 2 }!)
        }
    }

    /// A grid's check: chance-corrected hit rate, beats matched, the RMS distance of the matched onsets.
    package struct Check {
        package var confidence: Double
        package var matched: Int
        package var residual: Double
        /// Whether it is a steady beat (``minimumConfidence``, ``minimumBeats``, ``maximumResidual``).
        package var passes: Bool { matched >= minimumBeats && residual <= maximumResidual && confidence >= minimumConfidence }
    }

    /// The straight grid's check over the analysed part.
    package static func evaluate(_ profile: OnsetProfile, period: Double, phase: Double) -> Check {
        let end = profile.start + profile.duration
        let first = Int(((profile.start - phase) / period).rounded(.up))
        let last = Int(((end - phase) / period).rounded(.down))
        guard last >= first else { return Check(confidence: 0, matched: 0, residual: .infinity) }
        return evaluate(profile, beats: (first...last).map { phase + Double($0) * period })
    }

    /// The check of the beats `beats` (in order): the share with an onset within 50 ms, against
    /// the share onsets at random times would hit; the beats matched; the matched onsets' RMS distance.
    package static func evaluate(_ profile: OnsetProfile, beats: [Double]) -> Check {
        guard !beats.isEmpty else { return Check(confidence: 0, matched: 0, residual: .infinity) }
        let times = profile.onsets.map(\.time)
        var hits = 0
        var squares = 0.0
        var lower = 0
        for beat in beats {
            while lower < times.count && times[lower] < beat - hitTolerance { lower += 1 }
            var nearest = Double.infinity
            var probe = lower
            while probe < times.count && times[probe] <= beat + hitTolerance {
                nearest = min(nearest, abs(times[probe] - beat))
                probe += 1
            }
            if nearest.isFinite {
                hits += 1
                squares += nearest * nearest
            }
        }
        let rate = Double(times.count) / max(profile.duration, 1e-9)
        let chance = 1 - exp(-rate * 2 * hitTolerance)
        let hitRate = Double(hits) / Double(beats.count)
        let confidence = chance < 1 ? max(0, min(1, (hitRate - chance) / (1 - chance))) : 0
        return Check(confidence: confidence, matched: hits, residual: hits > 0 ? (squares / Double(hits)).squareRoot() : .infinity)
    }
}
