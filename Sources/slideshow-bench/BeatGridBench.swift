import Foundation
import SlideshowKit
import SlideshowAudio

// Cuts on the beat over many songs and show shapes (issue 30): for each song, the tempo found
// against its label, the fallbacks over a grid of photo counts and lengths, and the cuts of a
// few rendered shows against the beats `aubio beat` finds in each video's own sound.

/// A song of the grid: a file in the songs folder, its labelled tempo and what it is.
struct BenchSong {
    var file: String
    /// The labelled tempo: stated by the source, or worked out from a loop's length and beats,
    /// or counted over the whole song (the README's songs table says which); nil for a song
    /// with no label, whose tempo is reported but not judged.
    var bpm: Double?
    var style: String
}

/// The grid's songs: the shared music (../shared/clips), the songs collected under free
/// licences in a folder beside the project (docs/beat-songs.md says where each comes from; they
/// are not in the repository), and two loops of the repository's own (Tests/BeatTests/Songs)
/// slowed and quickened to labelled tempi. Missing files are skipped and named.
let benchSongs: [BenchSong] = [
    BenchSong(file: "shared:music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3", bpm: 120, style: "drums and bass"),
    BenchSong(file: "shared:music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3", bpm: 105, style: "boogie, a little swing"),
    BenchSong(file: "shared:loop_mika_sonicpi_cc0_120bpm_8s.flac", bpm: 120, style: "electronic drum loop"),
    BenchSong(file: "loop_tabla.flac", bpm: 89.9, style: "tabla loop"),
    BenchSong(file: "loop_garzul.flac", bpm: 120, style: "electronic loop, half-time feel"),
    BenchSong(file: "414269__jpmusic82__arp-bass-loop-128-bpm.mp3", bpm: 129.6, style: "four-on-the-floor synth loop"),
    BenchSong(file: "extras/loop_amen_full.flac", bpm: 140, style: "amen break"),
    BenchSong(file: "extras/loop_compus.flac", bpm: 148, style: "breakbeat"),
    BenchSong(file: "Backbeat.mp3", bpm: 131.8, style: "pop backbeat"),
    BenchSong(file: "BassForGambling.mp3", bpm: 120.5, style: "drums and bass, whole song"),
    BenchSong(file: "DowntownBoogie.mp3", bpm: 106.1, style: "boogie, whole song"),
    BenchSong(file: "Kevin_MacLeod_-_Vibe_Ace.hq.ogg", bpm: nil, style: "jazz vibraphone, swing"),
    BenchSong(file: "Kevin_MacLeod_-_P_I_Tchaikovsky_Dance_of_the_Sugar_Plum_Fairy.hq.ogg", bpm: nil, style: "quiet intro, no drums"),
    BenchSong(file: "Karissa_Hobbs_-_Lets_Go_Fishin.hq.ogg", bpm: nil, style: "live band"),
    BenchSong(file: "Fats_Waller_-_Aint_Misbehavin_piano_solo.hq.ogg", bpm: nil, style: "live stride piano, swing"),
    BenchSong(file: "Groovin_clip.mp3", bpm: nil, style: "groove, loud hits off the beat"),
    BenchSong(file: "repo:tabla-slowed-67.opus", bpm: 67.4, style: "tabla slowed to 0.75"),
    BenchSong(file: "repo:amen-quickened-168.opus", bpm: 168, style: "amen break quickened to 1.2"),
]

