import CWebP
import Foundation
@testable import SlideshowKit
import SlideshowPixels
import SlideshowWriter
import Testing
import TestSupport

/// The animated previews (`-o show.gif`, `-o show.webp`), read back by tools other than the
/// writer: ffprobe and ffmpeg for the GIF (libavformat's GIF demuxer and libavcodec's decoder),
/// `webpmux -info` and libwebpdemux's `WebPAnimDecoder` for the WebP. The same show is
/// rendered to an MP4 of the same size and rate, whose frames are the reference.
@Suite("animated previews: .gif and .webp, a frame per held photo, the video's timing")
struct AnimatedPreviewTests {
    static let photos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map(TestEnvironment.sample)
    static let size = Size(width: 480, height: 270)

    /// Renders the 3-photo show of `seconds` (fades of 0.5 s, or cuts) to `output`.
    static func render(_ output: String, seconds: Double = 6, transition: TransitionEffect = .fade, size: String? = nil,
                       fps: Int? = nil) async throws -> RenderResult {
        var options = SlideshowOptions(duration: seconds, size: size, fps: fps)
        options.transition = transition
        let show = try options.slideshow(photos: photos.map { Photo(path: $0) }, output: output)
        return try await show.render()
    }

    /// One picture of an animation: its delay in ticks and its RGB pixels.
    struct Frame {
        var delay: Int
        var pixels: Data
    }

