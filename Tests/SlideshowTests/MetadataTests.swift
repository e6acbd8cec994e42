import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowFraming
import SlideshowKit
import SlideshowLooks
import SlideshowMetadata
import SlideshowPixels
import SlideshowPlan
import SlideshowWriter

private let haveSharedPhotos = TestEnvironment.sharedPhotos != nil

/// A file of `../shared/media`, nil when it is absent.
private func sharedMedia(_ name: String) -> String? {
    let path = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media/\(name)").path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}
private let samples = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) }

/// ffprobe's `-show_format` of a file, as text.
private func showFormat(_ path: String) throws -> String {
    guard let ffprobe = which("ffprobe") else { throw ProbeError.noFFprobe }
    let result = try run(ffprobe, ["-v", "error", "-show_format", "-show_streams", path])
    guard result.status == 0 else { throw ProbeError.unreadable(result.stderr) }
    return result.stdoutText
}

/// A small, quick render of photos.
private func render(_ photos: [Photo], to path: String, configure: (inout Slideshow) -> Void = { _ in }) async throws {
    var show = Slideshow(photos: photos, output: path, length: .total(seconds: Double(photos.count)))
    show.video = VideoSettings(size: Size(width: 320, height: 180), framesPerSecond: 2, preset: "ultrafast")
    configure(&show)
    _ = try await show.render()
}

