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

    /// Each photo, in play order, with the second it first appears (its cut), to the millisecond
    /// (``seconds(_:)``): at up to 240 fps, still one frame's start exactly.
    static func photos(of result: RenderResult) -> [ReportPhoto] {
        zip(result.photos, result.photoStarts).map { ReportPhoto(path: $0, start: seconds($1.seconds)) }
    }

    /// With cuts on the beat: the beat's tempo in BPM, to the hundredth.
    static func tempo(of result: RenderResult) -> Double? {
        result.tempo.map { ($0 * 100).rounded() / 100 }
    }

    /// With cuts on the beat asked for and the cuts kept even: why.
    static func beatFallback(of result: RenderResult) -> ReportBeatFallback? {
        result.beats?.fallback.map { ReportBeatFallback(reason: $0.reason, photo: $0.photo.map { $0 + 1 }, message: $0.description) }
    }

    /// The value as one line of JSON, keys sorted, slashes unescaped.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, numbers and nulls cannot fail.
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

/// A photo in a report: `{"path": "a.jpg", "start": 1.5}`.
struct ReportPhoto: Codable, Equatable {
    var path: String
    /// Seconds from the video's start to the photo's first frame.
    var start: Double
}

/// Why the cuts stayed even although asked on the beat: `{"reason": "no-assignment", "photo": 4,
/// "message": "photo 4's time (1.5 beats) cannot become …"}`; `photo` counts from 1, as the message does.
struct ReportBeatFallback: Codable, Equatable {
    /// `no-steady-beat`, `show-too-short`, `unreadable-music`, `music-ends`, `no-assignment`, `transitions-do-not-fit`.
    var reason: String
    /// The photo that cannot be fitted, when one is to blame.
    var photo: Int?
    /// The warning's text.
    var message: String
}

/// A warning in a report: `{"kind": "photo", "path": "a.jpg", "message": "a.jpg: its colour
/// profile cannot be read; shown as sRGB"}`; `kind` is one of ``RenderWarning/Kind``'s raw values,
/// `path` absent when the warning names no one file.
struct ReportWarning: Codable, Equatable {
    var kind: String
    var path: String?
    var message: String

    init(_ warning: RenderWarning) {
        kind = warning.kind.rawValue
        path = warning.path
        message = warning.message
    }

    /// A render's warnings, nil when it has none (the key is then left out).
    static func list(_ warnings: [RenderWarning]) -> [ReportWarning]? {
        warnings.isEmpty ? nil : warnings.map(ReportWarning.init)
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
    /// With `--draft`: true (absent otherwise).
    var draft: Bool?
    /// With `--loudness`: the music's integrated loudness before and after its gain (LUFS).
    var measuredLoudness: Double?
    var finalLoudness: Double?
    /// The photos in play order, each with its start in seconds.
    var photos: [ReportPhoto]
    /// With `--cuts beats`: the tempo found in the music in BPM (absent when it has no steady beat).
    var tempo: Double?
    /// With `--cuts beats` and the cuts kept even: why.
    var beatFallback: ReportBeatFallback?
    /// With `--pick`: every input, picked or left out and why (PickListing.swift).
    var pick: ReportPick?
    /// What did not stop the render, when anything: each warning's kind, file and line.
    var warnings: [ReportWarning]?

    init(_ result: RenderResult) {
        output = result.output
        duration = result.duration.seconds
        frames = result.frames
        size = result.size.description
        fps = result.framesPerSecond
        look = result.look
        bytes = result.bytes
        seconds = ReportFigures.seconds(result.seconds)
        draft = result.draft ? true : nil
        measuredLoudness = ReportFigures.loudness(of: result)?.measured
        finalLoudness = ReportFigures.loudness(of: result)?.final
        photos = ReportFigures.photos(of: result)
        tempo = ReportFigures.tempo(of: result)
        beatFallback = ReportFigures.beatFallback(of: result)
        warnings = ReportWarning.list(result.warnings)
    }

    func json() -> String { ReportFigures.json(self) }
}

/// The JSON line of one finished job: `error`, `frames`, `index`, `output`, `photos`, `seconds`,
/// `status`, every key always present (`error`, `frames` and `photos` null when they do not apply);
/// `draft` (true) for a draft, `tempo` and `beatFallback` with cuts on the beat asked for, the loudnesses with a loudness asked for,
/// `warnings` (``ReportWarning``) when a job that rendered has any.
struct JobLine: Encodable {
    var result: BatchResult

    private enum Key: String, CodingKey { case index, output, status, seconds, frames, draft, error, measuredLoudness, finalLoudness, photos, tempo, beatFallback, warnings, pick }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(result.index, forKey: .index)
        try container.encode(result.output, forKey: .output)
        try container.encode(result.status.rawValue, forKey: .status)
        try container.encode(ReportFigures.seconds(result.seconds), forKey: .seconds)
        switch result.outcome {
        case .rendered(let render):
            try container.encode(render.frames, forKey: .frames)
            if render.draft { try container.encode(true, forKey: .draft) }
            try container.encodeNil(forKey: .error)
            // Only for a job that asked for a loudness.
            if let loudness = ReportFigures.loudness(of: render) {
                try container.encode(loudness.measured, forKey: .measuredLoudness)
                try container.encode(loudness.final, forKey: .finalLoudness)
            }
            try container.encode(ReportFigures.photos(of: render), forKey: .photos)
            try container.encodeIfPresent(ReportFigures.tempo(of: render), forKey: .tempo)
            try container.encodeIfPresent(ReportFigures.beatFallback(of: render), forKey: .beatFallback)
            try container.encodeIfPresent(ReportWarning.list(render.warnings), forKey: .warnings)
        case .failed(let error):
            try container.encodeNil(forKey: .frames)
            try container.encode(Terminal.describe(error), forKey: .error)
            try container.encodeNil(forKey: .photos)
        case .skipped:
            try container.encodeNil(forKey: .frames)
            try container.encodeNil(forKey: .error)
            try container.encodeNil(forKey: .photos)
        }
        // A job with a pick: every input, picked or left out and why, whatever became of the render.
        try container.encodeIfPresent(result.pick.map(ReportPick.init), forKey: .pick)
    }

    func json() -> String { ReportFigures.json(self) }
}
