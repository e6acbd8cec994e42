/// A photo's own settings, overriding the show's (a manifest's per-photo objects).
public struct PhotoSettings: Sendable, Hashable {
    /// The transition from this photo to the next; nil for the show's.
    public var transition: TransitionEffect?
    /// This photo's motion; nil for the show's.
    public var motion: MotionStyle?

    /// Creates per-photo settings; nil means the show's.
    public init(transition: TransitionEffect? = nil, motion: MotionStyle? = nil) {
        self.transition = transition
        self.motion = motion
    }
}

extension Slideshow {
    /// Why the transition, fade or motion settings cannot be used, or nil when they can.
    public var planProblem: String? {
        if !transitionDuration.isFinite || transitionDuration < 0 {
            return "the transition duration must be 0 or more seconds, not \(transitionDuration)"
        }
        if !fadeIn.isFinite || fadeIn < 0 { return "the fade-in must be 0 or more seconds, not \(fadeIn)" }
        if !fadeOut.isFinite || fadeOut < 0 { return "the fade-out must be 0 or more seconds, not \(fadeOut)" }
        if !zoom.isFinite || zoom < 0 || zoom > 1 { return "the zoom must be between 0 and 1, not \(zoom)" }
        if !photoSettings.isEmpty && photoSettings.count != photos.count {
            return "\(photoSettings.count) per-photo settings for \(photos.count) photos"
        }
        return nil
    }

    /// The frame plan: what every frame shows.
    /// - Throws: ``RenderError/invalid(_:)`` when the length, the transition, fade or motion
    ///   settings cannot make one (and `.audio` when a length that follows the soundtrack cannot be read).
    public func framePlan() throws(RenderError) -> FramePlan {
        try framePlan(timeline: timeline())
    }

    /// The frame plan over a timeline already worked out.
    func framePlan(timeline: Timeline) throws(RenderError) -> FramePlan {
        if let problem = planProblem { throw .invalid(problem) }
        let fps = Double(video.framesPerSecond)
        let total = timeline.endTime.seconds
        let count = photos.count
        let effects = (0..<max(0, count - 1)).map { photoSettings.isEmpty ? transition : photoSettings[$0].transition ?? transition }
        if transitionDuration > total, effects.contains(where: { $0 != .none }) {
            throw .invalid("the transition duration \(transitionDuration) s is longer than the show (\(total) s)")
        }
        let motions = (0..<count).map { index in
            (photoSettings.isEmpty ? motion : photoSettings[index].motion ?? motion).path(photo: index, zoom: zoom)
        }
        do {
            return try FramePlan(timeline: timeline, effects: effects,
                                 transitionFrames: Int((transitionDuration * fps).rounded()),
                                 fadeInFrames: Int((fadeIn * fps).rounded()), fadeOutFrames: Int((fadeOut * fps).rounded()),
                                 motions: motions)
        } catch {
            throw .invalid(error.description)
        }
    }

    /// The warning for a transition that had to be shortened, or nil.
    public func planWarning(_ plan: FramePlan) -> String? {
        guard let cap = plan.transitionCap else { return nil }
        let fps = Double(video.framesPerSecond)
        let seconds = (Double(cap.used) / fps * 1000).rounded() / 1000
        return "transitions shortened from \(transitionDuration) s to \(seconds) s (\(cap.used) frames) so that every photo is alone on screen for at least half its time"
    }
}