@Suite("Metadata: creation time, title, nothing else from EXIF")
struct MetadataTests {
    @Test("creation_time is the earliest capture (the Canon's, 2005); title as given; no GPS, no camera names",
          .enabled(if: haveSharedPhotos, "skipped: ../shared/photos is absent (a fresh clone); the test needs the camera photos"))
    func cameraPhotos() async throws {
        let folder = try TemporaryFolder()
        let names = ["camera_nokia_8.3_9mp_wide.jpg", "camera_nikon_d90_12mp.jpg", "camera_canon_eos5d_13mp_portrait.jpg"]
        let photos = names.map { Photo(path: TestEnvironment.sharedPhoto($0)!) }
        try await render(photos, to: folder.path("meta.mp4")) { $0.title = "Summer, 2022" }
        let format = try showFormat(folder.path("meta.mp4"))
        let creation = format.split(separator: "\n").filter { $0.hasPrefix("TAG:creation_time=") }
        // The movie's and the track's.
        #expect(creation == ["TAG:creation_time=2005-09-25T00:31:00.000000Z", "TAG:creation_time=2005-09-25T00:31:00.000000Z"])
        #expect(format.contains("TAG:title=Summer, 2022\n"))
        // No location tag (chroma_location is the stream's 4:2:0 siting, not a place).
        let tags = format.split(separator: "\n").filter { $0.hasPrefix("TAG:") }
        #expect(tags.allSatisfy { !$0.lowercased().contains("location") && !$0.lowercased().contains("gps") }, "\(tags)")
        #expect(Set(tags.map { $0.split(separator: "=").first! }) == ["TAG:major_brand", "TAG:minor_version", "TAG:compatible_brands",
                                                                    "TAG:creation_time", "TAG:title", "TAG:language", "TAG:handler_name", "TAG:vendor_id"])

        // The Nokia's GPS latitude and longitude, as the rationals its EXIF stores, appear
        // nowhere in the video; nor do the cameras' names.
        let nokia = try PhotoFile.read(photos[0].path, limit: 256 << 10).bytes
        var gpsValues: [[UInt8]] = []
        _ = JPEGMarkers.scan(nokia) { marker, payload in
            guard marker == 0xE1, nokia[payload.lowerBound..<payload.lowerBound + 4].elementsEqual("Exif".utf8),
                  let tiff = TIFFBlock(nokia, payload.lowerBound + 6..<payload.upperBound),
                  let pointer = tiff.entry(0x8825, inIFDAt: tiff.firstIFD), let gps = tiff.u32(pointer.valueOffset) else { return true }
            for tag in [2, 4] {
                if let entry = tiff.entry(tag, inIFDAt: gps), entry.type == 5 || entry.type == 10 {  // (S)RATIONAL x3
                    let start = tiff.base + entry.valueOffset
                    gpsValues.append(Array(nokia[start..<start + 24]))
                }
            }
            return false
        }
        #expect(gpsValues.count == 2, "the Nokia photo's GPS latitude and longitude")
        let video = try [UInt8](Data(contentsOf: folder.url.appendingPathComponent("meta.mp4")))
        func contains(_ needle: [UInt8]) -> Bool {
            guard needle.count <= video.count else { return false }
            return (0...(video.count - needle.count)).contains { i in video[i] == needle[0] && video[i..<i + needle.count].elementsEqual(needle) }
        }
        for value in gpsValues { #expect(!contains(value)) }
        for text in ["Nokia", "HMD Global", "NIKON", "Canon", "Exif"] { #expect(!contains(Array(text.utf8)), "\(text)") }
    }

    @Test("creation_time from a HEIC's own EXIF: the iPhone XR's 10:03:40 at UTC−6",
          .enabled(if: sharedMedia("heic_iphonexr_grid_landscape.heic") != nil, "skipped: ../shared/media is absent"))
    func heicCreationTime() async throws {
        let folder = try TemporaryFolder()
        try await render([Photo(path: sharedMedia("heic_iphonexr_grid_landscape.heic")!)], to: folder.path("heic.mp4"))
        let creation = try showFormat(folder.path("heic.mp4")).split(separator: "\n").filter { $0.hasPrefix("TAG:creation_time=") }
        #expect(creation == ["TAG:creation_time=2020-04-17T16:03:40.000000Z", "TAG:creation_time=2020-04-17T16:03:40.000000Z"])
    }

    @Test("capture dates an MP4 cannot hold never wrap: 1850 and 1903 are left out, the earliest date it can hold is taken")
    func datesOutsideTheMP4Range() async throws {
        let folder = try TemporaryFolder()
        func photo(_ name: String, _ date: String) throws -> Photo {
            let jpeg = SyntheticJPEG.grey(width: 16, height: 8, before: SyntheticJPEG.exifSegment(exifBlock(date: date)))
            try Data(jpeg).write(to: folder.url.appendingPathComponent(name))
            return Photo(path: folder.path(name))
        }
        let p1850 = try photo("1850.jpg", "1850:06:01 12:00:00"), p1903 = try photo("1903.jpg", "1903:07:01 12:00:00")
        let p1969 = try photo("1969.jpg", "1969:12:31 23:00:00"), p2005 = try photo("2005.jpg", "2005:09:25 00:31:00")
        func creation(_ photos: [Photo], _ name: String) async throws -> [Substring] {
            try await render(photos, to: folder.path(name))
            return try showFormat(folder.path(name)).split(separator: "\n").filter { $0.hasPrefix("TAG:creation_time=") }
        }
        // Before, they wrapped round 32 bits (1903 became 2039-07-21).
        #expect(try await creation([p1850], "a.mp4") == [])
        #expect(try await creation([p1903], "b.mp4") == [])
        #expect(try await creation([p1903, p2005, p1850], "c.mp4") == ["TAG:creation_time=2005-09-25T00:31:00.000000Z",
                                                                       "TAG:creation_time=2005-09-25T00:31:00.000000Z"])
        // The library's own check: 1904-01-01 is 0 ("no date"), one second later the first instant it holds.
        let range = MovieMetadata.representableCreationTimes
        #expect(range.lowerBound == CaptureDate(year: 1904, month: 1, day: 1, second: 1)!.secondsSince1970)
        #expect(range.upperBound == CaptureDate(year: 2040, month: 2, day: 6, hour: 6, minute: 28, second: 15)!.secondsSince1970)
        #expect(MovieMetadata(creationTime: CaptureDate(exif: "1903:07:01 12:00:00")).entries.isEmpty)
        #expect(MovieMetadata(creationTime: CaptureDate(exif: "2040:02:06 06:28:16")).entries.isEmpty)
        #expect(MovieMetadata(creationTime: CaptureDate(exif: "1969:12:31 23:00:00")).entries.map(\.value) == ["1969-12-31T23:00:00.000000Z"])
        #expect(MovieMetadata.creationTime(of: [p1903, p1969, p2005], dates: [p1903, p1969, p2005].map(CaptureDate.read))?.year == 1969)
    }

    @Test("photos without a capture date: no creation_time, no title; the bytes are the same on every run")
    func noDates() async throws {
        let folder = try TemporaryFolder()
        try await render(samples, to: folder.path("a.mp4"))
        try await render(samples, to: folder.path("b.mp4"))
        let format = try showFormat(folder.path("a.mp4"))
        #expect(!format.contains("creation_time") && !format.contains("TAG:title"))
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("a.mp4")) == Data(contentsOf: folder.url.appendingPathComponent("b.mp4")))
    }
}

