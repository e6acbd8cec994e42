import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowWriter

private let small = Size(width: 64, height: 48)

@Suite("Writer hardening: failing opens, settings, levels, exact durations, held frames without encoder delay")
struct WriterHardeningTests {
    @Test("an encoder libx264 refuses to open throws, and its context and packet are freed once")
    func failingEncoderOpen() {
        // CRF 0 (lossless) with profile High: x264 refuses to open. Before, the failing
        // initialiser freed the context and deinit freed it again (a double free, a crash).
        let error = #expect(throws: FFmpegError.self) {
            _ = try H264Encoder(settings: VideoSettings(size: small, crf: 0), globalHeader: true)
        }
        #expect(error?.call == "avcodec_open2(libx264)")
        // The same for an unknown tune, which the settings' check would have caught first.
        #expect(throws: FFmpegError.self) {
            _ = try H264Encoder(settings: VideoSettings(size: small, tune: "nonsense"), globalHeader: true)
        }
    }

    @Test("a picture whose planes cannot be allocated throws, and its frame is freed once")
    func failingPicture() {
        let error = #expect(throws: FFmpegError.self) { _ = try EncoderPicture(size: Size(width: 0, height: 0)) }
        #expect(error?.call == "av_frame_get_buffer")
    }

    @Test("an engine whose file cannot be created throws after its encoder and muxer were made, freeing each once")
    func failingEngine() throws {
        let folder = try TemporaryFolder()
        let error = #expect(throws: FFmpegError.self) {
            _ = try WriterEngine(path: folder.path("missing/out.mp4"), settings: VideoSettings(size: small))
        }
        #expect(error?.call == "avio_open")
        #expect(folder.contents().isEmpty)
    }

    @Test("settings x264 would refuse are refused before anything opens, naming the setting",
          arguments: [
            (VideoSettings(size: small, crf: 0), "CRF 0 (lossless) is not possible in H.264 High; give 1 to 51"),
            (VideoSettings(size: small, crf: -1), "CRF -1 is not between 1 and 51"),
            (VideoSettings(size: small, tune: "nonsense"),
             "tune 'nonsense' is not one of film, animation, grain, stillimage, psnr, ssim, fastdecode, zerolatency (or several joined by commas)"),
            (VideoSettings(size: small, tune: "film,grain"),
             "tune 'film,grain' combines more than one of film, animation, grain, stillimage, psnr and ssim"),
            (VideoSettings(size: Size(width: 8192, height: 8192)),
             "size 8192x8192 is 262144 macroblocks a frame, more than the 139264 H.264 allows at its highest level (6.2; 8192x4352 fits)"),
            (VideoSettings(size: Size(width: 8192, height: 4320), framesPerSecond: 240),
             "size 8192x4320 at 240 fps is 33177600 macroblocks a second, more than the 16711680 H.264 allows at its highest level (6.2)"),
          ])
    func refusedSettings(settings: VideoSettings, problem: String) throws {
        #expect(settings.problem == problem)
        let folder = try TemporaryFolder()
        #expect(throws: WriterError(path: folder.path("x.mp4"), kind: .invalidSettings, reason: problem)) {
            _ = try AssetWriter(outputPath: folder.path("x.mp4"), settings: settings)
        }
        #expect(folder.contents().isEmpty)
    }

    @Test("settings that fit a level pass: 1 and 51, combined tunes, the largest frame at its highest rate")
    func acceptedSettings() {
        for settings in [VideoSettings(crf: 1), VideoSettings(crf: 51), VideoSettings(tune: "stillimage,fastdecode,zerolatency"),
                         VideoSettings(tune: nil), VideoSettings(size: Size(width: 8192, height: 4352), framesPerSecond: 120),
                         VideoSettings(size: Size(width: 3840, height: 2160), framesPerSecond: 240)] {
            #expect(settings.problem == nil, "\(settings)")
        }
    }

    @Test("the level table: the lowest level that fits, by frame size, side and macroblock rate")
    func levels() {
        #expect(H264Level.lowest(fitting: Size(width: 1920, height: 1080), framesPerSecond: 30)?.idc == 40)
        #expect(H264Level.lowest(fitting: Size(width: 1920, height: 1080), framesPerSecond: 60)?.idc == 42)
        #expect(H264Level.lowest(fitting: Size(width: 3840, height: 2160), framesPerSecond: 30)?.idc == 51)
        #expect(H264Level.lowest(fitting: Size(width: 8192, height: 4320), framesPerSecond: 30)?.idc == 60)
        #expect(H264Level.lowest(fitting: Size(width: 8192, height: 4320), framesPerSecond: 120)?.idc == 62)
        #expect(H264Level.lowest(fitting: Size(width: 64, height: 48), framesPerSecond: 30)?.idc == 10)
        #expect(H264Level.lowest(fitting: Size(width: 8192, height: 8192), framesPerSecond: 1) == nil)
        // A very thin frame: few macroblocks, but 512 wide, more than √(8 × MaxFS) = 420 of level 5.0.
        #expect(H264Level.lowest(fitting: Size(width: 8192, height: 16), framesPerSecond: 1)?.idc == 51)
    }

    @Test("the largest accepted frame declares the level its size and rate need, and its reference frames fit that level",
          .timeLimit(.minutes(1)))
    func declaredLevel() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("8k.mp4")
        let size = Size(width: 8192, height: 4320)
        try await writeVideo(to: path, settings: VideoSettings(size: size, preset: "ultrafast"),
                             pictures: [PixelBuffer(size: size, filledWith: RGBColor(red: 40, green: 90, blue: 200))], starts: [0], endFrame: 2)
        let probed = try ProbedVideo(path: path)
        let expected = try #require(H264Level.lowest(fitting: size, framesPerSecond: 30))
        #expect(probed.stream["level"] == String(expected.idc))
        // The SPS in the avcC box: max_num_ref_frames × frame size within the level's DPB.
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let avcC = try #require((0..<data.count - 4).first { data[$0..<$0 + 4] == [0x61, 0x76, 0x63, 0x43] })
        let spsLength = Int(data[avcC + 10]) << 8 | Int(data[avcC + 11])
        let sps = try SequenceParameterSet(nalUnit: Array(data[(avcC + 12)..<(avcC + 12 + spsLength)]))
        #expect(sps.macroblocksPerFrame == H264Level.macroblocks(in: size))
        #expect(Int(sps.maxNumRefFrames) * sps.macroblocksPerFrame <= expected.maxDPBMacroblocks)
    }

    @Test("the container's duration is exact for frame counts that are not whole milliseconds",
          arguments: [(1, 30, "0.033333"), (7, 30, "0.233333"), (1, 60, "0.016667"), (2, 24, "0.083333")])
    func exactDuration(frames: Int64, fps: Int, duration: String) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("short.mp4")
        try await writeVideo(to: path, settings: VideoSettings(size: small, framesPerSecond: fps),
                             pictures: [gradient(small, seed: 1)], starts: [0], endFrame: frames)
        let probed = try ProbedVideo(path: path)
        #expect(probed.decodedFrames == Int(frames))
        #expect(probed.streamDuration == duration)
        #expect(probed.formatDuration == duration)
    }

    @Test("held frames are written whatever the encoder's delay: with x264's zerolatency every frame is there and exact")
    func heldFramesWithoutDelay() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("zerolatency.mp4")
        let pictures = [gradient(small, seed: 0), gradient(small, seed: 1), gradient(small, seed: 2)]
        // Pictures at 0, 4 and 5 (5 follows 4 at once), held to 9: frames 1-3 and 6-8 are held copies.
        try await writeVideo(to: path, settings: VideoSettings(size: small, tune: "stillimage,zerolatency"),
                             pictures: pictures, starts: [0, 4, 5], endFrame: 9)
        #expect(try ProbedVideo(path: path).decodedFrames == 9)
        let frames = try FrameDecoder.frames(of: path, pixelFormat: "yuv420p", width: small.width, height: small.height)
        #expect(frames.count == 9)
        for (held, shown) in [(1, 0), (2, 0), (3, 0), (6, 5), (7, 5), (8, 5)] where frames.count == 9 {
            #expect(frames[held] == frames[shown], "frame \(held) should repeat frame \(shown) exactly")
        }
        #expect(frames.count == 9 && frames[4] != frames[0] && frames[5] != frames[4])
    }
}