/// The grid: photo counts 3 to 30 and lengths 6 to 60 s (every 3 s), placed without rendering
/// (the analysis once per length, the planner per count, as validation does); then eight shows
/// per song rendered small, their cuts measured against `aubio beat` on the video's own sound.
func beatGridBenchmark(tool: String, ffmpeg: String, photos: [String], scratch: URL, songs folder: String, only: String? = nil) -> [String] {
    var lines = ["", "Cuts on the beat (issue 30): songs from ../shared/clips and \(folder); every photo count 3–30 × lengths 6–60 s",
                 "  song                              style                          label   found   tempo  fallbacks (of 532)      cuts within 50 ms of the beats found in the video's sound (after 3 s)"]
    guard let aubio = ["/usr/bin/aubio", "/usr/local/bin/aubio"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
        return lines + ["  skipped: aubio's command-line tool is missing (Debian's aubio-tools)"]
    }
    var totals = (songs: 0, labelled: 0, tempoOK: 0, fallbacks: 0, shows: 0)
    var allCuts = CutTally()
    // Every beat of our grid, essentia's and madmom's in the same shows, scored as if it were a
    // cut: how near the measure comes for a beat tracker that is not aubio or librosa.
    var beatsAsCuts = [CutTally(), CutTally(), CutTally()]
    // Our beats by accent (BeatGrid.accents): under 0.5 of the median beat's, 0.5–0.9, …, 1.6 or more.
    let accentBands = [0.5, 0.9, 1.2, 1.6]
    var beatsByAccent = Array(repeating: CutTally(), count: accentBands.count + 1)
    // Each Python tracker's lag behind a click track, measured here and taken off its beats;
    // nil for a tracker that is missing.
    var latencies: [PythonTracker: Double] = [:]
    for tracker in PythonTracker.allCases {
        let latency = trackerLatency(tracker, ffmpeg: ffmpeg, scratch: scratch)
        latencies[tracker] = latency
        lines.append(latency.map { String(format: "  \(tracker)'s beats lag a click track's by %.1f ms (taken off its beats below)", $0 * 1000) }
                     ?? "  \(tracker) is missing (\(tracker.install)): its beats are not measured")
    }
    // SLIDESHOW_BENCH_CUTS=FILE writes every measured cut, one a line: song, photos, seconds, the
    // cut's time, the nearest beat of aubio, librosa, essentia and madmom from it (signed), and a quarter beat.
    let cutDump = ProcessInfo.processInfo.environment["SLIDESHOW_BENCH_CUTS"].flatMap { path in
        FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
    }
    for song in benchSongs where only.map({ song.file.localizedCaseInsensitiveContains($0) }) ?? true {
        let path = song.file.hasPrefix("shared:") ? URL(fileURLWithPath: "../shared/clips/" + song.file.dropFirst(7)).standardizedFileURL.path
            : song.file.hasPrefix("repo:") ? "Tests/BeatTests/Songs/" + song.file.dropFirst(5)
            : URL(fileURLWithPath: folder).appendingPathComponent(song.file).path
        let name = URL(fileURLWithPath: path).lastPathComponent
        let label = String(name.prefix(32)).padding(toLength: 33, withPad: " ", startingAt: 0)
        guard FileManager.default.fileExists(atPath: path) else {
            lines.append("  \(label) missing")
            continue
        }
        totals.songs += 1
        // The tempo over the song's first minute (or the whole of it).
        let grid = try? BeatAnalysis.grid(path: path, length: 60)
        let found = grid?.beatsPerMinute
        let tempoOK = song.bpm.map { label in found.map { tempo in [1.0, 2.0, 0.5].contains { abs(tempo / label - $0) <= 0.03 * $0 } } ?? false }
        if song.bpm != nil { totals.labelled += 1 }
        if tempoOK == true { totals.tempoOK += 1 }

        // Fallbacks over the grid.
        var reasons: [String: Int] = [:]
        let fps = 30
        for seconds in stride(from: 6, through: 60, by: 3) {
            let soundtrack = Soundtrack(path: path)
            guard let (grid, heard) = try? BeatAnalysis.analyse(soundtrack, showLength: Double(seconds)) else { continue }
            let music = MusicLayout(soundtrack: soundtrack, grid: grid, musicLength: heard, showLength: Double(seconds))
            for count in 3...30 {
                let frames = seconds * fps
                let even = (1..<count).map { $0 * frames / count }
                if case .failure(let why) = BeatCutPlanner.place(frameCount: frames, framesPerSecond: fps, evenCuts: even, grid: grid, music: music) {
                    // A placement the planner missed is the one fallback that is a fault.
                    // On the beat, or on the faster level's beats when the planner may take them.
                    let grids = grid.map { [$0] + ($0.halved().map { [$0] } ?? []) } ?? []
                    let missed = grids.contains { placementExists(frames: frames, fps: fps, even: [0] + even + [frames], beats: music.beats(of: $0, through: Double(seconds)).map(\.time)) }
                    reasons[missed ? "MISSED" : why.reason, default: 0] += 1
                }
            }
        }
        let fellBack = reasons.values.reduce(0, +)
        totals.fallbacks += fellBack

        // Eight shows rendered, their cuts against the trackers' beats in the video's sound: the
        // trackers' answers move by a few cuts a song between two sounds less than a frame
        // apart, so the more shows, the surer the share.
        var cuts = CutTally()
        var agree = 0, compared = 0
        for (count, seconds) in [(3, 6), (5, 13), (7, 11), (9, 17), (12, 30), (16, 40), (24, 60), (30, 45)] {
            let output = scratch.appendingPathComponent("beats-grid.mp4").path, sound = scratch.appendingPathComponent("beats-grid.wav").path
            let arguments = ["make"] + (0..<count).map { photos[$0 % photos.count] } + ["--duration", String(seconds), "--audio", path,
                             "--cuts", "beats", "--size", "160x120", "--preset", "ultrafast", "--fps", String(fps), "--json", "--overwrite", "-o", output]
            guard let report = jsonReport(tool, arguments), report["beatFallback"] == nil,
                  let starts = (report["photos"] as? [[String: Any]])?.compactMap({ $0["start"] as? Double }),
                  measure(ffmpeg, ["-v", "error", "-y", "-i", output, "-vn", "-ac", "1", sound]).status == 0,
                  let beats = aubioBeats(aubio, sound) else { continue }
            totals.shows += 1
            // aubio's, librosa's, essentia's and madmom's beats (nil for a tracker that is missing).
            let references: [[Double]?] = [beats] + PythonTracker.allCases.map { tracker in
                latencies[tracker].flatMap { trackerBeats(tracker, sound, latency: $0) }
            }
            let onsets = cachedOutput(aubio, ["onset", "-i", sound], input: sound).map(times) ?? []
            // A tracker that runs at another tempo than the song's (3:2 or 4:3 of it, or drifting
            // away) finds no beat a listener hears: with a label, only the references whose beats
            // come at the labelled tempo (or twice or half it, within 4%) count in "at tempo".
            func atTempo(_ beats: [Double]?) -> [Double]? {
                guard let beats, let label = song.bpm else { return beats }
                let intervals = zip(beats.dropFirst(), beats).map { $0 - $1 }.sorted()
                guard !intervals.isEmpty else { return nil }
                let tempo = 60 / intervals[intervals.count / 2]
                return [1.0, 2, 0.5].contains { abs(tempo / label / $0 - 1) <= 0.04 } ? beats : nil
            }
            let trusted = references.compactMap(atTempo)
            let quarter = 15 / (song.bpm ?? report["tempo"] as? Double ?? 120)
            // Each tracker's nearest beat to a time, signed (the beat after it positive; nil for
            // a missing tracker), and its distance (infinity for a missing tracker).
            func nearest(_ time: Double) -> [Double?] {
                references.map { $0.flatMap { $0.min { abs($0 - time) < abs($1 - time) } }.map { $0 - time } }
            }
            func offsets(_ time: Double) -> [Double] { nearest(time).map { $0.map(abs) ?? .infinity } }
            // The trackers need a few seconds to settle: cuts in the first 3 s are not measured.
            for cut in starts.dropFirst() where cut >= 3 {
                let signed = nearest(cut)
                if let dump = cutDump {
                    let columns = signed.map { $0.map { String(format: "%.4f", $0) } ?? "-" }
                    dump.write(([name, "\(count)", "\(seconds)", String(format: "%.4f", cut)] + columns + [String(format: "%.4f", quarter)])
                        .joined(separator: "\t").appending("\n").data(using: .utf8)!)
                }
                cuts.add(offsets: offsets(cut), quarter: quarter,
                         atTempo: trusted.contains { $0.contains { abs($0 - cut) <= 0.05 } },
                         onset: onsets.contains { abs($0 - cut) <= 0.05 })
            }
            // Every beat of our grid, by how strongly it is heard, and essentia's and madmom's.
            let soundtrack = Soundtrack(path: path)
            let analysis = try? BeatAnalysis.analyse(soundtrack, showLength: Double(seconds))
            let ours = analysis.flatMap { analysis in
                analysis.grid.map { grid in
                    MusicLayout(soundtrack: soundtrack, grid: grid, musicLength: analysis.heard, showLength: Double(seconds))
                        .beats(of: grid, through: Double(seconds)).map { (time: $0.time, accent: grid.accents[$0.index] ?? 1) }
                }
            } ?? []
            for beat in ours where beat.time >= 3 && beat.time < Double(seconds) {
                let band = accentBands.firstIndex { beat.accent < $0 } ?? accentBands.count
                let distances = offsets(beat.time)
                beatsByAccent[band].add(offsets: distances, quarter: quarter, atTempo: false, onset: false)
                beatsAsCuts[0].add(offsets: distances, quarter: quarter, atTempo: false, onset: false)
            }
            for (slot, beats) in [references[2], references[3]].enumerated() {
                for beat in beats ?? [] where beat >= 3 && beat < Double(seconds) {
                    beatsAsCuts[slot + 1].add(offsets: offsets(beat), quarter: quarter, atTempo: false, onset: false)
                }
            }
            // How far the two references agree: aubio's beats after 3 s with one of librosa's within 50 ms.
            if let second = references[1] {
                for beat in beats where beat >= 3 {
                    compared += 1
                    if second.contains(where: { abs($0 - beat) <= 0.05 }) { agree += 1 }
                }
            }
        }
        allCuts.add(cuts)
        let fallbackText = fellBack == 0 ? "0" : "\(fellBack) (" + reasons.keys.sorted().map { "\($0) \(reasons[$0]!)" }.joined(separator: ", ") + ")"
        let cutText = cuts.summary + (compared == 0 ? "" : String(format: " (aubio and librosa agree on %.0f%%)", 100 * Double(agree) / Double(compared)))
        let worstText = cuts.measured == 0 ? "" : String(format: "; worst %3.0f ms of aubio's or librosa's, %3.0f ms of any (¼ beat %3.0f ms)", cuts.worst * 1000, cuts.worstOfAll * 1000, 15000 / (song.bpm ?? found ?? 120))
        lines.append("  \(label) \(song.style.padding(toLength: 30, withPad: " ", startingAt: 0)) \(song.bpm.map { String(format: "%6.1f", $0) } ?? "     —") \(found.map { String(format: "%6.1f", $0) } ?? "  none") \(tempoOK.map { $0 ? "  ok " : "  off" } ?? "     ") \(fallbackText.padding(toLength: max(23, fallbackText.count), withPad: " ", startingAt: 0)) \(cutText)\(worstText)")
    }
    lines.append("  \(totals.songs) songs: tempo within 3% (or 2:1) on \(totals.tempoOK) of the \(totals.labelled) labelled; \(totals.fallbacks) fallbacks in \(totals.songs * 532) shows; \(totals.shows) shows rendered: \(allCuts.summary)")
    lines.append("  of those, farther than a quarter beat from both aubio's and librosa's beats \(allCuts.fartherFromBoth) (of which within 50 ms of madmom's \(allCuts.fartherFromBothNearMadmom)), from all four trackers' \(allCuts.fartherFromAll)   (targets: every tempo, no fallback where a placement exists, ≥ 90% within 50 ms of aubio's or librosa's, none farther than ¼ beat)")
    let bandNames = ["under 0.5", "0.5–0.9", "0.9–1.2", "1.2–1.6", "1.6 or more"]
    lines.append("  our beats by accent (of the median beat's), share within 50 ms of aubio's or librosa's: " + zip(bandNames, beatsByAccent).map { name, tally in
        String(format: "\(name) %.1f%% of %d", 100 * Double(tally.nearEither) / Double(max(1, tally.measured)), tally.measured)
    }.joined(separator: ", "))
    for (tracker, tally) in zip(["our grid", "essentia", "madmom"], beatsAsCuts) where tally.measured > 0 {
        lines.append(String(format: "  every beat of \(tracker) in the same shows, scored as a cut: %d, %.1f%% within 50 ms of aubio's or librosa's, \(tally.fartherFromBoth) farther than ¼ beat from both", tally.measured, 100 * Double(tally.nearEither) / Double(tally.measured)))
    }
    return lines
}

