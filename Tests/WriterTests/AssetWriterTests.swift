import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowPixels
import SlideshowWriter

@Suite("Asset writer: the file, checked with ffprobe and ffmpeg")
struct AssetWriterTests {
    let size = Size(width: 320, height: 240)

    @Test("three pictures, 3 s at 30 fps: 90 frames, exact length, H.264 High yuv420p BT.709, moov first")
    func exactLength() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("three.mp4")
        let pictures = (0..<3).map { gradient(size, seed: $0) }
        try await writeVideo(to: path, settings: VideoSettings(size: size), pictures: pictures, starts: [0, 30, 60], endFrame: 90)

        let probe = try ProbedVideo(path: path)
        #expect(probe.formatDuration == "3.000000")
        #expect(probe.streamDuration == "3.000000")
        #expect(probe.decodedFrames == 90)
        #expect(probe.stream["codec_name"] == "h264")
        #expect(probe.stream["profile"] == "High")
        #expect(probe.stream["pix_fmt"] == "yuv420p")
        #expect(probe.stream["width"] == "320")
        #expect(probe.stream["height"] == "240")
        #expect(probe.stream["r_frame_rate"] == "30/1")
        #expect(probe.stream["avg_frame_rate"] == "30/1")
        #expect(probe.stream["color_range"] == "tv")
        #expect(probe.stream["color_space"] == "bt709")
        #expect(probe.stream["color_transfer"] == "bt709")
        #expect(probe.stream["color_primaries"] == "bt709")
        // Settings that compose frames (the default): the stream's one SPS is the motion
        // encoder's, which declares a frame of reordering for its B-frames (a show of cuts: 0).
        #expect(probe.stream["has_b_frames"] == "1")
        // The container carries the colour tags too: a `colr` box of type `nclx`, BT.709 (1, 1, 1), limited range.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let colr = try #require(bytes.range(of: Data("colrnclx".utf8)))
        #expect(Array(bytes[colr.upperBound..<colr.upperBound + 7]) == [0, 1, 0, 1, 0, 1, 0])
        let boxes = try topLevelBoxes(of: path)
        #expect(boxes.firstIndex(of: "moov")! < boxes.firstIndex(of: "mdat")!)
        #expect(folder.contents() == ["three.mp4"])

