import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio
import SlideshowFFmpeg
import SlideshowMix
import SlideshowPixels

/// The mix stage's parts without encoding: the duck's envelope, the soft limit, and the
/// readers opened only around their clips' time.
@Suite("clip sound: the duck envelope, the soft limit and the mix's streaming")
struct ClipSoundStageTests {
    @Test("a duck: fully down over the clip, raised-cosine ramps of the ramp's length ending at its start and starting at its end")
    func envelope() {
        let duck = DuckEnvelope(clips: [48_000..<96_000], depthDecibels: -12, rampFrames: 12_000)
        #expect(duck.spans == [48_000..<96_000])
        #expect(duck.weight(at: 35_999) == 0)
        #expect(duck.weight(at: 36_000) > 0 && duck.weight(at: 36_000) < 1e-7)
        #expect(abs(duck.weight(at: 42_000) - 0.5) < 1e-3)
        #expect(duck.weight(at: 47_999) > 0.99999 && duck.weight(at: 47_999) < 1)
        #expect(duck.weight(at: 48_000) == 1 && duck.weight(at: 95_999) == 1)
        #expect(duck.weight(at: 96_000) < 1 && duck.weight(at: 96_000) > 0.99999)
        #expect(abs(duck.weight(at: 102_000) - 0.5) < 1e-3)
        #expect(duck.weight(at: 108_000) == 0)
        #expect(abs(Double(duck.gain(at: 60_000)) - pow(10, -12.0 / 20)) < 1e-6)
        #expect(abs(20 * log10(Double(duck.gain(at: 42_000))) + 6) < 0.01)
        // Monotonic down the ramp: no step.
        let ramp = (36_000..<48_000).map { duck.weight(at: $0) }
        #expect(zip(ramp, ramp.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(duck.isFlat(over: 0..<36_000) && !duck.isFlat(over: 0..<36_001) && duck.isFlat(over: 108_000..<200_000))
    }

    @Test("clips less than two ramps apart are one duck; farther apart, two; a duck of 0 dB is none")
    func merging() {
        let close = DuckEnvelope(clips: [96_000..<120_000, 0..<48_000, 60_000..<70_000], depthDecibels: -12, rampFrames: 12_000)
        // 12 000 frames apart (under two ramps): the music stays down; 26 000 apart: it comes up between.
        #expect(close.spans == [0..<70_000, 96_000..<120_000])
        #expect(close.weight(at: 54_000) == 1 && close.weight(at: 83_000) == 0)
        let adjacent = DuckEnvelope(clips: [0..<48_000, 48_000..<60_000, 59_000..<80_000, 80_000 + 23_999..<110_000],
                                    depthDecibels: -12, rampFrames: 12_000)
        #expect(adjacent.spans == [0..<110_000])
        #expect((0..<110_000).allSatisfy { adjacent.weight(at: $0) == 1 })
        let apart = DuckEnvelope(clips: [0..<48_000, 72_000..<80_000], depthDecibels: -12, rampFrames: 12_000)
        #expect(apart.spans.count == 2 && apart.weight(at: 60_000) < 1e-6)
        #expect(DuckEnvelope(clips: [0..<48_000], depthDecibels: 0, rampFrames: 12_000).spans.isEmpty)
        #expect(DuckEnvelope(clips: [0..<48_000], depthDecibels: 0, rampFrames: 12_000).isFlat(over: 0..<48_000))
    }

