import Foundation
import SlideshowKit
import SlideshowWriter

// Issue 22's figures: clips among the photos, against ffmpeg doing the same work.
//
// C1: a phone clip alone (720p H.264, variable frame rate, 3 s) → 1920x1080, 30 fps, against
//     ffmpeg decoding, scaling and encoding the same clip with our x264 settings (target ≤ 1.2x).
//     Both without sound, so that the figure is the picture's.
// C2: the three R1 photos with the clip between them (9 s): the photos' frames stay held, so
//     C2 should cost about C1 plus R1, not C1 plus 6 s of encoded frames.
// C3: a 60-second 4K HEVC clip (made once with ffmpeg, kept in .build/bench-cache): peak
//     memory (target ≤ 300 MB) and time against ffmpeg's.
// C4: a 10-minute clip trimmed to 3 s (`#t=300,303`) against the same 3 s cut out beforehand:
//     the trim seeks, so the two should cost about the same.
// C5: a camcorder's 1080i (H.264 in MPEG-TS, 50 fields a second, top field first, 4 s) in a
//     50-fps 1920x1080 show (one frame per field: bwdif at double rate) against ffmpeg doing the
//     same decode, `bwdif`, scale and encode (issue 33; target ≤ 1.2x).
// C6: a compact camera's Motion JPEG AVI (640x480 full-range 4:2:2, 30 fps, 4 s) → 1920x1080,
//     30 fps, against ffmpeg decoding, scaling and encoding it (issue 33; target ≤ 1.2x).

/// The x264 settings of our encoder for a clip's frames, read from the encoder's own settings,
/// for the peers: a motion run's, or, in a show with a 4K clip (``VideoSettings/motionRuns``
/// off), the one encoder's.
private func ourX264(motionRuns: Bool = true) -> [String] {
    var settings = VideoSettings()
    settings.motionRuns = motionRuns
    return ["-c:v", "libx264", "-preset", settings.preset, "-tune", settings.tune ?? "",
            "-crf", String(motionRuns ? settings.motionCRF : settings.crf),
            "-x264-params", motionRuns ? settings.motionX264Parameters : settings.x264Parameters]
}

