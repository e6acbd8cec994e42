import Foundation
import Testing
import TestSupport
import SlideshowFormats

/// `../shared/clips`, where the shared music is; nil in a fresh clone.
private let sharedClips: String? = {
    let path = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/clips").path
    return FileManager.default.fileExists(atPath: path + "/MANIFEST.tsv") ? path : nil
}()

/// A show's `--json` report, as far as these tests read it.
struct ShowReport: Decodable {
    struct Photo: Decodable { var path: String; var start: Double }
    var frames: Int
    var duration: Double
    var fps: Int
    var photos: [Photo]
    var tempo: Double?
    /// Why the cuts stayed even, with `--cuts beats`.
    struct Fallback: Decodable, Equatable { var reason: String; var photo: Int?; var message: String }
    var beatFallback: Fallback?

    /// Each photo's first frame, from its start.
    var startFrames: [Int] { photos.map { Int(($0.start * Double(fps)).rounded()) } }
}

/// `count` flat grey PNGs, 64x48, each a level of its own (photo i darker than photo i + 1), so
/// that the frame where each first appears can be read back from the video.
func greyPhotos(_ count: Int, in folder: TemporaryFolder, prefix: String = "p") throws -> [String] {
    let ffmpeg = try #require(which("ffmpeg"))
    return try (0..<count).map { index in
        let level = 24 + index * (200 / max(1, count - 1))
        let path = folder.path("\(prefix)\(index).png")
        let result = try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", String(format: "color=c=0x%02x%02x%02x:s=64x48", level, level, level),
                                      "-frames:v", "1", "-y", path])
        try #require(result.status == 0, "\(result.stderr)")
        return path
    }
}

/// The frames of a video where the picture changes (its mean luma moves by more than 4 levels
/// from the frame before): with still, flat photos and hard cuts, where each photo first appears.
func changeFrames(of video: String, width: Int, height: Int) throws -> [Int] {
    let frames = try FrameDecoder.frames(of: video, pixelFormat: "gray", width: width, height: height)
    let means = frames.map { frame in Double(frame.reduce(0) { $0 + Int($1) }) / Double(frame.count) }
    return [0] + (1..<means.count).filter { abs(means[$0] - means[$0 - 1]) > 4 }
}

/// The video stream's frame count and the container's duration, from ffprobe.
func probedFramesAndDuration(_ video: String) throws -> (frames: Int, duration: Double) {
    let ffprobe = try #require(which("ffprobe"))
    let result = try run(ffprobe, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames,duration",
                                   "-of", "default=noprint_wrappers=1", video])
    let values = Dictionary(uniqueKeysWithValues: result.stdoutText.split(separator: "\n").compactMap { line -> (String, String)? in
        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    })
    return (Int(values["nb_read_frames"] ?? "") ?? -1, Double(values["duration"] ?? "") ?? -1)
}

/// The beats aubio's own tracker (`aubio beat`, outside the code under test) finds in a file, in
/// seconds, with the window the beat tests use (2048, hop 512).
func aubioBeats(_ path: String) throws -> [Double] {
    let tool = try #require(which("aubio"))
    let result = try run(tool, ["beat", "-B", "2048", "-H", "512", "-i", path], timeout: 120)
    try #require(result.status == 0, "aubio beat: \(result.stderr)")
    return result.stdoutText.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
}

@Suite("slideshow make --cuts beats: cuts on the music's beat, or even with a warning (issue 24)", needsBuiltTool)
struct BeatCutCLITests {
    /// A show on the shared music: the music, its start, the show's length (nil: --duration
    /// audio), photos, transition.
    struct Show: Sendable, CustomStringConvertible {
        var music: String
        var audioStart: Double
        var duration: Double?
        var photos: Int
        var transition: String = "none"
        var motion: String = "none"
        var loopLength: Double? = nil
        var description: String { "\(music) from \(audioStart) s, \(duration.map { "\($0) s" } ?? "audio"), \(photos) photos, \(transition), \(motion)" }
    }

    /// Shares of 2 s or more (four beats or more), whole pieces and a loop under a longer show,
    /// as the analysis's own accuracy tests (Tests/BeatTests) use them.
    static let shows: [Show] = [
        Show(music: "music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3", audioStart: 0, duration: 25, photos: 12),
        Show(music: "music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3", audioStart: 3, duration: nil, photos: 9, transition: "fade", motion: "kenburns"),
        Show(music: "loop_mika_sonicpi_cc0_120bpm_8s.flac", audioStart: 0, duration: 40, photos: 18, loopLength: 8),
    ]

