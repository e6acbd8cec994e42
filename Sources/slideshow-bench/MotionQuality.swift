import Foundation

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
                         + ["-lavfi", "[0:v][1:v]ssim", "-f", "null", "-"])
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

/// The frames of our file the encoder made, and which of them are IDR pictures (ffprobe's
/// packets: the writer's held frames are all-skip slices of a few bytes).
func encodedFrames(_ path: String) -> (all: [Int], keyframes: [Int]) {
    let listing = capture("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size,flags",
                                               "-of", "csv=p=0", path])
    var all: [Int] = [], keyframes: [Int] = []
    for (index, line) in listing.split(separator: "\n").enumerated() {
        let fields = line.split(separator: ",")
        guard fields.count >= 2, let size = Int(fields[0]), size > 100 else { continue }
        all.append(index)
        if fields[1].hasPrefix("K") { keyframes.append(index) }
    }
    return (all, keyframes)
}

/// The number of frames ffprobe counts in a file.
func frameCount(_ path: String) -> Int {
    Int(capture("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                     "-of", "csv=p=0", path]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
}
