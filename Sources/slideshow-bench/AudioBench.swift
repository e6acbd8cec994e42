import Foundation
import SlideshowKit
import SlideshowAudio

// The soundtrack's figures (issue 12): what a 3-minute MP3 adds to R1, the peak memory of a
// 60-minute show with a 60-minute FLAC, and the same show with music made by ffmpeg's CLI and
// by moviepy, each with the difference between its video's and its sound's end (ffprobe).

/// Runs the soundtrack benchmark and returns its lines.
func audioBenchmark(tool: String, ffmpeg: String, photos: [String], scratch: URL, runs: Int, songs songFolder: String) -> [String] {
    func file(_ name: String) -> String { scratch.appendingPathComponent(name).path }
    var lines = ["", "Soundtrack (issue 12): R1 with music; the machine may be loaded, so compare the figures side by side"]
    guard let source = ["../shared/media/mp3_cbr_128k_stereo.mp3", "../shared/media/flac_stereo_music.flac"]
        .map({ URL(fileURLWithPath: $0).standardizedFileURL.path }).first(where: FileManager.default.fileExists(atPath:)) else {
        return lines + ["  skipped: ../shared/media is absent"]
    }
    // The music, made here from a shared file: a 3-minute MP3 and a 60-minute FLAC.
    let song = file("song-3min.mp3"), long = file("music-60min.flac")
    let flacSource = URL(fileURLWithPath: "../shared/media/flac_stereo_music.flac").standardizedFileURL.path
    for (output, input, seconds, codec) in [(song, source, 180, ["-c:a", "libmp3lame", "-b:a", "192k"]),
                                            (long, FileManager.default.fileExists(atPath: flacSource) ? flacSource : source, 3600, ["-c:a", "flac"])] {
        let made = measure(ffmpeg, ["-v", "error", "-y", "-stream_loop", "-1", "-i", input, "-t", String(seconds)] + codec + [output])
        guard made.status == 0 else { return lines + ["  skipped: ffmpeg could not make \(output)"] }
    }

    // 1. R1 and R1 with the 3-minute MP3, alternating.
    func r1(_ extra: [String], _ name: String) -> [String] {
        ["make"] + photos + ["--duration", "3", "--overwrite", "--quiet", "-o", file(name)] + extra
    }
    _ = measure(tool, r1(["--audio", song], "r1-audio.mp4"))
    var plain: [Double] = [], withMusic: [Double] = []
    for _ in 0..<runs {
        plain.append(measure(tool, r1([], "r1-plain.mp4")).wall)
        withMusic.append(measure(tool, r1(["--audio", song], "r1-audio.mp4")).wall)
    }
    let added = median(withMusic) - median(plain)
    lines.append("  R1 \(format(median(plain))), with a 3-minute MP3 \(format(median(withMusic))): adds \(format(added))   (target ≤ 0.150 s)")
    lines += beatCutBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, scratch: scratch, runs: runs)
    lines += beatGridBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, scratch: scratch, songs: songFolder)

    // 2. Peak memory of a 60-minute show, without and with a 60-minute FLAC (GNU time's %M:
    //    the child's own peak, whatever this process's size).
    func peak(_ arguments: [String]) -> (rss: Int, wall: Double)? {
        let report = file("time.txt")
        let started = Date()
        let cost = measure("/usr/bin/time", ["-f", "%M", "-o", report, tool] + arguments)
        guard cost.status == 0, let text = try? String(contentsOfFile: report, encoding: .utf8),
              let kib = text.split(separator: "\n").last.flatMap({ Int($0) }) else { return nil }
        return (kib * 1024, Date().timeIntervalSince(started))
    }
    if let silent = peak(["make"] + photos + ["--duration", "3600", "--overwrite", "--quiet", "-o", file("long-plain.mp4")]),
       let music = peak(["make"] + photos + ["--duration", "audio", "--audio", long, "--overwrite", "--quiet", "-o", file("long-audio.mp4")]) {
        let gap = avEndDifference(file("long-audio.mp4")).map { String(format: "%.1f ms", $0 * 1000) } ?? "?"
        lines.append("  60-minute show: peak RSS \(megabytes(silent.rss)) silent (\(format(silent.wall))), \(megabytes(music.rss)) with a 60-minute FLAC (\(format(music.wall))), A/V end difference \(gap)   (target ≤ 150 MB)")
    } else {
        lines.append("  60-minute show: failed (or /usr/bin/time is missing)")
    }

    // 3. The same show with music by ffmpeg's CLI and by moviepy.
    let filter = "scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,loop=loop=29:size=1:start=0,setpts=N/30/TB"
    let peer = ["-v", "error", "-y", "-i", photos[0], "-i", photos[1], "-i", photos[2], "-i", song, "-filter_complex",
                "[0]\(filter)[a];[1]\(filter)[b];[2]\(filter)[c];[a][b][c]concat=n=3:v=1:a=0,format=yuv420p[v]",
                "-map", "[v]", "-map", "3:a", "-r", "30", "-c:v", "libx264", "-preset", "medium", "-tune", "stillimage", "-crf", "20",
                "-c:a", "aac", "-b:a", "192k", "-shortest", "-movflags", "+faststart", file("peer-audio.mp4")]
    var rows: [(String, Double?, Double?)] = [("slideshow", median(withMusic), avEndDifference(file("r1-audio.mp4")))]
    let peerCosts = (0..<max(1, runs / 2)).map { _ in measure(ffmpeg, peer) }
    rows.append(("ffmpeg CLI", peerCosts.allSatisfy { $0.status == 0 } ? median(peerCosts.map(\.wall)) : nil, avEndDifference(file("peer-audio.mp4"))))
    if let python = moviepyPython() {
        let script = file("moviepy-show.py")
        try? moviepyScript.write(toFile: script, atomically: true, encoding: .utf8)
        let cost = measure(python, [script] + photos + [song, file("moviepy-audio.mp4")])
        rows.append(("moviepy", cost.status == 0 ? cost.wall : nil, cost.status == 0 ? avEndDifference(file("moviepy-audio.mp4")) : nil))
    } else {
        lines.append("  moviepy: skipped (no venv with moviepy could be made: python3 -m venv + pip install moviepy failed)")
    }
    lines.append("  The same 3 s show with the 3-minute MP3 (A/V end difference: |video end − audio end| by ffprobe; target ≤ 21.3 ms, faster than both):")
    for (name, wall, gap) in rows {
        lines.append("    \(name.padding(toLength: 11, withPad: " ", startingAt: 0)) wall \(wall.map(format) ?? "failed")  A/V end difference \(gap.map { String(format: "%.1f ms", $0 * 1000) } ?? "?")")
    }
    return lines
}

