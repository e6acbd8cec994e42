import Foundation

// D3 (issue 34): R3 (ZoomBench.swift: 3 photos, 9 s, 1 s fades, zoom-in 0.2, fill, 1920x1080)
// and the same show with --draft (960x540, x264 ultrafast), alternated, each `runs` times;
// the medians' ratio against the target: the draft at least 5x faster.
func draftBenchmark(tool: String, photos: [String], runs: Int, scratch: (String) -> String) {
    func r3(_ extra: [String], _ output: String) -> [String] {
        ["make"] + photos + ["--duration", "9", "--transition", "fade", "--transition-duration", "1",
                             "--motion", "zoom-in", "--zoom", "0.2", "--fit", "fill", "--overwrite", "--quiet", "-o", scratch(output)] + extra
    }
    _ = measure(tool, r3(["--draft"], "d3.mp4"))   // warm-up: the photos in the page cache
    var final: [Double] = [], draft: [Double] = []
    for _ in 0..<max(1, runs) {
        final.append(measure(tool, r3([], "r3-final.mp4")).wall)
        draft.append(measure(tool, r3(["--draft"], "d3.mp4")).wall)
    }
    let ratio = median(draft) > 0 ? median(final) / median(draft) : 0
    print("")
    print("D3: R3 as a draft (--draft: 960x540, ultrafast) against the final render, median of \(max(1, runs))")
    print("  R3 final  \(format(median(final)))")
    print("  R3 draft  \(format(median(draft)))   \(String(format: "%.1f", ratio))x faster (target: at least 5x) \(ratio >= 5 ? "✓" : "✗")")
}
