import Foundation
@testable import SlideshowKit
import Testing
import SlideshowPlan
import SlideshowKit

private func jobs(_ text: String) throws(InvalidManifest) -> [BatchJob] {
    try BatchManifest(data: Data("[\(text)]".utf8), relativeTo: nil).jobs
}

private func problems(_ text: String) -> [String] {
    do {
        _ = try BatchManifest(data: Data("[\(text)]".utf8), relativeTo: nil)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}

@Suite("BatchManifest: transitions, fades, motion and per-photo objects")
struct ManifestPlanTests {
    @Test("the show's fields give make's settings")
    func fields() throws {
        let show = try jobs(#"""
            {"photos": ["a.jpg", "b.jpg"], "output": "o.mp4", "duration": 6, "transition": "circleopen", "transitionDuration": 0.8,
             "fadeIn": 0.5, "fadeOut": 1, "motion": "pan-left", "zoom": 0.3}
            """#)[0].slideshow
        #expect(show.transition == .circleopen && show.transitionDuration == 0.8 && show.fadeIn == 0.5 && show.fadeOut == 1)
        #expect(show.motion == .panLeft && show.zoom == 0.3 && show.photoSettings.isEmpty)
        let plan = try show.framePlan()
        #expect(plan.transitions.map(\.frames) == [78..<102] && plan.fadeIn == 0..<15 && plan.fadeOut == 150..<180)
    }

    @Test("photo objects override the show's transition, motion and duration; durations round cumulatively")
    func perPhoto() throws {
        let show = try jobs(#"""
            {"photos": [{"path": "a.jpg", "duration": 1.01, "transition": "wipeleft"}, "b.jpg",
                        {"path": "c.jpg", "motion": "zoom-out"}], "output": "o.mp4", "duration": 3.03, "transition": "fade",
             "transitionDuration": 0.2}
            """#)[0].slideshow
        #expect(show.photos.map(\.path) == ["a.jpg", "b.jpg", "c.jpg"])
        // b and c share what a leaves: 1.01 s each.
        guard case .perPhoto(let seconds) = show.length else { Issue.record("\(show.length)"); return }
        #expect(seconds.count == 3 && seconds[0] == 1.01 && seconds.allSatisfy { abs($0 - 1.01) < 1e-9 })
        let plan = try show.framePlan()
        #expect(plan.frameCount == 91 && plan.photoStarts == [0, 30, 61])
        #expect(plan.transitions.map(\.effect) == [.wipeleft, .fade])
        #expect(plan.motions[0] == nil && plan.motions[1] == nil && plan.motions[2] == MotionStyle.zoomOut.path(photo: 2, zoom: 0.1))
    }

    @Test("each bad value is refused, naming the job and the field",
          arguments: [
            (#"{"photos": ["a.jpg"], "output": "o.mp4", "transition": "sparkle"}"#, "job 0: transition: 'sparkle' is not one of"),
            (#"{"photos": ["a.jpg"], "output": "o.mp4", "motion": "spin"}"#, "job 0: motion: 'spin' is not one of"),
            (#"{"photos": ["a.jpg"], "output": "o.mp4", "zoom": 2}"#, "job 0: zoom: 2.0 is not between 0 and 1"),
            (#"{"photos": ["a.jpg"], "output": "o.mp4", "transitionDuration": -1}"#, "job 0: transitionDuration: -1.0 is not 0 or more seconds"),
            (#"{"photos": ["a.jpg", "b.jpg"], "output": "o.mp4", "transition": "fade", "transitionDuration": 5}"#, "job 0: transitionDuration: 5.0 s is longer than the show"),
            (#"{"photos": ["a.jpg"], "output": "o.mp4", "fadeIn": 2, "fadeOut": 2}"#, "job 0: fadeOut: 2.0 s + 2.0 s of fades are longer than the show"),
            (#"{"photos": [{"path": "a.jpg", "transition": "sparkle"}], "output": "o.mp4"}"#, "job 0: photos: photo 0: transition: 'sparkle' is not one of none, fade"),
            (#"{"photos": [{"path": "a.jpg", "speed": 2}], "output": "o.mp4"}"#, "job 0: photos: photo 0: speed: unknown field"),
            (#"{"photos": [{"duration": 2}], "output": "o.mp4"}"#, "job 0: photos: photo 0: path: missing, or not a string"),
            (#"{"photos": [{"path": "a.jpg", "duration": -1}, "b.jpg"], "output": "o.mp4"}"#, "job 0: photos: photo 0: duration -1.0 is not a positive number of seconds"),
            (#"{"photos": [{"path": "a.jpg", "duration": 3}, "b.jpg"], "output": "o.mp4", "duration": 2}"#, "job 0: photos: the photos' own durations (3.0 s) leave nothing of the 2.0 s for the other 1"),
            (#"{"photos": [{"path": "a.jpg", "duration": 0.01}, {"path": "b.jpg", "duration": 1}], "output": "o.mp4"}"#, "job 0: duration: photo 0 gets no frame"),
          ])
    func refused(job: String, expected: String) {
        let lines = problems(job)
        #expect(lines.contains { $0.contains(expected) }, "\(lines)")
    }
}

@Suite("BatchManifest: clips' parts and motion photos")
struct ManifestClipTests {
    @Test("a photo object's in and out are the clip's part; motionPhotos plays them")
    func parts() throws {
        let show = try jobs(#"""
            {"photos": ["a.jpg", {"path": "clip.mov", "in": 2.5, "out": 8}, {"path": "b.mov", "out": 3}, {"path": "c.mov", "in": 1}],
             "output": "o.mp4", "motionPhotos": "play"}
            """#)[0].slideshow
        #expect(show.photoSettings.map(\.clipPart) == [nil, ClipPart(start: 2.5, end: 8), ClipPart(start: 0, end: 3), ClipPart(start: 1)])
        #expect(show.motionPhotos == .play)
        #expect(try jobs(#"{"photos": ["a.jpg"], "output": "o.mp4"}"#)[0].slideshow.motionPhotos == .still)
    }

    @Test("bad values are refused, naming the job and the field",
          arguments: [
            (#"{"photos": [{"path": "a.mov", "in": "2"}], "output": "o.mp4"}"#, "job 0: photos: photo 0: in: not a number of seconds"),
            (#"{"photos": [{"path": "a.mov", "out": true}], "output": "o.mp4"}"#, "job 0: photos: photo 0: out: not a number of seconds"),
            (#"{"photos": ["a.jpg"], "output": "o.mp4", "motionPhotos": "live"}"#, "job 0: motionPhotos: 'live' is not one of still, play"),
          ])
    func refused(_ manifest: String, _ message: String) {
        #expect(problems(manifest).contains { $0.hasPrefix(message) }, "\(problems(manifest))")
    }
}