    @Test("≥ 90% of cuts within 50 ms of aubio's beats, shares within ±25%, exact length and frames", .enabled(if: sharedClips != nil), arguments: shows)
    func cutsOnTheBeat(_ show: Show) throws {
        let music = sharedClips! + "/" + show.music
        let folder = try TemporaryFolder()
        let photos = try greyPhotos(show.photos, in: folder)
        let output = folder.path("beats.mp4")
        var arguments = ["make"] + photos + ["-o", output, "--size", "160x120", "--preset", "ultrafast", "--audio", music,
                                             "--audio-start", String(show.audioStart), "--cuts", "beats", "--json",
                                             "--transition", show.transition, "--motion", show.motion]
        arguments += ["--duration", show.duration.map { String($0) } ?? "audio"]
        let result = try slideshow(arguments)
        try #require(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let report = try JSONDecoder().decode(ShowReport.self, from: result.stdout)
        let tempo = try #require(report.tempo)
        #expect(report.beatFallback == nil)
        #expect(report.photos.map(\.path) == photos)

        // Exact length and frame count: as asked, read back with ffprobe.
        // With --duration audio: the music's length after the start, as ffprobe reads its container.
        let ffprobe = try #require(which("ffprobe"))
        let musicLength = try #require(Double(try run(ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", music])
            .stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
        let expectedFrames = Int(((show.duration ?? musicLength - show.audioStart) * 30).rounded())
        let probed = try probedFramesAndDuration(output)
        #expect(report.frames == expectedFrames && probed.frames == expectedFrames, "\(probed)")
        #expect(abs(probed.duration - Double(expectedFrames) / 30) < 0.001, "\(probed)")

        // Shares within ±25% of the even share.
        let bounds = report.startFrames + [report.frames]
        for photo in 0..<show.photos {
            let share = Double(bounds[photo + 1] - bounds[photo])
            let even = Double((photo + 1) * report.frames / show.photos - photo * report.frames / show.photos)
            #expect(abs(share - even) <= 0.25 * even + 1e-9, "photo \(photo): \(share) frames, even \(even)")
        }

        // The cuts, in music time, against aubio's beats on the music file.
        let beats = try aubioBeats(music)
        #expect(abs(tempo - 60 / median(zip(beats.dropFirst(), beats).map { $0 - $1 })) < 2, "tempo \(tempo)")
        // In music time: pass k starts at k × 16 beats, the loop's length less the seam's 5 ms declick (a loop of whole
        // beats starts again on the beat: MusicLayout.beatSeam), the incoming pass heard from the seam's middle.
        // aubio's tracker needs a few seconds to settle: cuts in the first 4 s of the file are not measured.
        let cuts = report.photos.dropFirst().map { cut in
            show.loopLength.map { pass in cut.start - max(0, ((cut.start - 0.0025) / (pass - 0.005)).rounded(.down)) * (pass - 0.005) }
                ?? cut.start + show.audioStart
        }.filter { $0 >= 4 }
        let misses = cuts.filter { cut in beats.map { abs($0 - cut) }.min()! > 0.050 }
        #expect(cuts.count >= show.photos / 2)
        #expect(Double(cuts.count - misses.count) >= 0.9 * Double(cuts.count), "\(misses) of \(cuts) (music time) not within 50 ms of aubio's beats")
    }