/// R1's photos in a 12-second show (R1's 3 s are under the 4 s a beat grid needs, so it would
/// measure the even-cut fallback) with a 3-minute MP3 that has a steady beat (the shared 105 BPM
/// boogie looped by ffmpeg; the soundtrack figures' MP3 has none, so it too would fall back),
/// with even cuts and with cuts on the beat, alternating; the beat-cut show's `--json` report
/// must give a tempo. Then the analysis alone of a whole 3-minute MP3 on this thread's core
/// (issue 24: at most 0.5 s): the shared 120 BPM drums and bass looped, whose 25 s are 50 beats,
/// so that the beat goes on steadily across its loops (the boogie's 25 s are 43¾ beats: looped,
/// its beat jumps every 25 s and three minutes of it have no steady beat).
func beatCutBenchmark(tool: String, ffmpeg: String, photos: [String], scratch: URL, runs: Int) -> [String] {
    let clips = URL(fileURLWithPath: "../shared/clips").standardizedFileURL
    let song = scratch.appendingPathComponent("boogie-3min.mp3").path, steady = scratch.appendingPathComponent("drums-3min.mp3").path
    for (output, name) in [(song, "music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3"), (steady, "music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3")] {
        let source = clips.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: source),
              measure(ffmpeg, ["-v", "error", "-y", "-stream_loop", "-1", "-i", source, "-t", "180", "-c:a", "libmp3lame", "-b:a", "192k", output]).status == 0 else {
            return ["  beat cuts: skipped (../shared/clips is absent or ffmpeg could not loop its music)"]
        }
    }
    func show(_ extra: [String], _ name: String) -> [String] {
        ["make"] + photos + ["--duration", "12", "--audio", song, "--overwrite", "--quiet", "-o", scratch.appendingPathComponent(name).path] + extra
    }
    var lines: [String] = []
    // The tempo the beat-cut show reports (nil: the cuts fell back to even ones, and the figure would not be the beat cuts').
    let report = Process()
    report.executableURL = URL(fileURLWithPath: tool)
    report.arguments = show(["--cuts", "beats", "--json"], "beats-12s.mp4").filter { $0 != "--quiet" }
    let pipe = Pipe()
    report.standardOutput = pipe
    report.standardError = FileHandle.nullDevice
    let tempo: Double?
    if (try? report.run()) != nil {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        report.waitUntilExit()
        tempo = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["tempo"] as? Double
    } else {
        tempo = nil
    }
    var even: [Double] = [], beats: [Double] = []
    for _ in 0..<runs {
        even.append(measure(tool, show([], "even-12s.mp4")).wall)
        beats.append(measure(tool, show(["--cuts", "beats"], "beats-12s.mp4")).wall)
    }
    let ratio = median(beats) / max(median(even), 1e-9)
    lines.append("  R1's photos, 12 s, with a 3-minute 105 BPM MP3: even cuts \(format(median(even))), beat cuts \(format(median(beats))) (tempo \(tempo.map { String(format: "%.2f BPM", $0) } ?? "none: fell back to even cuts")): \(String(format: "%.2f", ratio))x   (target ≤ 1.25x)")

    // The analysis of the whole 3-minute MP3 on one core: the thread's CPU time.
    func threadCPU() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
    var costs: [Double] = []
    var grid: BeatGrid?
    for _ in 0..<max(1, runs) {
        let before = threadCPU()
        grid = try? BeatAnalysis.grid(path: steady, length: 180)
        costs.append(threadCPU() - before)
    }
    lines.append("  beat analysis of the 3-minute MP3 on one core: \(format(median(costs))) CPU (\(grid.map(\.description) ?? "no steady beat"))   (target ≤ 0.5 s)")
    return lines
}