/// A synthetic clip made once with ffmpeg and kept between runs.
private func cachedClip(_ name: String, ffmpeg: String, _ arguments: [String]) -> String? {
    let folder = URL(fileURLWithPath: ".build/bench-cache", isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    if FileManager.default.fileExists(atPath: path) { return path }
    print("  (making \(name) once with ffmpeg; kept in .build/bench-cache)")
    let partial = path + ".part.mp4"
    guard measure(ffmpeg, ["-v", "error", "-y"] + arguments + [partial]).status == 0,
          rename(partial, path) == 0 else {
        unlink(partial)
        return nil
    }
    return path
}

func clipBenchmark(tool: String, ffmpeg: String, photos: [String], clips: String, scratch: (String) -> String, runs: Int) -> [String] {
    let phone = URL(fileURLWithPath: clips).appendingPathComponent("mp4_h264_720p_vfr_aac_gps_3s.mp4").path
    guard FileManager.default.fileExists(atPath: phone) else {
        return ["clips: skipped, the shared clips are not in \(clips) (give --clips DIR)"]
    }
    var lines = ["", "Clips (issue 22): phone clip 720p VFR H.264 3 s → 1920x1080, 30 fps, x264 medium/stillimage/CRF 20, no sound"]
    let fit = "scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=30,format=yuv420p"
    func ours(_ inputs: [String], _ name: String, _ extra: [String] = []) -> [String] {
        ["make"] + inputs + extra + ["--mute-clips", "--overwrite", "--quiet", "-o", scratch(name)]
    }
    func peer(_ input: String, _ name: String, _ before: [String] = [], motionRuns: Bool = true) -> [String] {
        ["-v", "error", "-y"] + before + ["-i", input, "-vf", fit, "-an"] + ourX264(motionRuns: motionRuns) + ["-movflags", "+faststart", scratch(name)]
    }
    let c1 = ours([phone], "c1.mp4", ["--slide-duration", "3"])
    let p1 = peer(phone, "c1-peer.mp4")
    let c2 = ours([photos[0], phone, photos[1], photos[2]], "c2.mp4", ["--duration", "12"])
    let r1 = ours(photos, "c2-photos.mp4", ["--duration", "9"])

    // C3: 60 s of 4K HEVC (a moving test pattern, 30 fps, keyframe every 2 s, as phones record).
    let fourK = cachedClip("hevc-4k-60s.mp4", ffmpeg: ffmpeg,
                           ["-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30", "-t", "60", "-c:v", "libx265",
                            "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=60", "-pix_fmt", "yuv420p", "-tag:v", "hvc1"])
    // C4: 10 minutes of 640x360 H.264, and the same 3 s from 300 s cut out (stream copy at a keyframe).
    let long = cachedClip("h264-10min.mp4", ffmpeg: ffmpeg,
                          ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", "600", "-c:v", "libx264",
                           "-preset", "ultrafast", "-g", "60", "-pix_fmt", "yuv420p"])
    let short = long.flatMap { _ in
        cachedClip("h264-3s-at-300.mp4", ffmpeg: ffmpeg,
                   ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-ss", "300", "-t", "3", "-c:v", "libx264",
                    "-preset", "ultrafast", "-g", "60", "-pix_fmt", "yuv420p"])
    }

    var costs: [String: [Cost]] = [:]
    _ = measure(tool, c1)
    _ = measure(ffmpeg, p1)
    for _ in 0..<runs {
        costs["C1", default: []].append(measure(tool, c1))
        costs["C1 peer", default: []].append(measure(ffmpeg, p1))
        costs["C2", default: []].append(measure(tool, c2))
        costs["R1 9 s", default: []].append(measure(tool, r1))
        if let long, let short {
            costs["C4 trimmed", default: []].append(measure(tool, ours(["\(long)#t=300,303"], "c4.mp4", ["--size", "640x360", "--slide-duration", "3"])))
            costs["C4 cut", default: []].append(measure(tool, ours([short], "c4-cut.mp4", ["--size", "640x360", "--slide-duration", "3"])))
        }
    }
    // C3 once per run count, at most twice: a minute of 4K decodes for a while.
    if let fourK {
        for _ in 0..<min(runs, 2) {
            costs["C3", default: []].append(measure(tool, ours([fourK], "c3.mp4", ["--slide-duration", "3"])))
            costs["C3 peer", default: []].append(measure(ffmpeg, peer(fourK, "c3-peer.mp4", motionRuns: false)))
        }
    }
    if let failed = costs.first(where: { $0.value.contains { $0.status != 0 } }) {
        return lines + ["clips: \(failed.key) failed (exit \(failed.value.first { $0.status != 0 }!.status))"]
    }
    func med(_ name: String, _ key: KeyPath<Cost, Double>) -> Double { median(costs[name, default: []].map { $0[keyPath: key] }) }
    func peak(_ name: String) -> Int { costs[name, default: []].map(\.peakRSS).max() ?? 0 }
    func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2fx", b > 0 ? a / b : 0) }
    lines.append("  C1 clip alone        \(format(med("C1", \.wall))) wall, \(format(med("C1", \.cpu))) CPU, \(megabytes(peak("C1")))"
        + "   ffmpeg \(format(med("C1 peer", \.wall))) wall, \(format(med("C1 peer", \.cpu))) CPU"
        + "   → \(ratio(med("C1", \.wall), med("C1 peer", \.wall))) wall, \(ratio(med("C1", \.cpu), med("C1 peer", \.cpu))) CPU (target ≤ 1.20x)")
    let around = med("C2", \.cpu) - med("C1", \.cpu)
    lines.append("  C2 3 photos + clip   \(format(med("C2", \.wall))) wall, \(format(med("C2", \.cpu))) CPU; less C1: \(format(around)) CPU"
        + " for the photos, R1 (the same photos, 9 s) \(format(med("R1 9 s", \.cpu))) CPU → \(ratio(around, med("R1 9 s", \.cpu))) (held frames free: ≈ 1x)")
    if fourK != nil {
        lines.append("  C3 60 s 4K HEVC      \(format(med("C3", \.wall))) wall, peak \(megabytes(peak("C3"))) (target ≤ 300 MB)"
            + "   ffmpeg \(format(med("C3 peer", \.wall))) wall, peak \(megabytes(peak("C3 peer"))) → \(ratio(med("C3", \.wall), med("C3 peer", \.wall)))")
    } else {
        lines.append("  C3: the 4K HEVC clip could not be made (ffmpeg without libx265?)")
    }
    lines += cameraClipBenchmark(tool: tool, ffmpeg: ffmpeg, scratch: scratch, runs: runs)
    if long != nil {
        lines.append("  C4 10 min → 3 s trim \(format(med("C4 trimmed", \.wall))) wall against \(format(med("C4 cut", \.wall))) for the same 3 s cut out"
            + " → \(ratio(med("C4 trimmed", \.wall), med("C4 cut", \.wall))) (the trim seeks: ≈ 1x)")
    }
    return lines
}