/// The rendered shows' cuts against the four trackers' beats (aubio, librosa, essentia, madmom).
private struct CutTally {
    var measured = 0
    /// Cuts within 50 ms of each tracker's nearest beat, in the order above.
    var near = [0, 0, 0, 0]
    var nearEither = 0, nearAny = 0, nearAtTempo = 0, nearOnset = 0
    /// Farther than a quarter beat from aubio's and from librosa's beats (the issue's measure),
    /// those of them within 50 ms of madmom's, and those farther than a quarter beat from all four.
    var fartherFromBoth = 0, fartherFromBothNearMadmom = 0, fartherFromAll = 0
    /// The worst distance to aubio's or librosa's nearest beat, and to any tracker's.
    var worst = 0.0, worstOfAll = 0.0

    /// One cut: its distance to each tracker's nearest beat (infinity for a missing tracker).
    mutating func add(offsets: [Double], quarter: Double, atTempo: Bool, onset: Bool) {
        measured += 1
        for (index, offset) in offsets.enumerated() where offset <= 0.05 { near[index] += 1 }
        let either = min(offsets[0], offsets[1]), any = offsets.min()!
        if either <= 0.05 { nearEither += 1 }
        if any <= 0.05 { nearAny += 1 }
        if atTempo { nearAtTempo += 1 }
        if onset { nearOnset += 1 }
        if either > quarter {
            fartherFromBoth += 1
            if offsets[3] <= 0.05 { fartherFromBothNearMadmom += 1 }
        }
        if any > quarter { fartherFromAll += 1 }
        worst = max(worst, either)
        worstOfAll = max(worstOfAll, any)
    }