/// |video end − audio end| of a file, from ffprobe's start times and durations of its first streams.
func avEndDifference(_ path: String) -> Double? {
    func end(_ stream: String) -> Double? {
        let pipe = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-select_streams", stream, "-show_entries", "stream=start_time,duration", "-of", "csv=p=0", path]
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let values = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Double($0) }
        return values.count == 2 ? values[0] + values[1] : nil
    }
    guard let video = end("v:0"), let audio = end("a:0") else { return nil }
    return abs(video - audio)
}

/// A Python with moviepy: a venv kept in ~/.cache/slideshow-bench, made (pip install moviepy) on first use.
func moviepyPython() -> String? {
    let folder = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/slideshow-bench/moviepy")
    let python = folder.appendingPathComponent("bin/python").path
    if measure(python, ["-c", "import moviepy"]).status == 0 { return python }
    guard let system = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
    try? FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard measure(system, ["-m", "venv", folder.path]).status == 0,
          measure(folder.appendingPathComponent("bin/pip").path, ["install", "-q", "moviepy"]).status == 0,
          measure(python, ["-c", "import moviepy"]).status == 0 else { return nil }
    return python
}

/// moviepy 2's version of R1 with music: each photo fitted into 1920x1080 for one second,
/// the music cut to the video's length, x264 medium and AAC 192k.
let moviepyScript = """
    import sys
    from moviepy import ImageClip, AudioFileClip, CompositeVideoClip, concatenate_videoclips
    photos, song, output = sys.argv[1:4], sys.argv[4], sys.argv[5]
    def slide(path):
        clip = ImageClip(path)
        clip = clip.resized(min(1920 / clip.w, 1080 / clip.h))
        return CompositeVideoClip([clip.with_position("center")], size=(1920, 1080)).with_duration(1)
    video = concatenate_videoclips([slide(p) for p in photos])
    video = video.with_audio(AudioFileClip(song).subclipped(0, video.duration))
    video.write_videofile(output, fps=30, codec="libx264", preset="medium", audio_codec="aac", audio_bitrate="192k", logger=None)

    """
