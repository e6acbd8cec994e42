import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowFraming
import SlideshowKit
import SlideshowPixels
import SlideshowPlan
import SlideshowWriter

/// One crop rule for still and moving photos, and faces held by every frame of a motion.
@Suite("Motion framing: one crop rule, faces in every frame")
struct MotionFramingTests {
    /// A tall portrait (970x2204) into a 16:9 frame: the crop is the full width, 546 rows.
    static let tall = Size(width: 970, height: 2204)
    static let frame = Size(width: 1920, height: 1080)

    @Test("a moving photo's picture area is the still slide's crop, for both framings, with and without faces",
          arguments: [Framing.center, .faces])
    func oneCropRule(_ framing: Framing) {
        let face = Rect(x: 300, y: 350, width: 390, height: 390)
        for faces in [[], [face]] {
            for image in [Self.tall, Size(width: 900, height: 1200), Size(width: 4288, height: 2848), Size(width: 3000, height: 1000)] {
                let moving = PictureArea.region(of: image, frame: Self.frame, mode: .aspectFill, framing: framing, faces: faces)
                #expect(moving == framing.crop(of: image, aspect: Self.frame, faces: faces), "\(image) \(faces)")
            }
        }
        let faceless = PictureArea.region(of: Self.tall, frame: Self.frame, mode: .aspectFill, framing: framing)
        switch framing {
        // --framing center is the centre, moving or not (it was centred on the upper third).
        case .center: #expect(faceless == Rect(x: 0, y: 829, width: 970, height: 546))
        // No face found: the upper third, centred at a sixth of the height, as for a still
        // (it was centred at a third: the chin and the suit of a portrait).
        case .faces: #expect(faceless == Rect(x: 0, y: 94, width: 970, height: 546))
        }
        #expect(PictureArea.region(of: Self.tall, frame: Self.frame, mode: .aspectFit, framing: framing) == Rect(Self.tall))
    }

    /// Whether `inner` (in the picture area's units) lies inside the view.
    static func holds(_ view: MotionPath.View, _ inner: (x: ClosedRange<Double>, y: ClosedRange<Double>)) -> Bool {
        let slack = 1e-9
        return view.centerX - view.scale / 2 <= inner.x.lowerBound + slack && view.centerX + view.scale / 2 >= inner.x.upperBound - slack
            && view.centerY - view.scale / 2 <= inner.y.lowerBound + slack && view.centerY + view.scale / 2 >= inner.y.upperBound - slack
    }

    /// Every kenburns variant (8 directions, in and out: photos 0 to 31 cover them) and the pans and zooms.
    static let paths: [(String, MotionPath)] =
        (0..<32).map { ("kenburns #\($0)", MotionStyle.kenburns.path(photo: $0, zoom: 0.2)!) }
        + MotionStyle.allCases.filter { $0 != .none && $0 != .kenburns }.map { ($0.rawValue, $0.path(photo: 0, zoom: 0.2)!) }

    @Test("a face in a tall portrait's upper third is whole in the first, the last and every frame of every motion",
          arguments: [
            // One face in the upper third.
            [Rect(x: 290, y: 420, width: 250, height: 250)],
            // The same and a smaller second face far below it (too far to share the crop): the
            // crop keeps the larger, and the pan must not be pulled towards the other.
            [Rect(x: 290, y: 420, width: 250, height: 250), Rect(x: 40, y: 780, width: 120, height: 120)],
            // Two faces side by side.
            [Rect(x: 100, y: 300, width: 200, height: 200), Rect(x: 620, y: 330, width: 200, height: 200)],
          ])
    func facesInEveryFrame(_ faces: [Rect]) throws {
        let region = PictureArea.region(of: Self.tall, frame: Self.frame, mode: .aspectFill, framing: .faces, faces: faces)
        let kept = try #require(FaceFraming.kept(faces: faces, imageSize: Self.tall, cropSize: FitGeometry.size(of: region)))
        let focus = PictureArea.focus(of: kept, in: region)
        // The largest face, unpadded, must be in view whatever the motion.
        let largest = faces.max { $0.width * $0.height < $1.width * $1.height }!
        let face = PictureArea.focus(of: largest, in: region)
        for (name, path) in Self.paths {
            let moved = path.keeping(focus)
            #expect(Self.holds(moved.start, face), "\(name): start \(moved.start) cuts \(face)")
            #expect(Self.holds(moved.end, face), "\(name): end \(moved.end) cuts \(face)")
            for step in 0...48 {
                let view = moved.view(at: Double(step) / 48)
                #expect(Self.holds(view, face), "\(name) at \(step)/48: \(view) cuts \(face)")
            }
        }
    }

    @Test("the first frame of zoom-in (the whole picture area) is the still slide, with --framing center and faces",
          .enabled(if: TestEnvironment.sharedPhoto("camera_canon_eos5d_13mp_portrait.jpg") != nil, "skipped: ../shared/photos is absent"),
          arguments: [Framing.center, .faces])
    func zoomStartsOnTheStill(_ framing: Framing) async throws {
        // A 2:3 portrait with no face: the crop cuts its height.
        let photo = Photo(path: TestEnvironment.sharedPhoto("camera_canon_eos5d_13mp_portrait.jpg")!)
        let folder = try TemporaryFolder()
        let size = Size(width: 320, height: 180)
        for motion in [MotionStyle.none, .zoomIn] {
            var show = Slideshow(photos: [photo], output: folder.path("\(motion.rawValue).mp4"), length: .total(seconds: 1))
            show.video = VideoSettings(size: size, framesPerSecond: 4, crf: 10, preset: "ultrafast")
            show.contentMode = .aspectFill
            show.framing = framing
            show.motion = motion
            show.zoom = 0.05
            _ = try await show.render()
        }
        let still = try FrameDecoder.frames(of: folder.path("none.mp4"), pixelFormat: "rgb24", width: 320, height: 180)[0]
        let moving = try FrameDecoder.frames(of: folder.path("zoom-in.mp4"), pixelFormat: "rgb24", width: 320, height: 180)[0]
        // Within resampling and coding noise; a picture area a third of the photo lower differs by tens.
        #expect(meanAbsoluteDifference(still, moving) < 4, "\(meanAbsoluteDifference(still, moving))")
    }
}
