import SlideshowFormats
import SlideshowPlan

/// How many photos `--pick` asks for: a number, or `auto`, as many as the show's length fits
/// at about ``PickRules/secondsPerPick`` each.
public enum PickCount: Sendable, Hashable, CustomStringConvertible {
    case count(Int)
    case auto

    /// `12` or `auto`; nil for anything else (a number below 1 included).
    public init?(parsing text: String) {
        if text == "auto" {
            self = .auto
        } else if let number = Int(text), number >= 1 {
            self = .count(number)
        } else {
            return nil
        }
    }

    /// `12` or `auto`.
    public var description: String {
        switch self {
        case .count(let number): "\(number)"
        case .auto: "auto"
        }
    }
}

/// What became of one input: picked, or left out and why.
public struct PickDecision: Sendable, Hashable {
    /// Why an input was left out (or that it was picked).
    public enum Reason: Sendable, Hashable {
        /// Picked: it plays.
        case picked
        /// Another picture of the same moment was better: sharper or better exposed.
        case duplicate(of: String)
        /// The best of its moment, but blurred (``PickRules/blurredDetail``).
        case blurred
        /// The best of its moment, but too dark.
        case tooDark
        /// The best of its moment, but over-exposed.
        case overexposed
        /// A screenshot, left out while there are photos.
        case screenshot
        /// A document (a page, a receipt), left out while there are photos.
        case document
        /// Its part of the day had fewer places than moments, and another was better there.
        case coverage(chosen: String?)
        /// An Apple Live Photo's movie: it plays with its still, not on its own.
        case livePhotoMovie(of: String)
        /// It cannot be read.
        case unreadable(String)

        /// The reason's name in reports: `picked`, `duplicate`, `blurred`, `too-dark`,
        /// `overexposed`, `screenshot`, `document`, `coverage`, `live-photo-movie`, `unreadable`.
        public var code: String {
            switch self {
            case .picked: "picked"
            case .duplicate: "duplicate"
            case .blurred: "blurred"
            case .tooDark: "too-dark"
            case .overexposed: "overexposed"
            case .screenshot: "screenshot"
            case .document: "document"
            case .coverage: "coverage"
            case .livePhotoMovie: "live-photo-movie"
            case .unreadable: "unreadable"
            }
        }
    }

    /// The input.
    public var path: String
    public var reason: Reason
    /// What the analysis found; nil for a file it could not read or did not analyse.
    public var summary: PhotoSummary?
    /// Its moment (a group of near-duplicates), counting from 1 in capture order.
    public var moment: Int?
    /// Its part of the day (a cluster between the largest time gaps), counting from 1.
    public var cluster: Int?
    /// Its sharpness relative to the sharpest of its moment, 0 to 1.
    public var relativeSharpness: Double?

    package init(path: String, reason: Reason, summary: PhotoSummary? = nil, moment: Int? = nil, cluster: Int? = nil, relativeSharpness: Double? = nil) {
        self.path = path
        self.reason = reason
        self.summary = summary
        self.moment = moment
        self.cluster = cluster
        self.relativeSharpness = relativeSharpness
    }

    /// Whether it plays.
    public var isPicked: Bool { reason == .picked }

    /// Why, in words: `a near-duplicate of IMG_2.jpg, which is sharper`.
    public var message: String {
        switch reason {
        case .picked: return "picked"
        case .duplicate(let other):
            let why = (relativeSharpness ?? 1) < PickRules.relativeBlur ? "sharper" : "sharper or better exposed"
            return "a near-duplicate of \(other), which is \(why)"
        case .blurred: return "blurred (the best of its moment)"
        case .tooDark: return "too dark (the best of its moment)"
        case .overexposed: return "over-exposed: its highlights are clipped (the best of its moment)"
        case .screenshot: return "a screenshot, left out while there are photos"
        case .document: return "a document, left out while there are photos"
        case .coverage(let chosen):
            return "its part of the day had fewer places than moments" + (chosen.map { "; \($0) was chosen there" } ?? "")
        case .livePhotoMovie(let still): return "the Live Photo movie of \(still): it plays with it under --motion-photos play"
        case .unreadable(let why): return "cannot be read (\(why))"
        }
    }
}

