import Testing
@testable import SlideshowKit
import SlideshowAudio

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

    /// Kicks at 60 BPM with quiet hats halfway (a third as loud): the beat is the slower level,
    /// 1 s, and the faster one (120 BPM) is the music's too, its hats weak. At 100 BPM with
    /// eighths (above), the faster level (200 BPM) is out of range: none.
    @Test func theSlowerOfTwoLevelsKeepsTheFasterOne() throws {
        let kicks = stride(from: 0.2, to: 20, by: 1.0).map { (time: $0, strength: Float(1)) }
        let hats = stride(from: 0.7, to: 20, by: 1.0).map { (time: $0, strength: Float(0.3)) }
        let grid = try #require(BeatGridFit.fit(profile(kicks + hats, seconds: 20)))
        #expect(abs(grid.period - 1) < 0.004 && abs(grid.phase - 0.2) < 0.012, "\(grid)")
        let faster = try #require(grid.halved())
        #expect(abs(faster.period - 0.5) < 0.002)
        let kick = faster.beat(nearest: 5.2), hat = faster.beat(nearest: 5.7)
        #expect(hat == kick + 1 && abs(faster.time(ofBeat: hat) - 5.7) < 0.012)
        let heard = (faster.beat(nearest: 0.2)...faster.beat(nearest: 19.7)).filter { !faster.weakBeats.contains($0) }
        #expect(heard.count == 20 && heard.allSatisfy { abs(faster.time(ofBeat: $0).truncatingRemainder(dividingBy: 1) - 0.2) < 0.012 },
                "\(heard.map { faster.time(ofBeat: $0) })")

        let eighths = stride(from: 0.1, to: 20, by: 0.6).map { (time: $0, strength: Float(1)) }
            + stride(from: 0.4, to: 20, by: 0.6).map { (time: $0, strength: Float(0.8)) }
        #expect(try #require(BeatGridFit.fit(profile(eighths, seconds: 20))).halved() == nil)
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

    /// Kicks at 120 BPM for 16 s with a rest on beats 9 and 10 and a faint tap (a tenth as
    /// loud) on beat 20: those three beats are weak, the others heard.
    @Test func beatsWithoutAnAttackAreWeak() throws {
        var hits: [(time: Double, strength: Float)] = []
        for beat in 0..<32 where beat != 9 && beat != 10 {
            hits.append((0.25 + Double(beat) * 0.5, beat == 20 ? 0.1 : 1))
        }
        let grid = try #require(BeatGridFit.fit(profile(hits, seconds: 16)))
        #expect(abs(grid.period - 0.5) < 0.002, "\(grid)")
        let first = grid.beat(nearest: 0.25)
        #expect(grid.weakBeats == [first + 9, first + 10, first + 20], "\(grid.weakBeats.sorted()) from beat \(first)")
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

    /// A tempo that slows from 120 to 100 BPM over the part (a live band's drift, faster than
    /// most): no straight line holds it (issue 30 asked for a grid that follows it rather than
    /// none, which was the old behaviour), so the tracked beats follow the hits, each within
    /// 20 ms of one, from the first hit to the last.
    @Test func aDriftingTempoIsFollowed() throws {
        var hits: [(time: Double, strength: Float)] = []
        var time = 0.2, period = 0.5
        while time < 24 {
            hits.append((time, 1))
            time += period
            period += 0.1 / 44
        }
        let grid = try #require(BeatGridFit.fit(profile(hits, seconds: 24)))
        #expect(!grid.tracked.isEmpty, "\(grid)")
        for beat in grid.tracked {
            #expect(hits.map { abs($0.time - beat) }.min()! <= 0.02, "beat at \(beat) s")
        }
        #expect(grid.tracked.count >= hits.count - 2, "\(grid.tracked.count) beats for \(hits.count) hits")
    }

    /// A style of drumming at a tempo, and the tempo (or tempi: a half-time feel is heard at
    /// either) it must be found at.
    struct Pattern: Sendable, CustomTestStringConvertible {
        var style: String
        var bpm: Double
        var testDescription: String { "\(style) at \(Int(bpm)) BPM" }

        /// The hits over `seconds`, bars from 0.1 s.
        func hits(seconds: Double) -> [(time: Double, strength: Float)] {
            let b = 60 / bpm
            var bar: Double
            var pattern: [(Double, Float)]
            switch style {
            case "rock":  // kick on 1 and 3, snare on 2 and 4, eighth-note hats
                bar = 4 * b
                pattern = [(0, 1), (b, 0.8), (2 * b, 0.9), (3 * b, 0.8)] + [1, 3, 5, 7].map { (Double($0) * b / 2, 0.35) }
            case "swing":  // every beat, and a quiet swung eighth two thirds of the way to the next
                bar = 4 * b
                pattern = (0..<4).map { (Double($0) * b, $0 % 2 == 0 ? 1 : 0.9) } + (0..<4).map { (Double($0) * b + 2 * b / 3, 0.45) }
            case "half-time":  // kick on 1, snare on 3, hats on the other eighths
                bar = 4 * b
                pattern = [(0, 1), (2 * b, 1)] + [1, 2, 3, 5, 6, 7].map { (Double($0) * b / 2, 0.4) }
            case "four-on-the-floor":  // a kick on every beat, an open hat under half as loud on every off-beat
                // (louder, kick and hat alternating evenly are a pulse at twice the tempo)
                bar = b
                pattern = [(0, 1), (b / 2, 0.45)]
            case "tabla":  // teentaal's 16 beats, uneven strokes, eighths, sixteenths and a phrase of dotted eighths
                bar = 16 * b
                let strokes: [Float] = [1, 0.7, 0.7, 0.9, 0.9, 0.7, 0.7, 0.9, 0.9, 0.5, 0.5, 0.6, 0.6, 0.7, 0.7, 0.9]
                pattern = strokes.enumerated().map { (Double($0.offset) * b, $0.element) }
                pattern += [1, 2, 5, 6, 13, 14].map { (Double($0) * b + b / 2, 0.4) }
                pattern += [3, 7, 15].map { (Double($0) * b + b / 4, 0.3) }
                pattern += (1...4).map { (12 * b + Double($0) * 0.75 * b, 0.5) }
            default:  // "waltz": three beats, the first loud, eighths between
                bar = 3 * b
                pattern = [(0, 1), (b, 0.6), (2 * b, 0.6)] + (0..<3).map { (Double($0) * b + b / 2, 0.3) }
            }
            var hits: [(time: Double, strength: Float)] = []
            var start = 0.1
            while start < seconds {
                hits += pattern.map { (start + $0.0, $0.1) }.filter { $0.0 < seconds }
                start += bar
            }
            return hits
        }
    }

    /// Each style at 60 to 180 BPM; a half-time feel from 105 BPM (slower, a kick and a snare
    /// 2 s apart under eighth-note hats is heard as well at twice the tempo); waltzes.
    static let patterns: [Pattern] = ["rock", "swing", "four-on-the-floor", "tabla"].flatMap { style in
        [60.0, 72, 90, 105, 128, 150, 174, 180].map { Pattern(style: style, bpm: $0) }
    } + [105.0, 128, 150, 174, 180].map { Pattern(style: "half-time", bpm: $0) }
      + [90.0, 150].map { Pattern(style: "waltz", bpm: $0) }

    /// The tempo within 3% of the pattern's (or exactly half of it: the slower of two levels,
    /// for a half-time feel), and every beat of the grid on one of the pattern's beats (within
    /// 15 ms), never on an off-beat.
    @Test(arguments: patterns)
    func theBeatOfAPattern(_ pattern: Pattern) throws {
        let seconds = pattern.style == "tabla" ? 40.0 : 30
        let grid = try #require(BeatGridFit.fit(profile(pattern.hits(seconds: seconds), seconds: seconds)))
        let ratio = grid.beatsPerMinute / pattern.bpm
        let halved = pattern.style == "half-time" && abs(ratio - 0.5) <= 0.015
        #expect(abs(ratio - 1) <= 0.03 || halved, "\(grid)")
        let beat = 60 / pattern.bpm
        for index in grid.beat(nearest: 1)...grid.beat(nearest: seconds - 1) {
            let time = grid.time(ofBeat: index)
            let off = abs(time - 0.1 - ((time - 0.1) / beat).rounded() * beat)
            #expect(off <= 0.015, "beat \(index) at \(time) s is \(off) s from the pattern's beat; \(grid)")
        }
    }

    /// Eight seconds of quiet hats on the eighths, then a rock beat at 96 BPM: the quiet intro
    /// does not move the tempo or the phase.
    @Test func aQuietIntro() throws {
        let rock = Pattern(style: "rock", bpm: 96).hits(seconds: 30).filter { $0.time >= 8 }
        let intro = stride(from: 0.1, to: 8, by: 0.3125).map { (time: $0, strength: Float(0.1)) }
        let grid = try #require(BeatGridFit.fit(profile(intro + rock, seconds: 30)))
        #expect(abs(grid.beatsPerMinute - 96) / 96 <= 0.03, "\(grid)")
        for index in grid.beat(nearest: 9)...grid.beat(nearest: 29) {
            let time = grid.time(ofBeat: index)
            let off = abs(time - 0.1 - ((time - 0.1) / 0.625).rounded() * 0.625)
            #expect(off <= 0.015, "beat \(index) at \(time) s is \(off) s from the rock's beat; \(grid)")
        }
    }

    /// A 5.5-second breakbeat at 148 BPM, its backbeat quiet (the slower level, 74 BPM, is the
    /// beat): too few beats at 74 BPM for the check (7), so the grid is the faster level's,
    /// on the pattern's beats, rather than none.
    @Test func aShortLoopKeepsItsBeat() throws {
        let beat = 60 / 148.0
        var hits: [(time: Double, strength: Float)] = []
        var bar = 0.1
        while bar < 5.5 {
            hits += [(0.0, Float(1)), (beat, 0.45), (2 * beat, 0.9), (3 * beat, 0.45), (beat / 2, 0.3), (3 * beat / 2, 0.3), (5 * beat / 2, 0.3), (7 * beat / 2, 0.3)]
                .map { (bar + $0.0, $0.1) }.filter { $0.0 < 5.5 }
            bar += 4 * beat
        }
        let grid = try #require(BeatGridFit.fit(profile(hits, seconds: 5.5)))
        #expect(abs(grid.beatsPerMinute - 148) / 148 <= 0.03, "\(grid)")
        for index in grid.beat(nearest: 0.5)...grid.beat(nearest: 5) {
            let time = grid.time(ofBeat: index)
            let off = abs(time - 0.1 - ((time - 0.1) / beat).rounded() * beat)
            #expect(off <= 0.015, "beat \(index) at \(time) s is \(off) s from the pattern's beat; \(grid)")
        }
    }
}
