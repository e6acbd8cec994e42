/// The beat found in a piece of music, in music time (seconds from the start of the audio file,
/// not of the show): the beats as tracked through the part analysed, carried on at the mean
/// ``period`` before and after it.
///
/// A straight grid (no tracked beats) has beat k at `phase + k × period`; k = 0 is the first
/// beat at or after the file's start. With tracked beats (``init(beats:confidence:)``), which
/// follow a live recording's drift, beat k is the tracked beat of that index (the index the
/// straight line through them gives), and the line's beats outside them go on from the first
/// and the last tracked beat a period at a time. ``BeatAnalysis`` finds it; ``BeatCutPlanner``
/// lays the show's cuts on it.
public struct BeatGrid: Sendable, Hashable, CustomStringConvertible {
    /// Seconds from one beat to the next (the mean, for tracked beats).
    public var period: Double
    /// The music time of beat 0, in `0 ..< period` seconds.
    public var phase: Double
    /// How well the grid matches the music, 0 (chance) to 1 (every beat has an onset on it):
    /// the share of the grid's beats with an onset within 50 ms, corrected for the hits that
    /// onsets at random times would score.
    public var confidence: Double
    /// The tracked beats, in order, music time; empty for a straight grid.
    public private(set) var tracked: [Double] = []
    /// The index of `tracked[0]`.
    public private(set) var firstTracked = 0
    /// How strongly each beat of the part analysed is heard, by index: its strongest onset
    /// within 50 ms over the median beat's (0 when nothing is heard on it; 2 for a hit twice
    /// as strong as the median beat's). ``BeatGridFit/accents(of:in:)`` finds them;
    /// ``BeatCutPlanner`` prefers the strongly heard beats. Empty when unknown.
    public package(set) var accents: [Int: Double] = [:]
    /// The accents of the level at half the period (``halved()``), when that level is one of
    /// the music's: the faster of two levels, the slower chosen as the beat
    /// (``BeatGridFit/octave(_:lag:)``); nil when it is not (the beat is the faster level, or
    /// the only one in range).
    package var fasterAccents: [Int: Double]?

    /// The beats of the part analysed that carry no attack: no onset on them, or one under
    /// half the median beat's (``BeatGridFit/weakShare``), by index.
    public var weakBeats: Set<Int> { Set(accents.filter { $0.value < BeatGridFit.weakShare }.keys) }

    /// Creates a straight grid; the phase is brought into `0 ..< period`.
    public init(period: Double, phase: Double, confidence: Double) {
        precondition(period > 0 && period.isFinite, "a beat period is positive")
        self.period = period
        let reduced = phase.truncatingRemainder(dividingBy: period)
        self.phase = reduced < 0 ? reduced + period : reduced
        self.confidence = confidence
    }

    /// Creates a grid from tracked beats (at least two, increasing): the period and phase of
    /// the least-squares line through them, each beat's index from that line.
    public init(beats: [Double], confidence: Double) {
        precondition(beats.count >= 2 && zip(beats, beats.dropFirst()).allSatisfy { $0 < $1 }, "two or more beats, in order")
        let count = Double(beats.count)
        let meanIndex = (count - 1) / 2
        let meanTime = beats.reduce(0, +) / count
        var covariance = 0.0, variance = 0.0
        for (index, time) in beats.enumerated() {
            covariance += (Double(index) - meanIndex) * (time - meanTime)
            variance += (Double(index) - meanIndex) * (Double(index) - meanIndex)
        }
        let period = covariance / variance
        self.init(period: period, phase: meanTime - meanIndex * period, confidence: confidence)
        firstTracked = Int(((beats[0] - phase) / period).rounded())
        tracked = beats
    }

    /// The level at half the period, on which ``BeatCutPlanner`` places the cuts when this one
    /// has no placement: beat 2k or 2k + 1 is this grid's beat k, and the beats between lie
    /// halfway from one beat to the next. Nil when that level is not the music's
    /// (``fasterAccents``).
    package func halved() -> BeatGrid? {
        guard let accents = fasterAccents else { return nil }
        var grid = halving()
        grid.accents = accents
        return grid
    }

    /// ``halved()`` without its accents, for ``BeatGridFit`` to find them on.
    package func halving() -> BeatGrid {
        guard tracked.count >= 2 else { return BeatGrid(period: period / 2, phase: phase, confidence: confidence) }
        var beats: [Double] = []
        for (beat, next) in zip(tracked, tracked.dropFirst()) { beats += [beat, (beat + next) / 2] }
        return BeatGrid(beats: beats + [tracked.last!], confidence: confidence)
    }

    /// The tempo in beats per minute.
    public var beatsPerMinute: Double { 60 / period }

    /// The music time of beat `index`.
    public func time(ofBeat index: Int) -> Double {
        guard let first = tracked.first, let last = tracked.last else { return phase + Double(index) * period }
        let position = index - firstTracked
        if position < 0 { return first + Double(position) * period }
        if position >= tracked.count { return last + Double(position - tracked.count + 1) * period }
        return tracked[position]
    }

    /// The index of the beat nearest music time `seconds`.
    public func beat(nearest seconds: Double) -> Int {
        guard let first = tracked.first, let last = tracked.last else { return Int(((seconds - phase) / period).rounded()) }
        if seconds <= first { return firstTracked + Int(((seconds - first) / period).rounded()) }
        if seconds >= last { return firstTracked + tracked.count - 1 + Int(((seconds - last) / period).rounded()) }
        // The first tracked beat after `seconds`, and the one before it.
        var low = 0, high = tracked.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if tracked[middle] <= seconds { low = middle } else { high = middle }
        }
        return firstTracked + (seconds - tracked[low] <= tracked[high] - seconds ? low : high)
    }

    /// `120.0 BPM, beat at 0.043 s, confidence 0.91`.
    public var description: String {
        "\((beatsPerMinute * 10).rounded() / 10) BPM, beat at \((phase * 1000).rounded() / 1000) s, confidence \((confidence * 100).rounded() / 100)"
    }
}
