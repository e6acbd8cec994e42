import Foundation
import SlideshowKit
import SlideshowFormats
import SlideshowImages

// Issue 11's figures: HEIC decode against libheif's own heif-convert, the colour transform per
// photo, and a render of three HEICs against the same photos as JPEGs (time and peak RSS).

/// Runs the phone-format benchmark over `../shared/media` (or `folder`) and prints each figure
/// beside its peer and target.
func phoneFormatBenchmark(tool: String, media folder: String, scratch: URL, runs: Int) {
    func path(_ name: String) -> String { URL(fileURLWithPath: folder).appendingPathComponent(name).path }
    let heics = ["heic_iphone8plus_grid_irot270_exif6_arrow.heic", "heic_iphonexr_grid_landscape.heic",
                 "heic_samsung_s24fe_grid_exif6_no_irot.heic"].map(path)
    guard heics.allSatisfy(FileManager.default.fileExists(atPath:)) else {
        print("Phone formats: skipped (the HEIC files are not in \(folder); give --media DIR)")
        return
    }
    guard let heifConvert = ["/usr/bin/heif-convert", "/usr/local/bin/heif-convert"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
        print("Phone formats: skipped (heif-convert is not installed: apt-get install libheif-examples)")
        return
    }
    var renderCPU: (heic: Double, jpeg: Double, jpegWall: Double)?
    // 3 first, while this process is small: a child started after it has grown reports this
    // process's size as its own peak RSS (see main.swift). Printed last.
    let renderLines: [String] = {
        // 3. A render of the three HEICs against the same photos as JPEGs (heif-convert, quality 92), 1080p.
        let jpegs = heics.enumerated().map { index, heic in
            let jpeg = scratch.appendingPathComponent("same-\(index).jpg").path
            _ = measure(heifConvert, ["-q", "92", heic, jpeg])
            return jpeg
        }
        func arguments(_ photos: [String], _ name: String) -> [String] {
            ["make"] + photos + ["--duration", "3", "--overwrite", "--quiet", "-o", scratch.appendingPathComponent("\(name).mp4").path]
        }
        let heic = arguments(heics, "heic"), jpeg = arguments(jpegs, "jpeg")
        _ = measure(tool, heic)
        _ = measure(tool, jpeg)
        // Alternating, so that both sides see the same machine.
        var heicRuns: [Cost] = [], jpegRuns: [Cost] = []
        for _ in 0..<runs {
            heicRuns.append(measure(tool, heic))
            jpegRuns.append(measure(tool, jpeg))
        }
        guard heicRuns.allSatisfy({ $0.status == 0 }), jpegRuns.allSatisfy({ $0.status == 0 }) else {
            return ["  render: failed"]
        }
        let heicWall = median(heicRuns.map(\.wall)), jpegWall = median(jpegRuns.map(\.wall))
        let heicPeak = heicRuns.map(\.peakRSS).max()!, jpegPeak = jpegRuns.map(\.peakRSS).max()!
        let heicCPU = median(heicRuns.map(\.cpu)), jpegCPU = median(jpegRuns.map(\.cpu))
        renderCPU = (heicCPU, jpegCPU, jpegWall)
        return ["  render 3 HEICs (12, 12, 7 MP) at 1080p: \(format(heicWall)), peak RSS \(megabytes(heicPeak))   "
                + "same photos as JPEGs: \(format(jpegWall)), peak RSS \(megabytes(jpegPeak))",
                String(format: "  HEIC / JPEG render: %.2fx (target ≤ 1.5x)   HEIC peak RSS: %@ (target ≤ 150 MB)",
                       heicWall / jpegWall, megabytes(heicPeak)),
                "  CPU time of those renders: HEICs \(format(heicCPU)), JPEGs \(format(jpegCPU))"]
    }()
    let photos = heics.map { Photo(path: $0) }
    let jpegPhotos = (0..<heics.count).map { Photo(path: scratch.appendingPathComponent("same-\($0).jpg").path) }

    print("")
    print("Phone formats (issue 11): 12 MP iPhone HEIC (\(URL(fileURLWithPath: heics[1]).lastPathComponent)), Display P3")

    // 1. Decode + convert to the show's size, in this process, against heif-convert's decode (to JPEG).
    let manager = ImageManager()
    let iphone = Photo(path: heics[1])
    _ = try? manager.requestImage(for: iphone, targetSize: .hd1080, contentMode: .aspectFit)
    var oursTimes: [Double] = [], peerTimes: [Double] = []
    for index in 0..<runs {
        oursTimes.append(time { _ = try! manager.requestImage(for: iphone, targetSize: .hd1080, contentMode: .aspectFit) })
        peerTimes.append(measure(heifConvert, [heics[1], scratch.appendingPathComponent("heif-convert-\(index).jpg").path]).wall)
    }
    let ours = median(oursTimes), peer = median(peerTimes)
    print("  decode + colour + fit to 1920x1080: \(format(ours))   heif-convert (decode, write JPEG): \(format(peer))   "
          + String(format: "ratio %.2fx (target ≤ 1.5x)", ours / peer))

    // 2. The profile transform alone, per photo at its decoded size.
    for photo in [heics[1], path("jpeg_display_p3_nikon_d3s.jpg"), path("jpeg_adobe_rgb_canon_eos7d.jpg")]
    where FileManager.default.fileExists(atPath: photo) {
        let samples = (0..<runs).compactMap { _ in try? manager.timeColorTransform(Photo(path: photo), targetSize: .hd1080) }
        guard let size = samples.first?.size else { continue }
        let name = URL(fileURLWithPath: photo).lastPathComponent
        print("  profile transform, \(name) at \(size): \(String(format: "%.1f ms", median(samples.map(\.seconds)) * 1000))   (target ≤ 25 ms)")
    }
    // The HEIC's transform at its own size too: the exact path (inspect, colour tests), not a render's.
    if FileManager.default.fileExists(atPath: heics[1]) {
        let samples = (0..<runs).compactMap { _ in try? manager.timeColorTransform(Photo(path: heics[1]), targetSize: .hd1080, fullSize: true) }
        if let size = samples.first?.size {
            let name = URL(fileURLWithPath: heics[1]).lastPathComponent
            print("  profile transform, \(name) at its own size \(size) (not a render's path): \(String(format: "%.1f ms", median(samples.map(\.seconds)) * 1000))")
        }
    }

    // 4. Where the render's time goes: the three photos' decodes alone, in this process, in
    // wall and CPU seconds (CPU time holds up better than wall time on a loaded machine).
    let manager4 = ImageManager()
    func total(_ list: [Photo], _ body: (Photo) throws -> Void) -> (wall: Double, cpu: Double) {
        let samples = (0..<runs).map { _ in
            let cpu = processCPUSeconds()
            let wall = time { for photo in list { try! body(photo) } }
            return (wall, processCPUSeconds() - cpu)
        }
        return (median(samples.map(\.0)), median(samples.map(\.1)))
    }
    func both(_ cost: (wall: Double, cpu: Double)) -> String { "\(format(cost.wall)) (CPU \(format(cost.cpu)))" }
    let ffmpegDecode = total(photos) { _ = try manager4.timeHEIFDecode($0) }
    let libde265Decode = total(photos) { _ = try manager4.timeHEIFDecode($0, libde265: true) }
    let heicSlides = total(photos) { _ = try manager4.requestImage(for: $0, targetSize: .hd1080, contentMode: .aspectFit) }
    let jpegSlides = total(jpegPhotos) { _ = try manager4.requestImage(for: $0, targetSize: .hd1080, contentMode: .aspectFit) }
    print("  the 3 HEICs decoded to libheif's full-size RGB, HEVC by FFmpeg's libavcodec: \(both(ffmpegDecode))   "
          + "by libde265: \(both(libde265Decode))")
    let hevcTiles = total(photos) { _ = try manager4.timeHEVCTiles($0) }
    let jpegDecodes = total(jpegPhotos) { _ = try manager4.decodeAtChosenScale($0, targetSize: .hd1080) }
    print("  the 3 photos as 1080p slides (decode, colour, fit), one after another: HEICs \(both(heicSlides))   "
          + "JPEGs (DCT-scaled decode) \(both(jpegSlides))")
    print("  of which the decodes alone: the HEICs' HEVC tiles (libavcodec, into the YCbCr canvas) \(both(hevcTiles))   "
          + "the JPEGs at their DCT scale \(both(jpegDecodes))")
    renderLines.forEach { print($0) }
    // The least a HEIC render can take here: all the JPEG render's work but its decodes (the
    // encoding, the resampling, the colour, the process), plus the HEVC decoding, spread
    // perfectly over every core.
    if let renderCPU {
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let floor = (renderCPU.jpeg - jpegDecodes.cpu + hevcTiles.cpu) / cores
        print(String(format: "  floor for the HEIC render: (JPEG render CPU %.3f s − JPEG decodes CPU %.3f s + HEVC tiles CPU %.3f s) / %.0f cores = %.3f s, %.2fx the JPEG render",
                     renderCPU.jpeg, jpegDecodes.cpu, hevcTiles.cpu, cores, floor, floor / renderCPU.jpegWall))
    }
}

/// This process's CPU time so far (user + system, all threads), in seconds.
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}
