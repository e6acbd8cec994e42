import Foundation
import SlideshowKit

// Issue 36's figures: `make --pick` on folders of camera photos.
//
// 1. Throughput and memory: `slideshow make DIR --pick auto --duration 60 --dry-run` on 100,
//    500 and 1000 12-MP JPEGs (hard links to the shared Nikon D90 and Canon 5D photos, so the
//    set costs no disk; every one is read and analysed as a file of its own), wall time per 100
//    photos and peak RSS of the whole process; and 100 HEICs (the shared phone HEICs) likewise.
// 2. Precision and recall against hand labels: a set made from the shared camera photos, each
//    scene at its own hour with the variants of a burst a second apart: the original (labelled
//    keep), a 6% crop and a hard recompression (near-duplicates), a blurred, an over-exposed and a
//    dark copy (rejects), two real bursts (four frames 0.2 s apart from each of two shared phone
//    clips, all good), plus two screenshots (rejects). The hand labels: the original, the crop
//    and the recompression are good, the rest bad, and each scene is one moment. Precision: the
//    picks that are good and the first of their scene; recall: the scenes with a good pick, of
//    as many as were asked for (at most the scenes).

/// The scenes of the labelled set: the shared camera photos of distinct subjects.
private let labelledScenes = ["camera_nikon_d90_12mp.jpg", "camera_canon_eos5d_13mp_portrait.jpg", "camera_nokia_8.3_9mp_wide.jpg",
                              "camera_apple_iphone4s_8mp_orient6.jpg", "progressive_panasonic_lc70_1280x960.jpg", "orient_landscape_1.jpg",
                              "orient_portrait_1.jpg", "panorama_openpano_cmu1_6000x771.jpg"]

/// Real bursts of the labelled set: four frames 0.2 s apart from a shared phone clip (a camera
/// and subject moving as in a burst), each frame a JPEG of its own, labelled good and one moment.
private let labelledBursts = [(clip: "mp4_h264_720p_vfr_aac_gps_3s.mp4", start: 0.5), (clip: "mp4_h264_rot90ccw_aac_720p_5s.mp4", start: 2.0)]

/// The variants of the labelled set, with ffmpeg's filter and whether the label is keep.
private let labelledVariants: [(name: String, filter: String, quality: String, keep: Bool)] = [
    ("original", "null", "2", true),
    ("cropped", "crop=iw*0.94:ih*0.94:iw*0.03:ih*0.02", "3", true),
    ("recompressed", "null", "14", true),
    ("blurred", "gblur=sigma=8", "3", false),
    ("overexposed", "lutrgb=r=val*2.2:g=val*2.2:b=val*2.2", "3", false),
    ("dark", "lutrgb=r=val/7:g=val/7:b=val/7", "3", false),
]

