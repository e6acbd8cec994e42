import Foundation
import Testing
@testable import SlideshowKit
import SlideshowFraming
import SlideshowKit
import SlideshowPixels
import SlideshowPlan

/// The clips' side of the plan as values: media fragments, the frames a video is composed on,
/// and a clip's fit, without a pixel.
@Suite("Clips in the plan: parts, composed frames and fit")
struct ClipPlanTests {
    @Test("W3C Media Fragments temporal parts", arguments: [
        ("t=2.5,8", ClipPart(start: 2.5, end: 8)), ("t=2.5", ClipPart(start: 2.5)), ("t=,8", ClipPart(start: 0, end: 8)),
        ("t=npt:10,20", ClipPart(start: 10, end: 20)), ("t=1:02.5,1:10", ClipPart(start: 62.5, end: 70)),
        ("t=1:00:00,1:00:01", ClipPart(start: 3600, end: 3601)),
    ])
    func fragments(_ text: String, _ part: ClipPart) {
        #expect(ClipPart(mediaFragment: text) == part)
    }

    @Test("what is not a temporal part", arguments: ["t=", "t=,", "t=a,b", "t=1,2,3", "xywh=1,2,3,4", "t=-1,2", "t=1:75", "t=1.5:10", "t=1,2s"])
    func notFragments(_ text: String) {
        #expect(ClipPart(mediaFragment: text) == nil)
    }

    @Test("an argument's part, unless a file has the whole name")
    func splitting() {
        #expect(ClipPart.splitting("trip/clip.mov#t=2.5,8", fileExists: { _ in false }) == ("trip/clip.mov", ClipPart(start: 2.5, end: 8)))
        #expect(ClipPart.splitting("odd#t=1.mov", fileExists: { $0 == "odd#t=1.mov" }) == ("odd#t=1.mov", nil))
        #expect(ClipPart.splitting("a.jpg", fileExists: { _ in false }) == ("a.jpg", nil))
        #expect(ClipPart.splitting("take#2.mov", fileExists: { _ in false }) == ("take#2.mov", nil))
    }

    @Test("a clip is composed on every frame of its span; a motion photo's video from its cut, then its still held")
    func segments() throws {
        let timeline = try Timeline(photoCount: 3, length: .perPhoto(seconds: [1, 2, 1]), framesPerSecond: 30)
        let plan = try FramePlan(timeline: timeline, effects: [.fade, .none], transitionFrames: 10, motions: [nil, nil, nil],
                                 videoFrames: [nil, .max, nil])
        #expect(plan.segments == [.hold(photo: 0, frames: 0..<25), .transition(from: 0, frames: 25..<35),
                                  .single(photo: 1, frames: 35..<90), .hold(photo: 2, frames: 90..<120)])
        let motion = try FramePlan(timeline: timeline, effects: [.none, .none], transitionFrames: 0, motions: [nil, nil, nil],
                                   videoFrames: [nil, 36, nil])
        #expect(motion.segments == [.hold(photo: 0, frames: 0..<30), .single(photo: 1, frames: 30..<66),
                                    .hold(photo: 1, frames: 66..<90), .hold(photo: 2, frames: 90..<120)])
        #expect(motion.recipe(at: 40).frame == 40)
        // Without videos the plan is as it always was.
        let plain = try FramePlan(timeline: timeline, effects: [.none, .none], transitionFrames: 0, motions: [nil, nil, nil])
        #expect(plain.isHoldsOnly && plain.videoFrames == [nil, nil, nil])
    }

    @Test("a clip's fit: letterbox as a photo's, fill by the one crop rule, the faces kept")
    func fit() {
        let letterbox = ClipFit(display: Size(width: 320, height: 568), frame: Size(width: 320, height: 180), mode: .aspectFit, framing: .faces)
        #expect(letterbox.readerSize == Size(width: 102, height: 180) && letterbox.content == Rect(x: 108, y: 0, width: 102, height: 180))
        let fill = ClipFit(display: Size(width: 642, height: 642), frame: Size(width: 320, height: 180), mode: .aspectFill, framing: .center)
        #expect(fill.readerSize == Size(width: 320, height: 320) && fill.crop == Rect(x: 0, y: 70, width: 320, height: 180))
        // A face low in a portrait picture pulls the crop down.
        let faces = ClipFit(display: Size(width: 1080, height: 1920), frame: Size(width: 320, height: 180), mode: .aspectFill,
                            framing: .faces, faces: [Rect(x: 400, y: 1500, width: 200, height: 200)])
        #expect(faces.readerSize == Size(width: 320, height: 569) && faces.crop.y > 300 && faces.crop.maxY <= 569)
    }
}
