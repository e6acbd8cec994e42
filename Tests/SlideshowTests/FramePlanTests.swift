import SlideshowKit
import Testing
import SlideshowPlan

/// A plan with one effect everywhere, no motion.
private func plan(photos: Int, seconds: Double, fps: Int = 30, effect: TransitionEffect, transition: Double,
                  fadeIn: Int = 0, fadeOut: Int = 0, motion: MotionStyle = .none) throws -> FramePlan {
    let timeline = try Timeline(photoCount: photos, length: .total(seconds: seconds), framesPerSecond: fps)
    return try FramePlan(timeline: timeline, effects: Array(repeating: effect, count: photos - 1),
                         transitionFrames: Int((transition * Double(fps)).rounded()), fadeInFrames: fadeIn, fadeOutFrames: fadeOut,
                         motions: (0..<photos).map { motion.path(photo: $0, zoom: 0.2) })
}

@Suite("The frame plan: exact timing, cuts that stay, transitions centred and capped")
struct FramePlanTests {
    /// Odd lengths and counts: 3.7 s of 4 photos at 30 fps, 1.03 s of 7 at 24, 9 s of 3 at 30, 10.01 s of 5 at 25.
    static let shows: [(photos: Int, seconds: Double, fps: Int, transition: Double)] = [
        (4, 3.7, 30, 0.5), (7, 1.03, 24, 0.3), (3, 9, 30, 1), (5, 10.01, 25, 0.77), (2, 0.1, 30, 1),
    ]

    @Test("every effect: frames = round(D × fps), cuts where the timeline puts them, segments tile the show, each photo alone ≥ half its share",
          arguments: TransitionEffect.allCases)
    func timing(effect: TransitionEffect) throws {
        for show in Self.shows {
            let timeline = try Timeline(photoCount: show.photos, length: .total(seconds: show.seconds), framesPerSecond: show.fps)
            let plan = try plan(photos: show.photos, seconds: show.seconds, fps: show.fps, effect: effect, transition: show.transition)
            #expect(plan.frameCount == Int((show.seconds * Double(show.fps)).rounded()))
            #expect(plan.photoStarts == (0..<show.photos).map { timeline.frames(ofPhoto: $0).lowerBound })
            // The segments tile 0..<frameCount in order.
            var next = 0
            for segment in plan.segments {
                #expect(segment.frames.lowerBound == next && !segment.frames.isEmpty)
                next = segment.frames.upperBound
            }
            #expect(next == plan.frameCount)
            let requested = Int((show.transition * Double(show.fps)).rounded())
            let used = plan.transitionCap?.used ?? requested
            for transition in plan.transitions {
                let cut = plan.photoStarts[transition.from + 1]
                if effect == .none || used == 0 {
                    #expect(transition.frames.isEmpty && transition.effect == .none)
                } else {
                    // Centred: ⌊T/2⌋ frames before the cut, ⌈T/2⌉ from it on.
                    #expect(transition.frames == (cut - used / 2)..<(cut - used / 2 + used))
                    #expect(transition.effect != .random && transition.effect != .none)
                    if effect != .random { #expect(transition.effect == effect) }
                }
            }
            for photo in 0..<show.photos {
                let share = timeline.frames(ofPhoto: photo)
                let before = photo > 0 ? plan.transitions[photo - 1].frames.upperBound : 0
                let after = photo < show.photos - 1 ? plan.transitions[photo].frames.lowerBound : plan.frameCount
                #expect(after - before >= share.count - share.count / 2, "photo \(photo) alone \(after - before) of \(share.count)")
                // Alone and still: one hold exactly over those frames.
                #expect(plan.segments.contains(.hold(photo: photo, frames: before..<after)))
            }
            if effect == .none { #expect(plan.isHoldsOnly && plan.segments.count == show.photos) }
        }
    }

    @Test("a transition too long for the shares is capped to the longest that fits, and says so")
    func cap() throws {
        // 3 photos of 30 frames: the middle one loses T, so T ≤ 15.
        let capped = try plan(photos: 3, seconds: 3, effect: .fade, transition: 1)
        #expect(capped.transitionCap == FramePlan.Cap(requested: 30, used: 15))
        #expect(capped.transitions.map(\.frames) == [23..<38, 53..<68])
        // 9 s: 1 s fits.
        let fits = try plan(photos: 3, seconds: 9, effect: .fade, transition: 1)
        #expect(fits.transitionCap == nil)
        #expect(fits.transitions.map(\.frames) == [75..<105, 165..<195])
        #expect(fits.segments == [.hold(photo: 0, frames: 0..<75), .transition(from: 0, frames: 75..<105),
                                  .hold(photo: 1, frames: 105..<165), .transition(from: 1, frames: 165..<195),
                                  .hold(photo: 2, frames: 195..<270)])
        // Hard cuts never cap.
        #expect(try plan(photos: 3, seconds: 3, effect: .none, transition: 1).transitionCap == nil)
    }

