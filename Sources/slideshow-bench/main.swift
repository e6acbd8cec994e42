import Foundation
import Synchronization
import SlideshowKit
import SlideshowFormats
import SlideshowImages
import SlideshowLooks
import SlideshowPixels
import SlideshowPlan
import SlideshowSupport
import SlideshowWriter

// slideshow-bench: the speed and memory figures of issue R1 against ffmpeg's best recipe (P1).
//
//   .build/release/slideshow-bench [--runs N] [--photos DIR] [--batch | --motion]
//
// Runs, side by side and alternating: R1 (our tool, original, minimal-life and with a caption per photo) and P1
// (ffmpeg, each photo decoded once and held by the loop filter); the floor (decoding the
// three photos at the chosen DCT scale on one core + encoding only the three distinct
// frames); peak memory at 3 and 60 photos; and how time grows with the number of photos.
// With --batch, only the throughput of `slideshow batch` with one and two jobs at once (BatchBench.swift).
// With --motion, only R2/P2 and R3/P3: transitions and Ken Burns against ffmpeg (MotionBench.swift, ZoomBench.swift), which the full run also prints;
// --r2 or --r3 runs only that half of it (R2 against the careful and naive P2; R3 against P3 at CRF 20 and at R3's size, with SSIM).
// --draft runs only D3 (DraftBench.swift): R3 as a --draft against the final render (issue 34: at least 5x faster); --motion and a full run print it after R3.
// With --audio, only the soundtrack's figures (AudioBench.swift) and the beat-cut grid; a full run prints them last.
// With --beats, only the beat-cut grid over many songs (BeatGridBench.swift; songs from --songs DIR, default ../songs; --song PART keeps those whose file name holds PART).
// With --slides, only the per-slide cost of each look, the blur fill and the date imprint (SlideCostBench.swift).
// With --clips, only issue 22's clip figures (ClipBench.swift; clips from --clip-folder DIR, default ../shared/clips); a full run prints them last.
// With --pick, only issue 36's picking figures (PickBench.swift): analysis throughput and memory, precision/recall on a labelled set.
// With --camera, only issue 33's camera-clip figures (C5 interlaced 1080i, C6 Motion JPEG; ClipBench.swift), which --clips also prints.
// With --formats, only the phone-format figures of issue 11 (PhoneFormatBench.swift; HEICs from --media DIR, default ../shared/media).
// With --codecs, only each codec's R1 and R3 beside H.264's (CodecBench.swift, issue 34); a full run prints them after R2/R3.
// With --hdr, only the HDR shows (moving and dissolving) beside ffmpeg + libx265 on the frames they encode (HDRBench.swift, issue 35;
// the HEIC from --clip-folder DIR), then the HDR show of cuts beside R1 (with --hdr-cuts, only that), then the HDR clip figures
// (HDRClipBench.swift): an HDR clip in a --hdr pq show against ffmpeg's zscale and libx265 (with --hdr-clips, only these).

var runs = 5
var photoFolder = "../shared/photos"
var batchOnly = false
var motionOnly = false
var motionParts = Set(MotionPart.allCases)
var slidesOnly = false
var audioOnly = false
var formatsOnly = false
var mediaFolder = "../shared/media"
var clipFolder = "../shared/clips"
var clipsOnly = false
var cameraOnly = false
var beatsOnly = false
var pickOnly = false
var codecsOnly = false
var hdrOnly = false
var hdrClipsOnly = false
var hdrCutsOnly = false
var songFolder = "../songs"
var songFilter: String?
var exactFramesJob: [String]?
var gridJob: [String]?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs": runs = Int(arguments.popFirst() ?? "") ?? runs
    case "--photos": photoFolder = arguments.popFirst() ?? photoFolder
    case "--batch": batchOnly = true
    case "--motion": motionOnly = true
    case "--r2": motionOnly = true; motionParts = [.dissolve]
    case "--r3": motionOnly = true; motionParts = [.zoom]
    case "--draft": motionOnly = true; motionParts = [.draft]
    case "--slides": slidesOnly = true
    case "--audio": audioOnly = true
    case "--formats": formatsOnly = true
    case "--media": mediaFolder = arguments.popFirst() ?? mediaFolder
    case "--clips": clipsOnly = true
    case "--camera": cameraOnly = true
    case "--clip-folder": clipFolder = arguments.popFirst() ?? clipFolder
    case "--beats": beatsOnly = true
    case "--pick": pickOnly = true
    case "--codecs": codecsOnly = true
    case "--hdr": hdrOnly = true
    case "--hdr-clips": hdrClipsOnly = true
    case "--hdr-cuts": hdrCutsOnly = true
    case "--songs": songFolder = arguments.popFirst() ?? songFolder
    case "--song": songFilter = arguments.popFirst()
    // --grid SONG SECONDS: the beats the analysis finds in a song's first SECONDS, a line each
    // (music time, and "weak" on a beat without an attack), to set beside another tracker's.
    case "--grid": gridJob = Array(arguments.prefix(2)); arguments = arguments.dropFirst(2)
    // Internal, for --hdr: makes one HDR show's exact frames in a process of its own (``exactHDRFrames``).
    case "--exact-hdr-frames": exactFramesJob = Array(arguments.prefix(4)); arguments = arguments.dropFirst(4)
    default:
        print("usage: slideshow-bench [--runs N] [--photos DIR] [--batch | --motion | --r2 | --r3 | --draft | --audio | --beats | --slides | --formats | --clips | --camera | --pick | --codecs | --hdr | --hdr-cuts | --hdr-clips] [--media DIR] [--clip-folder DIR] [--songs DIR] [--song NAME-PART] | --grid SONG SECONDS")
        exit(64)
    }
}

