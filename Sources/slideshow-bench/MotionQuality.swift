import Foundation
import SlideshowKit
import SlideshowWriter

// Rate and quality of the motion benchmark's shows (issue 25): SSIM against a reference,
// the CRF at which the peer's encode reaches our file's size, and which frames of our file
// the encoder made (the rest are the writer's held frames).

/// One encode's quality: SSIM (ffmpeg's `ssim` filter, `All`: Y, U and V weighted 4:1:1,
/// the mean over the frames) against a reference, and its size.
struct Quality {
    var ssim: Double
    var bytes: Int
    /// The bit rate of a 9-second show.
    var megabitsPerSecond: Double { Double(bytes) * 8 / 9 / 1_000_000 }
}

/// ffmpeg's arguments for a raw yuv420p 1080p30 input.
func rawInput(_ path: String) -> [String] {
    ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "1920x1080", "-r", "30", "-i", path]
}

/// SSIM of `encoded` against `reference` (an MP4 or, ending in `.yuv`, raw 1080p30 frames).
func quality(ffmpeg: String, _ encoded: String, reference: String) -> Quality {
    let referenceInput = reference.hasSuffix(".yuv") ? rawInput(reference) : ["-i", reference]
    let report = capture(ffmpeg, ["-hide_banner", "-nostats", "-i", encoded] + referenceInput
                         // Frames paired by number at 30 fps: WebM's millisecond timestamps would
                         // otherwise pair every third frame with its neighbour.
                         + ["-lavfi", "[0:v]setpts=N/30/TB[a];[1:v]setpts=N/30/TB[b];[a][b]ssim", "-f", "null", "-"])
    // "[Parsed_ssim_0 @ …] SSIM Y:0.987 (18.9) U:… V:… All:0.985604 (18.41)"
    let all = report.split(separator: "\n").last { $0.contains("SSIM Y:") }?
        .split(separator: " ").first { $0.hasPrefix("All:") }?.dropFirst(4)
    return Quality(ssim: all.flatMap { Double($0) } ?? .nan, bytes: fileSize(encoded))
}

/// The CRF (two decimals) at which `encode` makes a file of `targetBytes` (within 1.5%, at
/// most five tries): a secant search on the logarithm of the size, which x264 makes close to
/// linear in the CRF (about half the bytes for 6 more).
/// - Parameter encode: runs the encode at a CRF and returns the file's size.
func crf(forBytes targetBytes: Int, startingAt start: Double = 20, _ encode: (Double) -> Int) -> (crf: Double, bytes: Int) {
    func clamp(_ crf: Double) -> Double { (max(1, min(51, crf)) * 100).rounded() / 100 }
    let target = log(Double(targetBytes))
    var previous = (crf: start, size: log(Double(encode(start))))
    var best = (crf: start, bytes: Int(exp(previous.size).rounded()))
    // The first step assumes 6 CRF a halving; then the secant through the last two tries.
    var next = clamp(start - 6 * (target - previous.size) / log(2))
    for _ in 0..<4 {
        if abs(previous.size - target) < 0.015 { break }
        let bytes = encode(next)
        let size = log(Double(bytes))
        if abs(size - target) < abs(log(Double(best.bytes)) - target) { best = (next, bytes) }
        let slope = (size - previous.size) / (next - previous.crf)
        previous = (next, size)
        guard slope.isFinite, slope < 0 else { break }
        next = clamp(next + (target - size) / slope)
        if next == previous.crf { break }
    }
    return best
}

/// The pictures our file's encoders made, by frame (the packets' presentation times; the
/// writer's held frames are all-skip slices of a few bytes), split as the writer splits them
/// (``WriterEngine``): a picture followed at once by another belongs to a motion run, the
/// others (held, or the last) are the stills encoder's IDRs.
struct EncodedPictures {
    /// Every picture the encoders made, in presentation order.
    var all: [Int] = []
    /// The motion runs, each its consecutive frames.
    var runs: [[Int]] = []
    /// The stills encoder's pictures.
    var stills: [Int] = []

    init(_ path: String) {
        let listing = capture("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,size",
                                                   "-of", "csv=p=0", path])
        let rate = Double(VideoSettings().framesPerSecond)
        all = listing.split(separator: "\n").compactMap { line -> Int? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]), let size = Int(fields[1]), size > 100 else { return nil }
            return Int((time * rate).rounded())
        }.sorted()
        let made = Set(all)
        for frame in all {
            if made.contains(frame + 1) {
                if let last = runs.last?.last, last == frame - 1 { runs[runs.count - 1].append(frame) } else { runs.append([frame]) }
            } else {
                stills.append(frame)
            }
        }
    }
}

/// x264 alone on the pictures our encoders made, split as our writer splits them: each
/// motion run from its own raw file with the motion encoder's settings, the stills in one
/// file with the stills encoder's, each an IDR. Returns ffmpeg's arguments for each encode,
/// having cut the raw files (yuv420p) out of `reference` (our show rendered at CRF 1).
func floorEncodes(ffmpeg: String, reference: String, pictures: EncodedPictures, scratch: (String) -> String) -> [[String]] {
    func cut(_ frames: [Int], to raw: String) {
        let selection = frames.count > 1 && frames.last! - frames.first! == frames.count - 1
            ? "between(n,\(frames.first!),\(frames.last!))" : frames.map { "eq(n,\($0))" }.joined(separator: "+")
        _ = measure(ffmpeg, ["-v", "error", "-y", "-i", reference, "-vf", "select='\(selection)'", "-fps_mode", "passthrough",
                             "-f", "rawvideo", "-pix_fmt", "yuv420p", raw])
    }
    var encodes: [[String]] = []
    if !pictures.stills.isEmpty {
        cut(pictures.stills, to: scratch("floor-stills.yuv"))
        encodes.append(encodeAlone(scratch("floor-stills.yuv"), output: scratch("floor-stills.mp4"), keyframes: Array(pictures.stills.indices)))
    }
    for (index, run) in pictures.runs.enumerated() {
        cut(run, to: scratch("floor-run\(index).yuv"))
        encodes.append(encodeAlone(scratch("floor-run\(index).yuv"), output: scratch("floor-run\(index).mp4"), motion: true))
    }
    return encodes
}

/// Deletes the raw files and encodes ``floorEncodes(ffmpeg:reference:pictures:scratch:)`` made.
func removeFloorFiles(_ pictures: EncodedPictures, scratch: (String) -> String) {
    for name in ["floor-stills"] + pictures.runs.indices.map({ "floor-run\($0)" }) {
        for suffix in [".yuv", ".mp4"] { try? FileManager.default.removeItem(atPath: scratch(name + suffix)) }
    }
}

/// The sum of the encodes' costs (CPU and wall time; the largest peak).
func total(_ costs: [Cost]) -> Cost {
    Cost(wall: costs.map(\.wall).reduce(0, +), cpu: costs.map(\.cpu).reduce(0, +), peakRSS: costs.map(\.peakRSS).max() ?? 0,
         status: costs.map(\.status).max() ?? 0)
}

/// The number of frames ffprobe counts in a file.
func frameCount(_ path: String) -> Int {
    Int(capture("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                     "-of", "csv=p=0", path]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
}
