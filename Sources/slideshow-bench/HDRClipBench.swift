import Foundation
import SlideshowKit
import SlideshowWriter

// Issue 35's memory figure for HDR clips: peak memory ≤ 300 MB at 1080p.
//
// H1: the shared iPhone HLG clip (1080p HEVC Main 10, portrait, 2.5 s: 76 frames at 30 fps) alone in a
//     `--hdr pq` show at 1920x1080, without and with a look (`sepia`, applied to each frame's SDR
//     base and lifted again, HDRClipLook), without sound; against ffmpeg doing the same work:
//     decoding the clip, turning it upright, zimg (`zscale`) to 608x1080 PQ BT.2020 10-bit,
//     padding to 1920x1080, and libx265 with our HDR encoder's settings (the same preset, CRF
//     and x265-params).

/// The libx265 options of our HDR stills encoder (the one encoder of an HDR show), for the peer.
private func ourX265(hdr: HDRTransfer) -> [String] {
    var settings = VideoSettings()
    settings.codec = .hevc
    settings.hdr = hdr
    return ["-c:v", "libx265", "-preset", settings.preset, "-crf", String(settings.crf), "-profile:v", "main10",
            "-x265-params", settings.x265Parameters]
}

func hdrClipBenchmark(tool: String, ffmpeg: String, clips: String, scratch: (String) -> String, runs: Int) -> [String] {
    let clip = URL(fileURLWithPath: clips).appendingPathComponent("mp4_hevc_main10_hlg_bt2020_iphone_rot90_aac_editlist.mp4").path
    guard FileManager.default.fileExists(atPath: clip) else {
        return ["HDR clips: skipped, the shared clips are not in \(clips) (give --clip-folder DIR)"]
    }
    func ours(_ name: String, _ extra: [String] = []) -> [String] {
        ["make", clip, "--hdr", "pq", "--mute-clips", "--overwrite", "--quiet", "-o", scratch(name)] + extra
    }
    let filter = "zscale=w=608:h=1080:f=spline16:tin=arib-std-b67:pin=bt2020:min=bt2020nc:t=smpte2084:p=bt2020:m=bt2020nc:npl=203,"
        + "format=yuv420p10le,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=30"
    let peer = ["-v", "error", "-y", "-i", clip, "-vf", filter, "-an"] + ourX265(hdr: .pq) + ["-tag:v", "hvc1", scratch("h1-peer.mp4")]
    let cases: [(name: String, arguments: [String], program: String)] = [
        ("H1", ours("h1.mp4"), tool), ("H1 sepia", ours("h1-sepia.mp4", ["--filter", "sepia"]), tool), ("H1 peer", peer, ffmpeg),
    ]
    var costs: [String: [Cost]] = [:]
    for (_, arguments, program) in cases { _ = measure(program, arguments) }
    for _ in 0..<runs {
        for (name, arguments, program) in cases { costs[name, default: []].append(measure(program, arguments)) }
    }
    func med(_ name: String, _ key: KeyPath<Cost, Double>) -> Double { median(costs[name, default: []].map { $0[keyPath: key] }) }
    func peak(_ name: String) -> Int { costs[name, default: []].map(\.peakRSS).max() ?? 0 }
    var lines = ["", "HDR clips (issue 35): the iPhone HLG clip, 1080p HEVC Main 10, 2.5 s → --hdr pq 1920x1080, 30 fps, x265 medium/CRF \(VideoSettings().crf), no sound"]
    for name in ["H1", "H1 sepia", "H1 peer"] {
        let label = name.padding(toLength: 10, withPad: " ", startingAt: 0)
        lines.append("  \(label) \(format(med(name, \.wall))) wall, \(format(med(name, \.cpu))) CPU, peak \(megabytes(peak(name)))"
            + (name == "H1 peer" ? "" : String(format: "   %.2fx the peer's CPU (target: peak ≤ 300 MB)", med(name, \.cpu) / max(med("H1 peer", \.cpu), 1e-9))))
    }
    if costs.values.joined().contains(where: { $0.status != 0 }) { lines.append("  (a run failed: its figures are not the job's)") }
    return lines
}