if let job = gridJob {
    guard job.count == 2, let seconds = Double(job[1]) else { exit(64) }
    exit(printBeatGrid(song: job[0], seconds: seconds) ? 0 : 1)
}

// The floor is measured in this process, under the same memory settings as the tool's.
ProcessTuning.configureForRendering()

// --exact-hdr-frames FFMPEG HEIC MOTION RAW: the HDR bench's peer's input, made here and not in the
// bench's own process, whose peak memory every program it starts would otherwise report as its own
// (`posix_spawn` shares the bench's memory until `exec`, whose peak the child's `ru_maxrss` keeps).
if let job = exactFramesJob {
    guard job.count == 4, let motion = MotionStyle(rawValue: job[2]) else { exit(64) }
    let folder = URL(fileURLWithPath: job[3]).deletingLastPathComponent()
    exit(exactHDRFrames(heic: job[1], transition: .fade, motion: motion, ffmpeg: job[0], raw: job[3],
                        scratch: { folder.appendingPathComponent($0).path }) ? 0 : 1)
}

let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("slideshow").path
let photos = ["camera_nikon_d90_12mp.jpg", "camera_canon_eos5d_13mp_portrait.jpg", "camera_apple_iphone4s_8mp_orient6.jpg"]
    .map { URL(fileURLWithPath: photoFolder).appendingPathComponent($0).path }
guard photos.allSatisfy(FileManager.default.fileExists(atPath:)) else {
    print("slideshow-bench: the camera photos are not in \(photoFolder) (give --photos DIR)")
    exit(1)
}
guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
    print("slideshow-bench: ffmpeg is not installed (apt-get install ffmpeg)")
    exit(1)
}
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("slideshow-bench-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }
func scratchFile(_ name: String) -> String { scratch.appendingPathComponent(name).path }

/// Runs one benchmark on its own, removes the scratch folder and exits.
func runAlone(_ benchmark: () -> Void) -> Never {
    benchmark()
    try? FileManager.default.removeItem(at: scratch)
    exit(0)
}

if motionOnly { runAlone { motionBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, runs: runs, scratch: scratchFile, parts: motionParts) } }

if codecsOnly { runAlone { codecBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, runs: runs, scratch: scratchFile).forEach { print($0) } } }

if hdrCutsOnly {
    let heic = URL(fileURLWithPath: clipFolder).appendingPathComponent("livephoto_iphone15pro_IMG_4394.HEIC").path
    runAlone { cutsAgainstR1(tool: tool, heic: heic, photos: photos, runs: runs, scratch: scratchFile).forEach { print($0) } }
}

if hdrOnly {
    runAlone {
        hdrBenchmark(tool: tool, ffmpeg: ffmpeg, clips: clipFolder, photos: photos, runs: runs, scratch: scratchFile).forEach { print($0) }
        hdrClipBenchmark(tool: tool, ffmpeg: ffmpeg, clips: clipFolder, scratch: scratchFile, runs: runs).forEach { print($0) }
    }
}

if formatsOnly { runAlone { phoneFormatBenchmark(tool: tool, media: mediaFolder, scratch: scratch, runs: runs) } }

if slidesOnly { runAlone { slideCostBenchmark(photos: photos, ffmpeg: ffmpeg, scratch: scratch, runs: runs) } }

if audioOnly { runAlone { audioBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, scratch: scratch, runs: runs, songs: songFolder).forEach { print($0) } } }

if beatsOnly { runAlone { beatGridBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, scratch: scratch, songs: songFolder, only: songFilter).forEach { print($0) } } }

if cameraOnly { runAlone { cameraClipBenchmark(tool: tool, ffmpeg: ffmpeg, scratch: scratchFile, runs: runs).forEach { print($0) } } }

if clipsOnly { runAlone { clipBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, clips: clipFolder, scratch: scratchFile, runs: runs).forEach { print($0) } } }

