/// What every frame of a show shows: the photos' cuts, the transitions around them, the fades
/// at the ends and each photo's motion, computed once from the settings and the photo count.
///
/// Pure values: a test can check a whole show's timing without a pixel. The frames split into
/// ``Segment``s in order: a ``Segment/hold`` is one still picture (written once and held, as a
/// show without transitions is), every other frame is composed on its own (``recipe(at:)``).
///
/// Timing: the cuts are the timeline's (photo `i` starts at ``Timeline/frames(ofPhoto:)``), and
/// stay where they are. A transition of T frames at cut c covers frames `c − ⌊T/2⌋ ..< c + ⌈T/2⌉`;
/// frame k of it has progress `(k + ½)/T`. T is one length for the whole show, capped so that
/// every photo is still alone on screen for at least half its share (``transitionCap``).
/// A photo's motion runs over its whole time on screen, transitions included: frame f of the
/// photo's span `s ..< e` is at time `(f − s + ½)/(e − s)`.
public struct FramePlan: Sendable, Hashable {
    /// Frames in the whole show.
    public let frameCount: Int
    /// The first frame of each photo: where the cuts are (the first is 0).
    public let photoStarts: [Int]
    /// The transition at each cut (between photo i and i + 1), `photoCount − 1` of them;
    /// a hard cut has effect `.none` and no frames.
    public let transitions: [Transition]
    /// The fade from black at the start: its frames (may be empty).
    public let fadeIn: Range<Int>
    /// The fade to black at the end.
    public let fadeOut: Range<Int>
    /// Each photo's motion, nil when it stands still.
    public let motions: [MotionPath?]
    /// When the transition length had to be shortened: the frames asked for and the frames used.
    public let transitionCap: Cap?
    /// The frames in order, as holds and composed runs.
    public let segments: [Segment]
    /// For each photo, how many frames from its cut its video plays (a clip, or a motion
    /// photo's video); nil for a still photo. A clip plays over its whole span, transitions
    /// included (``Int/max``); a motion photo plays this many frames from its cut, then its still is held.
    public let videoFrames: [Int?]

    /// A transition length that was shortened to fit.
    public struct Cap: Sendable, Hashable {
        /// Frames asked for.
        public var requested: Int
        /// Frames used.
        public var used: Int

        /// Creates a cap.
        public init(requested: Int, used: Int) {
            self.requested = requested
            self.used = used
        }
    }

    /// One transition.
    public struct Transition: Sendable, Hashable {
        /// The outgoing photo; the incoming one is the next.
        public var from: Int
        /// The effect (``TransitionEffect/random`` already resolved).
        public var effect: TransitionEffect
        /// Its frames, centred on the cut.
        public var frames: Range<Int>
    }

    /// A run of frames.
    public enum Segment: Sendable, Hashable {
        /// One photo, still: a single picture held over the frames.
        case hold(photo: Int, frames: Range<Int>)
        /// One photo, every frame composed: moving, or fading from or to black.
        case single(photo: Int, frames: Range<Int>)
        /// Two photos in a transition, every frame composed.
        case transition(from: Int, frames: Range<Int>)

        /// The frames of the run.
        public var frames: Range<Int> {
            switch self {
            case .hold(_, let frames), .single(_, let frames), .transition(_, let frames): frames
            }
        }
    }

    /// How to compose one frame.
    public struct Recipe: Sendable, Hashable {
        /// The photo on screen (the outgoing one in a transition).
        public var photo: Int
        /// Its motion time, 0…1 over its time on screen.
        public var time: Double
        /// In a transition: the incoming photo, its motion time, the effect and its progress.
        public var incoming: Incoming?
        /// How much of the picture shows, 1 (all) to 0 (black): the fades at the ends.
        public var visibility: Double
        /// The frame composed (a clip's picture is chosen by it, not by the motion time).
        public var frame: Int = 0

        /// The incoming side of a transition frame.
        public struct Incoming: Sendable, Hashable {
            /// The incoming photo.
            public var photo: Int
            /// Its motion time.
            public var time: Double
            /// The effect.
            public var effect: TransitionEffect
            /// 0 (all the outgoing photo) to 1 (all the incoming one).
            public var progress: Double
        }
    }