func pickBenchmark(tool: String, ffmpeg: String, photoFolder: String, mediaFolder: String, scratch: URL) -> [String] {
    var lines = ["Picking (issue 36): make DIR --pick auto --duration 60 --dry-run, whole process"]
    let fm = FileManager.default
    let sources = ["camera_nikon_d90_12mp.jpg", "camera_canon_eos5d_13mp_portrait.jpg"].map { photoFolder + "/" + $0 }
    // 1. Throughput and memory.
    for count in [100, 500, 1000] {
        let folder = scratch.appendingPathComponent("pick-\(count)").path
        try? fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for k in 0..<count { _ = link(sources[k % 2], folder + String(format: "/IMG_%04d.JPG", k)) }
        let arguments = ["make", folder, "--pick", "auto", "--duration", "60", "--dry-run", "--quiet", "-o", scratch.appendingPathComponent("pick.mp4").path]
        _ = measure(tool, arguments)  // the page cache warm
        let cost = measure(tool, arguments)
        lines.append(String(format: "  %4d JPEGs (12–13 MP): %6.2f s (%.2f s per 100; CPU %.2f s per 100, %.1f cores), peak %@, status %d",
                            count, cost.wall, cost.wall * 100 / Double(count), cost.cpu * 100 / Double(count), cost.cores, megabytes(cost.peakRSS), cost.status))
        try? fm.removeItem(atPath: folder)
    }
    let heics = ((try? fm.contentsOfDirectory(atPath: mediaFolder)) ?? []).filter { $0.hasSuffix(".heic") && !$0.contains("truncated") }.sorted()
    if !heics.isEmpty {
        let folder = scratch.appendingPathComponent("pick-heic").path
        try? fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for k in 0..<100 { _ = link(mediaFolder + "/" + heics[k % heics.count], folder + String(format: "/IMG_%04d.HEIC", k)) }
        let arguments = ["make", folder, "--pick", "auto", "--duration", "60", "--dry-run", "--quiet", "-o", scratch.appendingPathComponent("pick.mp4").path]
        _ = measure(tool, arguments)
        let cost = measure(tool, arguments)
        lines.append(String(format: "   100 HEICs (%@): %6.2f s per 100 (CPU %.2f s), %.1f cores, peak %@, status %d",
                            heics.joined(separator: ", "), cost.wall, cost.cpu, cost.cores, megabytes(cost.peakRSS), cost.status))
        try? fm.removeItem(atPath: folder)
    }

    // 2. Precision and recall against the labels.
    let set = scratch.appendingPathComponent("pick-labelled").path
    try? fm.createDirectory(atPath: set, withIntermediateDirectories: true)
    var keep: Set<String> = []
    var sceneOf: [String: Int] = [:]
    for (s, scene) in labelledScenes.enumerated() {
        for (v, variant) in labelledVariants.enumerated() {
            let path = set + "/\(scene.prefix { $0 != "." })-\(variant.name).jpg"
            _ = capture(ffmpeg, ["-v", "error", "-y", "-i", photoFolder + "/" + scene, "-vf", variant.filter, "-q:v", variant.quality, path])
            var bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
            guard bytes.count > 2 else { continue }
            let date = String(format: "2024:05:12 %02d:00:%02d", 8 + s, v)
            bytes = Array(bytes[0..<2]) + exifDateSegment(date) + Array(bytes[2...])
            try? Data(bytes).write(to: URL(fileURLWithPath: path))
            if variant.keep { keep.insert(path) }
            if variant.keep { sceneOf[path] = s }
        }
    }
    let clipFolder = (photoFolder as NSString).deletingLastPathComponent + "/clips"
    var scenes = labelledScenes.count
    for (b, burst) in labelledBursts.enumerated() where fm.fileExists(atPath: clipFolder + "/" + burst.clip) {
        for frame in 0..<4 {
            let path = set + "/burst\(b + 1)-\(frame + 1).jpg"
            _ = capture(ffmpeg, ["-v", "error", "-y", "-ss", String(burst.start + 0.2 * Double(frame)), "-i", clipFolder + "/" + burst.clip, "-frames:v", "1", "-q:v", "2", path])
            var bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
            guard bytes.count > 2 else { continue }
            bytes = Array(bytes[0..<2]) + exifDateSegment(String(format: "2024:05:12 %02d:00:%02d", 8 + scenes, frame)) + Array(bytes[2...])
            try? Data(bytes).write(to: URL(fileURLWithPath: path))
            keep.insert(path)
            sceneOf[path] = scenes
        }
        scenes += 1
    }
    for (k, size) in ["1170x2532", "1920x1080"].enumerated() {
        _ = capture(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size)", "-frames:v", "1", set + "/Screenshot \(k + 1).png"])
    }
    let files = ((try? fm.contentsOfDirectory(atPath: set)) ?? []).count
    for (label, arguments) in [("--pick \(scenes)", ["--pick", "\(scenes)"]), ("--pick \(scenes / 2)", ["--pick", "\(scenes / 2)"])] {
        let output = capture(tool, ["make", set] + arguments + ["--dry-run", "--json", "-o", scratch.appendingPathComponent("pick.mp4").path])
        guard let json = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let picked = object["photos"] as? [String] else {
            lines.append("  labelled set: no report (\(output.prefix(200)))")
            continue
        }
        let right = Set(picked.compactMap { sceneOf[$0] }).count
        let wanted = min(scenes, Int(arguments[1])!)
        let moments = (object["pick"] as? [String: Any])?["moments"] as? Int ?? 0
        lines.append(String(format: "  labelled set, %d files (%d scenes × %d variants, %d bursts of 4 clip frames, 2 screenshots), %@: %d picked, precision %.2f, recall %.2f (of %d wanted), %d moments found",
                            files, labelledScenes.count, labelledVariants.count, scenes - labelledScenes.count, label, picked.count,
                            picked.isEmpty ? 0 : Double(right) / Double(picked.count), Double(right) / Double(wanted), wanted, moments))
        // The grouping against the labels: each scene's six variants one moment, no two scenes in one.
        let inputs = ((object["pick"] as? [String: Any])?["inputs"] as? [[String: Any]]) ?? []
        var momentsOfScene: [Int: Set<Int>] = [:], scenesOfMoment: [Int: Set<Int>] = [:]
        for input in inputs {
            guard let path = input["path"] as? String, let moment = input["moment"] as? Int,
                  let s = sceneOf[path] ?? labelledScenes.firstIndex(where: { (path as NSString).lastPathComponent.hasPrefix($0.prefix { $0 != "." } + "-") }) else { continue }
            momentsOfScene[s, default: []].insert(moment)
            scenesOfMoment[moment, default: []].insert(s)
        }
        let split = momentsOfScene.values.filter { $0.count > 1 }.count
        let merged = scenesOfMoment.values.filter { $0.count > 1 }.count
        lines.append("    grouping: \(momentsOfScene.count) scenes in \(Set(momentsOfScene.values.flatMap { $0 }).count) moments, \(split) scenes split, \(merged) moments mixing scenes; \(moments - scenesOfMoment.count) other moments (the screenshots)")
        let originals = picked.filter { $0.hasSuffix("-original.jpg") }.count
        lines.append("    of the picks, \(originals) are the originals (the rest a crop or a recompression of one)")
        let wrong = picked.filter { !keep.contains($0) }.map { ($0 as NSString).lastPathComponent }
        if !wrong.isEmpty { lines.append("    picked against the labels: \(wrong.joined(separator: ", "))") }
    }
    try? fm.removeItem(atPath: set)
    return lines
}

/// An Exif APP1 segment holding only DateTimeOriginal (`2024:05:12 10:00:00`), little-endian.
private func exifDateSegment(_ date: String) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
    var tiff: [UInt8] = [0x49, 0x49] + u16(42) + u32(8)
    tiff += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)
    let text = Array(date.utf8) + [0]
    tiff += u16(1) + u16(0x9003) + u16(2) + u32(text.count) + u32(26 + 2 + 12 + 4)
    tiff += u32(0) + text
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    return [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
}