if hdrClipsOnly { runAlone { hdrClipBenchmark(tool: tool, ffmpeg: ffmpeg, clips: clipFolder, scratch: scratchFile, runs: runs).forEach { print($0) } } }

if pickOnly { runAlone { pickBenchmark(tool: tool, ffmpeg: ffmpeg, photoFolder: photoFolder, mediaFolder: mediaFolder, scratch: scratch).forEach { print($0) } } }

if batchOnly { runAlone { batchBenchmark(tool: tool, photos: photos, scratch: scratch, runs: runs) } }

func ours(_ photos: [String], look: String = "original", seconds: Int = 3, captions: [String] = []) -> [String] {
    let name = "r1-\(look)-\(photos.count)\(captions.isEmpty ? "" : "-captions").mp4"
    return ["make"] + photos + captions.flatMap { ["--caption", $0] }
        + ["--duration", String(seconds), "--filter", look, "--overwrite", "--quiet", "-o", scratchFile(name)]
}
/// R1 with captions: one per photo, in three scripts (issue 23's target: at most 1.10x R1).
let r1Captions = ["Café à Montréal — été 2024", "Прогулка по Москве", "مرحبا بالعالم"]

let peerFilter = "scale=1920:1080:force_original_aspect_ratio=decrease,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,setsar=1,loop=loop=29:size=1:start=0,setpts=N/30/TB"
let peer = ["-v", "error", "-y", "-i", photos[0], "-i", photos[1], "-i", photos[2], "-filter_complex",
            "[0]\(peerFilter)[a];[1]\(peerFilter)[b];[2]\(peerFilter)[c];[a][b][c]concat=n=3:v=1:a=0,format=yuv420p",
            "-r", "30", "-c:v", "libx264", "-preset", "medium", "-tune", "stillimage", "-crf", "20", "-movflags", "+faststart",
            scratchFile("peer.mp4")]

func host() -> String {
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("model name") }?
        .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
    return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu)"
}

print("slideshow-bench on \(host())")
print("R1: 3 camera photos (12, 13 and 8 MP, one EXIF-rotated) → 1920x1080, 30 fps, 3 s, x264 medium/stillimage/CRF 20")
print("")

// 1. R1 against P1, alternating.
_ = measure(tool, ours(photos))  // warm the page cache and the binary
_ = measure(ffmpeg, peer)
var costs: [String: [Cost]] = ["R1 original": [], "R1 minimal-life": [], "R1 with captions": [], "P1 ffmpeg": []]
for _ in 0..<runs {
    costs["R1 original"]!.append(measure(tool, ours(photos)))
    costs["P1 ffmpeg"]!.append(measure(ffmpeg, peer))
    costs["R1 minimal-life"]!.append(measure(tool, ours(photos, look: "minimal-life")))
    costs["R1 with captions"]!.append(measure(tool, ours(photos, captions: r1Captions)))
}
for (name, list) in costs where list.contains(where: { $0.status != 0 }) {
    print("slideshow-bench: \(name) failed")
    exit(1)
}

func encodeDistinctFrames(_ slides: [PixelBuffer], to path: String) throws {
    let writer = try AssetWriter(outputPath: path, settings: VideoSettings(), overwrite: true)
    let input = AssetWriterInput(settings: writer.settings)
    let adaptor = PixelBufferAdaptor(assetWriterInput: input)
    writer.add(input)
    try writer.startWriting()
    writer.startSession(atSourceTime: .zero)
    waitFor {
        // At the job's own times (x264 gives a picture shown longer more bits); the held
        // frames between cost nothing, so this is the encoding of the distinct frames only.
        let step = await input.feed(on: DispatchQueue(label: "floor")) { index in
            guard index < slides.count else { return .finished }
            return adaptor.append(slides[index], withPresentationTime: MediaTime(value: Int64(index) * 30, timescale: 30)) ? .appended : .stopped
        }
        if step == .finished {
            writer.endSession(atSourceTime: MediaTime(value: Int64(slides.count) * 30, timescale: 30))
            try? await writer.finishWriting()
        }
    }
}

// 3. Memory and time as the show grows (run before the floor, see there): 3 to 60 photos, one second each.
var scaling = ["Photos  seconds  wall      cpu       cores  peak RSS"]
var peaks: [Int: Int] = [:]
var walls: [Int: Double] = [:]
for count in [3, 12, 30, 60] {
    let list = (0..<count).map { photos[$0 % photos.count] }
    let samples = (0..<max(1, runs / 2)).map { _ in measure(tool, ours(list, seconds: count)) }
    let wall = median(samples.map(\.wall)), cpu = median(samples.map(\.cpu))
    peaks[count] = samples.map(\.peakRSS).max()!
    walls[count] = wall
    scaling.append(String(format: "%6d  %7d  %@  %@  %5.2f  %@", count, count, format(wall), format(cpu), cpu / wall, megabytes(peaks[count]!)))
}
scaling.append(String(format: "Peak RSS 60 photos / 3 photos: %.2f   (target ≤ 1.20)", Double(peaks[60]!) / Double(peaks[3]!)))
scaling.append(String(format: "Time per photo: %.3f s at 3, %.3f s at 60 (linear when these agree)", walls[3]! / 3, walls[60]! / 60))