    @Test("progress runs (k + ½)/T through a window, symmetric about the cut; outside, no incoming photo")
    func progress() throws {
        let plan = try plan(photos: 3, seconds: 9, effect: .fade, transition: 1)
        let window = plan.transitions[0].frames
        let progress = window.map { plan.recipe(at: $0).incoming!.progress }
        #expect(progress == (0..<30).map { (Double($0) + 0.5) / 30 })
        #expect(window.allSatisfy { plan.recipe(at: $0).photo == 0 && plan.recipe(at: $0).incoming?.photo == 1 })
        #expect(plan.recipe(at: window.lowerBound - 1).incoming == nil && plan.recipe(at: window.upperBound).incoming == nil)
        #expect(plan.recipe(at: window.upperBound).photo == 1)
    }

    @Test("random picks per cut from the cut's index: the same every time, never none, several different")
    func random() throws {
        let a = try plan(photos: 21, seconds: 42, effect: .random, transition: 0.5)
        let b = try plan(photos: 21, seconds: 42, effect: .random, transition: 0.5)
        #expect(a == b)
        #expect(a.transitions.map(\.effect) == (0..<20).map { TransitionEffect.random.resolved(cut: $0) })
        #expect(a.transitions.allSatisfy { TransitionEffect.concrete.contains($0.effect) })
        #expect(Set(a.transitions.map(\.effect)).count >= 5)
    }

