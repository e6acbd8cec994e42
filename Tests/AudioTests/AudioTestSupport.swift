import Foundation
import Testing
import TestSupport

/// The built `slideshow` tool.
let slideshowTool = (try? TestEnvironment.builtTool("slideshow").get()) ?? TestEnvironment.productsDirectory.appendingPathComponent("slideshow").path

/// Runs `slideshow` with arguments.
@discardableResult
func slideshow(_ arguments: [String]) throws -> ProcessResult {
    try run(slideshowTool, arguments, timeout: 120)
}

/// Two of the project's sample photos.
let photos = ["landscape.jpg", "square.jpg"].map(TestEnvironment.sample)

/// `../shared/media`, or nil in a fresh clone that lacks it.
let sharedMedia: URL? = {
    let url = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.tsv").path) ? url : nil
}()

/// The path of a shared audio file; nil when `../shared` is absent.
func media(_ name: String) -> String? { sharedMedia?.appendingPathComponent(name).path }

let noSharedMedia: Comment = "skipped: ../shared/media is absent (a fresh clone); the test needs the shared audio files"

/// Renders `photos` at 320x240 (unless the arguments give a `--size`: an option may be given
/// only once) with the arguments; expects success.
@discardableResult
func render(_ arguments: [String], to output: String) throws -> ProcessResult {
    let size = arguments.contains("--size") ? [] : ["--size", "320x240"]
    let result = try slideshow(["make"] + photos + size + ["--preset", "ultrafast", "-o", output] + arguments)
    #expect(result.status == 0, "\(arguments): \(result.stderr)")
    return result
}

/// ffprobe's view of a file's first audio stream (every field as text) and the format's duration.
func probeAudio(_ path: String) throws -> [String: String] {
    guard let ffprobe = which("ffprobe") else { throw ProbeError.noFFprobe }
    let result = try run(ffprobe, ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream", "-of", "json", path])
    guard result.status == 0,
          let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
          let streams = json["streams"] as? [[String: Any]], let stream = streams.first
    else { throw ProbeError.unreadable(result.stderr) }
    var fields: [String: String] = [:]
    for (key, value) in stream {
        if let text = value as? String { fields[key] = text } else if let number = value as? NSNumber { fields[key] = number.stringValue }
    }
    return fields
}

/// A stream's duration as ffprobe states it, in seconds.
func probeDuration(_ path: String, stream: String) throws -> Double {
    guard let ffprobe = which("ffprobe") else { throw ProbeError.noFFprobe }
    let result = try run(ffprobe, ["-v", "error", "-select_streams", stream, "-show_entries", "stream=duration", "-of", "csv=p=0", path])
    guard let value = Double(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw ProbeError.unreadable(result.stderr + result.stdoutText)
    }
    return value
}

/// The first audio stream of a file decoded by ffmpeg (the independent reader) into
/// interleaved stereo float at 48 kHz; for a source file, ffmpeg resamples and mixes it
/// with libswresample's defaults.
/// - Parameter seconds: decode only this much of the start, when given.
func decodeAudio(_ path: String, seconds: Double? = nil) throws -> [Float] {
    guard let ffmpeg = which("ffmpeg") else { throw ProbeError.noFFprobe }
    let limit = seconds.map { ["-t", String($0)] } ?? []
    let result = try run(ffmpeg, ["-v", "error", "-i", path, "-map", "0:a:0", "-ar", "48000", "-ac", "2"] + limit + ["-f", "f32le", "-"])
    guard result.status == 0 else { throw ProbeError.unreadable(result.stderr) }
    return result.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
}

/// The left channel of interleaved stereo.
func left(_ samples: [Float]) -> [Float] { stride(from: 0, to: samples.count, by: 2).map { samples[$0] } }

/// The lag (in frames, output behind source when positive) in -range...range at which a
/// window of `output` best matches `source` from `sourceStart`, and the normalised correlation there.
func bestLag(output: [Float], source: [Float], outputStart: Int = 0, sourceStart: Int = 0, window: Int = 8192, range: Int = 300) -> (lag: Int, correlation: Double) {
    var best = (lag: 0, correlation: -2.0)
    for lag in -range...range {
        let outStart = outputStart + max(0, lag), srcStart = sourceStart + max(0, -lag)
        guard outStart + window <= output.count, srcStart + window <= source.count else { continue }
        var dot = 0.0, a2 = 0.0, b2 = 0.0
        for index in 0..<window {
            let a = Double(output[outStart + index]), b = Double(source[srcStart + index])
            dot += a * b; a2 += a * a; b2 += b * b
        }
        let correlation = dot / max((a2 * b2).squareRoot(), 1e-12)
        if correlation > best.correlation { best = (lag, correlation) }
    }
    return best
}

/// Root mean square of frames `range` of a mono signal.
func rms(_ samples: [Float], _ range: Range<Int>) -> Double {
    let slice = samples[range]
    return (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(slice.count, 1))).squareRoot()
}

/// The largest jump between neighbouring samples in `range` of a mono signal.
func largestJump(_ samples: [Float], _ range: Range<Int>) -> Float {
    var largest: Float = 0
    for index in range.dropFirst() { largest = max(largest, abs(samples[index] - samples[index - 1])) }
    return largest
}
