import Foundation

// Each codec's R1 and R3 beside H.264's (issue 34): R1 (3 camera photos, cuts, 3 s, 1080p)
// CPU and wall time, medians of alternating runs; R3 (MotionBench.swift's fade+zoom show,
// 270 frames) once each: CPU and wall time, peak RSS, size and SSIM against the same show at
// CRF 1 in H.264 with every frame encoded (ZoomBench's reference). Targets: R1 at most 1.5x
// H.264's CPU time; R3 at least 25% smaller at the same SSIM (±0.002).

/// The codecs compared with H.264, each with the `slideshow make` options that choose it and
/// its container's extension.
let benchCodecs: [(name: String, options: [String], container: String)] = [
    ("HEVC", ["--codec", "hevc"], "mp4"),
    ("AV1", ["--codec", "av1"], "mp4"),
    ("VP9", ["--codec", "vp9"], "webm"),
]

/// R1 and R3 in H.264 and in each of ``benchCodecs``; returns the lines to print.
/// - Parameter scratch: the scratch file of a name; R3's reference is rendered there unless
///   ZoomBench left it (`r3-reference.mp4`).
func codecBenchmark(tool: String, ffmpeg: String, photos: [String], runs: Int, scratch: (String) -> String) -> [String] {
    let codecs = [(name: "H.264", options: [String](), container: "mp4")] + benchCodecs
    func r1(_ options: [String], _ output: String) -> [String] {
        ["make"] + photos + ["--duration", "3", "--overwrite", "--quiet", "-o", scratch(output)] + options
    }
    func r3(_ options: [String], _ output: String) -> [String] {
        ["make"] + photos + ["--duration", "9", "--transition", "fade", "--transition-duration", "1",
                             "--motion", "zoom-in", "--zoom", "0.2", "--fit", "fill", "--overwrite", "--quiet", "-o", scratch(output)] + options
    }
    let reference = scratch("r3-reference.mp4")
    if !FileManager.default.fileExists(atPath: reference) { _ = measure(tool, r3(["--crf", "1", "--hold", "encode"], "r3-reference.mp4")) }

    var r1Costs: [String: [Cost]] = [:]
    for codec in codecs { _ = measure(tool, r1(codec.options, "codec-r1." + codec.container)) }  // warm the page cache and the binary
    for _ in 0..<max(1, runs) {
        for codec in codecs { r1Costs[codec.name, default: []].append(measure(tool, r1(codec.options, "codec-r1." + codec.container))) }
    }
    var r3Costs: [String: Cost] = [:], r3Quality: [String: Quality] = [:]
    for codec in codecs {
        let file = "codec-r3-\(codec.name).\(codec.container)"
        r3Costs[codec.name] = measure(tool, r3(codec.options, file))
        r3Quality[codec.name] = quality(ffmpeg: ffmpeg, scratch(file), reference: reference)
        try? FileManager.default.removeItem(atPath: scratch(file))
    }
    if codecs.contains(where: { r1Costs[$0.name]!.contains { $0.status != 0 } || r3Costs[$0.name]!.status != 0 }) {
        return ["slideshow-bench: a codec's R1 or R3 failed"]
    }

    var lines = ["", "Codecs: R1 (3 photos, cuts, 3 s) medians of \(max(1, runs)) alternating runs; R3 (fade+zoom, 9 s) once each, SSIM against its H.264 CRF 1 reference",
                 "  codec  R1 cpu    R1 wall   R1 cpu/H.264  R3 cpu     R3 wall    R3 peak RSS  R3 size     R3 SSIM   R3 size/H.264"]
    let h264 = (r1: median(r1Costs["H.264"]!.map(\.cpu)), r3: r3Quality["H.264"]!)
    for codec in codecs {
        let r1CPU = median(r1Costs[codec.name]!.map(\.cpu)), r1Wall = median(r1Costs[codec.name]!.map(\.wall))
        let cost = r3Costs[codec.name]!, quality = r3Quality[codec.name]!
        lines.append("  " + codec.name.padding(toLength: 6, withPad: " ", startingAt: 0)
                     + String(format: " %@  %@  %5.2fx         %@  %@  %@       %9d   %.5f   %5.2fx", format(r1CPU), format(r1Wall), r1CPU / h264.r1,
                              format(cost.cpu), format(cost.wall), megabytes(cost.peakRSS), quality.bytes, quality.ssim,
                              Double(quality.bytes) / Double(h264.r3.bytes)))
    }
    lines.append("  (targets: R1 cpu/H.264 ≤ 1.50x; R3 size/H.264 ≤ 0.75x with SSIM within ±0.002 of H.264's)")
    return lines
}