/// The choice: which inputs play, in capture order, and what became of every one.
public struct PickReport: Sendable, Hashable {
    /// What was asked.
    public var asked: PickCount
    /// How many were aimed at; nil for every good moment (`auto` with a length per photo).
    public var target: Int?
    /// How the number was chosen, e.g. `60 s at about 3 s a photo`.
    public var why: String
    /// The picks, in capture order (undated ones last, by name).
    public var picked: [String]
    /// Every input, in the order given (folders listed), with its fate.
    public var decisions: [PickDecision]
    /// Moments found: groups of near-duplicates.
    public var moments: Int
    /// Parts of the day the picks were spread over.
    public var clusters: Int

    package init(asked: PickCount, target: Int? = nil, why: String, picked: [String], decisions: [PickDecision], moments: Int, clusters: Int) {
        self.asked = asked
        self.target = target
        self.why = why
        self.picked = picked
        self.decisions = decisions
        self.moments = moments
        self.clusters = clusters
    }
}

/// Chooses photos from summaries: one per moment, the best of each, spread over the day.
///
/// A pure function of the summaries (``PhotoSummary``), so the same files always give the
/// same picks:
/// 1. **Capture order**: by capture time, then natural name order; undated last.
/// 2. **Moments**: two pictures are the same moment when their hashes differ in at most
///    ``PickRules/duplicateBits`` bits, or in at most ``PickRules/burstBits`` when taken within
///    ``PickRules/burstSeconds`` (a burst, a still and its clip); moments are the connected groups.
/// 3. **The best of a moment**: sharpness relative to the moment's sharpest (``PhotoSummary/detail``,
///    independent of exposure; within 80% of it counts as sharp) times ``PhotoSummary/exposure``
///    squared; screenshots and documents count a third; equal scores go to the larger picture
///    (not a crop), then the less compressed file.
/// 4. **Quality**: a best that is blurred, too dark or over-exposed, or is a screenshot or a
///    document, waits: it is picked only when the good moments are fewer than asked.
/// 5. **Coverage**: with more good moments than places, the capture times are split at their
///    largest gaps (at least ``PickRules/minimumClusterGap`` s and ``PickRules/gapOverMedian``
///    times the median gap, or an hour, ``PickRules/alwaysClusterGap``; at most as many parts as places), the places shared among the parts
///    in proportion to their moments (each at least one, largest remainders), and each part's
///    places spread over it: its moments in time order cut into equal runs, the best of each run.
public enum Picker {
    /// The choice over `summaries` (readable inputs) for `target` places (nil: every good moment).
    /// - Returns: the picks' indices into `summaries`, in capture order, and every summary's decision.
    public static func pick(_ summaries: [PhotoSummary], target: Int?) -> (picked: [Int], decisions: [PickDecision], moments: Int, clusters: Int) {
        let n = summaries.count
        var decisions = summaries.map { PickDecision(path: $0.path, reason: .picked, summary: $0) }
        guard n > 0 else { return ([], [], 0, 0) }
        // 1. Capture order.
        let order = captureOrder(summaries)
        var rank = [Int](repeating: 0, count: n)
        for (position, index) in order.enumerated() { rank[index] = position }

        // 2. Moments: union–find over every pair.
        var parent = Array(0..<n)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for a in 0..<n {
            for b in (a + 1)..<n where sameMoment(summaries[a], summaries[b]) {
                let (ra, rb) = (root(a), root(b))
                if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
            }
        }
        var groups: [Int: [Int]] = [:]
        for index in order { groups[root(index), default: []].append(index) }
        let moments = groups.values.sorted { rank[$0[0]] < rank[$1[0]] }

        // 3. The best of each moment.
        var bests: [Int] = []
        var score = [Double](repeating: 0, count: n)
        for (number, members) in moments.enumerated() {
            let sharpest = members.map { summaries[$0].detail }.max() ?? 0
            for member in members {
                let relative = sharpest > 0 ? summaries[member].detail / sharpest : 1
                decisions[member].moment = number + 1
                decisions[member].relativeSharpness = relative
                let s = summaries[member]
                // Within 80% of the sharpest counts as sharp: exposure decides between sharp siblings
                // (clipping sharpens edges, so an over-exposed copy may measure sharper).
                let exposure = s.exposure
                score[member] = min(1, relative / 0.8) * exposure * exposure * s.eyes * (s.content == .screenshot || s.content == .document ? 0.33 : 1)
            }
            // Equal scores: more pixels (not a crop), then more bytes a pixel (less compressed), then sharper, then earlier.
            func key(_ i: Int) -> (Double, Int, Double, Double, Int) {
                let s = summaries[i]
                return (score[i], s.size.width * s.size.height, Double(s.fileBytes) / Double(max(1, s.size.width * s.size.height)), s.detail, -rank[i])
            }
            let best = members.max { key($0) < key($1) }!
            bests.append(best)
            for member in members where member != best { decisions[member].reason = .duplicate(of: summaries[best].path) }
        }

        // 4. Quality: the good moments, then the others as a fallback.
        var good: [Int] = [], fallback: [(index: Int, tier: Int)] = []
        for best in bests {
            if let flaw = flaw(summaries[best]) {
                decisions[best].reason = flaw
                let tier = (flaw == .screenshot || flaw == .document) ? 2 : 1
                fallback.append((best, tier))
            } else {
                good.append(best)
            }
        }
        fallback.sort { ($0.tier, -quality(summaries[$0.index]), rank[$0.index]) < ($1.tier, -quality(summaries[$1.index]), rank[$1.index]) }

        // 5. Coverage.
        var chosen: [Int]
        var clusterCount = 1
        if let target, good.count > target {
            let (picks, clusterOf, chosenFor) = cover(good, summaries: summaries, rank: rank, places: target)
            chosen = picks
            clusterCount = Set(clusterOf.values).count
            for index in good {
                decisions[index].cluster = clusterOf[index]
                if !picks.contains(index) { decisions[index].reason = .coverage(chosen: chosenFor[index].map { summaries[$0].path }) }
            }
        } else {
            chosen = good
            // Every good moment plays; its part of the day is still reported.
            let clusterOf = cover(good, summaries: summaries, rank: rank, places: good.count).clusterOf
            for index in good { decisions[index].cluster = clusterOf[index] }
            clusterCount = max(1, Set(clusterOf.values).count)
            let wanted = target ?? (good.isEmpty ? fallback.count : 0)
            for (index, _) in fallback.prefix(max(0, wanted - good.count)) {
                chosen.append(index)
                decisions[index].reason = .picked
            }
        }
        chosen.sort { rank[$0] < rank[$1] }
        return (chosen, decisions, moments.count, clusterCount)
    }

