import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowAudio

/// The tempo and the beats found in songs with labelled tempi: the folder `Songs` beside this
/// file (ten loops and excerpts under CC0, 67 to 168 BPM: hand drums, a half-time loop, a
/// four-on-the-floor loop, breakbeats, a backbeat, drums and bass, a swung boogie; see its
/// CREDITS.md), or the folder named by the environment variable `SLIDESHOW_SONGS` (the whole
/// songs of docs/beat-songs.md). Each folder holds `SONGS.tsv` (tab-separated, with a header
/// naming at least the columns file and labelled_bpm, and optionally style and check_note) and
/// the songs beside it.
///
/// Each song's grid must have its labelled tempo within 3% (or exactly twice or half of it:
/// a half-time feel is heard at either), unless it has no label or its check_note says the
/// label is wrong, disputed or unconfirmed (then the tempo is only reported); the share of our beats that fall within 50 ms of
/// a beat `aubio beat -B 2048 -H 512` finds in the file (the independent reference the cut
/// accuracy is measured against) is reported; with `SLIDESHOW_SONGS_REPORT` set, one line a
/// song is appended to that file.
@Suite struct SongTempoTests {
    struct Song: Sendable, CustomTestStringConvertible {
        var path: String
        /// The labelled tempo, when there is one to hold the grid to.
        var bpm: Double?
        var label: String
        var style: String
        var testDescription: String { "\((path as NSString).lastPathComponent) (\(style), \(label) BPM)" }
    }

    static let folder = ProcessInfo.processInfo.environment["SLIDESHOW_SONGS"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Songs").path

    static let songs: [Song] = {
        guard let table = try? String(contentsOfFile: folder + "/SONGS.tsv", encoding: .utf8) else { return [] }
        let lines = table.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } }
        guard let header = lines.first, let file = header.firstIndex(of: "file"), let labelled = header.firstIndex(of: "labelled_bpm") else { return [] }
        let style = header.firstIndex(of: "style"), note = header.firstIndex(of: "check_note")
        return lines.dropFirst().compactMap { fields in
            guard fields.count > max(file, labelled) else { return nil }
            let label = fields[labelled]
            let number = Double(label.prefix { $0.isNumber || $0 == "." })
            let checkNote = note.map { $0 < fields.count ? fields[$0] : "" } ?? ""
            let doubted = ["LABEL WRONG", "LABEL DISPUTED", "LABEL UNCONFIRMED"].contains { checkNote.hasPrefix($0) }
            return Song(path: folder + "/" + fields[file], bpm: doubted ? nil : number, label: label.isEmpty ? "no label" : label,
                        style: style.map { $0 < fields.count ? fields[$0] : "" } ?? "")
        }
    }()

    @Test func theSongsAreThere() {
        #expect(Self.songs.count >= (ProcessInfo.processInfo.environment["SLIDESHOW_SONGS"] == nil ? 10 : 1), "songs listed in \(Self.folder)/SONGS.tsv")
        for song in Self.songs { #expect(FileManager.default.fileExists(atPath: song.path), "\(song.path)") }
    }

    @Test(arguments: songs)
    func theTempoAndBeatsOfASong(_ song: Song) throws {
        guard let grid = try BeatAnalysis.grid(path: song.path, length: 600) else {
            if song.bpm != nil { Issue.record("no steady beat found") }
            report("\((song.path as NSString).lastPathComponent)\t\(song.style)\t\(song.label)\tnone\t-\t-\t-\t-")
            return
        }
        let label = song.bpm ?? Double(song.label.prefix { $0.isNumber || $0 == "." })
        let level = label.flatMap { label in [1.0, 2, 0.5].first { abs(grid.beatsPerMinute / label - $0) / $0 <= 0.03 } }
        if let bpm = song.bpm { #expect(level != nil, "\(grid) for a labelled \(bpm) BPM") }

        var share = Double.nan
        if which("aubio") != nil {
            let reference = try independentBeats(song.path)
            if let end = reference.last {
                // Our beats from 4 s (aubio's tracker needs seconds to settle) to its last beat.
                let ours = (grid.beat(nearest: 4)...grid.beat(nearest: end)).map { grid.time(ofBeat: $0) }.filter { $0 >= 4 && $0 <= end + 0.05 }
                share = Double(ours.filter { distance($0, toNearestOf: reference) <= 0.05 }.count) / Double(max(ours.count, 1))
            }
        }
        let line = "\((song.path as NSString).lastPathComponent)\t\(song.style)\t\(song.label)\(song.bpm == nil && label != nil ? " (not held to)" : "")\t\(String(format: "%.2f", grid.beatsPerMinute))\t\(level.map { $0 == 1 ? "within 3%" : ($0 == 2 ? "2:1" : "1:2") } ?? (label == nil ? "-" : "NO"))\t\(String(format: "%.3f", share))\t\(grid.tracked.isEmpty ? "straight" : "tracked")\t\(String(format: "%.2f", grid.confidence))\t\(grid)"
        report(line)
    }

    /// Prints one line of the table, and appends it to the file `SLIDESHOW_SONGS_REPORT` names.
    private func report(_ line: String) {
        print("song\t" + line)
        if let report = ProcessInfo.processInfo.environment["SLIDESHOW_SONGS_REPORT"], let handle = FileHandle(forWritingAtPath: report) ?? (FileManager.default.createFile(atPath: report, contents: nil) ? FileHandle(forWritingAtPath: report) : nil) {
            handle.seekToEndOfFile()
            handle.write(Data((line + "\n").utf8))
            try? handle.close()
        }
    }
}
