import Foundation
import SlideshowKit

/// What the JSON reports (`make --json`, `batch`'s lines) say of a render, written once: the
/// figures rounded as the reports round them, and the encoding.
enum ReportFigures {
    /// Seconds of work, to the millisecond.
    static func seconds(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }

    /// With a loudness asked for: the music's integrated loudness before and after its gain,
    /// in LUFS to the hundredth.
    static func loudness(of result: RenderResult) -> (measured: Double, final: Double)? {
        result.loudness.map { (($0.measured * 100).rounded() / 100, ($0.final * 100).rounded() / 100) }
    }

    /// The value as one line of JSON, keys sorted, slashes unescaped.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and nulls cannot fail.
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

/// The `--json` report of one render.
struct Report: Codable {
    var output: String
    var duration: Double
    var frames: Int
    var size: String
    var fps: Int
    var look: String
    var bytes: Int
    var seconds: Double
    /// With `--loudness`: the music's integrated loudness before and after its gain (LUFS).
    var measuredLoudness: Double?
    var finalLoudness: Double?

    init(_ result: RenderResult) {
        output = result.output
        duration = result.duration.seconds
        frames = result.frames
        size = result.size.description
        fps = result.framesPerSecond
        look = result.look
        bytes = result.bytes
        seconds = ReportFigures.seconds(result.seconds)
        measuredLoudness = ReportFigures.loudness(of: result)?.measured
        finalLoudness = ReportFigures.loudness(of: result)?.final
    }

    func json() -> String { ReportFigures.json(self) }
}

/// The JSON line of one finished job: `error`, `frames`, `index`, `output`, `seconds`, `status`,
/// every key always present (`error` and `frames` null when they do not apply).
struct JobLine: Encodable {
    var result: BatchResult

    private enum Key: String, CodingKey { case index, output, status, seconds, frames, error, measuredLoudness, finalLoudness }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(result.index, forKey: .index)
        try container.encode(result.output, forKey: .output)
        try container.encode(result.status.rawValue, forKey: .status)
        try container.encode(ReportFigures.seconds(result.seconds), forKey: .seconds)
        switch result.outcome {
        case .rendered(let render):
            try container.encode(render.frames, forKey: .frames)
            try container.encodeNil(forKey: .error)
            // Only for a job that asked for a loudness.
            if let loudness = ReportFigures.loudness(of: render) {
                try container.encode(loudness.measured, forKey: .measuredLoudness)
                try container.encode(loudness.final, forKey: .finalLoudness)
            }
        case .failed(let error):
            try container.encodeNil(forKey: .frames)
            try container.encode(Terminal.describe(error), forKey: .error)
        case .skipped:
            try container.encodeNil(forKey: .frames)
            try container.encodeNil(forKey: .error)
        }
    }

    func json() -> String { ReportFigures.json(self) }
}