        // ffmpeg decodes it without a word, and every held frame is its picture's first frame, byte for byte.
        let check = try run(which("ffmpeg")!, ["-v", "error", "-i", path, "-f", "null", "-"])
        #expect(check.status == 0)
        #expect(check.stderr == "")
        let frames = try FrameDecoder.frames(of: path, pixelFormat: "yuv420p", width: 320, height: 240)
        #expect(frames.count == 90)
        for (index, frame) in frames.enumerated() {
            #expect(frame == frames[index / 30 * 30], "frame \(index) differs from frame \(index / 30 * 30)")
        }
        #expect(frames[0] != frames[30] && frames[30] != frames[60])
    }

    @Test("--hold encode and --hold skip decode to the same pictures, within encoder noise")
    func holdStrategiesAgree() async throws {
        let folder = try TemporaryFolder()
        let small = Size(width: 128, height: 96)
        let pictures = (0..<2).map { gradient(small, seed: $0) }
        var decoded: [[Data]] = []
        for hold in HoldStrategy.allCases {
            let path = folder.path("\(hold).mp4")
            try await writeVideo(to: path, settings: VideoSettings(size: small, hold: hold), pictures: pictures, starts: [0, 12], endFrame: 24)
            #expect(try ProbedVideo(path: path).decodedFrames == 24)
            decoded.append(try FrameDecoder.frames(of: path, pixelFormat: "gray", width: small.width, height: small.height))
        }
        #expect(decoded[0].count == 24 && decoded[1].count == 24)
        for index in 0..<24 {
            let difference = meanAbsoluteDifference(decoded[0][index], decoded[1][index])
            #expect(difference < 1.5, "frame \(index): mean luma difference \(difference)")
        }
        // Not vacuous: the two photos differ by far more than that.
        #expect(meanAbsoluteDifference(decoded[0][0], decoded[0][12]) > 20)
    }

    @Test("pictures on consecutive frames go through the encoder, and holds after them still copy exactly")
    func consecutiveThenHeld() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("mixed.mp4")
        let pictures = (0..<5).map { gradient(size, seed: $0) }
        // Frames 0, 1, 2 change every frame (a crossfade would); then 3-9 hold frame 2; 10 and 11 change; 12-19 hold 11.
        try await writeVideo(to: path, settings: VideoSettings(size: size), pictures: pictures, starts: [0, 1, 2, 10, 11], endFrame: 20)
        let check = try run(which("ffmpeg")!, ["-v", "error", "-i", path, "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr == "")
        let frames = try FrameDecoder.frames(of: path, pixelFormat: "yuv420p", width: 320, height: 240)
        #expect(frames.count == 20)
        for index in 3..<10 { #expect(frames[index] == frames[2], "frame \(index)") }
        for index in 12..<20 { #expect(frames[index] == frames[11], "frame \(index)") }
        #expect(frames[0] != frames[1] && frames[1] != frames[2] && frames[10] != frames[11])
    }

    @Test("one frame per photo: no held frames at all")
    func oneFramePerPhoto() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("short.mp4")
        try await writeVideo(to: path, settings: VideoSettings(size: size), pictures: (0..<3).map { gradient(size, seed: $0) },
                             starts: [0, 1, 2], endFrame: 3)
        let probe = try ProbedVideo(path: path)
        #expect(probe.decodedFrames == 3)
        #expect(probe.formatDuration == "0.100000")
    }

    @Test("a long hold: 60 s of one picture is 1800 frames, every one the same")
    func longHold() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("long.mp4")
        let small = Size(width: 64, height: 48)
        try await writeVideo(to: path, settings: VideoSettings(size: small), pictures: [gradient(small, seed: 1)], starts: [0], endFrame: 1800)
        let probe = try ProbedVideo(path: path)
        #expect(probe.decodedFrames == 1800)
        #expect(probe.formatDuration == "60.000000")
        let frames = try FrameDecoder.frames(of: path, pixelFormat: "yuv420p", width: 64, height: 48)
        #expect(Set(frames).count == 1)
    }

    @Test("the same pictures and settings give the same bytes")
    func deterministic() async throws {
        let folder = try TemporaryFolder()
        let pictures = (0..<3).map { gradient(size, seed: $0) }
        for name in ["a.mp4", "b.mp4"] {
            try await writeVideo(to: folder.path(name), settings: VideoSettings(size: size), pictures: pictures, starts: [0, 30, 60], endFrame: 90)
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: folder.path("a.mp4")))
        let b = try Data(contentsOf: URL(fileURLWithPath: folder.path("b.mp4")))
        #expect(a == b)
    }

    @Test("colour is BT.709 limited range: red, white, black and the bars keep their values")
    func bt709Colours() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("colours.mp4")
        let small = Size(width: 64, height: 64)
        let colours = [RGBColor(red: 255, green: 0, blue: 0), RGBColor(red: 255, green: 255, blue: 255), .black]
        try await writeVideo(to: path, settings: VideoSettings(size: small), pictures: colours.map { PixelBuffer(size: small, filledWith: $0) },
                             starts: [0, 1, 2], endFrame: 3)
        let frames = try FrameDecoder.frames(of: path, pixelFormat: "yuv420p", width: 64, height: 64)
        let expected: [(UInt8, UInt8, UInt8)] = [(63, 102, 240), (235, 128, 128), (16, 128, 128)]
        for (frame, (y, u, v)) in zip(frames, expected) {
            let luma = 64 * 64, chroma = 32 * 32
            // The centre sample of each plane, within one step of encoder rounding.
            #expect(abs(Int(frame[32 * 64 + 32]) - Int(y)) <= 1)
            #expect(abs(Int(frame[luma + 16 * 32 + 16]) - Int(u)) <= 1)
            #expect(abs(Int(frame[luma + chroma + 16 * 32 + 16]) - Int(v)) <= 1)
        }
    }

    @Test("without endSession the last picture lasts one frame")
    func noEndSession() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("open.mp4")
        let writer = try AssetWriter(outputPath: path, settings: VideoSettings(size: size))
        let input = AssetWriterInput(settings: writer.settings)
        let adaptor = PixelBufferAdaptor(assetWriterInput: input)
        writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        #expect(adaptor.append(gradient(size, seed: 0), withPresentationTime: .zero))
        #expect(adaptor.append(gradient(size, seed: 1), withPresentationTime: MediaTime(value: 1, timescale: 1)))
        try await writer.finishWriting()
        #expect(writer.status == .completed)
        #expect(try ProbedVideo(path: path).decodedFrames == 31)
    }
}

@Suite("Asset writer: every failure is its own kind, and nothing is left behind")
struct AssetWriterErrorTests {
    let size = Size(width: 64, height: 48)