    mutating func add(_ other: CutTally) {
        measured += other.measured
        near = zip(near, other.near).map(+)
        nearEither += other.nearEither
        nearAny += other.nearAny
        nearAtTempo += other.nearAtTempo
        nearOnset += other.nearOnset
        fartherFromBoth += other.fartherFromBoth
        fartherFromBothNearMadmom += other.fartherFromBothNearMadmom
        fartherFromAll += other.fartherFromAll
        worst = max(worst, other.worst)
        worstOfAll = max(worstOfAll, other.worstOfAll)
    }

    /// `112 cuts within 50 ms of the beats of aubio 58%, librosa …`.
    var summary: String {
        guard measured > 0 else { return "none measured" }
        func share(_ count: Int) -> String { String(format: "%3.0f%%", 100 * Double(count) / Double(measured)) }
        return "\(measured) cuts within 50 ms of the beats of aubio \(share(near[0])), librosa \(share(near[1])), either \(share(nearEither)), "
            + "essentia \(share(near[2])), madmom \(share(near[3])), any \(share(nearAny)), one at tempo \(share(nearAtTempo)), of an onset \(share(nearOnset))"
    }
}

/// Prints the beats the analysis finds in a song's first `seconds` (`--grid`), one a line: the
/// music time and its accent (its strongest onset over the median beat's), "weak" on a beat
/// without an attack; then the grid itself. False when the
/// song cannot be read or has no steady beat.
func printBeatGrid(song: String, seconds: Double) -> Bool {
    guard let grid = try? BeatAnalysis.grid(path: song, length: seconds) else {
        print("slideshow-bench: \(song): no steady beat in its first \(seconds) s")
        return false
    }
    var index = grid.beat(nearest: 0)
    while grid.time(ofBeat: index) < 0 { index += 1 }
    while grid.time(ofBeat: index) <= seconds {
        print(String(format: "%.4f\t%.2f", grid.time(ofBeat: index), grid.accents[index] ?? 0) + (grid.weakBeats.contains(index) ? "\tweak" : ""))
        index += 1
    }
    print("# \(grid)\(grid.tracked.isEmpty ? "" : ", tracked")")
    return true
}

