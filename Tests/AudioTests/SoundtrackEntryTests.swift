import Foundation
import Testing
import TestSupport
import SlideshowAudio

/// The entry into the music (``Soundtrack/entry``): a show cut on the beat skips a little more
/// of the music on its first pass only, so that its beats fall on the frames, while a loop's
/// later passes start at the start and keep their whole-beat step.
@Suite struct SoundtrackEntryTests {
    /// A 1-second ramp (each sample its own value), looped under 2.5 s without fades: with an
    /// entry of 10 ms (480 frames) the first pass is the entry-less one 480 frames on; the second
    /// pass starts 480 frames sooner, from the file's start, the same sound after its crossfade.
    @Test func theEntrySkipsTheFirstPassOnly() throws {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is needed (make deps)")
        let folder = try TemporaryFolder()
        let ramp = folder.path("ramp.wav")
        let made = try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "aevalsrc=0.9*mod(n\\,48000)/48000-0.45:s=48000:d=1",
                                    "-ac", "2", "-c:a", "pcm_s16le", "-y", ramp])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        func sound(entry: Double) throws -> [Float] {
            var music = Soundtrack(path: ramp, fadeOut: 0)
            music.entry = entry
            let stream = try SoundtrackStream(soundtrack: music, totalFrames: 120_000)
            var samples: [Float] = []
            while let chunk = try stream.next(maxFrames: 4096) { samples += chunk }
            return samples
        }
        let plain = try sound(entry: 0), entered = try sound(entry: 0.01)
        #expect(plain.count == 240_000 && entered.count == 240_000)
        // Left channel, frame by frame.
        func left(_ samples: [Float], _ frame: Int) -> Float { samples[2 * frame] }
        // The first pass, before its crossfade (100 ms, 4800 frames, before its end at 47,520).
        #expect((0..<42_000).allSatisfy { left(entered, $0) == left(plain, $0 + 480) })
        #expect(left(plain, 480) != left(plain, 0))
        // The second pass after its crossfade: the file from its start, 480 frames sooner.
        #expect((4_800..<40_000).allSatisfy { left(entered, 42_720 + $0) == left(plain, 43_200 + $0) })
    }
}