    @Test("the JSON report's starts are the frames where each photo first appears", .enabled(if: sharedClips != nil))
    func startsMatchTheFrames() throws {
        let folder = try TemporaryFolder()
        let photos = try greyPhotos(8, in: folder)
        let output = folder.path("beats.mp4")
        let result = try slideshow(["make"] + photos + ["-o", output, "--size", "160x120", "--preset", "ultrafast", "--duration", "16",
                                                        "--audio", sharedClips! + "/music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3",
                                                        "--cuts", "beats", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(ShowReport.self, from: result.stdout)
        #expect(report.tempo != nil)
        // The cuts moved off the even ones (60 frames apart), and the video shows them there.
        #expect(report.startFrames != (0..<8).map { $0 * 60 })
        #expect(try changeFrames(of: output, width: 160, height: 120) == report.startFrames)
    }

    @Test("speech and silence have no steady beat: even cuts and one warning", arguments: ["speech", "silence"])
    func fallsBackToEvenCuts(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let music = folder.path("\(kind).wav")
        if kind == "speech" {
            let espeak = try #require(which("espeak-ng"))
            let text = "This is a test of a slideshow whose music has no beat. It only talks, in a steady voice, about nothing in particular, for a while longer than the show lasts. And then it goes on talking a little more, so that the show has enough of it."
            let made = try run(espeak, ["-w", music, text])
            try #require(made.status == 0, "\(made.stderr)")
        } else {
            let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo", "-t", "12", "-y", music])
            try #require(made.status == 0, "\(made.stderr)")
        }
        let photos = try greyPhotos(5, in: folder)
        let output = folder.path("even.mp4")
        let result = try slideshow(["make"] + photos + ["-o", output, "--size", "160x120", "--preset", "ultrafast", "--duration", "10",
                                                        "--audio", music, "--cuts", "beats", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "slideshow: warning: the music has no steady beat; the cuts stay even\n")
        let report = try JSONDecoder().decode(ShowReport.self, from: result.stdout)
        #expect(report.tempo == nil)
        #expect(report.beatFallback == ShowReport.Fallback(reason: "no-steady-beat", photo: nil, message: "the music has no steady beat; the cuts stay even"))
        #expect(report.startFrames == [0, 60, 120, 180, 240])
        #expect(try changeFrames(of: output, width: 160, height: 120) == report.startFrames)
    }

    /// 12 photos in 9 s over the 120 BPM drums and bass: shares of 0.75 s, 1.5 beats, which no
    /// whole number of beats keeps within 25%. The report still gives the tempo found, and why
    /// the cuts stayed even, naming the first photo that cannot be fitted.
    @Test("the JSON report gives the tempo found and why the cuts stayed even", .enabled(if: sharedClips != nil))
    func fallbackIsReported() throws {
        let folder = try TemporaryFolder()
        let photos = try greyPhotos(12, in: folder)
        let result = try slideshow(["make"] + photos + ["-o", folder.path("even.mp4"), "--size", "160x120", "--preset", "ultrafast", "--duration", "9",
                                                        "--audio", sharedClips! + "/music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3",
                                                        "--cuts", "beats", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(ShowReport.self, from: result.stdout)
        let tempo = try #require(report.tempo)
        #expect(abs(tempo - 120) < 2.4 || abs(tempo - 60) < 1.2, "tempo \(tempo)")
        let fallback = try #require(report.beatFallback)
        #expect(fallback.reason == "no-assignment" && fallback.photo != nil)
        #expect(result.stderr == "slideshow: warning: \(fallback.message)\n")
        #expect(report.startFrames == (0..<12).map { $0 * 270 / 12 })
    }

    @Test("beats without music is a usage error naming --cuts; so is an unknown style")
    func beatsWithoutMusic() throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "-o", folder.path("a.mp4"), "--cuts", "beats"])
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").first == "Error: --cuts: cutting on the beat needs music: give an audio file too")
        let unknown = try slideshow(["make", samplePhotos[0], "-o", folder.path("a.mp4"), "--cuts", "bars"])
        #expect(unknown.status == 64)
        #expect(folder.contents().isEmpty)
    }

    @Test("a manifest's cuts and order: the batch line lists the photos' starts and the tempo", .enabled(if: sharedClips != nil))
    func manifestBeatsAndOrder() throws {
        let folder = try TemporaryFolder()
        let photos = try greyPhotos(4, in: folder, prefix: "source")
        // img10, img2, img1, img3 → name order img1, img2, img3, img10; each keeps its own duration.
        let names = ["img10", "img2", "img1", "img3"]
        for (index, name) in names.enumerated() {
            try FileManager.default.moveItem(atPath: photos[index], toPath: folder.path("\(name).png"))
        }
        let music = sharedClips! + "/music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3"
        let manifest = folder.path("jobs.json")
        let job: [String: Any] = [
            "photos": [["path": folder.path("img10.png"), "duration": 4], folder.path("img2.png"), folder.path("img1.png"), folder.path("img3.png")],
            "output": folder.path("show.mp4"), "duration": 13, "size": "160x120", "preset": "ultrafast",
            "audio": music, "cuts": "beats", "order": "name",
        ]
        try JSONSerialization.data(withJSONObject: [job]).write(to: URL(fileURLWithPath: manifest))
        let result = try slideshow(["batch", manifest])
        try #require(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdoutText.split(separator: "\n").first)
        let report = try JSONDecoder().decode(BatchLine.self, from: Data(line.utf8))
        #expect(report.photos.map(\.path) == ["img1", "img2", "img3", "img10"].map { folder.path("\($0).png") })
        #expect(report.tempo != nil)
        // img10's 4 s moved with it: the last share is the longest (3 s each for the others, ±25%).
        let starts = report.photos.map(\.start)
        let shares = zip(starts.dropFirst() + [13], starts).map { $0 - $1 }
        #expect(shares[3] >= 3 && shares[0...2].allSatisfy { $0 >= 2.25 && $0 <= 3.75 }, "\(shares)")
    }

    struct BatchLine: Decodable {
        var photos: [ShowReport.Photo]
        var tempo: Double?
    }
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}