    @Test("the soft limit: unchanged up to -1 dBFS, never past -0.1 dBFS above, continuous and rising")
    func softLimit() {
        let knee = SoftLimit.knee
        #expect(abs(20 * log10(Double(knee)) + 1) < 1e-6)
        for x in stride(from: Float(-0.891), through: 0.891, by: 0.001) { #expect(SoftLimit.apply(x) == x) }
        var previous = SoftLimit.apply(knee)
        for x in stride(from: knee, through: 100, by: 0.01) {
            let y = SoftLimit.apply(x)
            #expect(y <= SoftLimit.ceiling && y >= previous && SoftLimit.apply(-x) == -y)
            previous = y
        }
        // The slope at the knee is 1: no corner.
        #expect(abs((SoftLimit.apply(knee + 1e-3) - SoftLimit.apply(knee)) / 1e-3 - 1) < 0.02)
    }

    @Test("clips louder than full scale over loud music: the mix stays under full scale; without clips the music passes untouched")
    func mixNeverClips() throws {
        guard let path = clip("mp4_h264_rot90ccw_aac_720p_5s.mp4"), let song = media("flac_stereo_music.flac") else {
            return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe }
        }
        let frames = 96_000
        let music = Soundtrack(path: song, fadeOut: 0)
        let loud = ClipSound(source: ClipSource(path: path), start: MediaTime(value: 0, timescale: 30), inPoint: MediaTime(value: 1, timescale: 1),
                             duration: MediaTime(value: 2, timescale: 1), levelDecibels: 20)
        let mix = SoundMix(music: try SoundtrackStream(soundtrack: music, totalFrames: frames), clips: [loud],
                           settings: ClipSoundSettings(duckDecibels: 0), totalFrames: frames)
        let unlimited = SoundMix(music: try SoundtrackStream(soundtrack: music, totalFrames: frames), clips: [loud],
                                 settings: ClipSoundSettings(duckDecibels: 0), totalFrames: frames, limits: false)
        var peak: Float = 0, unlimitedPeak: Float = 0, count = 0
        while let chunk = try mix.next(maxFrames: 4096), let raw = try unlimited.next(maxFrames: 4096) {
            peak = max(peak, chunk.map(abs).max() ?? 0)
            unlimitedPeak = max(unlimitedPeak, raw.map(abs).max() ?? 0)
            count += chunk.count / 2
            for (a, b) in zip(chunk, raw) where abs(b) <= SoftLimit.knee { #expect(a == b) }
        }
        #expect(count == frames)
        #expect(unlimitedPeak > 1.1, "the test's mix should go past full scale: \(unlimitedPeak)")
        #expect(peak <= SoftLimit.ceiling && peak > SoftLimit.knee)
        // Music alone through the mix (no clips): exactly the music's stream.
        let alone = SoundMix(music: try SoundtrackStream(soundtrack: music, totalFrames: frames), clips: [],
                             settings: ClipSoundSettings(), totalFrames: frames, limits: false)
        let stream = try SoundtrackStream(soundtrack: music, totalFrames: frames)
        while let a = try alone.next(maxFrames: 4096) { #expect(a == (try stream.next(maxFrames: 4096))) }
    }

    @Test("each clip's file is open only while the mix is in its time, and its sound lasts exactly its frames")
    func readersOpenAroundTheirTime() throws {
        guard let path = clip(talkingClip) else { return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe } }
        let frames = 4 * 48_000
        let clips = [ClipSound(source: ClipSource(path: path), start: MediaTime(value: 15, timescale: 30), inPoint: MediaTime(value: 1, timescale: 2),
                               duration: MediaTime(value: 30, timescale: 30)),
                     ClipSound(source: ClipSource(path: path), start: MediaTime(value: 75, timescale: 30), inPoint: MediaTime(value: 1, timescale: 1),
                               duration: MediaTime(value: 15, timescale: 30))]
        let mix = SoundMix(music: nil, clips: clips, settings: ClipSoundSettings(), totalFrames: frames)
        var open: [Int: Int] = [:], sound: [Float] = []
        while let chunk = try mix.next(maxFrames: 2400) {
            open[mix.produced - 2400] = mix.openClips
            sound += chunk
        }
        #expect(sound.count == 2 * frames)
        #expect(open[0] == 0 && open[21_600] == 0)                      // before the first clip (0.5 s)
        #expect(open[24_000] == 1 && open[67_200] == 1)                 // during it (0.5–1.5 s), closed after its last chunk
        #expect(open[72_000] == 0 && open[117_600] == 0)                // between (1.5–2.5 s)
        #expect(open[69_600] == 0 && open[120_000] == 1 && open[139_200] == 1 && open[141_600] == 0)
        #expect(open[144_000] == 0 && open[189_600] == 0)               // after (3 s on)
        // Sound exactly where the clips are (in the left channel), silence elsewhere.
        let mono = left(sound)
        #expect(mono[0..<24_000].allSatisfy { $0 == 0 } && mono[72_000..<120_000].allSatisfy { $0 == 0 } && mono[144_000...].allSatisfy { $0 == 0 })
        #expect(rms(mono, 24_000..<72_000) > 0.005 && rms(mono, 120_000..<144_000) > 0.005)
        #expect(mix.warnings.isEmpty)
    }

    @Test("a clip whose sound cannot be read leaves its time silent with a warning, and the show goes on")
    func unreadableClip() throws {
        let frames = 48_000
        let gone = ClipSound(source: ClipSource(path: "/nonexistent/clip.mov"), start: .zero, inPoint: .zero, duration: MediaTime(value: 1, timescale: 2))
        let mix = SoundMix(music: nil, clips: [gone], settings: ClipSoundSettings(), totalFrames: frames)
        var sound: [Float] = []
        while let chunk = try mix.next(maxFrames: 4096) { sound += chunk }
        #expect(sound.count == 2 * frames && sound.allSatisfy { $0 == 0 })
        #expect(mix.warnings.count == 1 && mix.warnings[0].kind == .clip && mix.warnings[0].path == "/nonexistent/clip.mov"
                && mix.warnings[0].message.hasPrefix("/nonexistent/clip.mov: "), "\(mix.warnings)")
    }
}