/// Whether some choice of one beat per cut keeps every share within ±25% of its even share:
/// the frames each cut can reach from the one before, cut after cut, over every beat of the
/// show (no cost, no window: an independent check of the planner's answer).
private func placementExists(frames: Int, fps: Int, even bounds: [Int], beats times: [Double]) -> Bool {
    let beats = Set(times.map { Int(($0 * Double(fps)).rounded()) }.filter { $0 > 0 && $0 < frames }).sorted()
    var reachable: Set<Int> = [0]
    for cut in 1..<bounds.count {
        let share = Double(bounds[cut] - bounds[cut - 1])
        let low = max(1, Int((0.75 * share).rounded(.up))), high = Int((1.25 * share).rounded(.down))
        let targets = cut == bounds.count - 1 ? [frames] : beats
        reachable = Set(targets.filter { target in reachable.contains { (low...high).contains(target - $0) } })
        if reachable.isEmpty { return false }
    }
    return true
}

/// What a program prints on stdout, or nil when it cannot start or fails.
private func standardOutput(_ executable: String, _ arguments: [String]) -> Data? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? data : nil
}

/// The times a tracker prints, one a line.
private func times(_ data: Data) -> [Double] {
    String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
}

/// The `--json` report of a `make` run, or nil when it failed.
private func jsonReport(_ tool: String, _ arguments: [String]) -> [String: Any]? {
    standardOutput(tool, arguments).flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] }
}

