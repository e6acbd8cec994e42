import Foundation
import Testing
import TestSupport

@Suite("slideshow make: end to end, checked with ffprobe and ffmpeg", needsBuiltTool)
struct MakeTests {
    @Test("the samples at 320x240: 3.000 s, 90 frames, H.264 High yuv420p, BT.709 tags, moov first, JSON report")
    func samples() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("samples.mp4")
        let result = try slideshow(["make"] + samplePhotos + ["--size", "320x240", "--json", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(report["output"] as? String == output)
        #expect(report["frames"] as? Int == 90)
        #expect(report["duration"] as? Double == 3)
        #expect(report["size"] as? String == "320x240")
        #expect(report["fps"] as? Int == 30)
        #expect(report["look"] as? String == "original")
        #expect(report["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int))
        #expect((report["seconds"] as? Double ?? -1) >= 0)

        let probe = try ProbedVideo(path: output)
        #expect(probe.formatDuration == "3.000000")
        #expect(probe.streamDuration == "3.000000")
        #expect(probe.decodedFrames == 90)
        #expect(probe.stream["profile"] == "High")
        #expect(probe.stream["pix_fmt"] == "yuv420p")
        #expect(probe.stream["width"] == "320" && probe.stream["height"] == "240")
        #expect(probe.stream["r_frame_rate"] == "30/1" && probe.stream["avg_frame_rate"] == "30/1")
        #expect(probe.stream["color_space"] == "bt709" && probe.stream["color_primaries"] == "bt709")
        #expect(probe.stream["color_transfer"] == "bt709" && probe.stream["color_range"] == "tv")
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: output)).readData(ofLength: 64)
        let text = String(decoding: head, as: UTF8.self)
        #expect(text.contains("moov") && !text.contains("mdat"), "moov comes before mdat")
        #expect(folder.contents() == ["samples.mp4"])
    }

    @Test("letterbox bars are black exactly where the geometry puts them")
    func letterboxBars() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("bars.mp4")
        // landscape.jpg is 451x282 (16:10): into 320x240 it is 320x200 at y 20; the bars are rows 0-19 and 220-239.
        // portrait-orient6.jpg displays 384x512 (3:4): 180x240 at x 70; the bars are columns 0-69 and 250-319.
        let result = try slideshow(["make", samplePhotos[0], samplePhotos[1], "--size", "320x240", "--duration", "0.2", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        // The Y plane of each decoded frame: black is Y 16 in limited range.
        let frames = try FrameDecoder.frames(of: output, pixelFormat: "yuv420p", width: 320, height: 240).map { $0.prefix(320 * 240) }
        #expect(frames.count == 6)
        // The samples are real photos (see Samples/make-samples.sh): their textured edges ring a
        // little more than synthetic ones did, up to 14 levels in the macroblocks they cross.
        #expect(barFaults(luma: frames[0], width: 320, height: 240, content: (0, 20, 320, 200), ringing: 16) == [])
        #expect(barFaults(luma: frames[3], width: 320, height: 240, content: (70, 0, 180, 240), ringing: 16) == [])
        // Not vacuous: the picture starts right at the bar's edge (the samples are bright there),
        // so a bar one row or column too wide or narrow fails.
        let landscape = Array(frames[0]), portrait = Array(frames[3])
        #expect(landscape[20 * 320 + 10] > 60 && landscape[219 * 320 + 10] > 60)
        #expect(portrait[120 * 320 + 70] > 30 && portrait[120 * 320 + 249] > 30)
        #expect(barFaults(luma: frames[0], width: 320, height: 240, content: (0, 22, 320, 196)) != [])
    }

    @Test("minimal-life frames are grey: every chroma sample is neutral")
    func minimalLifeIsGrey() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("grey.mp4")
        let result = try slideshow(["make"] + samplePhotos + ["--size", "160x120", "--duration", "0.3", "--filter", "minimal-life", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try FrameDecoder.frames(of: output, pixelFormat: "yuv420p", width: 160, height: 120)
        #expect(frames.count == 9)
        for frame in frames {
            let chroma = frame.suffix(from: frame.startIndex + 160 * 120)
            #expect(chroma.allSatisfy { abs(Int($0) - 128) <= 1 })
        }
        // And the original look is not grey, so the check can fail.
        let colour = folder.path("colour.mp4")
        #expect(try slideshow(["make"] + samplePhotos + ["--size", "160x120", "--duration", "0.3", "-o", colour]).status == 0)
        let colourFrame = try FrameDecoder.frames(of: colour, pixelFormat: "yuv420p", width: 160, height: 120)[0]
        #expect(colourFrame.suffix(from: colourFrame.startIndex + 160 * 120).contains { abs(Int($0) - 128) > 10 })
    }

    @Test("--slide-duration, --fps, --fit fill and --background")
    func options() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("options.mp4")
        let result = try slideshow(["make", samplePhotos[0], samplePhotos[2], "--slide-duration", "0.5", "--fps", "24", "--size", "96x64",
                                    "--fit", "fill", "--background", "#FF0000", "--crf", "30", "--preset", "ultrafast", "--quiet", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "" && result.stdout.isEmpty)
        let probe = try ProbedVideo(path: output)
        #expect(probe.decodedFrames == 24)
        #expect(probe.formatDuration == "1.000000")
        #expect(probe.stream["r_frame_rate"] == "24/1")

        // A red background shows in letterbox bars (a 16:10 photo into a square frame).
        let red = folder.path("red.mp4")
        #expect(try slideshow(["make", samplePhotos[0], "--size", "64x64", "--duration", "0.1", "--background", "#FF0000", "-o", red]).status == 0)
        let frame = try FrameDecoder.frames(of: red, pixelFormat: "rgb24", width: 64, height: 64)[0]
        #expect(frame[0] > 200 && frame[1] < 40 && frame[2] < 40)
    }

    @Test("the same command twice gives the same bytes, grain included; also with every frame encoded, and in fill mode",
          arguments: [[String]]([
              ["--filter", "minimal-life"], ["--filter", "tumble-down"], ["--filter", "original"],
              ["--filter", "tumble-down", "--hold", "encode"], ["--filter", "minimal-life", "--fit", "fill"],
              // Full HD, where x264 runs its most threads.
              ["--filter", "minimal-life", "--hold", "encode", "--size", "1920x1080"],
          ]))
    func deterministic(options: [String]) throws {
        let folder = try TemporaryFolder()
        var files: [Data] = []
        for run in 0..<2 {
            let output = folder.path("\(run).mp4")
            let size = options.contains("--size") ? [] : ["--size", "160x120"]
            let result = try slideshow(["make"] + samplePhotos + size + ["--duration", "0.3", "-o", output] + options)
            #expect(result.status == 0, "\(result.stderr)")
            files.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        #expect(files[0] == files[1], "\(options)")
    }

    @Test("every orient_* photo renders upright, matching its orientation-1 twin",
          .enabled(if: TestEnvironment.sharedPhotos != nil, TestEnvironment.noSharedPhotos),
          arguments: ["landscape", "portrait"])
    func orientations(kind: String) throws {
        let folder = try TemporaryFolder()
        let names = (1...8).map { "orient_\(kind)_\($0).jpg" }
        let photos = names.compactMap(TestEnvironment.sharedPhoto)
        let output = folder.path("\(kind).mp4")
        let result = try slideshow(["make"] + photos + ["--size", "192x128", "--duration", "0.8", "--fps", "10", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try FrameDecoder.frames(of: output, pixelFormat: "gray", width: 192, height: 128)
        #expect(frames.count == 8)
        for (index, frame) in frames.enumerated() {
            let difference = meanAbsoluteDifference(frame, frames[0])
            #expect(difference < 6, "\(names[index]) differs from \(names[0]) by \(difference)")
        }
        // Not vacuous: the scene upside down differs by far more.
        let flipped = Data(frames[0].reversed())
        #expect(meanAbsoluteDifference(flipped, frames[0]) > 15)
    }

    @Test("the mission: three 12 MP camera photos, minimal-life, 1920x1080: 3.000 s, 90 frames, black bars, grey frames",
          .enabled(if: TestEnvironment.sharedPhotos != nil, TestEnvironment.noSharedPhotos))
    func mission() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("mission.mp4")
        let photos = ["camera_nikon_d90_12mp.jpg", "camera_canon_eos5d_13mp_portrait.jpg", "camera_apple_iphone4s_8mp_orient6.jpg"]
            .compactMap(TestEnvironment.sharedPhoto)
        let result = try slideshow(["make"] + photos + ["--duration", "3", "--filter", "minimal-life", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try ProbedVideo(path: output)
        #expect(probe.formatDuration == "3.000000" && probe.streamDuration == "3.000000")
        #expect(probe.decodedFrames == 90)
        #expect(probe.stream["width"] == "1920" && probe.stream["height"] == "1080")
        #expect(probe.stream["color_space"] == "bt709" && probe.stream["color_transfer"] == "bt709" && probe.stream["color_primaries"] == "bt709")
        let frames = try FrameDecoder.frames(of: output, pixelFormat: "yuv420p", width: 1920, height: 1080)
        #expect(frames.count == 90)
        // Nikon 4288x2848 → 1626x1080 at x 146: bars are columns 0-145 and 1772-1919.
        // Canon portrait 2912x4368 → 720x1080 at x 600. iPhone (orientation 6) displays 2448x3264 → 810x1080 at x 554.
        for (frameIndex, left, width) in [(0, 146, 1626), (30, 600, 720), (60, 554, 810)] {
            let frame = frames[frameIndex]
            #expect(barFaults(luma: frame, width: 1920, height: 1080, content: (left, 0, width, 1080)) == [], "frame \(frameIndex)")
            let chroma = frame.suffix(from: frame.startIndex + 1920 * 1080)
            #expect(chroma.allSatisfy { abs(Int($0) - 128) <= 1 }, "frame \(frameIndex) is grey")
        }
        // Held frames are their photo's first frame, byte for byte.
        #expect(frames[1] == frames[0] && frames[29] == frames[0] && frames[89] == frames[60])
    }
}
