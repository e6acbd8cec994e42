import SlideshowPixels

/// How the music lies under a show: where in the music the show starts, and where it loops.
///
/// Mirrors ``SoundtrackStream``: the part of the music after ``start`` plays from show time
/// 0; when it is shorter than the show and loops, pass k + 1 starts ``crossfade`` before pass k ends (the two overlap in an
/// equal-power crossfade), so pass k starts at show time `k × (passLength − crossfade)`.
/// Within a seam's crossfade the beats of the outgoing pass are heard until its middle, those
/// of the incoming pass after it: the grid (in music time) carries on across every seam.
///
/// With an opening title card the music starts under the card, ``lead`` seconds before the
/// photos: the beats are given in the photos' time (the card's length earlier than the video's).
package struct MusicLayout: Sendable, Hashable {
    /// Seconds into the music at show time 0 (`--audio-start`).
    package var start: Double
    /// The music's length after ``start`` in seconds when the show outlasts it; nil when the
    /// music outlasts the show.
    package var passLength: Double?
    /// Whether the music starts again after ``passLength`` (else the rest of the show is silent).
    package var loops: Bool
    /// The overlap of two passes at a seam, in seconds (``Soundtrack/crossfade``, or half the
    /// pass when the pass is shorter than twice that).
    package var crossfade: Double
    /// Seconds the music plays before the photos' time 0: an opening card's length, else 0.
    package var lead: Double
    /// Seconds more of the music skipped on its first pass only (``Soundtrack/entry``): a show
    /// cut on the beat enters the music less than a frame in, where its beats fall on the
    /// frames (``frameAlignedEntry(of:grid:framesPerSecond:showLength:)``). Later passes start
    /// at ``start``, so the seams keep their beat.
    package var entry: Double = 0
    /// The ``crossfade`` when it was chosen to keep the beat across the seams
    /// (``beatSeam(of:start:passLength:)``), for the soundtrack to loop with (``Soundtrack/seam``).
    package private(set) var beatSeam: Double? = nil

    /// Creates a layout.
    /// - Parameters:
    ///   - start: seconds into the music at show time 0.
    ///   - passLength: the music's length after `start` when the show outlasts it; nil when
    ///     the music outlasts the show.
    ///   - loops: whether the music starts again at its end; true by default, as a soundtrack's.
    ///   - crossfade: the overlap at a seam; ``Soundtrack/crossfade`` (0.1 s) by default, capped
    ///     at half the pass as the soundtrack caps it.
    ///   - lead: seconds the music plays before the photos' time 0 (an opening card's length).
    package init(start: Double = 0, passLength: Double? = nil, loops: Bool = true, crossfade: Double = Soundtrack.crossfade.seconds,
                lead: Double = 0) {
        precondition(start.isFinite && start >= 0, "the music starts at 0 s or later")
        precondition(lead.isFinite && lead >= 0, "the music starts with the video or before the photos")
        self.lead = lead
        precondition(passLength.map { $0.isFinite && $0 > 0 } ?? true, "a pass lasts a positive time")
        self.start = start
        self.passLength = passLength
        self.loops = loops
        self.crossfade = passLength.map { min(crossfade, $0 / 2) } ?? crossfade
    }

    /// The layout of a soundtrack under a show of `showLength` seconds.
    /// - Parameters:
    ///   - musicLength: the music's whole length in seconds (from the file's start).
    ///   - showLength: the photos' length in seconds.
    ///   - lead: seconds the music plays before the photos (an opening card's length).
    package init(soundtrack: Soundtrack, musicLength: Double, showLength: Double, lead: Double = 0) {
        let pass = musicLength - soundtrack.start
        self.init(start: soundtrack.start, passLength: pass > 0 && pass < showLength + lead ? pass : nil, loops: soundtrack.loops,
                  crossfade: soundtrack.seam ?? Soundtrack.crossfade.seconds, lead: lead)
    }

    /// The layout of a soundtrack under a show cut on `grid`'s beat: when the music loops, each
    /// pass starts a whole number of beats after the one before (``beatSeam``); with a frame
    /// rate, the show enters the music less than a frame after `--audio-start`, where its beats
    /// fall closest to the frames (``entry``).
    package init(soundtrack: Soundtrack, grid: BeatGrid?, musicLength: Double, showLength: Double, lead: Double = 0,
                 framesPerSecond: Int? = nil) {
        let pass = musicLength - soundtrack.start
        var looped = soundtrack
        if let grid, soundtrack.loops, pass > 0, pass < showLength + lead {
            looped.seam = Self.beatSeam(of: grid, start: soundtrack.start, passLength: pass)
        }
        self.init(soundtrack: looped, musicLength: musicLength, showLength: showLength, lead: lead)
        beatSeam = looped.seam
        if let grid, let framesPerSecond {
            entry = Self.frameAlignedEntry(of: self, grid: grid, framesPerSecond: framesPerSecond, showLength: showLength)
        }
    }

    /// The entry into the music, 0 or later by less than one frame, that puts `layout`'s beats
    /// closest to the frames: the least sum over the show's beats of the distance from each beat
    /// to its nearest frame; the earliest of equals.
    ///
    /// A cut goes to a beat's nearest frame, so with beats between two frames every cut is up
    /// to half a frame (17 ms at 30 fps) off the beat that is heard. A beat of a whole number of
    /// frames (120 BPM at 30 or 24 fps, 90 at 30) falls on the frames all through when the
    /// show enters the music where one beat falls on a frame: then every cut is on its beat to
    /// the sample. Other tempi take the entry that puts the beats nearest their frames in all.
    /// The optimum of such a sum lies where one beat falls on a frame, so those entries are the
    /// candidates (the first pass's beats'; later passes are scored as they fall). The show's
    /// first sound is then at most one frame later in the music: inaudible, and the same for
    /// every render.
    static func frameAlignedEntry(of layout: MusicLayout, grid: BeatGrid, framesPerSecond: Int, showLength: Double) -> Double {
        let fps = Double(framesPerSecond)
        // An entry moves every beat the same: the show's beats without one, to a frame past its
        // end, are worked out once; an entry e hears those from e to the show's length plus e.
        let times = layout.beats(of: grid, through: showLength + 1 / fps).map(\.time)
        func offFrames(_ entry: Double) -> Double {
            times.reduce(0) { sum, time in
                guard time >= entry, time - entry <= showLength else { return sum }
                let frames = (time - entry) * fps
                return sum + abs(frames - frames.rounded())
            }
        }
        let firstPass = min(showLength, layout.passLength ?? showLength)
        let entries = Set(times.filter { $0 <= firstPass }.map { time in
            let frames = time * fps
            return (frames - frames.rounded(.down)) / fps
        }).filter { $0 > 0 && $0 < 1 / fps }.sorted()
        var best = layout.entry, bestOff = offFrames(best)
        for entry in entries {
            let off = offFrames(entry)
            if off < bestOff - 1e-9 { (best, bestOff) = (entry, off) }
        }
        return best
    }

    /// The shortest overlap at a seam that keeps the beat: 5 ms, a declick.
    package static let shortestBeatSeam = 0.005
    /// How much longer than the pass a whole number of beats may be and still be its step (the
    /// pass then starts again ``shortestBeatSeam`` early, the beat at most 15 ms early): a loop
    /// made to be a whole number of beats measures a few milliseconds over or under it.
    package static let beatSeamTolerance = 0.01

    /// The overlap at a loop's seam that starts each pass a whole number of beats after the
    /// one before, so the beat goes on across the seam; nil when no step of two beats or more
    /// fits in the pass with at most half of it overlapping (then the seam keeps
    /// ``Soundtrack/crossfade``). A one-bar loop at a half-time beat (a 1.9 s house loop at
    /// 64 BPM) steps two beats.
    ///
    /// With the usual 100 ms overlap, a loop of whole bars comes back 100 ms early at every
    /// seam: its beat stumbles there, and a listener (or a beat tracker) hears the next cuts
    /// off the beat. Here the step from one pass to the next is the time from the pass's first
    /// beat to the beat after its last one that fits (the beat's own period there, as the grid
    /// follows the music), and the overlap the rest of the pass: at most about one beat,
    /// crossfaded as usual; a loop of whole beats gets a 5 ms declick.
    /// - Parameters:
    ///   - grid: the music's beat, in music time.
    ///   - start: seconds into the music where each pass starts (`--audio-start`).
    ///   - passLength: the music's length after `start`, as decoded.
    package static func beatSeam(of grid: BeatGrid, start: Double, passLength: Double) -> Double? {
        var first = grid.beat(nearest: start)
        if grid.time(ofBeat: first) < start { first += 1 }
        var last = grid.beat(nearest: start + passLength)
        while last > first {
            let step = 2 * grid.time(ofBeat: last) - grid.time(ofBeat: last - 1) - grid.time(ofBeat: first)
            if step <= passLength + beatSeamTolerance {
                let seam = max(passLength - step, shortestBeatSeam)
                return seam <= passLength / 2 ? seam : nil
            }
            last -= 1
        }
        return nil
    }

    /// The video time (from the music's start, before any card and ``entry``) where each pass starts
    /// (`k × (passLength − crossfade)`), for a video `duration` seconds long.
    package func passStarts(through duration: Double) -> [Double] {
        guard let pass = passLength, loops else { return [0] }
        let step = pass - crossfade
        guard step > 0 else { return [0] }
        return stride(from: 0.0, through: duration, by: step).map { $0 }
    }

    /// The photos' times of the grid's beats heard in `0 ... duration` of the photos' time, in
    /// order, with their beat index in music time. Only the beats whose index is `offset`
    /// modulo `every` are kept (`every` 2 for every other beat; the index counts in music time,
    /// so every pass keeps the same beats).
    package func beats(of grid: BeatGrid, every: Int = 1, offset: Int = 0, through duration: Double) -> [(time: Double, index: Int)] {
        let shift = lead + entry
        return shift == 0 ? videoBeats(of: grid, every: every, offset: offset, through: duration)
            : videoBeats(of: grid, every: every, offset: offset, through: duration + shift).compactMap {
                $0.time >= shift ? ($0.time - shift, $0.index) : nil
            }
    }

    /// ``beats(of:every:offset:through:)`` in video time: from the music's start.
    private func videoBeats(of grid: BeatGrid, every: Int, offset: Int, through duration: Double) -> [(time: Double, index: Int)] {
        precondition(every >= 1, "every beat or fewer")
        var result: [(time: Double, index: Int)] = []
        let starts = passStarts(through: duration)
        for (pass, passStart) in starts.enumerated() {
            // The show times this pass is heard: from the middle of the seam before it to the middle of the seam after it.
            let from = pass == 0 ? 0 : passStart + crossfade / 2
            var until = pass + 1 < starts.count ? starts[pass + 1] + crossfade / 2 : duration
            // Music that plays once ends after its pass: no beats in the silence after it.
            if !loops, let passLength { until = min(until, passLength) }
            guard until > from else { continue }
            var index = grid.beat(nearest: start + from - passStart) - 1
            while true {
                let show = grid.time(ofBeat: index) - start + passStart
                if show > until || show > duration { break }
                let keep = ((index % every) + every) % every == ((offset % every) + every) % every
                if keep && show >= from && (show < until || (pass + 1 == starts.count && show <= until)) {
                    result.append((show, index))
                }
                index += 1
            }
        }
        return result
    }
}