    /// Why settings cannot make a plan.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// One line for the user.
        public var description: String
    }

    /// The longest transition length ≤ `requested` frames that leaves every photo alone on
    /// screen for at least half its share: photo i loses ⌈T/2⌉ after its first cut and ⌊T/2⌋
    /// before its last.
    /// - Parameters:
    ///   - bounds: the first frame of each photo, then the frame count.
    ///   - effects: the resolved effect at each cut.
    ///   - requested: the length asked for, in frames.
    package static func transitionLength(bounds starts: [Int], effects resolved: [TransitionEffect], requested transitionFrames: Int) -> Int {
        let count = starts.count - 1
        func fits(_ length: Int) -> Bool {
            for photo in 0..<count {
                let share = starts[photo + 1] - starts[photo]
                var lost = 0
                if photo > 0, resolved[photo - 1] != .none { lost += (length + 1) / 2 }
                if photo < count - 1, resolved[photo] != .none { lost += length / 2 }
                if lost > share / 2 { return false }
            }
            return true
        }
        var length = transitionFrames
        if !fits(length) {
            var low = 0, high = transitionFrames   // fits(low), !fits(high)
            while high - low > 1 {
                let middle = (low + high) / 2
                if fits(middle) { low = middle } else { high = middle }
            }
            length = low
        }
        return length
    }

    /// Lays out a show.
    /// - Parameters:
    ///   - timeline: the cuts and the frame count.
    ///   - effects: the effect at each cut (`photoCount − 1` of them; `.random` is resolved
    ///     here from the cut's index).
    ///   - transitionFrames: the transition length asked for, in frames (0 or more).
    ///   - fadeInFrames: the fade from black at the start, in frames.
    ///   - fadeOutFrames: the fade to black at the end.
    ///   - motions: each photo's motion.
    ///   - videoFrames: for each photo, the frames its video plays from its cut (``videoFrames``);
    ///     empty when no photo is a clip or a playing motion photo.
    /// - Throws: ``Problem`` when the fades together are longer than the show.
    public init(timeline: Timeline, effects: [TransitionEffect], transitionFrames: Int,
                fadeInFrames: Int = 0, fadeOutFrames: Int = 0, motions: [MotionPath?], videoFrames: [Int?] = []) throws(Problem) {
        let count = timeline.photoCount
        precondition(effects.count == max(0, count - 1) && motions.count == count, "one effect per cut, one motion per photo")
        precondition(videoFrames.isEmpty || videoFrames.count == count, "none, or one video length per photo")
        self.videoFrames = videoFrames.isEmpty ? Array(repeating: nil, count: count) : videoFrames
        precondition(transitionFrames >= 0 && fadeInFrames >= 0 && fadeOutFrames >= 0)
        let total = timeline.frameCount
        guard fadeInFrames + fadeOutFrames <= total else {
            throw Problem(description: "the fades (\(fadeInFrames) + \(fadeOutFrames) frames) are longer than the show (\(total) frames)")
        }
        frameCount = total
        var starts: [Int] = (0..<count).map { timeline.frames(ofPhoto: $0).lowerBound }
        starts.append(total)
        photoStarts = Array(starts.dropLast())
        var resolved: [TransitionEffect] = []
        for (cut, effect) in effects.enumerated() { resolved.append(effect.resolved(cut: cut)) }

        let length = Self.transitionLength(bounds: starts, effects: resolved, requested: transitionFrames)
        let anyTransition = resolved.contains { $0 != .none }
        transitionCap = anyTransition && length < transitionFrames ? Cap(requested: transitionFrames, used: length) : nil

        var transitions: [Transition] = []
        for cut in 0..<resolved.count {
            let boundary: Int = starts[cut + 1]
            var frames: Range<Int> = boundary..<boundary
            if resolved[cut] != .none && length >= 1 {
                let first: Int = boundary - length / 2
                frames = first..<(first + length)
            }
            transitions.append(Transition(from: cut, effect: frames.isEmpty ? .none : resolved[cut], frames: frames))
        }
        self.transitions = transitions
        fadeIn = 0..<fadeInFrames
        fadeOut = (total - fadeOutFrames)..<total
        self.motions = motions

        // Segments: each photo alone (held, or composed when moving or fading), then the
        // transition to the next.
        var segments: [Segment] = []
        func add(_ segment: Segment) {
            guard !segment.frames.isEmpty else { return }
            if case .single(let photo, let frames) = segment, case .single(photo, let before)? = segments.last,
               before.upperBound == frames.lowerBound {
                segments[segments.count - 1] = .single(photo: photo, frames: before.lowerBound..<frames.upperBound)
            } else {
                segments.append(segment)
            }
        }
        for photo in 0..<count {
            var aloneStart: Int = photo > 0 ? transitions[photo - 1].frames.upperBound : 0
            let aloneEnd: Int = photo < count - 1 ? transitions[photo].frames.lowerBound : total
            if let playing = self.videoFrames[photo] {
                // A video: composed every frame while it plays (a clip, all of its time), then its still held.
                let end = playing == .max ? aloneEnd : min(aloneEnd, max(aloneStart, starts[photo] + playing))
                add(.single(photo: photo, frames: aloneStart..<end))
                aloneStart = end
            }
            if motions[photo] != nil {
                add(.single(photo: photo, frames: aloneStart..<aloneEnd))
            } else {
                // A still photo: the frames inside the fades are composed, the rest held.
                let fadedIn: Int = min(aloneEnd, max(aloneStart, fadeInFrames))
                let fadingOut: Int = max(fadedIn, min(aloneEnd, max(aloneStart, total - fadeOutFrames)))
                add(.single(photo: photo, frames: aloneStart..<fadedIn))
                add(.hold(photo: photo, frames: fadedIn..<fadingOut))
                add(.single(photo: photo, frames: fadingOut..<aloneEnd))
            }
            if photo < count - 1 { add(.transition(from: photo, frames: transitions[photo].frames)) }
        }
        self.segments = segments
    }

    /// Frames photo `photo` is on screen, transitions included: what its motion spans.
    public func span(ofPhoto photo: Int) -> Range<Int> {
        let start: Int = photo > 0 ? transitions[photo - 1].frames.lowerBound : 0
        let end: Int = photo < photoStarts.count - 1 ? transitions[photo].frames.upperBound : frameCount
        return start..<end
    }

    /// The photo's motion time at a frame of its span.
    public func time(ofPhoto photo: Int, at frame: Int) -> Double {
        let span = span(ofPhoto: photo)
        return (Double(frame - span.lowerBound) + 0.5) / Double(span.count)
    }

    /// How to compose frame `frame`.
    public func recipe(at frame: Int) -> Recipe {
        precondition(frame >= 0 && frame < frameCount, "frame out of range")
        // The photo whose share holds the frame (the last start at or before it).
        var low = 0, high = photoStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if photoStarts[middle] <= frame { low = middle } else { high = middle - 1 }
        }
        var photo = low
        var incoming: Recipe.Incoming?
        if photo > 0, transitions[photo - 1].frames.contains(frame) { photo -= 1 }
        if photo < transitions.count, transitions[photo].frames.contains(frame) {
            let window = transitions[photo].frames
            let progress = (Double(frame - window.lowerBound) + 0.5) / Double(window.count)
            incoming = Recipe.Incoming(photo: photo + 1, time: time(ofPhoto: photo + 1, at: frame),
                                       effect: transitions[photo].effect, progress: progress)
        }
        var visibility = 1.0
        if fadeIn.contains(frame) { visibility *= (Double(frame) + 0.5) / Double(fadeIn.count) }
        if fadeOut.contains(frame) { visibility *= (Double(frameCount - frame) - 0.5) / Double(fadeOut.count) }
        return Recipe(photo: photo, time: time(ofPhoto: photo, at: frame), incoming: incoming, visibility: visibility, frame: frame)
    }

    /// Whether nothing is composed: every frame is part of a held still (the cuts-only show).
    public var isHoldsOnly: Bool {
        segments.allSatisfy { segment in
            if case .hold = segment { return true }
            return false
        }
    }
}
