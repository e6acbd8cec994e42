import Foundation
import Testing
@testable import SlideshowKit
import TestSupport

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
        #expect(probe.stream["has_b_frames"] == "0")
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
}
