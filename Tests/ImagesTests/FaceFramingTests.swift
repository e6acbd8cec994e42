import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowPixels

@Suite("Face framing: the crop keeps the faces")
struct FaceFramingTests {
    /// A 3:4 portrait into a 16:9 frame: the crop is the full width and 56 % of the height.
    static let portrait = Size(width: 900, height: 1200)
    static let frame = Size(width: 1920, height: 1080)

    static func inside(_ inner: Rect, _ outer: Rect) -> Bool {
        inner.x >= outer.x && inner.y >= outer.y && inner.maxX <= outer.maxX && inner.maxY <= outer.maxY
    }

    @Test("without faces, a portrait keeps its upper third; a landscape stays centred")
    func noFaces() {
        let crop = FaceFraming.crop(of: Self.portrait, aspect: Self.frame, faces: [])
        #expect(crop == Rect(x: 0, y: 0, width: 900, height: 506))
        #expect(Self.inside(Rect(x: 0, y: 0, width: 900, height: 400), crop))
        let wide = FaceFraming.crop(of: Size(width: 3000, height: 1000), aspect: Self.frame, faces: [])
        #expect(wide == FitGeometry.centreCrop(of: Size(width: 3000, height: 1000), aspect: Self.frame))
        // A very tall photo (crop shorter than a third): centred on the upper third.
        let tall = FaceFraming.crop(of: Size(width: 500, height: 3000), aspect: Self.frame, faces: [])
        #expect(tall.y == 500 - tall.height / 2)
    }

    @Test("a face low in a portrait: the crop moves down to hold it, padding included")
    func oneFace() {
        let face = Rect(x: 400, y: 900, width: 120, height: 120)
        let crop = FaceFraming.crop(of: Self.portrait, aspect: Self.frame, faces: [face])
        #expect(Self.inside(Rect(x: 370, y: 870, width: 180, height: 180), crop))
        #expect(crop.height == 506 && crop.maxY <= 1200)
        // The centre crop would have cut it.
        #expect(!Self.inside(face, FitGeometry.centreCrop(of: Self.portrait, aspect: Self.frame)))
    }

    @Test("faces that fit together are all kept; faces too far apart keep the largest")
    func severalFaces() {
        let a = Rect(x: 100, y: 100, width: 100, height: 100), b = Rect(x: 600, y: 400, width: 100, height: 100)
        let both = FaceFraming.crop(of: Self.portrait, aspect: Self.frame, faces: [a, b])
        #expect(Self.inside(a, both) && Self.inside(b, both))
        let top = Rect(x: 100, y: 50, width: 80, height: 80), bottom = Rect(x: 600, y: 1000, width: 150, height: 150)
        let apart = FaceFraming.crop(of: Self.portrait, aspect: Self.frame, faces: [top, bottom])
        #expect(Self.inside(bottom, apart) && !Self.inside(top, apart))
        #expect(FaceFraming.regionToKeep(faces: [a, b], imageSize: Self.portrait) == Rect(x: 75, y: 75, width: 650, height: 450))
        #expect(FaceFraming.regionToKeep(faces: [], imageSize: Self.portrait) == nil)
    }

    @Test("a face at the image's edge: the crop stays inside the image")
    func clamped() {
        let crop = FaceFraming.crop(of: Size(width: 3000, height: 1000), aspect: Self.frame, faces: [Rect(x: 2950, y: 10, width: 50, height: 50)])
        #expect(crop.maxX == 3000 && crop.x >= 0 && crop.y == 0)
    }
}

@Suite("Face detection on the astronaut sample (NASA, public domain)",
       .enabled(if: FaceFraming.isAvailable, "skipped: no face detector (the OpenCV cascade from opencv-data is not installed)"))
struct FaceDetectionTests {
    let astronaut = Photo(path: TestEnvironment.sample("portrait-orient6.jpg"))

    @Test("one face, in the upper half of the upright portrait")
    func detects() throws {
        let region = try #require(try ImageManager().focusRegion(for: astronaut))
        // The portrait displays 384x512; Eileen Collins's face is near x 60-150, y 80-170.
        #expect(region.y < 120 && region.maxY < 260 && region.x < 120 && region.maxX > 100, "\(region)")
        #expect(region.width > 60 && region.width < 200)
    }

    @Test("fill into 16:9: with faces the face is in the slide, with center it is cut")
    func framedSlides() throws {
        let manager = ImageManager()
        let size = Size(width: 320, height: 180)
        let faces = try manager.requestImage(for: astronaut, targetSize: size, contentMode: .aspectFill, framing: .faces)
        let center = try manager.requestImage(for: astronaut, targetSize: size, contentMode: .aspectFill, framing: .center)
        #expect(faces != center)
        // The detector finds the face, whole, in the faces slide and not in the centre crop.
        func detected(_ slide: PixelBuffer) -> [Rect] {
            FaceFraming.faces(in: RGBImage(width: slide.width, height: slide.height, channels: 3, pixels: slide.pixels))
        }
        let found = detected(faces)
        #expect(found.count == 1)
        for face in found { #expect(face.x >= 0 && face.y >= 0 && face.maxX <= 320 && face.maxY <= 180) }
        #expect(detected(center).isEmpty)
    }
}