@Suite("Date imprint and blur fill in a render")
struct RenderedOverlayTests {
    @Test("the imprint appears on the photo with a date, in its lower right, and not on the photo without",
          .enabled(if: haveSharedPhotos, "skipped: ../shared/photos is absent (a fresh clone); the test needs the camera photos"))
    func dateStamp() async throws {
        let folder = try TemporaryFolder()
        let photos = [Photo(path: TestEnvironment.sharedPhoto("camera_canon_eos5d_13mp_portrait.jpg")!), samples[0]]
        try await render(photos, to: folder.path("plain.mp4"))
        try await render(photos, to: folder.path("dated.mp4")) { $0.dateImprint = DateImprint() }
        let plain = try FrameDecoder.frames(of: folder.path("plain.mp4"), pixelFormat: "gray", width: 320, height: 180)
        let dated = try FrameDecoder.frames(of: folder.path("dated.mp4"), pixelFormat: "gray", width: 320, height: 180)
        #expect(plain.count == 4 && dated.count == 4)
        // The Canon portrait sits at x 100..<220; the imprint lies in the picture's lower right.
        var outside = 0, inside = 0
        for y in 0..<180 {
            for x in 0..<320 {
                let differs = abs(Int(plain[0][y * 320 + x]) - Int(dated[0][y * 320 + x])) > 8
                guard differs else { continue }
                if x >= 150 && x < 220 && y >= 150 { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 40 && outside == 0, "inside \(inside), outside \(outside)")
        // The sample photo has no EXIF date: its frames are the same with and without.
        #expect(plain[2] == dated[2] && plain[3] == dated[3])
    }

    @Test("--date-stamp draws on a HEIC from its own EXIF (the frames were identical before); not for an implausible date",
          .enabled(if: sharedMedia("heic_iphonexr_grid_landscape.heic") != nil, "skipped: ../shared/media is absent"))
    func dateStampHEIC() async throws {
        let folder = try TemporaryFolder()
        let heic = Photo(path: sharedMedia("heic_iphonexr_grid_landscape.heic")!)
        try await render([heic], to: folder.path("plain.mp4"))
        try await render([heic], to: folder.path("dated.mp4")) { $0.dateImprint = DateImprint() }
        let plain = try FrameDecoder.frames(of: folder.path("plain.mp4"), pixelFormat: "gray", width: 320, height: 180)
        let dated = try FrameDecoder.frames(of: folder.path("dated.mp4"), pixelFormat: "gray", width: 320, height: 180)
        #expect(plain.count == 2 && dated.count == 2)
        // The 4:3 picture sits at x 40..<280; the imprint changes pixels only in its lower right.
        var outside = 0, inside = 0
        for y in 0..<180 {
            for x in 0..<320 where abs(Int(plain[0][y * 320 + x]) - Int(dated[0][y * 320 + x])) > 8 {
                if x >= 170 && x < 280 && y >= 150 { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 40 && outside == 0, "inside \(inside), outside \(outside)")

        // A photo dated 9999 (a broken clock) gets no imprint and gives no creation time.
        let jpeg = SyntheticJPEG.grey(width: 16, height: 8, before: SyntheticJPEG.exifSegment(exifBlock(date: "9999:12:31 23:59:59")))
        try Data(jpeg).write(to: folder.url.appendingPathComponent("9999.jpg"))
        let future = Photo(path: folder.path("9999.jpg"))
        try await render([future], to: folder.path("future-plain.mp4"))
        try await render([future], to: folder.path("future-dated.mp4")) { $0.dateImprint = DateImprint() }
        #expect(try FrameDecoder.frames(of: folder.path("future-plain.mp4"), pixelFormat: "gray", width: 320, height: 180)
                == FrameDecoder.frames(of: folder.path("future-dated.mp4"), pixelFormat: "gray", width: 320, height: 180))
        #expect(!(try showFormat(folder.path("future-dated.mp4")).contains("creation_time")))
    }

    @Test("under a zoom-in the imprint is on the picture: it grows and moves with it",
          .enabled(if: haveSharedPhotos, "skipped: ../shared/photos is absent (a fresh clone); the test needs the camera photos"))
    func dateStampMoves() async throws {
        let folder = try TemporaryFolder()
        let photos = [Photo(path: TestEnvironment.sharedPhoto("camera_nikon_d90_12mp.jpg")!)]
        func frames(_ name: String, imprint: DateImprint?) async throws -> [Data] {
            try await render(photos, to: folder.path(name)) {
                $0.contentMode = .aspectFill
                $0.motion = .zoomIn
                $0.zoom = 0.5
                $0.dateImprint = imprint
                $0.video.framesPerSecond = 8
                $0.length = .total(seconds: 2)
            }
            return try FrameDecoder.frames(of: folder.path(name), pixelFormat: "gray", width: 320, height: 180)
        }
        let plain = try await frames("plain.mp4", imprint: nil), dated = try await frames("dated.mp4", imprint: DateImprint())
        #expect(plain.count == 16 && dated.count == 16)
        // The box of the pixels the imprint changes, in the first and the last frame.
        func box(_ frame: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
            var box = (x0: 320, y0: 180, x1: 0, y1: 0)
            for y in 0..<180 {
                for x in 0..<320 where abs(Int(plain[frame][y * 320 + x]) - Int(dated[frame][y * 320 + x])) > 24 {
                    box = (min(box.x0, x), min(box.y0, y), max(box.x1, x), max(box.y1, y))
                }
            }
            return box
        }
        let first = box(0), later = box(4)
        #expect(first.x1 > first.x0 && first.y1 > first.y0, "no imprint in the first frame")
        // Zooming in towards the centre (1.5 times by the end, 1.1 times by frame 4): the date
        // slides towards the lower right (it grows too, but the frame's edge clips it), and by the
        // end it has left the view; a date printed on the frame would stay where it was.
        #expect(later.x1 > later.x0 && later.x0 > first.x0 && later.y0 > first.y0, "first \(first), frame 4 \(later)")
        #expect(box(15).x1 < box(15).x0, "the date is still in view at 1.5 times")
    }

    @Test("--fit blur under Ken Burns motion: the blurred backdrop stays still around the moving picture, never bars")
    func blurFillUnderMotion() async throws {
        let folder = try TemporaryFolder()
        var options = SlideshowOptions(duration: 2, size: "320x180", fps: 6, fit: .blur, background: "#00FF00", preset: "ultrafast")
        options.motion = .zoomIn
        options.zoom = 0.3
        let show = try options.slideshow(photos: [samples[1]], output: folder.path("blur.mp4"))
        _ = try await show.render()
        let frames = try FrameDecoder.frames(of: folder.path("blur.mp4"), pixelFormat: "rgb24", width: 320, height: 180)
        #expect(frames.count == 12)
        // The portrait's sides (x < 100 and x >= 220 hold no picture): neither green nor black,
        // and the same in the first and the last frame, within coding noise; the picture moves.
        func side(_ frame: Data) -> [Int] {
            var values: [Int] = []
            for y in stride(from: 0, to: 180, by: 12) {
                for x in [0, 40, 90, 230, 280, 319] {
                    let at = (y * 320 + x) * 3
                    values.append(Int(frame[at]) + Int(frame[at + 1]) + Int(frame[at + 2]))
                    #expect(!(frame[at + 1] > 200 && frame[at] < 60 && frame[at + 2] < 60), "green bar at (\(x), \(y))")
                }
            }
            return values
        }
        let first = side(frames[0]), last = side(frames[11])
        #expect(first.allSatisfy { $0 > 30 }, "black bars")
        #expect(zip(first, last).allSatisfy { abs($0 - $1) <= 24 }, "the backdrop moved")
        #expect(meanAbsoluteDifference(frames[0], frames[11]) > 2, "the picture did not move")
    }

    @Test("--fit blur: no bars anywhere in the frame")
    func blurFill() async throws {
        let folder = try TemporaryFolder()
        var options = SlideshowOptions(duration: 3, size: "320x180", fps: 2, fit: .blur, background: "#00FF00", preset: "ultrafast")
        options.filter = "sepia"
        let show = try options.slideshow(photos: samples, output: folder.path("blur.mp4"))
        #expect(show.backdrop == .blur && show.contentMode == .aspectFit)
        _ = try await show.render()
        // Deterministic: the same show again gives the same bytes.
        var again = show
        again.output = folder.path("again.mp4")
        _ = try await again.render()
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("blur.mp4")) == Data(contentsOf: folder.url.appendingPathComponent("again.mp4")))
        let frames = try FrameDecoder.frames(of: folder.path("blur.mp4"), pixelFormat: "rgb24", width: 320, height: 180)
        #expect(frames.count == 6)
        // The portrait sample's frame: its side columns are not the green background, nor black.
        let frame = frames[2]
        for x in [0, 5, 310, 319] {
            for y in [0, 90, 179] {
                let at = (y * 320 + x) * 3
                let (r, g, b) = (Int(frame[at]), Int(frame[at + 1]), Int(frame[at + 2]))
                #expect(!(g > 200 && r < 60 && b < 60), "green bar at (\(x), \(y))")
                #expect(r + g + b > 30, "black bar at (\(x), \(y))")
            }
        }
    }

    @Test("--fit fill with face framing: the astronaut's face is whole in every frame of her slide; the centre crop cuts it",
          .enabled(if: FaceFraming.isAvailable, "skipped: no face detector (the OpenCV cascade from opencv-data is not installed)"))
    func faceFraming() async throws {
        let folder = try TemporaryFolder()
        for framing in [Framing.faces, .center] {
            try await render([samples[1], samples[2]], to: folder.path("\(framing).mp4")) {
                $0.contentMode = .aspectFill
                $0.framing = framing
            }
            let frames = try FrameDecoder.frames(of: folder.path("\(framing).mp4"), pixelFormat: "rgb24", width: 320, height: 180)
            #expect(frames.count == 4)
            for frame in frames.prefix(2) {
                let faces = FaceFraming.faces(in: RGBImage(width: 320, height: 180, channels: 3, pixels: [UInt8](frame)))
                if framing == .faces {
                    #expect(faces.count == 1, "\(faces)")
                    for face in faces { #expect(face.x >= 0 && face.y >= 0 && face.maxX <= 320 && face.maxY <= 180) }
                } else {
                    #expect(faces.isEmpty, "\(faces)")
                }
            }
        }
    }

    @Test("under Ken Burns motion in fill, the astronaut's face is whole in every frame of her slide, transitions included",
          .enabled(if: FaceFraming.isAvailable, "skipped: no face detector (the OpenCV cascade from opencv-data is not installed)"),
          arguments: [MotionStyle.zoomIn, .zoomOut, .panUp, .panDown, .panLeft, .panRight])
    func faceFramingUnderMotion(_ motion: MotionStyle) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("motion.mp4")
        try await render([samples[1], samples[2]], to: path) {
            $0.contentMode = .aspectFill
            $0.framing = .faces
            $0.motion = motion
            $0.zoom = 0.3
            $0.transition = .fade
            $0.transitionDuration = 0.5
            $0.video.framesPerSecond = 8
            $0.length = .total(seconds: 4)
        }
        let frames = try FrameDecoder.frames(of: path, pixelFormat: "rgb24", width: 320, height: 180)
        #expect(frames.count == 32)
        // Her slide: frames 0 to 15; the fade into the coffee cup takes frames 14 to 17.
        for (index, frame) in frames.prefix(14).enumerated() {
            let faces = FaceFraming.faces(in: RGBImage(width: 320, height: 180, channels: 3, pixels: [UInt8](frame)))
            #expect(faces.count == 1, "frame \(index): \(faces)")
            for face in faces { #expect(face.x >= 0 && face.y >= 0 && face.maxX <= 320 && face.maxY <= 180, "frame \(index): \(face)") }
        }
    }
}