// 4. R2/P2 and R3/P3 (MotionBench.swift), before anything grows this process.
motionBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, runs: runs, scratch: scratchFile)
// 4. Each codec's R1 and R3 beside H.264's (CodecBench.swift; R3's reference is the one ZoomBench left).
codecBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, runs: runs, scratch: scratchFile).forEach { print($0) }
// 4. The soundtrack's figures (before the floor, which grows this process), printed last.
let soundtrackLines = audioBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, scratch: scratch, runs: runs, songs: songFolder)
// 5. Clips (ClipBench.swift), printed last too.
let clipLines = clipBenchmark(tool: tool, ffmpeg: ffmpeg, photos: photos, clips: clipFolder, scratch: scratchFile, runs: runs)

// 2. The floor, last: it runs in this process, and a child started after this process has
// grown reports this process's size as its own peak RSS (posix_spawn shares the memory map
// until exec). Decode at the chosen DCT scale on one core, plus encode only the distinct frames.
// Each look's job has its own distinct frames (grain costs the encoder more), so each has its own floor.
var decodeTimes: [Double] = [], encodeTimes: [String: [Double]] = [:]
let manager = ImageManager()
var slides: [String: [PixelBuffer]] = [:]
for look in [Looks.original, Looks.minimalLife] {
    slides[look.name] = photos.enumerated().map { index, photo in
        var slide = try! manager.requestImage(for: Photo(path: photo), targetSize: .hd1080, contentMode: .aspectFit)
        look.apply(to: &slide, slideIndex: index)
        return slide
    }
}
for _ in 0..<runs {
    decodeTimes.append(time {
        for photo in photos { _ = try! manager.decodeAtChosenScale(Photo(path: photo), targetSize: .hd1080) }
    })
    for (name, list) in slides {
        encodeTimes[name, default: []].append(try time { try encodeDistinctFrames(list, to: scratchFile("floor.mp4")) })
    }
}
let floors = encodeTimes.mapValues { median(decodeTimes) + median($0) }
func floor(_ look: String) -> Double { floors[look]! }

func row(_ name: String, _ list: [Cost]) -> String {
    return "\(name.padding(toLength: 18, withPad: " ", startingAt: 0)) wall \(format(median(list.map(\.wall))))  cpu \(format(median(list.map(\.cpu))))  peak RSS \(megabytes(Int(median(list.map { Double($0.peakRSS) }))))  cores busy \(String(format: "%.2f", median(list.map(\.cores))))"
}
print("Medians of \(runs) runs each, alternating:")
for name in ["R1 original", "R1 minimal-life", "R1 with captions", "P1 ffmpeg"] { print("  " + row(name, costs[name]!)) }
for look in ["original", "minimal-life"] {
    print("Floor, \(look): decode at DCT scale \(format(median(decodeTimes))) + encode the 3 distinct frames \(format(median(encodeTimes[look]!))) = \(format(floor(look)))")
}
let ourWall = median(costs["R1 original"]!.map(\.wall))
let lookWall = median(costs["R1 minimal-life"]!.map(\.wall))
let peerWall = median(costs["P1 ffmpeg"]!.map(\.wall))
let captionsWall = median(costs["R1 with captions"]!.map(\.wall))
let ourPeak = costs["R1 original"]!.map(\.peakRSS).max()!
print("")
print(String(format: "R1 / floor: %.2fx original, %.2fx minimal-life   (target ≤ 1.30x)", ourWall / floor("original"), lookWall / floor("minimal-life")))
print(String(format: "P1 / R1:    %.1fx original, %.1fx minimal-life   (target ≥ 8x)", peerWall / ourWall, peerWall / lookWall))
print(String(format: "R1 with captions / R1: %.2fx   (target ≤ 1.10x)", captionsWall / ourWall))
print("Peak RSS at 3 photos: \(megabytes(ourPeak))   (target ≤ 150 MB)")
print("")
scaling.forEach { print($0) }
soundtrackLines.forEach { print($0) }
clipLines.forEach { print($0) }
slideCostBenchmark(photos: photos, ffmpeg: ffmpeg, scratch: scratch, runs: runs)

// 4. Phone formats and colour management (issue 11).
phoneFormatBenchmark(tool: tool, media: mediaFolder, scratch: scratch, runs: runs)
