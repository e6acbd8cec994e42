import Testing
@testable import SlideshowKit

/// The grid fit on synthetic onset functions: the tempo level a listener taps, not the 2:1 or
/// 3:2 one a syncopated pattern suggests, and no grid where the hits do not keep time.
@Suite struct BeatGridFitTests {
    static let hop = 128.0 / 12_000

    /// An onset function of `seconds` with a spike (a rise over two hops) at each hit.
    private func profile(_ hits: [(time: Double, strength: Float)], seconds: Double) -> OnsetProfile {
        let count = Int(seconds / Self.hop)
        var novelty = [Float](repeating: 0.001, count: count)
        for hit in hits {
            let k = Int((hit.time / Self.hop).rounded())
            guard k + 1 < count else { continue }
            novelty[k] = max(novelty[k], hit.strength)
            novelty[k + 1] = max(novelty[k + 1], hit.strength * 0.4)
        }
        let levels = [Float](repeating: 1, count: count)
        return OnsetProfile(hopSeconds: Self.hop, start: 0, duration: seconds, novelty: novelty,
                            onsets: BeatGridFit.onsets(in: novelty, levels: levels, hopSeconds: Self.hop, start: 0))
    }

    /// Kicks on the beat at 100 BPM and hi-hats, almost as loud, on every eighth: the eighths
    /// (200 BPM, 2:1) are in range, but the beat is 0.6 s.
    @Test func eighthNoteHatsDoNotDoubleTheTempo() throws {
        let kicks = stride(from: 0.1, to: 20, by: 0.6).map { (time: $0, strength: Float(1)) }
        let hats = stride(from: 0.4, to: 20, by: 0.6).map { (time: $0, strength: Float(0.8)) }
        let grid = try #require(BeatGridFit.fit(profile(kicks + hats, seconds: 20)))
        #expect(abs(grid.period - 0.6) < 0.003, "\(grid)")
        #expect(abs(grid.phase - 0.1) < 0.012, "\(grid)")
    }

    /// A tresillo (hits 3 + 3 + 2 eighths apart, loud) over quiet quarter notes at 120 BPM: the
    /// loud hits 0.75 s apart suggest 80 BPM (3:2); the beat is 0.5 s.
    @Test func aTresilloDoesNotMakeThreeTwo() throws {
        var hits: [(time: Double, strength: Float)] = []
        for bar in stride(from: 0.0, to: 24, by: 2) {
            hits += [0, 0.75, 1.5].map { (bar + $0 + 0.2, Float(1)) }
            hits += [0.5, 1.0].map { (bar + $0 + 0.2, Float(0.35)) }
        }
        let grid = try #require(BeatGridFit.fit(profile(hits, seconds: 24)))
        #expect(abs(grid.period - 0.5) < 0.0025, "\(grid)")
    }

    /// Hits at random times (a fixed sequence) keep no time: no grid.
    @Test func randomHitsHaveNoGrid() {
        var state: UInt64 = 12345
        var time = 0.0
        var hits: [(time: Double, strength: Float)] = []
        while time < 20 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            time += 0.12 + Double(state >> 40) / Double(1 << 24) * 0.5
            hits.append((time, 0.5 + Float(state >> 50) / Float(1 << 14) * 0.5))
        }
        #expect(BeatGridFit.fit(profile(hits, seconds: 20)) == nil)
    }

    /// A tempo that slows from 120 to 100 BPM over the part is not a steady beat.
    @Test func aDriftingTempoHasNoGrid() {
        var hits: [(time: Double, strength: Float)] = []
        var time = 0.2, period = 0.5
        while time < 24 {
            hits.append((time, 1))
            time += period
            period += 0.1 / 44
        }
        #expect(BeatGridFit.fit(profile(hits, seconds: 24)) == nil)
    }
}
