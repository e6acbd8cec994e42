import Foundation
import SlideshowKit

// R3 against P3 (see MotionBench.swift): speed, and rate and quality at the same file size.

/// R3 against P3 at CRF 20, at R3's file size and all the way; SSIM of each; R3's floor; memory.
func zoomBenchmark(tool: String, ffmpeg: String, photos: [String], runs: Int, scratch: (String) -> String) {
    func r3(_ extra: [String], _ output: String) -> [String] {
        ["make"] + photos + ["--duration", "9", "--transition", "fade", "--transition-duration", "1",
                             "--motion", "zoom-in", "--zoom", "0.2", "--fit", "fill", "--overwrite", "--quiet", "-o", scratch(output)] + extra
    }
    // Ken Burns the usual way: each photo upscaled 4x and cropped to 16:9, zoompan's zoom
    // creeping to 1.2 on whole pixels of that, xfade between. `zoom` is zoompan's zoom
    // expression; d is the photo's frames.
    func kenBurns(_ frames: Int, zoom: String) -> String {
        "scale=7680:4320:force_original_aspect_ratio=increase,crop=7680:4320,zoompan=z='\(zoom)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=\(frames):s=1920x1080:fps=30,setsar=1,format=yuv420p"
    }
    func graph(zoom: (Int) -> String) -> [String] {
        ["-v", "error", "-y", "-i", photos[0], "-i", photos[1], "-i", photos[2],
         "-filter_complex", "[0]\(kenBurns(105, zoom: zoom(105)))[a];[1]\(kenBurns(120, zoom: zoom(120)))[b];[2]\(kenBurns(105, zoom: zoom(105)))[c];[a][b]xfade=transition=fade:duration=1:offset=2.5[ab];[ab][c]xfade=transition=fade:duration=1:offset=5.5,format=yuv420p"]
    }
    // P3 as the issue gives it: the zoom creeps by 0.0025 a frame and stops at 1.2 after 80
    // frames, so the last 25 to 40 frames of each photo stand still. P3 all the way: the zoom
    // spread over the photo's whole time, as R3 moves (the same work).
    let creeping = graph { _ in "min(zoom+0.0025,1.2)" }
    let p3 = creeping + peerEncode() + [scratch("p3.mp4")]
    let p3Moving = graph { frames in "1+0.2*on/\(frames - 1)" } + peerEncode() + [scratch("p3-moving.mp4")]

    // Once, untimed: R3, its reference (CRF 1, every frame through the stills encoder), P3's
    // frames before encoding, R3's frames.
    _ = measure(tool, r3([], "r3.mp4"))
    _ = measure(tool, r3(["--crf", "1", "--hold", "encode"], "r3-reference.mp4"))
    _ = measure(ffmpeg, creeping + ["-f", "rawvideo", "-pix_fmt", "yuv420p", scratch("p3.yuv")])
    // The frames x264 alone encodes: R3's as composed, i.e. from the CRF 1 render (frames decoded
    // from the CRF 20 file would carry its losses into every encode made from them).
    _ = measure(ffmpeg, ["-v", "error", "-y", "-i", scratch("r3-reference.mp4"), "-f", "rawvideo", "-pix_fmt", "yuv420p", scratch("r3.yuv")])
    // The CRF at which P3's encoder makes a file as large as R3's, searched on P3's frames.
    let r3Bytes = fileSize(scratch("r3.mp4"))
    let matched = crf(forBytes: r3Bytes) { crf in
        _ = measure(ffmpeg, ["-v", "error", "-y"] + rawInput(scratch("p3.yuv")) + peerEncode(crf: crf) + [scratch("p3-search.mp4")])
        return fileSize(scratch("p3-search.mp4"))
    }
    let p3Matched = creeping + peerEncode(crf: matched.crf) + [scratch("p3-matched.mp4")]
    // R3's floor: x264 alone on R3's pictures, split between the encoders as ours are.
    let made = EncodedPictures(scratch("r3.mp4"))
    let floorJobs = floorEncodes(ffmpeg: ffmpeg, reference: scratch("r3-reference.mp4"), pictures: made, scratch: scratch)

    var costs: [String: [Cost]] = [:]
    var floors: [Cost] = []
    for _ in 0..<runs {
        costs["R3 fade+zoom", default: []].append(measure(tool, r3([], "r3.mp4")))
        costs["P3 zoompan", default: []].append(measure(ffmpeg, p3))
        costs["P3 at R3's size", default: []].append(measure(ffmpeg, p3Matched))
        costs["P3 all the way", default: []].append(measure(ffmpeg, p3Moving))
        floors.append(total(floorJobs.map { measure(ffmpeg, $0) }))
    }
    for (name, list) in costs where list.contains(where: { $0.status != 0 }) {
        print("slideshow-bench: \(name) failed")
        return
    }
    // Once, untimed in the loop: R3's frames at P3's x264 settings (what B-frames, lookahead,
    // mb-tree and frame threads would buy us), against R3's reference.
    let peerSettings = measure(ffmpeg, ["-v", "error", "-y"] + rawInput(scratch("r3.yuv")) + peerEncode() + [scratch("r3-peer.mp4")])
    // And with the stills encoder's settings on every frame: one encoder for the whole show,
    // as before motion runs had their own (no B-frames, no lookahead, psy on, at the CRF; but
    // with mixed references, which that encoder no longer needs to turn off).
    let stillsSettings = measure(ffmpeg, encodeAlone(scratch("r3.yuv"), output: scratch("r3-stills.mp4")))

    // Memory of the motion show as it grows: 1 s a photo, 0.5 s fades.
    var peaks: [Int: Int] = [:]
    for count in [3, 30] {
        let list = (0..<count).map { photos[$0 % photos.count] }
        let args = ["make"] + list + ["--slide-duration", "1", "--transition", "fade", "--transition-duration", "0.5",
                                      "--motion", "zoom-in", "--zoom", "0.2", "--fit", "fill", "--overwrite", "--quiet", "-o", scratch("r3-\(count).mp4")]
        peaks[count] = measure(tool, args).peakRSS
    }

    let ours = quality(ffmpeg: ffmpeg, scratch("r3.mp4"), reference: scratch("r3-reference.mp4"))
    let theirs = quality(ffmpeg: ffmpeg, scratch("p3.mp4"), reference: scratch("p3.yuv"))
    let theirsMatched = quality(ffmpeg: ffmpeg, scratch("p3-matched.mp4"), reference: scratch("p3.yuv"))
    let oursAtPeerSettings = quality(ffmpeg: ffmpeg, scratch("r3-peer.mp4"), reference: scratch("r3-reference.mp4"))
    let oursWithStillsSettings = quality(ffmpeg: ffmpeg, scratch("r3-stills.mp4"), reference: scratch("r3-reference.mp4"))
    // r3-reference.mp4 stays for the codecs' R3 (CodecBench.swift); the scratch folder goes at the end.
    for file in ["r3.yuv", "p3.yuv", "p3-search.mp4", "r3-peer.mp4", "r3-stills.mp4"] { try? FileManager.default.removeItem(atPath: scratch(file)) }
    removeFloorFiles(made, scratch: scratch)

    func figures(_ quality: Quality) -> String { String(format: ", %.2f Mbit/s, SSIM %.5f", quality.megabitsPerSecond, quality.ssim) }
    print(motionRow("R3 fade+zoom", costs["R3 fade+zoom"]!, extra: figures(ours)))
    print(motionRow("P3 zoompan", costs["P3 zoompan"]!, extra: figures(theirs)))
    print(motionRow("P3 at R3's size", costs["P3 at R3's size"]!, extra: String(format: " (CRF %.2f)", matched.crf) + figures(theirsMatched)))
    print(motionRow("P3 all the way", costs["P3 all the way"]!))
    print("  Frames: R3 \(frameCount(scratch("r3.mp4"))), P3 \(frameCount(scratch("p3.mp4")))   (ours: exactly 270)")
    print("  SSIM: R3 against the same show at CRF 1, every frame encoded (--hold encode: jitter-free); P3 against its own graph's frames before encoding")
    let cpu = { (name: String) in median(costs[name]!.map(\.cpu)) }
    let wall = { (name: String) in median(costs[name]!.map(\.wall)) }
    let floorCPU = median(floors.map(\.cpu)), floorWall = median(floors.map(\.wall))
    print("  Floor R3: x264 alone on its \(made.all.count) pictures as our encoders split them (runs of \(made.runs.map { String($0.count) }.joined(separator: ", ")), \(made.stills.count) held): cpu \(format(floorCPU)) (wall \(format(floorWall)))")
    print("  R3's frames again, x264 alone in ffmpeg (cpu, ffmpeg's peak RSS, rate, SSIM against R3's reference):")
    print("    one encoder, the stills encoder's settings, on every frame: cpu \(format(stillsSettings.cpu)), \(megabytes(stillsSettings.peakRSS))" + figures(oursWithStillsSettings))
    print("    P3's (B-frames, lookahead 40, mb-tree, psy, frame threads): cpu \(format(peerSettings.cpu)), \(megabytes(peerSettings.peakRSS))" + figures(oursAtPeerSettings))
    print(String(format: "  P3 at R3's size / R3: %.2fx cpu (%.2fx wall), SSIM %.5f against P3's %.5f   (target ≥ 1.0x, SSIM ≥ P3's)",
                 cpu("P3 at R3's size") / cpu("R3 fade+zoom"), wall("P3 at R3's size") / wall("R3 fade+zoom"), ours.ssim, theirsMatched.ssim))
    print(String(format: "  P3 / R3: %.2fx cpu (%.2fx wall) at CRF 20    P3 all the way / R3: %.2fx cpu",
                 cpu("P3 zoompan") / cpu("R3 fade+zoom"), wall("P3 zoompan") / wall("R3 fade+zoom"), cpu("P3 all the way") / cpu("R3 fade+zoom")))
    print(String(format: "  R3 / floor: %.2fx cpu (%.2fx wall)   (target ≤ 1.15x)", cpu("R3 fade+zoom") / floorCPU, wall("R3 fade+zoom") / floorWall))
    print("  Peak RSS of R3: \(megabytes(costs["R3 fade+zoom"]!.map(\.peakRSS).max()!)) at 9 s; \(megabytes(peaks[3]!)) at 3 photos, \(megabytes(peaks[30]!)) at 30 photos (1 s each)   (target ≤ 300 MB, flat)")
}
