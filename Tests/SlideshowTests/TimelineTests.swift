import Testing
@testable import SlideshowKit
import SlideshowPixels
import SlideshowPlan

@Suite("Timeline: frames and presentation times")
struct TimelineTests {
    @Test("3 photos in 3 s at 30 fps: 30 frames each, at 0, 1 and 2 s, ending at 3 s")
    func threePhotos() throws {
        let timeline = try Timeline(photoCount: 3, length: .total(seconds: 3), framesPerSecond: 30)
        #expect(timeline.frameCount == 90)
        #expect((0..<3).map(timeline.frames(ofPhoto:)) == [0..<30, 30..<60, 60..<90])
        #expect((0..<3).map(timeline.presentationTime(ofPhoto:)) == [
            MediaTime(value: 0, timescale: 30), MediaTime(value: 30, timescale: 30), MediaTime(value: 60, timescale: 30),
        ])
        #expect(timeline.endTime == MediaTime(value: 3, timescale: 1))
    }

    @Test("photo i of N covers floor(i·F/N) to floor((i+1)·F/N) − 1", arguments: [
        (7, 3.0, 30), (4, 1.0, 25), (60, 60.0, 30), (13, 2.5, 24), (3, 0.1, 30), (100, 10.0, 60),
    ])
    func shares(photos: Int, seconds: Double, fps: Int) throws {
        let timeline = try Timeline(photoCount: photos, length: .total(seconds: seconds), framesPerSecond: fps)
        let frames = Int((seconds * Double(fps)).rounded())
        #expect(timeline.frameCount == frames)
        var next = 0
        for index in 0..<photos {
            let range = timeline.frames(ofPhoto: index)
            #expect(range.lowerBound == index * frames / photos)
            #expect(range.upperBound == (index + 1) * frames / photos)
            #expect(range.lowerBound == next, "the shares are contiguous")
            #expect(range.count >= frames / photos && range.count <= frames / photos + 1, "shares differ by at most a frame")
            #expect(timeline.presentationTime(ofPhoto: index) == MediaTime(value: Int64(range.lowerBound), timescale: Int32(fps)))
            next = range.upperBound
        }
        #expect(next == frames)
    }

    @Test("7 photos in 3 s: 12 frames for the first, 13 for each of the others")
    func unevenShares() throws {
        let timeline = try Timeline(photoCount: 7, length: .total(seconds: 3), framesPerSecond: 30)
        #expect((0..<7).map { timeline.frames(ofPhoto: $0).count } == [12, 13, 13, 13, 13, 13, 13])
        #expect((0..<7).map { timeline.frames(ofPhoto: $0).lowerBound } == [0, 12, 25, 38, 51, 64, 77])
    }

    @Test("--slide-duration S gives N·S seconds")
    func perSlide() throws {
        let timeline = try Timeline(photoCount: 4, length: .perSlide(seconds: 2.5), framesPerSecond: 30)
        #expect(timeline.frameCount == 300)
        #expect(timeline.endTime == MediaTime(value: 10, timescale: 1))
        #expect(timeline.frames(ofPhoto: 3) == 225..<300)
    }

    @Test("fewer frames than photos, no photos, and non-positive lengths are errors")
    func problems() {
        #expect(throws: Timeline.Problem.self) { try Timeline(photoCount: 4, length: .total(seconds: 0.1), framesPerSecond: 30) }
        #expect(throws: Timeline.Problem.self) { try Timeline(photoCount: 0, length: .total(seconds: 3), framesPerSecond: 30) }
        for seconds in [0, -1, .nan, .infinity] {
            #expect(throws: Timeline.Problem.self) { try Timeline(photoCount: 1, length: .total(seconds: seconds), framesPerSecond: 30) }
        }
        #expect(throws: Timeline.Problem.self) { try Timeline(photoCount: 1, length: .perSlide(seconds: -2), framesPerSecond: 30) }
        let problem = #expect(throws: Timeline.Problem.self) { try Timeline(photoCount: 4, length: .total(seconds: 0.1), framesPerSecond: 30) }
        #expect(problem?.description == "0.1 s in total at 30 fps gives 3 frames for 4 photos; each photo needs at least one frame")
    }

    @Test("media times compare and rescale exactly")
    func mediaTime() {
        #expect(MediaTime(value: 1, timescale: 1) == MediaTime(value: 30, timescale: 30))
        #expect(MediaTime(value: 29, timescale: 30) < MediaTime(value: 1, timescale: 1))
        #expect(MediaTime(value: 1001, timescale: 30000).converted(to: 30).value == 1)
        #expect(MediaTime(value: 3, timescale: 2).converted(to: 30) == MediaTime(value: 45, timescale: 30))
        #expect(MediaTime(value: -1, timescale: 60).converted(to: 30).value == -1)  // −0.5 rounds away from zero
        #expect(Set([MediaTime(value: 2, timescale: 4), MediaTime(value: 1, timescale: 2)]).count == 1)
    }
}