    @Test("motion spans each photo's whole time on screen, transitions included, at steadily rising times")
    func motionSpan() throws {
        let plan = try plan(photos: 3, seconds: 9, effect: .fade, transition: 1, motion: .zoomIn)
        #expect(plan.span(ofPhoto: 0) == 0..<105 && plan.span(ofPhoto: 1) == 75..<195 && plan.span(ofPhoto: 2) == 165..<270)
        #expect(plan.segments == [.single(photo: 0, frames: 0..<75), .transition(from: 0, frames: 75..<105),
                                  .single(photo: 1, frames: 105..<165), .transition(from: 1, frames: 165..<195),
                                  .single(photo: 2, frames: 195..<270)])
        // Photo 1's time, whether it is the incoming, the only or the outgoing photo.
        let times = (75..<195).map { frame -> Double in
            let recipe = plan.recipe(at: frame)
            return recipe.photo == 1 ? recipe.time : recipe.incoming!.time
        }
        #expect(times == (0..<120).map { (Double($0) + 0.5) / 120 })
    }

    @Test("fades at the ends: composed frames with visibility (k + ½)/n, held frames between; too long is refused")
    func fades() throws {
        let plan = try plan(photos: 2, seconds: 2, effect: .none, transition: 0, fadeIn: 10, fadeOut: 6)
        #expect(plan.segments == [.single(photo: 0, frames: 0..<10), .hold(photo: 0, frames: 10..<30),
                                  .hold(photo: 1, frames: 30..<54), .single(photo: 1, frames: 54..<60)])
        #expect((0..<10).map { plan.recipe(at: $0).visibility } == (0..<10).map { (Double($0) + 0.5) / 10 })
        #expect((54..<60).map { plan.recipe(at: $0).visibility } == (0..<6).map { (5.5 - Double($0)) / 6 })
        #expect(plan.recipe(at: 10).visibility == 1 && !plan.isHoldsOnly)
        #expect(throws: FramePlan.Problem.self) { try Self.fadePlan(fadeIn: 40, fadeOut: 21) }
    }

    private static func fadePlan(fadeIn: Int, fadeOut: Int) throws {
        _ = try plan(photos: 2, seconds: 2, effect: .none, transition: 0, fadeIn: fadeIn, fadeOut: fadeOut)
    }

    @Test("per-photo durations round cumulatively: the total is exact, a photo without a frame is refused")
    func perPhotoDurations() throws {
        let timeline = try Timeline(photoCount: 3, length: .perPhoto(seconds: [1.01, 1.02, 0.97]), framesPerSecond: 30)
        #expect(timeline.frameCount == 90)
        #expect((0..<3).map { timeline.frames(ofPhoto: $0) } == [0..<30, 30..<61, 61..<90])
        #expect(throws: Timeline.Problem.self) { try Timeline(photoCount: 2, length: .perPhoto(seconds: [0.01, 1]), framesPerSecond: 30) }
        #expect(throws: Timeline.Problem.self) { try Timeline(photoCount: 2, length: .perPhoto(seconds: [1, -1]), framesPerSecond: 30) }
        #expect(throws: Timeline.Problem.self) { try Timeline(photoCount: 3, length: .perPhoto(seconds: [1, 1]), framesPerSecond: 30) }
    }

    @Test("motion paths: pans keep the zoomed view inside the picture, zoom-in ends at 1/(1 + zoom), kenburns varies")
    func motionPaths() throws {
        #expect(MotionStyle.none.path(photo: 0, zoom: 0.3) == nil && MotionStyle.zoomIn.path(photo: 0, zoom: 0) == nil)
        let zoomIn = try #require(MotionStyle.zoomIn.path(photo: 0, zoom: 0.25))
        #expect(zoomIn.start.scale == 1 && zoomIn.end.scale == 0.8 && zoomIn.magnification == 1.25)
        for style in MotionStyle.allCases where style != .none {
            for photo in 0..<16 {
                let path = try #require(style.path(photo: photo, zoom: 0.2))
                for step in 0...50 {
                    let view = path.view(at: Double(step) / 50)
                    #expect(view.centerX - view.scale / 2 >= -1e-12 && view.centerX + view.scale / 2 <= 1 + 1e-12)
                    #expect(view.centerY - view.scale / 2 >= -1e-12 && view.centerY + view.scale / 2 <= 1 + 1e-12)
                }
            }
        }
        let kenburns = (0..<16).compactMap { MotionStyle.kenburns.path(photo: $0, zoom: 0.2) }
        #expect(Set(kenburns).count >= 6)
        #expect(kenburns == (0..<16).compactMap { MotionStyle.kenburns.path(photo: $0, zoom: 0.2) })
    }

    @Test("a path kept on a focus moves its views the least that holds it, and centres on one larger than the view")
    func keepingFocus() throws {
        let pan = try #require(MotionStyle.panLeft.path(photo: 0, zoom: 0.25))  // views 0.8 wide, from x 0.6 to 0.4
        let kept = pan.keeping((x: 0.05...0.3, y: 0.2...0.5))
        #expect(kept.start == .init(centerX: 0.45, centerY: 0.5, scale: 0.8))  // moved left just enough: 0.05 = 0.45 - 0.4
        #expect(kept.end == pan.end)                                           // already held it
        for step in 0...20 {
            let view = kept.view(at: Double(step) / 20)
            #expect(view.centerX - view.scale / 2 <= 0.05 + 1e-9 && view.centerX + view.scale / 2 >= 0.3 - 1e-9)
        }
        // A focus wider than the view: centred on it, within the picture.
        let wide = pan.keeping((x: 0.0...0.9, y: 0.0...1.0))
        #expect(abs(wide.start.centerX - 0.45) < 1e-12 && abs(wide.start.centerY - 0.5) < 1e-12)
    }
}
