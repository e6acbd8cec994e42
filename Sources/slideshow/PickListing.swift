import Foundation
import SlideshowKit
import SlideshowSupport

/// What `make --dry-run` prints, and the `pick` of `make --json`: the items the show would play,
/// and with `--pick` every input's fate.
enum PickListing {
    /// One line: `picked 12 of 240 inputs: 85 moments over 4 parts of the day (auto: 36 s at about 3 s a photo)`.
    static func summary(_ report: PickReport) -> String {
        let inputs = report.decisions.count
        return "picked \(report.picked.count) of \(inputs) input\(inputs == 1 ? "" : "s"): \(report.moments) moment\(report.moments == 1 ? "" : "s") over \(report.clusters) part\(report.clusters == 1 ? "" : "s") of the day (\(report.asked): \(report.why))"
    }

    /// The listing: without a pick, the items one per line; with one, the summary, then each
    /// input on a line, `+` picked (with its capture time) or `-` left out with why.
    static func text(_ selection: PhotoSelection) -> String {
        guard let report = selection.report else {
            return selection.photos.map { Message.oneLine($0) + "\n" }.joined()
        }
        var lines = [summary(report)]
        let width = min(48, report.decisions.map { Message.oneLine($0.path).count }.max() ?? 0)
        for decision in report.decisions {
            let path = Message.oneLine(decision.path)
            let padded = path + String(repeating: " ", count: max(0, width - path.count))
            if decision.isPicked {
                let time = decision.summary?.captureDate.map { " " + Self.time($0) } ?? " (no capture date)"
                lines.append("+ \(padded) \(time)")
            } else {
                lines.append("- \(padded)  \(Message.oneLine(decision.message))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `2024-05-12 09:02:11`, as the photo gives it (its offset from UTC after it, when given).
    static func time(_ date: CaptureDate) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let offset = date.utcOffsetMinutes.map { ($0 < 0 ? "-" : "+") + two(abs($0) / 60) + ":" + two(abs($0) % 60) } ?? ""
        return "\(date.year)-\(two(date.month))-\(two(date.day)) \(two(date.hour)):\(two(date.minute)):\(two(date.second))\(offset)"
    }

    /// The dry run's JSON: `{"photos": [...], "pick": {...}, "skipped": [...]}`.
    static func json(_ selection: PhotoSelection) -> String {
        ReportFigures.json(DryRun(photos: selection.photos, pick: selection.report.map(ReportPick.init),
                                  skipped: selection.skipped.map { ReportSkipped(path: $0.path, reason: $0.reason) }))
    }

    private struct DryRun: Encodable {
        var photos: [String]
        var pick: ReportPick?
        var skipped: [ReportSkipped]
    }
}

/// A file left out because it cannot be read: `{"path": "a.gif", "reason": "not a JPEG, … (GIF)"}`.
struct ReportSkipped: Codable, Equatable {
    var path: String
    var reason: String
}

/// The `pick` of a report: what was asked, how many were aimed at and why, and every input.
struct ReportPick: Codable, Equatable {
    /// `12` or `auto`.
    var asked: String
    /// The number aimed at; null for every good moment.
    var target: Int?
    /// How it was chosen: `36 s at about 3 s a photo`.
    var why: String
    var moments: Int
    var clusters: Int
    /// The picks in capture order.
    var picked: [String]
    /// Every input.
    var inputs: [ReportPickInput]

    init(_ report: PickReport) {
        asked = report.asked.description
        target = report.target
        why = report.why
        moments = report.moments
        clusters = report.clusters
        picked = report.picked
        inputs = report.decisions.map(ReportPickInput.init)
    }
}

/// One input of a pick: `{"path": "IMG_2.jpg", "picked": false, "reason": "duplicate", "of": "IMG_1.jpg",
/// "message": "a near-duplicate of IMG_1.jpg, which is sharper", "moment": 1, …}`.
struct ReportPickInput: Codable, Equatable {
    var path: String
    var picked: Bool
    /// `picked`, `duplicate`, `blurred`, `too-dark`, `overexposed`, `screenshot`, `document`,
    /// `coverage`, `live-photo-movie` or `unreadable`.
    var reason: String
    /// The other input the reason names: the moment's best, the pick of its run, the Live Photo's still.
    var of: String?
    var message: String
    /// Its capture time, `2024-05-12 09:02:11` as the photo gives it; null when it has none.
    var time: String?
    /// Its moment and part of the day, from 1.
    var moment: Int?
    var cluster: Int?
    /// `photo`, `clip`, `screenshot` or `document`.
    var content: String?
    /// Sharpness relative to its moment's sharpest, 0 to 1; its detail (Laplacian over contrast); its exposure, 0 to 1.
    var sharpness: Double?
    var detail: Double?
    var exposure: Double?
    /// The perceptual hash, 16 hex digits.
    var hash: String?

    init(_ decision: PickDecision) {
        path = decision.path
        picked = decision.isPicked
        reason = decision.reason.code
        switch decision.reason {
        case .duplicate(let other), .livePhotoMovie(let other): of = other
        case .coverage(let chosen): of = chosen
        default: of = nil
        }
        message = decision.message
        let summary = decision.summary
        time = summary?.captureDate.map(PickListing.time)
        moment = decision.moment
        cluster = decision.cluster
        content = summary?.content.rawValue
        func rounded(_ value: Double?) -> Double? { value.map { ($0 * 1000).rounded() / 1000 } }
        sharpness = rounded(decision.relativeSharpness)
        detail = rounded(summary?.detail)
        exposure = rounded(summary?.exposure)
        hash = summary.map { String(format: "%016llx", $0.hash) }
    }
}