    /// Capture order: dated pictures by time, then undated ones; ties by natural name order.
    package static func captureOrder(_ summaries: [PhotoSummary]) -> [Int] {
        PhotoOrder.date.arrange(summaries.map { PhotoOrder.Item(name: $0.path, date: $0.captureDate) }).order
    }

    /// Whether two pictures show the same moment.
    package static func sameMoment(_ a: PhotoSummary, _ b: PhotoSummary) -> Bool {
        let bits = (a.hash ^ b.hash).nonzeroBitCount
        if bits <= PickRules.duplicateBits { return true }
        if let x = a.seconds, let y = b.seconds, abs(x - y) <= PickRules.burstSeconds {
            return bits <= (abs(x - y) <= PickRules.rapidSeconds ? PickRules.rapidBits : PickRules.burstBits)
        }
        return false
    }

    /// What keeps the best of a moment out while there are better: nil when nothing does.
    package static func flaw(_ s: PhotoSummary) -> PickDecision.Reason? {
        if s.content == .screenshot { return .screenshot }
        if s.content == .document { return .document }
        if s.meanLuma < PickRules.darkMean || s.shadows > PickRules.darkShadows { return .tooDark }
        if s.highlights > PickRules.overexposedHighlights { return .overexposed }
        if s.detail < PickRules.blurredDetail { return .blurred }
        return nil
    }

