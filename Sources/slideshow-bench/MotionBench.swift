import Foundation
import SlideshowKit
import SlideshowFormats
import SlideshowImages
import SlideshowWriter

// R2/P2 and R3/P3: a crossfade show and a Ken Burns show against ffmpeg's recipes, with
// their floors, R3 and P3 at the same file size with SSIM, and the memory of the motion show
// from 3 to 30 photos (issue 25).
//
// R2: --duration 9 --transition fade --transition-duration 1 (270 frames: 3 held pictures and
//     60 transition frames). P2 careful: ffmpeg's xfade over stills each decoded and scaled
//     once and held by the loop filter. P2 naive: xfade over `-loop 1 -t S -i photo`, which
//     decodes and scales each photo again for every frame (the recipe most answers give).
// R3: R2 plus --motion zoom-in --zoom 0.2 --fit fill (every frame composed and encoded).
//     P3: ffmpeg's Ken Burns recipe: pre-upscale 4x, zoompan, xfade between. It has no naive
//     form: zoompan makes all of a photo's frames from its one decoded picture. P3 all the
//     way: the zoom spread over each photo's whole time, as R3 moves. P3 at R3's size: P3 at
//     the CRF (searched on P3's own frames) whose file is as large as R3's.
// Quality: SSIM of R3 against the same show rendered at CRF 1 with every frame encoded by the
// one stills encoder (`--hold encode`: our jitter-free reference, whose coding owes nothing
// to the motion encoder's choices), and of P3 against its own filter graph's frames before
// encoding.
// Floors: R2's is decoding the photos (at the chosen DCT scale, one core) plus x264 encoding
// only the pictures our encoders see; R3's is x264 alone encoding its 270 frames. Both split
// the pictures as our writer does (EncodedPictures): each motion run with the motion
// encoder's settings (VideoSettings.motionX264Parameters), the held pictures, each an IDR,
// with the stills encoder's (VideoSettings.x264Parameters). The encodes run in ffmpeg from
// raw frames (our show's, from that reference).
// Figures are medians of alternating runs; ratios are of CPU time (user + sys), since the
// machine may be shared, with wall times beside them.

/// Which half of the motion benchmark to run.
enum MotionPart: CaseIterable { case dissolve, zoom, draft }

func motionBenchmark(tool: String, ffmpeg: String, photos: [String], runs: Int, scratch: (String) -> String,
                     parts: Set<MotionPart> = Set(MotionPart.allCases)) {
    print("")
    print("R2/R3: the same 3 photos, 9 s, 1 s fades (R3: zoom-in 0.2, fill) → 1920x1080, 30 fps, x264 medium/stillimage CRF 20")
    print("Medians of \(runs) runs each, alternating; ratios of CPU time (user + sys), wall times beside them")
    if parts.contains(.dissolve) { dissolveBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, runs: runs, scratch: scratch) }
    if parts.contains(.zoom) { zoomBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, runs: runs, scratch: scratch) }
    if parts.contains(.draft) { draftBenchmark(tool: tool, photos: photos, runs: runs, scratch: scratch) }
}

let peerFit = "scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p"
/// ffmpeg's x264 settings for the peers: ours, at its defaults otherwise (B-frames, lookahead, mb-tree, frame threads).
func peerEncode(crf: Double = 20) -> [String] {
    ["-c:v", "libx264", "-preset", "medium", "-tune", "stillimage", "-crf", String(format: "%.2f", crf), "-movflags", "+faststart"]
}
/// x264 alone on raw frames, with our stills encoder's settings or a motion run's.
/// - Parameters:
///   - motion: whether to encode as a motion run (``VideoSettings/motionX264Parameters`` at ``VideoSettings/motionCRF``).
///   - parameters: the stills encoder's x264-params, ours unless a variant is measured.
func encodeAlone(_ raw: String, output: String, keyframes: [Int] = [0], motion: Bool = false,
                 parameters: String = VideoSettings().x264Parameters) -> [String] {
    let settings = VideoSettings()
    return ["-v", "error", "-y"] + rawInput(raw)
        + ["-c:v", "libx264", "-preset", settings.preset, "-tune", settings.tune ?? "",
           "-crf", String(motion ? settings.motionCRF : settings.crf),
           "-x264-params", motion ? settings.motionX264Parameters : parameters,
           "-force_key_frames", "expr:" + keyframes.map { "eq(n,\($0))" }.joined(separator: "+"), "-f", "mp4", output]
}

func motionRow(_ name: String, _ list: [Cost], extra: String = "") -> String {
    "  \(name.padding(toLength: 22, withPad: " ", startingAt: 0)) cpu \(format(median(list.map(\.cpu))))  wall \(format(median(list.map(\.wall))))  peak RSS \(megabytes(list.map(\.peakRSS).max()!))\(extra)"
}

