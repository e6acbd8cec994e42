/// A steady beat found in a piece of music: a beat every ``period`` seconds, one of them at
/// ``phase``, in music time (seconds from the start of the audio file, not of the show).
///
/// Beat k lies at `phase + k × period`; k = 0 is the first beat at or after the file's start.
/// ``BeatAnalysis`` fits it to aubio's onsets; ``BeatCutPlanner`` lays the show's cuts on it.
public struct BeatGrid: Sendable, Hashable, CustomStringConvertible {
    /// Seconds from one beat to the next.
    public var period: Double
    /// The music time of beat 0, in `0 ..< period` seconds.
    public var phase: Double
    /// How well the grid matches the music, 0 (chance) to 1 (every beat has an onset on it):
    /// the share of the grid's beats with an onset within 50 ms, corrected for the hits that
    /// onsets at random times would score.
    public var confidence: Double

    /// Creates a grid; the phase is brought into `0 ..< period`.
    public init(period: Double, phase: Double, confidence: Double) {
        precondition(period > 0 && period.isFinite, "a beat period is positive")
        self.period = period
        let reduced = phase.truncatingRemainder(dividingBy: period)
        self.phase = reduced < 0 ? reduced + period : reduced
        self.confidence = confidence
    }

    /// The tempo in beats per minute.
    public var beatsPerMinute: Double { 60 / period }

    /// The music time of beat `index`.
    public func time(ofBeat index: Int) -> Double { phase + Double(index) * period }

    /// The index of the beat nearest music time `seconds`.
    public func beat(nearest seconds: Double) -> Int { Int(((seconds - phase) / period).rounded()) }

    /// `120.0 BPM, beat at 0.043 s, confidence 0.91`.
    public var description: String {
        "\((beatsPerMinute * 10).rounded() / 10) BPM, beat at \((phase * 1000).rounded() / 1000) s, confidence \((confidence * 100).rounded() / 100)"
    }
}