/// C5 and C6 (issue 33): an interlaced camcorder clip and a camera codec, each against ffmpeg
/// doing the same decode (and `bwdif`), scale and encode, without sound. `--camera` runs only these.
func cameraClipBenchmark(tool: String, ffmpeg: String, scratch: (String) -> String, runs: Int) -> [String] {
    // 1080i: 50 pictures a second of a moving pattern woven into 25 interlaced frames.
    let interlaced = cachedClip("h264-1080i50-4s.mts", ffmpeg: ffmpeg,
                                ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=50", "-t", "4",
                                 "-vf", "tinterlace=mode=interleave_top,setfield=tff", "-c:v", "libx264", "-preset", "fast",
                                 "-flags", "+ildct+ilme", "-x264opts", "tff=1", "-b:v", "16M", "-r", "25", "-f", "mpegts"])
    let mjpeg = cachedClip("mjpeg-640x480-422-4s.avi", ffmpeg: ffmpeg,
                           ["-f", "lavfi", "-i", "testsrc2=size=640x480:rate=30", "-t", "4", "-c:v", "mjpeg", "-pix_fmt", "yuvj422p",
                            "-q:v", "3", "-f", "avi"])
    guard let interlaced, let mjpeg else { return ["  C5/C6: the camera clips could not be made"] }
    func fit(_ fps: Int) -> String {
        "scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=\(fps),format=yuv420p"
    }
    func ours(_ input: String, _ name: String, fps: Int) -> [String] {
        ["make", input, "--slide-duration", "4", "--fps", String(fps), "--mute-clips", "--overwrite", "--quiet", "-o", scratch(name)]
    }
    func peer(_ input: String, _ name: String, filters: String) -> [String] {
        ["-v", "error", "-y", "-i", input, "-vf", filters, "-an"] + ourX264() + ["-movflags", "+faststart", scratch(name)]
    }
    let c5 = ours(interlaced, "c5.mp4", fps: 50)
    let p5 = peer(interlaced, "c5-peer.mp4", filters: "bwdif=mode=send_field:deint=interlaced," + fit(50))
    let c6 = ours(mjpeg, "c6.mp4", fps: 30)
    let p6 = peer(mjpeg, "c6-peer.mp4", filters: fit(30))
    var costs: [String: [Cost]] = [:]
    _ = measure(tool, c5)
    for _ in 0..<runs {
        costs["C5", default: []].append(measure(tool, c5))
        costs["C5 peer", default: []].append(measure(ffmpeg, p5))
        costs["C6", default: []].append(measure(tool, c6))
        costs["C6 peer", default: []].append(measure(ffmpeg, p6))
    }
    if let failed = costs.first(where: { $0.value.contains { $0.status != 0 } }) {
        return ["  camera clips: \(failed.key) failed (exit \(failed.value.first { $0.status != 0 }!.status))"]
    }
    func med(_ name: String, _ key: KeyPath<Cost, Double>) -> Double { median(costs[name, default: []].map { $0[keyPath: key] }) }
    func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2fx", b > 0 ? a / b : 0) }
    func line(_ label: String, _ name: String) -> String {
        "  \(label)\(format(med(name, \.wall))) wall, \(format(med(name, \.cpu))) CPU"
            + "   ffmpeg \(format(med(name + " peer", \.wall))) wall, \(format(med(name + " peer", \.cpu))) CPU"
            + "   → \(ratio(med(name, \.wall), med(name + " peer", \.wall))) wall, \(ratio(med(name, \.cpu), med(name + " peer", \.cpu))) CPU (target ≤ 1.20x)"
    }
    return [line("C5 1080i → 50 fps     ", "C5") + " [bwdif, one frame per field]",
            line("C6 MJPEG 4:2:2 AVI    ", "C6")]
}