/// R2 against P2, careful and naive, and R2's floor.
func dissolveBenchmark(tool: String, ffmpeg: String, photos: [String], runs: Int, scratch: (String) -> String) {
    let r2 = ["make"] + photos + ["--duration", "9", "--transition", "fade", "--transition-duration", "1",
                                  "--overwrite", "--quiet", "-o", scratch("r2.mp4")]
    let inputs = ["-v", "error", "-y", "-i", photos[0], "-i", photos[1], "-i", photos[2]]
    let xfades = "[a][b]xfade=transition=fade:duration=1:offset=2.5[ab];[ab][c]xfade=transition=fade:duration=1:offset=5.5,format=yuv420p"
    // Careful: each photo decoded and scaled once, then held by the loop filter (3.5, 4 and 3.5 s).
    func held(_ frames: Int) -> String { "\(peerFit),loop=loop=\(frames - 1):size=1:start=0,setpts=N/30/TB" }
    let p2Careful = inputs + ["-filter_complex", "[0]\(held(105))[a];[1]\(held(120))[b];[2]\(held(105))[c];\(xfades)", "-r", "30"]
        + peerEncode() + [scratch("p2-careful.mp4")]
    // Naive: the image demuxer loops the file, so every frame decodes and scales the photo again.
    let p2Naive = ["-v", "error", "-y",
                   "-framerate", "30", "-loop", "1", "-t", "3.5", "-i", photos[0],
                   "-framerate", "30", "-loop", "1", "-t", "4", "-i", photos[1],
                   "-framerate", "30", "-loop", "1", "-t", "3.5", "-i", photos[2],
                   "-filter_complex", "[0]\(peerFit)[a];[1]\(peerFit)[b];[2]\(peerFit)[c];\(xfades)"]
        + peerEncode() + [scratch("p2-naive.mp4")]

    // One run first, whose pictures the floor encodes: those the encoders made (our file's
    // packets that are not held frames), split between the stills and motion encoders as
    // ours are. They are taken from the same show rendered at CRF 1, `--hold encode` (frames decoded from the
    // CRF 20 file would carry its losses into the floor's encode).
    _ = measure(tool, r2)
    _ = measure(tool, Array(r2.dropLast()) + [scratch("r2-reference.mp4"), "--crf", "1", "--hold", "encode"])
    let made = EncodedPictures(scratch("r2.mp4"))
    let floorJobs = floorEncodes(ffmpeg: ffmpeg, reference: scratch("r2-reference.mp4"), pictures: made, scratch: scratch)
    var costs: [String: [Cost]] = [:]
    var decodeTimes: [Double] = [], encodes: [Cost] = []
    let manager = ImageManager()
    for _ in 0..<runs {
        costs["R2 fade", default: []].append(measure(tool, r2))
        costs["P2 careful (loop)", default: []].append(measure(ffmpeg, p2Careful))
        costs["P2 naive (-loop 1)", default: []].append(measure(ffmpeg, p2Naive))
        decodeTimes.append(time {
            for photo in photos { _ = try! manager.decodeAtChosenScale(Photo(path: photo), targetSize: .hd1080) }
        })
        encodes.append(total(floorJobs.map { measure(ffmpeg, $0) }))
    }
    removeFloorFiles(made, scratch: scratch)
    try? FileManager.default.removeItem(atPath: scratch("r2-reference.mp4"))
    for (name, list) in costs where list.contains(where: { $0.status != 0 }) {
        print("slideshow-bench: \(name) failed")
        return
    }
    let cpu = { (name: String) in median(costs[name]!.map(\.cpu)) }
    let wall = { (name: String) in median(costs[name]!.map(\.wall)) }
    func size(_ file: String) -> String { String(format: ", %.2f MB", Double(fileSize(scratch(file))) / 1e6) }
    print(motionRow("R2 fade", costs["R2 fade"]!, extra: ", \(frameCount(scratch("r2.mp4"))) frames" + size("r2.mp4")))
    print(motionRow("P2 careful (loop)", costs["P2 careful (loop)"]!, extra: ", \(frameCount(scratch("p2-careful.mp4"))) frames" + size("p2-careful.mp4")))
    print(motionRow("P2 naive (-loop 1)", costs["P2 naive (-loop 1)"]!, extra: ", \(frameCount(scratch("p2-naive.mp4"))) frames" + size("p2-naive.mp4")))
    // The decode runs on one core in this process: its wall time is its CPU time.
    let floorCPU = median(decodeTimes) + median(encodes.map(\.cpu))
    let floorWall = median(decodeTimes) + median(encodes.map(\.wall))
    print("  Floor R2: decode at DCT scale \(format(median(decodeTimes))) + x264 alone on the \(made.all.count) pictures the encoders see (\(made.stills.count) held, \(made.runs.count) runs of \(made.runs.map { String($0.count) }.joined(separator: ", "))) \(format(median(encodes.map(\.cpu)))) cpu = \(format(floorCPU)) (wall \(format(floorWall)))")
    print(String(format: "  P2 careful / R2: %.2fx cpu (%.2fx wall)   (target ≥ 2x)      P2 naive / R2: %.1fx cpu (%.1fx wall)",
                 cpu("P2 careful (loop)") / cpu("R2 fade"), wall("P2 careful (loop)") / wall("R2 fade"),
                 cpu("P2 naive (-loop 1)") / cpu("R2 fade"), wall("P2 naive (-loop 1)") / wall("R2 fade")))
    print(String(format: "  R2 / floor: %.2fx cpu (%.2fx wall)   (target ≤ 1.20x)", cpu("R2 fade") / floorCPU, wall("R2 fade") / floorWall))
}
