import Dispatch
import Foundation
import Synchronization
import SlideshowKit
import Testing
import TestSupport
import SlideshowPixels
import SlideshowWriter

@Suite("AssetWriterAudioInput: the writer's audio input beside the video one")
struct AudioInputTests {
    @Test("a 440 Hz tone appended from its own ready-for-more-data loop comes out as long as the video, in tune, at t = 0")
    func tone() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("tone.mp4")
        let settings = VideoSettings(size: Size(width: 64, height: 48), framesPerSecond: 25, preset: "ultrafast")
        let writer = try AssetWriter(outputPath: path, settings: settings)
        let video = AssetWriterInput(settings: settings)
        let adaptor = PixelBufferAdaptor(assetWriterInput: video)
        let audio = AssetWriterAudioInput(bitrate: 128_000)
        writer.add(video)
        writer.add(audio)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let total = 96_000, amplitude: Float = 0.5
        let sent = Mutex(0)
        let loops = DispatchGroup()
        loops.enter()
        loops.enter()
        // Sound, 1000 frames at a time (not a multiple of the AAC frame), a pure tone.
        audio.requestMediaDataWhenReady(on: DispatchQueue(label: "audio")) {
            while audio.isReadyForMoreMediaData {
                let start = sent.withLock { $0 }
                guard start < total else {
                    audio.markAsFinished()
                    loops.leave()
                    return
                }
                let count = min(1000, total - start)
                var samples = [Float](repeating: 0, count: 2 * count)
                for frame in 0..<count {
                    let value = amplitude * Float(sin(2 * Double.pi * 440 * Double(start + frame) / 48_000))
                    samples[2 * frame] = value
                    samples[2 * frame + 1] = value
                }
                #expect(audio.append(AudioSampleBuffer(samples: samples)))
                sent.withLock { $0 = start + count }
            }
        }
        // Pictures: one grey picture at frame 0, held to 2 s.
        let appended = Mutex(false)
        video.requestMediaDataWhenReady(on: DispatchQueue(label: "video")) {
            while video.isReadyForMoreMediaData {
                guard !appended.withLock({ $0 }) else {
                    video.markAsFinished()
                    writer.endSession(atSourceTime: MediaTime(value: 2, timescale: 1))
                    loops.leave()
                    return
                }
                let buffer = PixelBuffer(size: settings.size, filledWith: RGBColor(red: 128, green: 128, blue: 128))
                #expect(adaptor.append(buffer, withPresentationTime: .zero))
                appended.withLock { $0 = true }
            }
        }
        await withCheckedContinuation { continuation in
            loops.notify(queue: .global()) { continuation.resume() }
        }
        try await writer.finishWriting()
        #expect(writer.status == .completed)

        let stream = try probeAudio(path)
        #expect(stream["codec_name"] == "aac" && stream["profile"] == "LC" && stream["sample_rate"] == "48000")
        #expect(abs(try probeDuration(path, stream: "a:0") - 2) <= 1024.0 / 48000)
        #expect(try probeDuration(path, stream: "v:0") == 2)
        // In tune and at t = 0: against the tone itself, the best lag is 0 and the level 0.5/√2.
        let decoded = left(try decodeAudio(path))
        let reference = (0..<total).map { amplitude * Float(sin(2 * Double.pi * 440 * Double($0) / 48_000)) }
        let match = bestLag(output: decoded, source: reference, outputStart: 4800, sourceStart: 4800, window: 9600, range: 50)
        #expect(match.lag == 0 && match.correlation > 0.99, "\(match)")
        #expect(abs(rms(decoded, 4800..<90_000) - Double(amplitude) / 2.0.squareRoot()) < 0.01)
    }
}