    /// A picture's worth against other moments: its detail (up to a sharp photo's) times its exposure.
    package static func quality(_ s: PhotoSummary) -> Double {
        min(1, s.detail / 0.15) * s.exposure
    }

    /// Spreads `places` over the candidates' parts of the day (see ``Picker``, step 5).
    /// - Returns: the picks; each candidate's part (from 1); for each left out, the pick of its run.
    package static func cover(_ candidates: [Int], summaries: [PhotoSummary], rank: [Int], places: Int)
        -> (picks: [Int], clusterOf: [Int: Int], chosenFor: [Int: Int]) {
        let ordered = candidates.sorted { rank[$0] < rank[$1] }
        let dated = ordered.filter { summaries[$0].seconds != nil }
        let undated = ordered.filter { summaries[$0].seconds == nil }
        // The parts: dated ones split at the largest gaps; the undated ones a part of their own.
        var parts: [[Int]] = []
        if !dated.isEmpty {
            let gaps = zip(dated, dated.dropFirst()).map { summaries[$1].seconds! - summaries[$0].seconds! }
            let median = gaps.sorted()[safe: gaps.count / 2] ?? 0
            // An hour apart always splits, however sparse the photos (few photos make a long median gap).
            let threshold = min(PickRules.alwaysClusterGap, max(PickRules.minimumClusterGap, Int64((Double(median) * PickRules.gapOverMedian).rounded(.up))))
            let maximumParts = max(1, places - (undated.isEmpty ? 0 : 1))
            let splits = gaps.indices.filter { gaps[$0] >= threshold }
                .sorted { (gaps[$0], -$0) > (gaps[$1], -$1) }
                .prefix(maximumParts - 1).sorted()
            var start = 0
            for split in splits + [dated.count - 1] {
                parts.append(Array(dated[start...split]))
                start = split + 1
            }
        }
        if !undated.isEmpty { parts.append(undated) }
        // Places in proportion: one each, the rest by largest remainders, never more than a part holds.
        var quota = parts.indices.map { $0 < places ? 1 : 0 }
        var left = places - quota.reduce(0, +)
        let total = Double(candidates.count)
        while left > 0 {
            let room = parts.indices.filter { quota[$0] < parts[$0].count }
            guard !room.isEmpty else { break }
            // The part whose share is furthest ahead of its quota.
            let next = room.max { a, b in
                let da = Double(places) * Double(parts[a].count) / total - Double(quota[a])
                let db = Double(places) * Double(parts[b].count) / total - Double(quota[b])
                return da < db || (da == db && a > b)
            }!
            quota[next] += 1
            left -= 1
        }
        var picks: [Int] = [], clusterOf: [Int: Int] = [:], chosenFor: [Int: Int] = [:]
        for (number, part) in parts.enumerated() {
            for index in part { clusterOf[index] = number + 1 }
            let q = quota[number]
            guard q > 0 else { continue }
            for run in 0..<q {
                let members = Array(part[(run * part.count / q)..<((run + 1) * part.count / q)])
                guard let best = members.max(by: { (quality(summaries[$0]), -rank[$0]) < (quality(summaries[$1]), -rank[$1]) }) else { continue }
                picks.append(best)
                for member in members where member != best { chosenFor[member] = best }
            }
        }
        return (picks, clusterOf, chosenFor)
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