/// The trackers in Python the cuts are measured against, beside aubio's: librosa's
/// (`librosa.beat.beat_track`, Ellis's dynamic programme; `pip install librosa`), essentia's
/// (`BeatTrackerMultiFeature`: Zapata et al. 2014, a committee of five trackers and the beats
/// most of them agree on; `pip install essentia`) and madmom's (`RNNBeatProcessor` and
/// `DBNBeatTrackingProcessor`: Böck et al. 2014–2016, recurrent networks trained on annotated
/// beats and a dynamic Bayesian network, the best of MIREX's beat tracking in its years; it
/// needs an older NumPy than librosa, so it has its own Python: `make madmom`).
private enum PythonTracker: CaseIterable {
    case librosa, essentia, madmom

    /// How to install it.
    var install: String { self == .madmom ? "make madmom" : "pip install \(self)" }

    /// The Python that runs the script: madmom's own (`SLIDESHOW_BENCH_MADMOM`, else the one
    /// `make madmom` makes in .build/madmom), python3 for the others; nil when it is missing.
    var interpreter: [String]? {
        guard self == .madmom else { return ["/usr/bin/env", "python3"] }
        let python = ProcessInfo.processInfo.environment["SLIDESHOW_BENCH_MADMOM"] ?? ".build/madmom/bin/python"
        return FileManager.default.isExecutableFile(atPath: python) ? [python] : nil
    }

    /// A script that prints the beats it finds in the file `sys.argv[1]`, a time a line.
    /// librosa runs at 44.1 kHz with a 256-sample hop (5.8 ms): at its defaults (22.05 kHz, 512)
    /// its tempo is a 23-ms frame's (117.5 BPM for 120) and its beats lag clicks by 21 ± 7 ms;
    /// here by 10 ± 2 ms. essentia's beats come 17 ms early (10–31 ms).
    var script: String {
        switch self {
        case .librosa: """
            import sys, librosa
            y, sr = librosa.load(sys.argv[1], sr=44100)
            onsets = librosa.onset.onset_strength(y=y, sr=sr, hop_length=256)
            print('\\n'.join(str(t) for t in librosa.beat.beat_track(onset_envelope=onsets, sr=sr, hop_length=256, units='time')[1]))
            """
        case .essentia: """
            import sys, os
            os.environ['ESSENTIA_LOGGING'] = '0'
            import essentia, essentia.standard as es
            essentia.log.infoActive = False
            audio = es.MonoLoader(filename=sys.argv[1], sampleRate=44100)()
            print('\\n'.join(str(t) for t in es.BeatTrackerMultiFeature()(audio)[0]))
            """
        case .madmom: """
            import sys, collections, collections.abc
            import numpy as np
            collections.MutableSequence = collections.abc.MutableSequence
            np.float, np.int, np.complex, np.bool = float, int, complex, bool
            from madmom.features.beats import RNNBeatProcessor, DBNBeatTrackingProcessor
            beats = DBNBeatTrackingProcessor(fps=100)(RNNBeatProcessor()(sys.argv[1]))
            print('\\n'.join(str(t) for t in beats))
            """
        }
    }
}

