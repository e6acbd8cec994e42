import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowVideo

/// A clip's sound from its in-point, for its length, in the project's audio format.
@Suite(.enabled(if: Clips.available, Clips.skipped))
struct ClipAudioTests {
    private func readAll(_ reader: ClipAudioReader) throws -> [Float] {
        var samples: [Float] = []
        while let chunk = try reader.read() { samples += chunk }
        return samples
    }

    /// One second from 1.5 s matches ffmpeg's own decode of that second (`-ss 1.5 -t 1`).
    @Test(arguments: ["mp4_h264_720p_vfr_aac_gps_3s.mp4", "livephoto_iphone15pro_IMG_4394.mov"])
    func soundFromTheInPoint(_ file: String) throws {
        let path = Clips.path(file)
        let reader = try #require(try ClipAudioReader(source: ClipSource(path: path), inPoint: MediaTime(value: 1, timescale: 2),
                                                      duration: MediaTime(value: 1, timescale: 1)))
        let ours = try readAll(reader)
        #expect(ours.count == 48_000 * 2)
        let data = try Clips.ffmpeg(["-ss", "0.5", "-i", path, "-t", "1", "-vn", "-ac", "2", "-ar", "48000", "-f", "f32le", "-"])
        let theirs = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let count = min(ours.count, theirs.count)
        #expect(count >= 48_000 * 2 - 2048)
        var dot = 0.0, a2 = 0.0, b2 = 0.0
        for index in 0..<count {
            dot += Double(ours[index]) * Double(theirs[index])
            a2 += Double(ours[index]) * Double(ours[index])
            b2 += Double(theirs[index]) * Double(theirs[index])
        }
        #expect(b2 > 0)
        let correlation = dot / (a2 * b2).squareRoot()
        #expect(correlation > 0.95, "correlation \(correlation)")
        #expect(abs(a2 / b2 - 1) < 0.1, "energy ratio \(a2 / b2)")
    }

    @Test func silentClipHasNoSound() throws {
        let reader = try ClipAudioReader(source: ClipSource(path: Clips.path("mp4_h264_960x540_noaudio_1s.mp4")),
                                         duration: MediaTime(value: 1, timescale: 1))
        #expect(reader == nil)
    }

    @Test func soundPastTheEndIsSilence() throws {
        // 3 s asked of a 1.8 s movie: exactly 3 s come out, the end silent.
        let reader = try #require(try ClipAudioReader(source: ClipSource(path: Clips.path("livephoto_iphone15pro_IMG_4394.mov")),
                                                      duration: MediaTime(value: 3, timescale: 1)))
        let samples = try readAll(reader)
        #expect(samples.count == 3 * 48_000 * 2)
        #expect(samples[(2 * 48_000 * 2)...].allSatisfy { $0 == 0 })
        #expect(samples[..<(48_000 * 2)].contains { $0 != 0 })
    }

    /// A 2-s MKV clip whose PCM sound (`bytes` of 16-bit mono silence, in packets of up to
    /// 20,000 samples) says `rate` Hz.
    private func pcmClip(rate: Int, bytes: Int, in folder: TemporaryFolder) throws -> String {
        let raw = folder.path("sound.raw"), clip = folder.path("clip.mkv")
        try Data(count: bytes).write(to: URL(fileURLWithPath: raw))
        _ = try Clips.ffmpeg(["-f", "lavfi", "-i", "color=s=32x32:d=2", "-f", "s16le", "-ar", "\(rate)", "-ac", "1", "-i", raw,
                              "-af", "asetnsamples=n=20000:p=0", "-c:v", "libx264", "-c:a", "pcm_s16le", "-shortest", "-y", clip])
        return clip
    }

    @Test("a clip's PCM sound at 1 Hz is refused (it was resampled x48,000 a packet: 1.6 GB), the clip plays silent")
    func sampleRateBombInClip() throws {
        let folder = try TemporaryFolder()
        let clip = try pcmClip(rate: 1, bytes: 4, in: folder)
        #expect(throws: ClipError(path: clip, kind: .decodeFailed, reason: "its sample rate of 1 Hz is outside 4000–768000 Hz, the rates sound is taken at")) {
            try ClipAudioReader(source: ClipSource(path: clip), duration: MediaTime(value: 2, timescale: 1))
        }
    }

    @Test("a clip's sound comes in blocks of at most 65,536 frames, however long its packets or its silences (issue 31)")
    func boundedBlocks() throws {
        let folder = try TemporaryFolder()
        // 4 kHz PCM in one packet of 8,000 samples: 96,000 sample frames at 48 kHz, given in two blocks.
        let clip = try pcmClip(rate: 4_000, bytes: 16_000, in: folder)
        let reader = try #require(try ClipAudioReader(source: ClipSource(path: clip), duration: MediaTime(value: 2, timescale: 1)))
        var total = 0
        while let chunk = try reader.read() {
            #expect(chunk.count <= (1 << 16) * 2)
            total += chunk.count
        }
        #expect(total == 2 * 48_000 * 2)
        // 10 minutes asked of a 1.8-s sound: the silence after it comes a block at a time, not as one 230 MB array.
        let long = try #require(try ClipAudioReader(source: ClipSource(path: Clips.path("livephoto_iphone15pro_IMG_4394.mov")),
                                                    duration: MediaTime(value: 600, timescale: 1)))
        total = 0
        var largest = 0
        while let chunk = try long.read() {
            largest = max(largest, chunk.count)
            total += chunk.count
        }
        #expect(total == 600 * 48_000 * 2)
        #expect(largest <= (1 << 16) * 2)
    }

    @Test func motionPhotoSoundInPlace() throws {
        let video = try #require(MotionPhoto.locate(photo: Clips.path("mp_samsung_s22_motionphoto.heic")))
        let reader = try #require(try ClipAudioReader(source: video.source, duration: MediaTime(value: 2, timescale: 1)))
        let samples = try readAll(reader)
        #expect(samples.count == 2 * 48_000 * 2)
    }
}
