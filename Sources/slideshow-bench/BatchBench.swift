import Foundation

/// `slideshow-bench --batch`: the throughput of `slideshow batch`, 12 jobs of the three camera
/// photos each (1920x1080, 30 fps, 3 s: make's defaults), with `--jobs 1` and with `--jobs 2`,
/// alternating. Prints each one's median wall time and the average number of cores busy
/// (CPU time over wall time).
func batchBenchmark(tool: String, photos: [String], scratch: URL, runs: Int) {
    let folder = scratch.appendingPathComponent("batch")
    let manifest = folder.appendingPathComponent("jobs.json").path
    let jobs = (0..<12).map { index -> [String: Any] in
        ["photos": (0..<3).map { photos[(index + $0) % photos.count] },
         "output": folder.appendingPathComponent("job\(index).mp4").path]
    }
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: jobs).write(to: URL(fileURLWithPath: manifest))
    } catch {
        print("slideshow-bench: cannot write the manifest: \(error)")
        exit(1)
    }
    func batch(_ jobs: Int) -> [String] { ["batch", manifest, "--jobs", String(jobs), "--overwrite"] }

    print("Batch: 12 jobs × 3 camera photos → 1920x1080, 30 fps, 3 s; medians of \(runs) runs each, alternating")
    _ = measure(tool, batch(2))  // warm the page cache and the binary
    var costs: [Int: [Cost]] = [1: [], 2: []]
    for _ in 0..<runs {
        for jobs in [1, 2] { costs[jobs]!.append(measure(tool, batch(jobs))) }
    }
    for (jobs, list) in costs.sorted(by: { $0.key < $1.key }) {
        if list.contains(where: { $0.status != 0 }) {
            print("slideshow-bench: slideshow batch --jobs \(jobs) failed")
            exit(1)
        }
        let wall = median(list.map(\.wall)), cpu = median(list.map(\.cpu))
        print(String(format: "  --jobs %d  wall %@  cpu %@  cores busy %.2f  peak RSS %@", jobs, format(wall), format(cpu),
                     median(list.map(\.cores)), megabytes(list.map(\.peakRSS).max()!)))
    }
    let one = median(costs[1]!.map(\.wall)), two = median(costs[2]!.map(\.wall))
    print(String(format: "  --jobs 2 is %.2fx as fast as --jobs 1; cores busy with --jobs 2: %.2f   (target ≥ 1.60)",
                 one / two, median(costs[2]!.map(\.cores))))
}
