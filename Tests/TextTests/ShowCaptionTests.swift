import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowCompositor
import SlideshowFormats
import SlideshowKit
import SlideshowPixels
import SlideshowPlan
import SlideshowText

/// Captions in a rendered show: read back by OCR from the video, drawn once per held slide,
/// kept still over a moving photo and fading with their photo in a dissolve.
@Suite("Captions in the show")
struct ShowCaptionTests {
    static let size = Size(width: 960, height: 540)
    static let photoNames = ["progressive_panasonic_lc70_1280x960.jpg", "camera_nikon_d90_12mp.jpg"]
    static var photos: [Photo]? {
        let paths = photoNames.compactMap(TestEnvironment.sharedPhoto)
        return paths.count == photoNames.count ? paths.map(Photo.init(path:)) : nil
    }
    static let ready = photos != nil && TextTestSupport.tesseractLanguages.contains("eng") && which("ffmpeg") != nil

    /// One decoded frame of a video as RGB.
    static func frame(_ index: Int, of path: String, size: Size) throws -> PixelBuffer {
        let result = try run(which("ffmpeg")!, ["-v", "error", "-i", path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                                                "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(result.status == 0 && result.stdout.count == size.width * size.height * 3, "\(result.stderr)")
        return PixelBuffer(size: size, pixels: [UInt8](result.stdout))
    }

    /// The show: two photos, captions given, at 960x540.
    static func show(_ output: String, captions: [String?], configure: (inout Slideshow) -> Void = { _ in }) throws -> Slideshow {
        var options = SlideshowOptions(duration: 2, size: "\(size.width)x\(size.height)")
        options.captions = captions
        var show = try options.slideshow(photos: try #require(photos), output: output)
        configure(&show)
        return show
    }

    /// Where a caption is drawn at the show's size.
    static func rect(of text: String) throws -> Rect {
        try TextRenderer().overlay(for: try #require(Caption(text)), frame: size).rect
    }

    @Test("a held photo's caption is read back by OCR from the video, and its held frames are still skipped",
          .enabled(if: ready, "skipped: needs ../shared/photos, ffmpeg and tesseract (eng)"))
    func heldCaptionReadBack() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("held.mp4")
        _ = try await Self.show(path, captions: ["Harbour at dawn", "Second morning"]).render()
        for (index, text) in ["Harbour at dawn", "Second morning"].enumerated() {
            let frame = try Self.frame(index * 30 + 12, of: path, size: Self.size)
            let read = try TextTestSupport.ocr(frame, region: try Self.rect(of: text), language: "eng")
            // The bar: a character error rate of at most 10% (the photo's own bright pixels add specks).
            #expect(TextTestSupport.characterErrorRate(read: read, expected: text) <= 0.1, "read \(read)")
        }
        // Held frames cost nothing: one real picture per photo, every other packet a skip.
        let packets = try run(which("ffprobe")!, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
        let sizes = String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(sizes.count == 60)
        #expect(sizes.filter { $0 > 64 }.count == 2)
    }

    @Test("a moving photo's caption stays put and is read back by OCR",
          .enabled(if: ready, "skipped: needs ../shared/photos, ffmpeg and tesseract (eng)"))
    func movingCaptionReadBack() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("moving.mp4")
        _ = try await Self.show(path, captions: ["Lighthouse walk", nil]) { $0.motion = .zoomIn }.render()
        let region = try Self.rect(of: "Lighthouse walk")
        for index in [2, 27] {
            let read = try TextTestSupport.ocr(try Self.frame(index, of: path, size: Self.size), region: region, language: "eng")
            #expect(TextTestSupport.characterErrorRate(read: read, expected: "Lighthouse walk") <= 0.1, "frame \(index): \(read)")
        }
    }

    @Test("in a dissolve a caption fades with its photo; over a moving photo it does not move")
    func captionGoesWithItsPhoto() async throws {
        let photos = try #require(Self.photos, TestEnvironment.noSharedPhotos)
        func composed(captions: [Caption?], motion: MotionStyle) async throws -> (PixelBuffer, PixelBuffer, PixelBuffer) {
            var options = SlideshowOptions(duration: 2, size: "320x180")
            options.transition = .fade
            options.transitionDuration = 0.4
            options.motion = motion
            var show = try options.slideshow(photos: photos, output: "/tmp/unused.mp4")
            show.text.captions = captions
            let prepared = try await show.validate()
            var builder = SlideBuilder(slideshow: show, captureDates: [nil, nil])
            builder.captions = try CaptionPainter(captions: prepared.captions, style: show.text.style)
            let composed = try (0..<2).map { try builder.photo($0, motion: prepared.plan.motions[$0]) }
            let compositor = Compositor(size: show.video.size, background: .black)
            // Frame 5 is photo 0 alone; frame 30 is the middle of the dissolve (frames 24…35).
            let frames = try [5, 30, 20].map { try compositor.frame(prepared.plan.recipe(at: $0)) { composed[$0] } }
            return (frames[0], frames[1], frames[2])
        }
        let caption = try #require(Caption("Fading words"))
        let (alone, middle, _) = try await composed(captions: [caption, nil], motion: .none)
        let (bareAlone, bareMiddle, _) = try await composed(captions: [nil, nil], motion: .none)
        // The caption's strongest change alone, and in the middle of the dissolve: about half.
        func strongest(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
            zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        }
        let full = strongest(alone, bareAlone), half = strongest(middle, bareMiddle)
        #expect(full > 150)
        #expect(half > full / 4 && half < full * 3 / 4, "full \(full), middle of the dissolve \(half)")

        // Moving: where the overlay is opaque, two frames far apart show exactly its pixels.
        let overlay = try TextRenderer().overlay(for: caption, frame: Size(width: 320, height: 180))
        let (early, _, late) = try await composed(captions: [caption, nil], motion: .zoomIn)
        var opaque = 0
        for y in 0..<overlay.rect.height {
            for x in 0..<overlay.rect.width where overlay[x, y].alpha == 255 {
                let (fx, fy) = (overlay.rect.x + x, overlay.rect.y + y)
                let expected = RGBColor(red: overlay[x, y].red, green: overlay[x, y].green, blue: overlay[x, y].blue)
                #expect(early[fx, fy] == expected && late[fx, fy] == expected)
                opaque += 1
            }
        }
        #expect(opaque > 100)
        #expect(early != late)
    }

    @Test("an empty caption is no caption: the render is byte for byte the one without captions",
          .enabled(if: photos != nil, TestEnvironment.noSharedPhotos))
    func emptyCaptionsChangeNothing() async throws {
        let folder = try TemporaryFolder()
        _ = try await Self.show(folder.path("none.mp4"), captions: []).render()
        _ = try await Self.show(folder.path("empty.mp4"), captions: ["", " \n\t"]).render()
        let none = try Data(contentsOf: URL(fileURLWithPath: folder.path("none.mp4")))
        let empty = try Data(contentsOf: URL(fileURLWithPath: folder.path("empty.mp4")))
        #expect(none == empty)
    }

    @Test("a 10 kB caption renders, ellipsised inside the title-safe area",
          .enabled(if: photos != nil, TestEnvironment.noSharedPhotos))
    func longCaption() async throws {
        let folder = try TemporaryFolder()
        let text = String(repeating: "Wörds, 100% \\n and more ", count: 430)
        #expect(text.utf8.count > 10_000)
        let result = try await Self.show(folder.path("long.mp4"), captions: [text, nil]).render()
        #expect(result.frames == 60)
        let rect = try Self.rect(of: text)
        #expect(TextTestSupport.inside(rect, TextRenderer.titleSafeArea(of: Self.size)))
    }

    @Test("a font file that cannot be read is refused before the render starts, in one line naming it",
          .enabled(if: photos != nil, TestEnvironment.noSharedPhotos))
    func unreadableFontFile() async throws {
        let folder = try TemporaryFolder()
        let font = folder.path("broken.ttf")
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: font))
        let output = folder.path("out.mp4")
        var show = try Self.show(output, captions: ["Words", nil])
        show.text.style.font = .file(path: font)
        await #expect {
            try await show.validate()
        } throws: { error in
            guard let error = error as? RenderError, case .text(.unreadableFontFile(path: font, _)) = error else { return false }
            return error.description.hasPrefix(font + ": ") && !error.description.contains("\n")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("an unknown font family falls back with a warning in the render's result",
          .enabled(if: photos != nil, TestEnvironment.noSharedPhotos))
    func unknownFamily() async throws {
        let folder = try TemporaryFolder()
        var options = SlideshowOptions(duration: 1, size: "320x180")
        options.captions = ["Words", nil]
        options.font = "No Such Family 42"
        let result = try await options.slideshow(photos: try #require(Self.photos), output: folder.path("out.mp4")).render()
        #expect(result.warnings.contains { $0.kind == .text && $0.message.hasPrefix("No Such Family 42: ") })
    }

    @Test("captions not one per photo are refused, naming the captions")
    func captionCount() throws {
        var options = SlideshowOptions()
        options.captions = ["one", "two", "three"]
        #expect(throws: OptionError(.captions, "3 captions for 2 photos; give one per photo (an empty one for none)")) {
            try options.slideshow(photos: [Photo(path: "a.jpg"), Photo(path: "b.jpg")], output: "out.mp4")
        }
        #expect(TextStyle.Font(parsing: "fonts/My Font.otf") == .file(path: "fonts/My Font.otf"))
        #expect(TextStyle.Font(parsing: "X.TTF") == .file(path: "X.TTF"))
        #expect(TextStyle.Font(parsing: "Noto Serif") == .family("Noto Serif"))
    }
}