    @Test("an existing output is refused without overwrite, and survives untouched")
    func existingOutput() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("kept.mp4")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: WriterError.self) {
            try await writeVideo(to: path, settings: VideoSettings(size: size), pictures: [gradient(size, seed: 0)], starts: [0], endFrame: 3)
        }
        #expect(error?.kind == .outputExists)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
        #expect(folder.contents() == ["kept.mp4"])
    }

    @Test("with overwrite, an existing output is replaced only when the video is complete")
    func overwrite() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("replaced.mp4")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        try await writeVideo(to: path, settings: VideoSettings(size: size), pictures: [gradient(size, seed: 0)], starts: [0], endFrame: 3, overwrite: true)
        #expect(try ProbedVideo(path: path).decodedFrames == 3)
        #expect(folder.contents() == ["replaced.mp4"])
    }

    @Test("a missing folder, a folder as output, bad settings: each its own kind")
    func badOutputs() throws {
        let folder = try TemporaryFolder()
        let noFolder = try AssetWriter(outputPath: folder.path("missing/out.mp4"), settings: VideoSettings(size: size))
        noFolder.add(AssetWriterInput(settings: noFolder.settings))
        #expect(throws: WriterError(path: folder.path("missing/out.mp4"), kind: .noSuchFolder, reason: "folder \(folder.path("missing")) does not exist")) {
            try noFolder.startWriting()
        }
        #expect(noFolder.status == .failed)

        let isFolder = try AssetWriter(outputPath: folder.url.path, settings: VideoSettings(size: size))
        isFolder.add(AssetWriterInput(settings: isFolder.settings))
        let error = #expect(throws: WriterError.self) { try isFolder.startWriting() }
        #expect(error?.kind == .outputIsFolder)

        for bad in [VideoSettings(size: Size(width: 63, height: 48)), VideoSettings(size: Size(width: 0, height: 48)),
                    VideoSettings(size: size, framesPerSecond: 0), VideoSettings(size: size, crf: 52), VideoSettings(size: size, preset: "turbo")] {
            let error = #expect(throws: WriterError.self) { try AssetWriter(outputPath: folder.path("x.mp4"), settings: bad) }
            #expect(error?.kind == .invalidSettings)
        }
        #expect(folder.contents().isEmpty)
    }

    @Test("appends out of order, before the start, or of the wrong size are refused")
    func badAppends() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("bad.mp4")
        let writer = try AssetWriter(outputPath: path, settings: VideoSettings(size: size))
        let input = AssetWriterInput(settings: writer.settings)
        let adaptor = PixelBufferAdaptor(assetWriterInput: input)
        writer.add(input)
        #expect(!adaptor.append(gradient(size, seed: 0), withPresentationTime: .zero))  // before startWriting
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        #expect(adaptor.append(gradient(size, seed: 0), withPresentationTime: MediaTime(value: 1, timescale: 30)))
        #expect(!adaptor.append(gradient(size, seed: 1), withPresentationTime: MediaTime(value: 1, timescale: 30)))
        #expect(writer.status == .failed)
        #expect(writer.error?.kind == .invalidTime)
        await #expect(throws: WriterError.self) { try await writer.finishWriting() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(folder.contents().isEmpty)

        let sized = try AssetWriter(outputPath: path, settings: VideoSettings(size: size))
        let sizedInput = AssetWriterInput(settings: sized.settings)
        sized.add(sizedInput)
        try sized.startWriting()
        sized.startSession(atSourceTime: .zero)
        #expect(!PixelBufferAdaptor(assetWriterInput: sizedInput).append(PixelBuffer(size: Size(width: 32, height: 32)), withPresentationTime: .zero))
        #expect(sized.error?.kind == .invalidState)
    }

    @Test("cancelWriting leaves nothing at the output path")
    func cancel() async throws {
        let folder = try TemporaryFolder()
        let writer = try AssetWriter(outputPath: folder.path("cancelled.mp4"), settings: VideoSettings(size: size))
        let input = AssetWriterInput(settings: writer.settings)
        writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        #expect(PixelBufferAdaptor(assetWriterInput: input).append(gradient(size, seed: 0), withPresentationTime: .zero))
        #expect(folder.contents().count == 1)  // the temporary file
        writer.cancelWriting()
        #expect(writer.status == .cancelled)
        let error = await #expect(throws: WriterError.self) { try await writer.finishWriting() }
        #expect(error?.kind == .cancelled)
        #expect(folder.contents().isEmpty)
    }
}
