import Foundation
import SlideshowKit
import SlideshowCompositor
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowLooks
import SlideshowMetadata
import SlideshowPixels

/// The cost of each per-slide stage on one 1920x1080 slide, in this process, on one core:
/// the looks, the blurred backdrop (`--fit blur`) and the date imprint, each beside its
/// target, and ffmpeg's blur fill of the same picture (one thread) as the peer.
func slideCostBenchmark(photos: [String], ffmpeg: String, scratch: URL, runs: Int) {
    let manager = ImageManager()
    // The three camera photos letterboxed into 1080p: a landscape (narrow bars) and two portraits.
    let slides = photos.map { try! manager.requestImage(for: Photo(path: $0), targetSize: .hd1080, contentMode: .aspectFit) }
    let repeats = 10
    func perSlide(_ body: (inout PixelBuffer) -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<max(runs, 3) {
            // Copies of their own, made before the clock starts (a shared copy-on-write buffer
            // would be copied inside the timed stage).
            var copies = (0..<repeats).flatMap { _ in slides.map(unique) }
            samples.append(time {
                for index in copies.indices { body(&copies[index]) }
            } / Double(copies.count))
        }
        return median(samples)
    }
    func ms(_ seconds: Double) -> String { String(format: "%6.2f ms", seconds * 1000) }

    print("")
    print("Per 1920x1080 slide, one core, mean over the three camera photos letterboxed (medians of \(max(runs, 3)) runs):")
    let blur = perSlide { BlurredBackdrop.fill(&$0) }
    let date = CaptureDate(year: 2011, month: 4, day: 25)!
    for (name, seconds, target) in [
        ("minimal-life", perSlide { Looks.minimalLife.apply(to: &$0, slideIndex: 1) }, ""),
        ("tumble-down", perSlide { Looks.tumbleDown.apply(to: &$0, slideIndex: 1) }, ""),
        ("sepia", perSlide { Looks.sepia.apply(to: &$0, slideIndex: 1) }, ""),
        ("vignette", perSlide { Looks.vignette.apply(to: &$0, slideIndex: 1) }, ""),
        ("date imprint", perSlide { DateImprint().draw(date, on: &$0) }, ""),
        ("blur fill", blur, "(target ≤ 15 ms)"),
    ] {
        print("  \(name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(ms(seconds))  \(target)")
    }

    // Face detection for --framing faces: on each camera photo as decoded for a 1080p fill slide.
    print("Face detection (\(FaceFraming.isAvailable ? "OpenCV LBP cascade" : "unavailable"), grey copy ≤ \(FaceFraming.detectionSide) px, one thread), per photo:")
    for photo in photos {
        let samples = (0..<max(runs, 3)).map { _ in try! manager.timeFaceDetection(Photo(path: photo), targetSize: .hd1080) }
        let name = URL(fileURLWithPath: photo).lastPathComponent
        print("  \(name.padding(toLength: 40, withPad: " ", startingAt: 0)) decoded \(samples[0].decoded)  \(ms(median(samples.map(\.seconds))))  \(samples[0].faces) faces  (target ≤ 50 ms)")
    }

    // The peer: ffmpeg's usual blur-fill graph on the portrait picture, 30 frames of raw RGB, one thread.
    let portrait = slides[1]
    let content = portrait.contentRect
    var picture = [UInt8]()
    for y in content.y..<content.maxY {
        let start = (y * portrait.width + content.x) * 3
        picture += portrait.pixels[start..<start + content.width * 3]
    }
    let raw = scratch.appendingPathComponent("portrait.rgb")
    _ = FileManager.default.createFile(atPath: raw.path, contents: Data(Array(repeating: picture, count: 30).joined()))
    let graph = "split[bg][fg];[bg]scale=1920:1080:force_original_aspect_ratio=increase,crop=1920:1080,gblur=sigma=40,eq=brightness=-0.2[bg];[bg][fg]overlay=(W-w)/2:(H-h)/2"
    let peer = (0..<max(runs, 3)).map { _ in
        measure(ffmpeg, ["-v", "error", "-threads", "1", "-filter_threads", "1", "-f", "rawvideo", "-pix_fmt", "rgb24",
                         "-s", "\(content.width)x\(content.height)", "-i", raw.path, "-filter_complex", graph,
                         "-pix_fmt", "rgb24", "-f", "null", "-"]).cpu / 30
    }
    print("  peer: ffmpeg scale+gblur+eq+overlay, one thread, portrait: \(ms(median(peer))) CPU a frame (ours on the same slide: \(ms(perSlideOne(portrait))))")
    print("  blur fill by photo: " + zip(photos, slides).map { "\(URL(fileURLWithPath: $0).lastPathComponent) \(ms(perSlideOne($1)))" }.joined(separator: ", "))
}

/// The blur fill of one slide, median of 20.
private func perSlideOne(_ slide: PixelBuffer) -> Double {
    median((0..<20).map { _ in
        var copy = unique(slide)
        return time { BlurredBackdrop.fill(&copy) }
    })
}

/// A slide whose pixels are a fresh allocation, already touched.
private func unique(_ slide: PixelBuffer) -> PixelBuffer {
    PixelBuffer(size: slide.size, pixels: slide.pixels.withUnsafeBufferPointer { Array($0) }, contentRect: slide.contentRect)
}
