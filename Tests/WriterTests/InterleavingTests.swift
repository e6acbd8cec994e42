import Dispatch
import Foundation
import Synchronization
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio
import SlideshowFormats
import SlideshowKit
import SlideshowPixels
import SlideshowWriter

@Suite("Writer: one readiness scheduler for both inputs; one interleaving loop")
struct InterleavingTests {
    @Test("the block runs on its queue while ready, never twice at once, not after cancel, and again when ready again")
    func readiness() async throws {
        let scheduler = ReadinessScheduler()
        let budget = Mutex(5)
        let running = Mutex(0), overlaps = Mutex(0), runs = Mutex(0)
        let queue = DispatchQueue(label: "test.readiness", attributes: .concurrent)
        let drained = DispatchSemaphore(value: 0)
        scheduler.request(on: queue, isReady: { budget.withLock { $0 > 0 } }) {
            if running.withLock({ $0 += 1; return $0 }) > 1 { overlaps.withLock { $0 += 1 } }
            runs.withLock { $0 += 1 }
            // Takes one item per run, so the scheduler must run it again while ready.
            let left = budget.withLock { $0 -= 1; return $0 }
            running.withLock { $0 -= 1 }
            if left == 0 { drained.signal() }
        }
        // Pokes from other threads meanwhile must not start a second run.
        for _ in 0..<50 { DispatchQueue.global().async { scheduler.scheduleIfReady() } }
        #expect(drained.wait(timeout: .now() + 10) == .success)
        try await Task.sleep(for: .milliseconds(100))
        #expect(runs.withLock { $0 } == 5)
        #expect(overlaps.withLock { $0 } == 0)
        // Ready again: it runs again.
        budget.withLock { $0 = 2 }
        scheduler.scheduleIfReady()
        #expect(drained.wait(timeout: .now() + 10) == .success)
        try await Task.sleep(for: .milliseconds(100))
        #expect(runs.withLock { $0 } == 7)
        // Cancelled: never again.
        scheduler.cancel()
        budget.withLock { $0 = 3 }
        scheduler.scheduleIfReady()
        try await Task.sleep(for: .milliseconds(200))
        #expect(runs.withLock { $0 } == 7)
    }

    static let music = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media/wav_s16_44k_stereo_music.wav").path

    @Test("with sound, the file's packets are in time order: no video packet after a sound packet that starts later than it",
          .enabled(if: which("ffprobe") != nil && FileManager.default.fileExists(atPath: music), "skipped: no ffprobe or no ../shared/media"))
    func timeOrder() async throws {
        let folder = try TemporaryFolder()
        let output = folder.path("av.mp4")
        var show = Slideshow(photos: ["landscape.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) },
                             output: output, length: .total(seconds: 3))
        show.video = VideoSettings(size: Size(width: 160, height: 90), framesPerSecond: 10, preset: "ultrafast")
        show.soundtrack = Soundtrack(path: Self.music)
        _ = try await show.render()
        let probe = try run(which("ffprobe")!, ["-v", "error", "-show_entries", "packet=stream_index,dts_time", "-of", "csv=p=0", output])
        let packets = probe.stdoutText.split(separator: "\n").compactMap { line -> (Int, Double)? in
            let parts = line.split(separator: ",")
            guard parts.count == 2, let stream = Int(parts[0]), let time = Double(parts[1]) else { return nil }
            return (stream, time)
        }
        #expect(packets.count > 30)
        #expect(Set(packets.map(\.0)) == [0, 1])
        for (a, b) in zip(packets, packets.dropFirst()) where a.0 != b.0 {
            #expect(a.1 <= b.1 + 1e-9, "\(a) before \(b)")
        }
    }
}