    /// The GIF's frames: delays (in 1/100 s) from ffprobe, pixels from ffmpeg, one each (no frames repeated).
    static func gifFrames(_ path: String) throws -> [Frame] {
        let probe = try run(which("ffprobe")!, ["-v", "error", "-show_entries", "frame=pkt_duration", "-of", "csv=p=0", path])
        let delays = probe.stdoutText.split(whereSeparator: \.isNewline).compactMap { Int($0) }
        let decoded = try run(which("ffmpeg")!, ["-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let bytes = size.width * size.height * 3
        let pixels = stride(from: 0, to: decoded.stdout.count - bytes + 1, by: bytes).map { decoded.stdout.subdata(in: $0..<$0 + bytes) }
        #expect(delays.count == pixels.count, "\(delays.count) delays, \(pixels.count) pictures")
        return zip(delays, pixels).map { Frame(delay: $0, pixels: $1) }
    }

    /// The WebP's frames: durations (ms) from `webpmux -info`, whole pictures from WebPAnimDecoder.
    static func webpFrames(_ path: String) throws -> [Frame] {
        let info = try run(which("webpmux")!, ["-info", path])
        // "  1:   480   270    no        0        0     1800       none    no ..." — the duration is the 7th column.
        let delays = info.stdoutText.split(whereSeparator: \.isNewline).compactMap { line -> Int? in
            let fields = line.split(separator: " ")
            guard fields.count >= 7, fields[0].hasSuffix(":"), Int(fields[0].dropLast()) != nil else { return nil }
            return Int(fields[6])
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var pictures: [Data] = []
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var webp = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
            var options = WebPAnimDecoderOptions()
            _ = WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION)
            options.color_mode = MODE_RGBA
            guard let decoder = WebPAnimDecoderNewInternal(&webp, &options, WEBP_DEMUX_ABI_VERSION) else { return }
            defer { WebPAnimDecoderDelete(decoder) }
            var buffer: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0, WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer {
                var rgb = Data(count: size.width * size.height * 3)
                rgb.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) in
                    for pixel in 0..<(size.width * size.height) {
                        for channel in 0..<3 { out[pixel * 3 + channel] = buffer[pixel * 4 + channel] }
                    }
                }
                pictures.append(rgb)
            }
        }
        #expect(delays.count == pictures.count, "\(delays.count) durations, \(pictures.count) pictures")
        return zip(delays, pictures).map { Frame(delay: $0, pixels: $1) }
    }

    /// The mean red, green and blue of an RGB picture.
    static func mean(_ pixels: Data) -> [Double] {
        var sums = [0, 0, 0]
        for (index, byte) in pixels.enumerated() { sums[index % 3] += Int(byte) }
        return sums.map { Double($0) / Double(pixels.count / 3) }
    }

    /// The frame shown at `seconds`, by the delays.
    static func frame(at seconds: Double, in frames: [Frame], ticksPerSecond: Int) -> Frame? {
        var end = 0
        for frame in frames {
            end += frame.delay
            if Double(end) / Double(ticksPerSecond) > seconds { return frame }
        }
        return nil
    }

    /// Checks an animation of the 6 s fade show against its MP4: few frames, the delays adding up
    /// to 6 s, each photo's middle and each transition's middle as the video shows them.
    static func check(_ frames: [Frame], ticksPerSecond: Int, against video: [Data], result: RenderResult) {
        // Three holds and two transitions of 5 frames (0.5 s at 10 fps): 13 pictures, not 60.
        #expect(frames.count == 13, "\(frames.map(\.delay))")
        #expect(frames.map(\.delay).reduce(0, +) == 6 * ticksPerSecond, "\(frames.map(\.delay))")
        #expect(frames.filter { $0.delay == ticksPerSecond / 10 }.count == 10, "\(frames.map(\.delay))")
        #expect(video.count == 60)
        // The middle of each photo's hold, and the middle of each transition (the cut between photos).
        let starts = result.photoStarts.map(\.seconds) + [6]
        let holds = (0..<3).map { (starts[$0] + starts[$0 + 1]) / 2 }
        let cuts = [starts[1] + 0.05, starts[2] + 0.05]
        for seconds in holds + cuts {
            guard let picture = frame(at: seconds, in: frames, ticksPerSecond: ticksPerSecond) else {
                Issue.record("no frame at \(seconds) s")
                continue
            }
            let reference = video[Int(seconds * 10)]
            let (got, want) = (mean(picture.pixels), mean(reference))
            #expect(zip(got, want).allSatisfy { abs($0 - $1) < 6 }, "at \(seconds) s: mean colour \(got), the video's \(want)")
            #expect(meanAbsoluteDifference(picture.pixels, reference) < 14, "at \(seconds) s: \(meanAbsoluteDifference(picture.pixels, reference)) per byte from the video")
        }
    }

    @Test(".gif: a palette per scene, a held photo one frame with one long delay, delays adding up to the show to 1/100 s",
          arguments: [TransitionEffect.fade, .wipeleft])
    func gif(_ transition: TransitionEffect) async throws {
        let folder = try TemporaryFolder()
        let result = try await Self.render(folder.path("show.gif"), transition: transition)
        #expect(result.size == Self.size && result.framesPerSecond == 10, "the preview's defaults: \(result.size) at \(result.framesPerSecond) fps")
        _ = try await Self.render(folder.path("show.mp4"), transition: transition, size: "480x270", fps: 10)
        let probe = try run(which("ffprobe")!, ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", folder.path("show.gif")])
        #expect(probe.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "gif,480,270")
        let frames = try Self.gifFrames(folder.path("show.gif"))
        let video = try FrameDecoder.frames(of: folder.path("show.mp4"), pixelFormat: "rgb24", width: 480, height: 270)
        Self.check(frames, ticksPerSecond: 100, against: video, result: result)
        // Measured: 844 KB with fades, 405 KB with wipes (a wipe's frames are the rectangle that changed).
        let bytes = result.bytes
        #expect(bytes > 0 && bytes < (transition == .fade ? 1_000_000 : 500_000), "\(bytes) bytes")
    }

    @Test(".webp: WebPAnimEncoder, a held photo one frame with one long duration, durations adding up to the show to 1 ms")
    func webp() async throws {
        let folder = try TemporaryFolder()
        let result = try await Self.render(folder.path("show.webp"))
        _ = try await Self.render(folder.path("show.mp4"), size: "480x270", fps: 10)
        let frames = try Self.webpFrames(folder.path("show.webp"))
        let video = try FrameDecoder.frames(of: folder.path("show.mp4"), pixelFormat: "rgb24", width: 480, height: 270)
        Self.check(frames, ticksPerSecond: 1000, against: video, result: result)
        #expect(result.bytes > 0 && result.bytes < 250_000, "\(result.bytes) bytes")
    }

    @Test("a show of cuts: one frame per photo, in both formats")
    func cuts() async throws {
        let folder = try TemporaryFolder()
        _ = try await Self.render(folder.path("show.gif"), transition: .none)
        _ = try await Self.render(folder.path("show.webp"), transition: .none)
        #expect(try Self.gifFrames(folder.path("show.gif")).map(\.delay) == [200, 200, 200])
        #expect(try Self.webpFrames(folder.path("show.webp")).map(\.delay) == [2000, 2000, 2000])
    }

    @Test("at 15 fps a GIF's 1/100 s delays carry the rounding: each within one tick, the sum exact")
    func gifRounding() async throws {
        let folder = try TemporaryFolder()
        _ = try await Self.render(folder.path("show.gif"), seconds: 5, fps: 15)
        let delays = try Self.gifFrames(folder.path("show.gif")).map(\.delay)
        #expect(delays.reduce(0, +) == 500, "\(delays)")
        // The transitions' frames are 1/15 s: 6.67 hundredths, written as 7 or 6.
        #expect(delays.filter { $0 < 10 }.allSatisfy { $0 == 6 || $0 == 7 }, "\(delays)")
        #expect(AnimatedFormat.gif.tick(ofFrame: 15, framesPerSecond: 15) == 100)
        #expect((1...6).map { AnimatedFormat.gif.tick(ofFrame: $0, framesPerSecond: 15) } == [7, 13, 20, 27, 33, 40])
    }

    @Test("music is left out of a preview, with a warning naming it; the show keeps its length")
    func music() async throws {
        let folder = try TemporaryFolder()
        let wav = folder.path("music.wav")
        try Data(SyntheticWAV.silence(frames: 48_000 * 3)).write(to: URL(fileURLWithPath: wav))
        var options = SlideshowOptions(duration: 3)
        options.audio = wav
        let show = try options.slideshow(photos: Self.photos.map { Photo(path: $0) }, output: folder.path("show.webp"))
        let result = try await show.render()
        #expect(result.warnings.contains { $0.kind == .music && $0.path == wav && $0.message.contains("no sound") }, "\(result.warnings)")
        #expect(try Self.webpFrames(folder.path("show.webp")).map(\.delay) == [1000, 1000, 1000])
    }

    @Test("a GIF above 50 fps, and names that are neither MP4 nor a preview, are refused before anything renders")
    func refused() throws {
        let options = SlideshowOptions(duration: 2, fps: 60)
        #expect(throws: OptionError.self) { try options.slideshow(photos: Self.photos.map { Photo(path: $0) }, output: "/tmp/x.gif") }
        do {
            _ = try options.slideshow(photos: Self.photos.map { Photo(path: $0) }, output: "/tmp/x.gif")
        } catch {
            #expect(error.field == .fps && error.reason.contains("50"), "\(error)")
        }
        #expect(AssetWriter.extensionProblem(outputPath: "/tmp/x.GIF") == nil)
        #expect(AssetWriter.extensionProblem(outputPath: "/tmp/x.png")?.contains(".gif or .webp") == true)
        #expect(AnimatedFormat(outputPath: "a/b.WebP") == .webp && AnimatedFormat(outputPath: ".gif") == nil)
    }
}
