import Foundation

/// What the onset detector found in the part of the music analysed: the onset function hop
/// by hop, and the onsets with their strengths. Music time throughout.
struct OnsetProfile: Sendable {
    /// Seconds per hop of ``novelty``.
    var hopSeconds: Double
    /// The music time of the first sample analysed.
    var start: Double
    /// Seconds analysed.
    var duration: Double
    /// aubio's onset function (spectral flux), one value per hop.
    var novelty: [Float]
    /// Onsets: music time and strength (the onset function's peak near it).
    var onsets: [(time: Double, strength: Double)]
}

/// Fits a steady beat grid to an ``OnsetProfile``, and checks it.
///
/// Beat trackers that follow the music as it plays lock onto 2:1 and 3:2 wrong tempi on
/// syncopated music and need seconds to settle; this fit looks at the whole part at once:
///
/// 1. **Tempo**: the autocorrelation of the onset function (its local mean removed, half-wave
///    rectified) over lags of 50 to 220 BPM, weighted by a log-normal preference centred on
///    120 BPM, one octave wide (the weighting Ellis's and librosa's trackers use): of a
///    piece's metrical levels (beat, half beat, bar) the one nearest a walking pace wins.
/// 2. **Phase**: the grid offset where the onsets, weighted by strength, sit closest to
///    the beats (a 20 ms Gaussian kernel, scanned in 2 ms steps over one period).
/// 3. **Refinement**: each beat takes the first onset within ±70 ms (at most a sixth of a
///    period) that is at least half as strong as the strongest there; a weighted
///    least-squares line through (beat index, onset time) gives the period and phase; three rounds.
/// 4. **Whole tempo**: the whole BPM on either side of the fit replaces it when it holds the
///    onsets about as well and drifts from it at most 80 ms over the part
///    (``wholeTempo(_:period:span:)``), its phase fitted again; it must pass the check too.
/// 5. **Check**: the share of the grid's beats with an onset within 50 ms, against the share
///    onsets at random times would hit (1 − e^(−rate × 0.1 s)). The grid is kept when that
///    chance-corrected hit rate is at least ``minimumConfidence``, at least
///    ``minimumBeats`` beats were matched, and the matched onsets sit within
///    ``maximumResidual`` of the grid (RMS): a steady beat, not a tempo that drifts.
enum BeatGridFit {
    /// The slowest and fastest tempi considered.
    static let tempoRange = 50.0...220.0
    /// The lowest chance-corrected hit rate of a steady beat (the shared music scores 0.9 to 1,
    /// spoken passages made with espeak-ng under 0.5).
    static let minimumConfidence = 0.7
    /// The fewest beats matched by an onset.
    static let minimumBeats = 8
    /// The largest RMS distance of matched onsets from the grid.
    static let maximumResidual = 0.035
    /// The height, as a share of the peak over the local mean, where a rise is taken to begin.
    static let riseFraction = 0.2
    /// The smallest onset: its flux against the level of the sound in its window.
    static let relativeFloor = 0.01
    /// An onset "on" a beat: within this many seconds.
    static let hitTolerance = 0.05

