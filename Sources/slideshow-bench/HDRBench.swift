import Foundation
import SlideshowKit
import SlideshowPlan
import SlideshowWriter

// HDR shows against ffmpeg + libx265 (issue 35): the moving HDR show (three copies of the shared
// gain-map HEIC, 3 s, 1080p, `--hdr pq --transition fade --motion zoom-in`) and the same show
// without motion, each beside ffmpeg encoding the show's own 90 frames (10-bit 4:2:0, raw) with
// exactly the settings of the tool's x265 (the same x265 options string: the preset, CRF, Main 10
// and ``VideoSettings/x265Parameters`` of a PQ show, the colour tags and SAR). The frames are the
// very pictures the show gives its x265 (``exactHDRFrames``), not the show's output decoded: x265
// spends less on pictures it has already coded once (their fine detail is gone), and on the moving
// show ffmpeg took 14.0 s of CPU on the decoded frames against 14.85 s on the show's own, whose
// file came out within 3 bytes of the show's (2,855,530 against 2,855,527).
// Medians of `runs` alternating runs of user + system CPU; targets: the moving show at most 1.2x
// the peer's CPU, peak memory at most 300 MB.
// Then the HDR show of cuts (the same three photos, 3 s, `--hdr pq`) beside R1 (the three camera
// JPEGs, 3 s, H.264), alternating: wall and CPU; target: within 3x R1's time.

/// The moving HDR show and the dissolve show beside ffmpeg + libx265; returns the lines to print.
/// - Parameters:
///   - clips: the shared clips' folder, which holds `livephoto_iphone15pro_IMG_4394.HEIC`.
///   - photos: R1's three camera JPEGs.
func hdrBenchmark(tool: String, ffmpeg: String, clips: String, photos: [String], runs: Int, scratch: (String) -> String) -> [String] {
    let heic = URL(fileURLWithPath: clips).appendingPathComponent("livephoto_iphone15pro_IMG_4394.HEIC").path
    guard FileManager.default.fileExists(atPath: heic) else { return ["slideshow-bench: \(heic) is not there (give --clip-folder DIR)"] }
    var settings = VideoSettings(codec: .hevc)
    settings.hdr = .pq
    func show(_ options: [String], _ output: String) -> [String] {
        ["make", heic, heic, heic, "--duration", "3", "--hdr", "pq", "--overwrite", "--quiet", "-o", scratch(output)] + options
    }
    func peer(_ raw: String, _ output: String) -> [String] {
        ["-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s", "1920x1080", "-r", "30", "-i", raw, "-vf", "setsar=1",
         "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-colorspace", "bt2020nc",
         "-c:v", "libx265", "-preset", settings.preset, "-crf", String(settings.crf), "-profile:v", "main10",
         "-x265-params", settings.x265Parameters, "-y", scratch(output)]
    }
    var lines = ["", "HDR shows (3 x the gain-map HEIC, 3 s, 1080p, PQ) against ffmpeg + libx265 on the 90 frames the show encodes, same x265 settings;",
                 "medians of \(max(1, runs)) alternating runs, user + system CPU",
                 "  show                 ours cpu   peer cpu   ours/peer  ours peak  peer peak"]
    for (name, options, motion) in [("fade + zoom-in", ["--transition", "fade", "--motion", "zoom-in"], MotionStyle.zoomIn),
                                     ("fade", ["--transition", "fade"], MotionStyle.none)] {
        let raw = scratch("hdr.yuv")
        _ = measure(tool, show(options, "hdr.mp4"))  // warm the page cache
        guard measure("/proc/self/exe", ["--exact-hdr-frames", ffmpeg, heic, motion.rawValue, raw]).status == 0 else {
            return ["slideshow-bench: the HDR show's own frames could not be made"]
        }
        var ours: [Cost] = [], theirs: [Cost] = []
        for _ in 0..<max(1, runs) {
            ours.append(measure(tool, show(options, "hdr.mp4")))
            theirs.append(measure(ffmpeg, peer(raw, "hdr-peer.mp4")))
        }
        try? FileManager.default.removeItem(atPath: raw)
        guard !(ours + theirs).contains(where: { $0.status != 0 }) else { return ["slideshow-bench: an HDR render failed"] }
        let (cpu, peerCPU) = (median(ours.map(\.cpu)), median(theirs.map(\.cpu)))
        lines.append("  " + name.padding(toLength: 19, withPad: " ", startingAt: 0)
                     + String(format: "  %@  %@  %5.2fx     %@     %@", format(cpu), format(peerCPU), cpu / peerCPU,
                              megabytes(ours.map(\.peakRSS).max()!), megabytes(theirs.map(\.peakRSS).max()!)))
    }
    lines.append("  (targets: the moving show ≤ 1.20x the peer's CPU, peak ≤ 300 MB; peaks are the highest of the runs)")
    lines += cutsAgainstR1(tool: tool, heic: heic, photos: photos, runs: runs, scratch: scratch)
    return lines
}

