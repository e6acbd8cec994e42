import Foundation
import Testing
import TestSupport
@testable import SlideshowKit

/// The tempo and the beats found in whole songs with labelled tempi: a folder named by the
/// environment variable `SLIDESHOW_SONGS`, holding `SONGS.tsv` (tab-separated, with a header:
/// file, labelled_bpm, style, licence) and the songs beside it. Skipped, saying so, when the
/// variable is not set (the songs are not part of the repository).
///
/// Each song's grid must have its labelled tempo within 3% (or exactly twice or half of it:
/// a half-time feel is heard at either), and the share of our beats that fall within 50 ms of
/// a beat `aubio beat -B 2048 -H 512` finds in the file (the independent reference the cut
/// accuracy is measured against) is reported; with `SLIDESHOW_SONGS_REPORT` set, one line a
/// song is appended to that file.
@Suite struct SongTempoTests {
    struct Song: Sendable, CustomTestStringConvertible {
        var path: String
        var bpm: Double
        var style: String
        var testDescription: String { "\((path as NSString).lastPathComponent) (\(style), \(bpm) BPM)" }
    }

    static let folder = ProcessInfo.processInfo.environment["SLIDESHOW_SONGS"]

    static let songs: [Song] = {
        guard let folder, let table = try? String(contentsOfFile: folder + "/SONGS.tsv", encoding: .utf8) else { return [] }
        return table.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count >= 2, let bpm = Double(fields[1]) else { return nil }
            return Song(path: folder + "/" + fields[0], bpm: bpm, style: fields.count > 2 ? fields[2] : "")
        }
    }()

    @Test func theSongsAreThere() {
        guard let folder = Self.folder else {
            return withKnownIssue("skipped: SLIDESHOW_SONGS is not set (a folder of songs with labelled tempi in SONGS.tsv)") { throw SkipNote() }
        }
        #expect(!Self.songs.isEmpty, "no songs listed in \(folder)/SONGS.tsv")
    }

    @Test(arguments: songs)
    func theTempoAndBeatsOfASong(_ song: Song) throws {
        let grid = try #require(try BeatAnalysis.grid(path: song.path, length: 600), "no steady beat found")
        let ratio = grid.beatsPerMinute / song.bpm
        let level = [1.0, 2, 0.5].first { abs(ratio - $0) / $0 <= 0.03 }
        #expect(level != nil, "\(grid) for a labelled \(song.bpm) BPM")

        var share = Double.nan
        if which("aubio") != nil {
            let reference = try independentBeats(song.path)
            if let end = reference.last {
                // Our beats from 4 s (aubio's tracker needs seconds to settle) to its last beat.
                let ours = (grid.beat(nearest: 4)...grid.beat(nearest: end)).map { grid.time(ofBeat: $0) }.filter { $0 >= 4 && $0 <= end + 0.05 }
                share = Double(ours.filter { distance($0, toNearestOf: reference) <= 0.05 }.count) / Double(max(ours.count, 1))
            }
        }
        let line = "\((song.path as NSString).lastPathComponent)\t\(song.style)\t\(song.bpm)\t\(String(format: "%.2f", grid.beatsPerMinute))\t\(level.map { $0 == 1 ? "within 3%" : ($0 == 2 ? "2:1" : "1:2") } ?? "NO")\t\(String(format: "%.3f", share))\t\(grid.tracked.isEmpty ? "straight" : "tracked")\t\(String(format: "%.2f", grid.confidence))"
        print("song\t" + line)
        if let report = ProcessInfo.processInfo.environment["SLIDESHOW_SONGS_REPORT"], let handle = FileHandle(forWritingAtPath: report) ?? (FileManager.default.createFile(atPath: report, contents: nil) ? FileHandle(forWritingAtPath: report) : nil) {
            handle.seekToEndOfFile()
            handle.write(Data((line + "\n").utf8))
            try? handle.close()
        }
    }
}