    /// The onsets in an onset function: its peaks (the largest value within ±3 hops, ±32 ms)
    /// that stand at least 1.5 times over its mean within ±16 hops (±170 ms) and at least
    /// ``relativeFloor`` of the sound's level. An onset's time is where its rise began: where
    /// the function, going back from the peak, last crossed ``riseFraction`` of the peak's
    /// height over the mean (interpolated between hops). The flux peaks a hop or two after an
    /// attack starts; measured, on the shared 8-second drum loop (hits on an exact 0.25 s grid)
    /// the grid lands 1 ms from it, on a synthetic click track 9 ms early. The strength is
    /// the peak's height over the mean.
    static func onsets(in novelty: [Float], levels: [Float], hopSeconds: Double, start: Double) -> [(time: Double, strength: Double)] {
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
    static func fit(_ profile: OnsetProfile) -> BeatGrid? {
        guard profile.onsets.count >= minimumBeats, let lag = tempoLag(profile) else { return nil }
        var period = lag * profile.hopSeconds
        var phase = bestPhase(profile.onsets, period: period)
        for _ in 0..<3 {
            guard let refined = refine(profile.onsets, period: period, phase: phase) else { return nil }
            (period, phase) = refined
        }
        guard tempoRange.contains(60 / period) else { return nil }
        let check = evaluate(profile, period: period, phase: phase)
        guard check.matched >= minimumBeats, check.residual <= maximumResidual, check.confidence >= minimumConfidence else { return nil }
        // The fitted grid passed its check; a whole tempo near it replaces it when it passes too
        // (it is never what makes music without a steady beat pass).
        if let whole = wholeTempo(profile.onsets, period: period, span: profile.duration), tempoRange.contains(60 / whole.period) {
            let wholeCheck = evaluate(profile, period: whole.period, phase: whole.phase)
            if wholeCheck.matched >= minimumBeats, wholeCheck.residual <= maximumResidual, wholeCheck.confidence >= minimumConfidence {
                return BeatGrid(period: whole.period, phase: whole.phase, confidence: wholeCheck.confidence)
            }
        }
        return BeatGrid(period: period, phase: phase, confidence: check.confidence)
    }

    /// The beat period in hops (fractional) from the weighted autocorrelation; nil when the
    /// onset function is flat (silence, a steady tone).
    static func tempoLag(_ profile: OnsetProfile) -> Double? {
        let raw = profile.novelty.map(Double.init)
        let count = raw.count
        let half = 8
        guard count > 4 * half else { return nil }
        // Local mean removed, half-wave rectified: the rises of the onset function.
        var prefix = [0.0]
        prefix.reserveCapacity(count + 1)
        for value in raw { prefix.append(prefix.last! + value) }
        var rises = [Double](repeating: 0, count: count)
        for index in 0..<count {
            let low = max(0, index - half), high = min(count, index + half + 1)
            let mean = (prefix[high] - prefix[low]) / Double(high - low)
            rises[index] = max(0, raw[index] - mean)
        }
        guard rises.contains(where: { $0 > 0 }) else { return nil }
        let minLag = max(2, Int((60 / tempoRange.upperBound / profile.hopSeconds).rounded(.down)))
        let maxLag = min(count / 2, Int((60 / tempoRange.lowerBound / profile.hopSeconds).rounded(.up)))
        guard maxLag > minLag + 2 else { return nil }
        var scores = [Double](repeating: 0, count: maxLag + 2)
        rises.withUnsafeBufferPointer { r in
            for lag in (minLag - 1)...(maxLag + 1) {
                var sum = 0.0
                for index in 0..<(count - lag) { sum += r[index] * r[index + lag] }
                let bpm = 60 / (Double(lag) * profile.hopSeconds)
                let octaves = log2(bpm / 120)
                scores[lag] = sum / Double(count - lag) * exp(-0.5 * octaves * octaves)
            }
        }
        var best = minLag
        for lag in minLag...maxLag where scores[lag] > scores[best] { best = lag }
        guard scores[best] > 0 else { return nil }
        // Parabolic interpolation between the neighbouring lags.
        let (a, b, c) = (scores[best - 1], scores[best], scores[best + 1])
        let denominator = a - 2 * b + c
        let shift = denominator < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / denominator)) : 0
        return Double(best) + shift
    }

    /// The largest drift, over the analysed part, between the fitted period and a whole tempo
    /// it is moved to: 80 ms from the first beat to the last.
    static let wholeTempoDrift = 0.08
    /// How well a whole tempo must hold the onsets, against the fitted period: 90% of its score
    /// (``bestPhase(_:period:)``'s).
    static let wholeTempoScore = 0.9

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
    /// period; its phase is then fitted again to the onsets with the period held
    /// (``refinePhase(_:period:phase:)``).
    static func wholeTempo(_ onsets: [(time: Double, strength: Double)], period: Double, span: Double) -> (period: Double, phase: Double)? {
        let bpm = 60 / period
        let fitted = bestPhase(scoring: onsets, period: period).score
        guard fitted > 0 else { return nil }
        var best: (period: Double, phase: Double, score: Double)?
        for whole in Set([bpm.rounded(.down), bpm.rounded(.up)]) where whole > 0 {
            let candidate = 60 / whole
            guard span * abs(1 - candidate / period) <= wholeTempoDrift else { continue }
            let (phase, score) = bestPhase(scoring: onsets, period: candidate)
            if score >= wholeTempoScore * fitted, score > best?.score ?? -1 { best = (candidate, phase, score) }
        }
        guard let best else { return nil }
        var phase = best.phase
        for _ in 0..<3 { phase = refinePhase(onsets, period: best.period, phase: phase) ?? phase }
        return (best.period, phase)
    }

    /// The offset in `0 ..< period` where the onsets, weighted by strength, sit closest to the beats.
    static func bestPhase(_ onsets: [(time: Double, strength: Double)], period: Double) -> Double {
        bestPhase(scoring: onsets, period: period).phase
    }

    /// The best offset in `0 ..< period` and its score: the onsets' strengths, each weighted by
    /// a 20 ms Gaussian of its distance to the nearest beat (2 ms steps).
    static func bestPhase(scoring onsets: [(time: Double, strength: Double)], period: Double) -> (phase: Double, score: Double) {
        let sigma = 0.02
        let steps = max(1, Int(period / 0.002))
        var best = (phase: 0.0, score: -1.0)
        for step in 0..<steps {
            let phase = Double(step) * period / Double(steps)
            var score = 0.0
            for onset in onsets {
                var distance = (onset.time - phase).truncatingRemainder(dividingBy: period)
                if distance < 0 { distance += period }
                if distance > period / 2 { distance -= period }
                score += onset.strength * exp(-distance * distance / (2 * sigma * sigma))
            }
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
    static func refine(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double) -> (period: Double, phase: Double)? {
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
    static func refinePhase(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double) -> Double? {
        let picked = beatOnsets(onsets, period: period, phase: phase)
        guard !picked.isEmpty else { return nil }
        let moves = picked.reduce(0.0) { $0 + $1.onset.time - (phase + Double($1.index) * period) }
        return phase + moves / Double(picked.count)
    }

    /// Each beat's onset: within ±70 ms (at most a sixth of a period) of the beat, the earliest
    /// at least half as strong as the strongest there; in beat order (so that sums over them
    /// come out the same in every run, whatever a dictionary's order).
    static func beatOnsets(_ onsets: [(time: Double, strength: Double)], period: Double, phase: Double) -> [(index: Int, onset: (time: Double, strength: Double))] {
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

    /// The grid's check over the analysed part: chance-corrected hit rate, beats matched,
    /// and the RMS distance of the matched onsets.
    static func evaluate(_ profile: OnsetProfile, period: Double, phase: Double) -> (confidence: Double, matched: Int, residual: Double) {
        let end = profile.start + profile.duration
        let first = Int(((profile.start - phase) / period).rounded(.up))
        let last = Int(((end - phase) / period).rounded(.down))
        guard last >= first else { return (0, 0, .infinity) }
        let times = profile.onsets.map(\.time)
        var hits = 0
        var squares = 0.0
        var lower = 0
        for index in first...last {
            let beat = phase + Double(index) * period
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
        let beats = Double(last - first + 1)
        let rate = Double(times.count) / max(profile.duration, 1e-9)
        let chance = 1 - exp(-rate * 2 * hitTolerance)
        let hitRate = Double(hits) / beats
        let confidence = chance < 1 ? max(0, min(1, (hitRate - chance) / (1 - chance))) : 0
        return (confidence, hits, hits > 0 ? (squares / Double(hits)).squareRoot() : .infinity)
    }
}