/// The beats `tracker` finds in a sound file, less `latency`; nil when its Python or module is missing.
private func trackerBeats(_ tracker: PythonTracker, _ path: String, latency: Double = 0) -> [Double]? {
    guard let python = tracker.interpreter else { return nil }
    return cachedOutput(python[0], python.dropFirst() + ["-c", tracker.script, path], input: path).map { times($0).map { $0 - latency } }
}

/// How late a tracker's beats come after the hits of a click track whose beats are known: the
/// median over 90, 120 and 150 BPM tracks (a kick and a noise burst a beat, 20 s), taken off its
/// beats so that the reference measures where it puts a beat, not its frames' delay. aubio's
/// beats measure within 5 ms of the clicks and are taken as they come. Nil without the tracker.
private func trackerLatency(_ tracker: PythonTracker, ffmpeg: String, scratch: URL) -> Double? {
    var offsets: [Double] = []
    for bpm in [90.0, 120, 150] {
        let period = 60 / bpm, path = scratch.appendingPathComponent("clicks-\(Int(bpm)).wav").path
        // A 60 Hz kick (30 ms decay) and a noise burst (5 ms) on every beat from 0.5 s.
        let since = "mod(t-0.5\\,\(period))"
        let click = "gte(t\\,0.5)*(0.6*sin(2*PI*60*\(since))*exp(-\(since)/0.03)+0.5*(2*random(0)-1)*exp(-\(since)/0.005))"
        guard measure(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc=\(click):s=44100:d=20", path]).status == 0,
              let beats = trackerBeats(tracker, path) else { return nil }
        for beat in beats where beat >= 3 {
            let k = ((beat - 0.5) / period).rounded()
            offsets.append(beat - (0.5 + k * period))
        }
    }
    return offsets.isEmpty ? nil : offsets.sorted()[offsets.count / 2]
}

/// The beats `aubio beat` finds in a sound file (2048-sample window, 512 hop, as the tests use it).
private func aubioBeats(_ aubio: String, _ path: String) -> [Double]? {
    cachedOutput(aubio, ["beat", "-B", "2048", "-H", "512", "-i", path], input: path).map(times)
}

/// What a tracker prints for a sound file, kept in .build/bench-cache/beats under a hash of the
/// file's bytes and the command: a show's sound depends only on the song and the length, not on
/// where the cuts fall, so a second run of the grid (after a change to the planner) asks the
/// trackers again only for sounds they have not heard (librosa and essentia take most of a
/// run's time).
private func cachedOutput(_ executable: String, _ arguments: [String], input: String) -> Data? {
    guard let sound = FileManager.default.contents(atPath: input) else { return nil }
    // FNV-1a over the sound's bytes, then the command (the input's own path left out).
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in sound + Data(([executable] + arguments.map { $0 == input ? "<input>" : $0 }).joined(separator: "\0").utf8) {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let folder = URL(fileURLWithPath: ".build/bench-cache/beats", isDirectory: true)
    let file = folder.appendingPathComponent(String(hash, radix: 16) + ".txt")
    if let kept = FileManager.default.contents(atPath: file.path) { return kept }
    guard let data = standardOutput(executable, arguments) else { return nil }
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? data.write(to: file)
    return data
}
