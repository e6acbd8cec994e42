import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowPixels
import SlideshowVideo

/// The shared clips (`../shared/clips`) and the references the tests compare with: ffmpeg's
/// own decodes, and clips made with ffmpeg for the cases no shared file covers.
enum Clips {
    /// `../shared/clips` beside the checkout, or nil in a fresh clone that lacks it.
    static let folder = TestEnvironment.sharedClips

    /// Whether the shared clips and ffmpeg are there.
    static let available = folder != nil && which("ffmpeg") != nil && which("ffprobe") != nil

    static let skipped: Comment = "skipped: ../shared/clips (or ffmpeg) is absent; these tests need the shared clips"

    /// The path of a shared clip.
    static func path(_ name: String) -> String { folder!.appendingPathComponent(name).path }

    /// Runs ffmpeg; throws with its message when it fails.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) throws -> Data {
        let result = try run(which("ffmpeg")!, ["-v", "error", "-nostdin"] + arguments, timeout: 120)
        guard result.status == 0 else { throw ProbeError.unreadable("ffmpeg \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }

    /// ffprobe's `key=value` lines for some entries.
    static func ffprobe(_ arguments: [String]) throws -> String {
        let result = try run(which("ffprobe")!, ["-v", "error"] + arguments, timeout: 60)
        guard result.status == 0 else { throw ProbeError.unreadable(result.stderr) }
        return result.stdoutText
    }

    /// Every frame ffmpeg decodes, autorotated and scaled to `size` as rgb24, with each frame's
    /// time on the clip's clock (its timestamp less the container's start time).
    /// - Parameter seconds: only the frames of the clip's first seconds, when given.
    static func referenceFrames(_ path: String, size: Size, extraFilters: String = "", seconds: Double? = nil,
                                input: [String] = [], probeInput: [String] = []) throws -> [(time: Double, pixels: [UInt8])] {
        let filters = extraFilters + "scale=\(size.width):\(size.height)"
        let limit = seconds.map { ["-t", "\($0)"] } ?? []
        let data = try ffmpeg(input + limit + ["-i", path, "-map", "0:v:0", "-vf", filters, "-fps_mode", "passthrough",
                                       "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let start = Double(try ffprobe(probeInput + ["-show_entries", "format=start_time", "-of", "default=nw=1:nk=1", path])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let times = try ffprobe(probeInput + ["-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time",
                                         "-of", "csv=p=0", path])
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        let bytes = size.width * size.height * 3
        let count = min(data.count / bytes, times.count)
        return (0..<count).map { index in
            (times[index] - start, [UInt8](data[index * bytes..<(index + 1) * bytes]))
        }
    }

    /// The reference frame shown at clip time `t`: the last whose time is at most `t` (the first
    /// before any). ffprobe prints times to 6 decimals, hence the tolerance.
    static func frame(at t: Double, in frames: [(time: Double, pixels: [UInt8])]) -> [UInt8] {
        frames[dueIndex(at: t, in: frames)].pixels
    }

    static func dueIndex(at t: Double, in frames: [(time: Double, pixels: [UInt8])]) -> Int {
        frames.lastIndex { $0.time <= t + 1e-5 } ?? 0
    }

    /// Every frame a reader gives.
    static func allFrames(_ reader: ClipReader) throws -> [PixelBuffer] {
        var frames: [PixelBuffer] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        return frames
    }

    /// A fresh temporary folder for made clips.
    static func temporary() throws -> TemporaryFolder { try TemporaryFolder() }
}

/// Peak signal-to-noise ratio of two equally long 8-bit pictures, in dB (∞ when equal).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var total = 0.0
    for index in 0..<a.count {
        let d = Double(a[index]) - Double(b[index])
        total += d * d
    }
    let mse = total / Double(a.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// Mean BT.709 luma (0–1) and mean HSV saturation of an RGB picture.
func lumaAndSaturation(_ pixels: [UInt8]) -> (luma: Double, saturation: Double) {
    var luma = 0.0, saturation = 0.0
    let count = pixels.count / 3
    for index in 0..<count {
        let r = Double(pixels[index * 3]) / 255, g = Double(pixels[index * 3 + 1]) / 255, b = Double(pixels[index * 3 + 2]) / 255
        luma += 0.2126 * r + 0.7152 * g + 0.0722 * b
        let high = max(r, g, b), low = min(r, g, b)
        saturation += high > 0 ? (high - low) / high : 0
    }
    return (luma / Double(count), saturation / Double(count))
}