/// Writes to `raw` (in a process of its own: `slideshow-bench --exact-hdr-frames`) the 90 pictures the HDR show (three copies of `heic`, 3 s, 1080p, PQ, with this
/// transition and motion) gives its x265, as raw 10-bit 4:2:0: the show rendered in this process
/// with x265 lossless (``VideoSettings/losslessHEVC``, every held frame encoded, preset
/// `ultrafast`), which ffmpeg then decodes. Only the encoder's settings differ from the tool's
/// render, and no picture depends on them.
/// - Returns: whether the render and the decode succeeded.
func exactHDRFrames(heic: String, transition: TransitionEffect, motion: MotionStyle, ffmpeg: String, raw: String,
                    scratch: (String) -> String) -> Bool {
    let lossless = scratch("hdr-lossless.mp4")
    defer { try? FileManager.default.removeItem(atPath: lossless) }
    var options = SlideshowOptions(duration: 3, preset: "ultrafast", hold: .encode)
    options.hdr = .pq
    options.transition = transition
    options.motion = motion
    guard var losslessShow = try? options.slideshow(photos: [heic, heic, heic].map { Photo(path: $0) }, output: lossless, overwrite: true) else {
        return false
    }
    losslessShow.video.losslessHEVC = true
    let show = losslessShow
    guard waitFor({ (try? await show.render()) != nil }) else { return false }
    return measure(ffmpeg, ["-loglevel", "error", "-i", lossless, "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-y", raw]).status == 0
}

/// The HDR show of cuts (three gain-map HEICs, 3 s, 1080p, PQ) beside R1 (`--hdr-cuts` runs only this) (three camera JPEGs,
/// 3 s, 1080p, H.264), alternating: medians of wall time and of CPU, the ratios against 3x.
func cutsAgainstR1(tool: String, heic: String, photos: [String], runs: Int, scratch: (String) -> String) -> [String] {
    let cuts = ["make", heic, heic, heic, "--duration", "3", "--hdr", "pq", "--overwrite", "--quiet", "-o", scratch("hdr-cuts.mp4")]
    let r1 = ["make"] + photos + ["--duration", "3", "--filter", "original", "--overwrite", "--quiet", "-o", scratch("hdr-r1.mp4")]
    _ = measure(tool, cuts)  // warm the page cache
    _ = measure(tool, r1)
    var ours: [Cost] = [], reference: [Cost] = []
    for _ in 0..<max(1, runs) {
        ours.append(measure(tool, cuts))
        reference.append(measure(tool, r1))
    }
    guard !(ours + reference).contains(where: { $0.status != 0 }) else { return ["slideshow-bench: the HDR cuts show or R1 failed"] }
    let (wall, cpu) = (median(ours.map(\.wall)), median(ours.map(\.cpu)))
    let (r1Wall, r1CPU) = (median(reference.map(\.wall)), median(reference.map(\.cpu)))
    return ["", "HDR show of cuts (3 x the gain-map HEIC, 3 s, 1080p, PQ) against R1 (3 camera JPEGs, 3 s, 1080p, H.264); medians of \(max(1, runs)) alternating runs",
            "  show                 wall       cpu        peak",
            "  HDR cuts           " + String(format: "  %@  %@  %@", format(wall), format(cpu), megabytes(ours.map(\.peakRSS).max()!)),
            "  R1                 " + String(format: "  %@  %@  %@", format(r1Wall), format(r1CPU), megabytes(reference.map(\.peakRSS).max()!)),
            String(format: "  HDR cuts / R1: %.2fx wall, %.2fx CPU   (target ≤ 3x)", wall / r1Wall, cpu / r1CPU)]
}
