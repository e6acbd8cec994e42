import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio
import SlideshowFFmpeg
import SlideshowPixels

/// The clips' own sound in the output, through the library: a photo-only show validated, its
/// ``PreparedSlideshow/clipSounds`` laid in as validation lays them for clips, rendered, and
/// the output's audio decoded by the ffmpeg tool (the independent reader).
@Suite("clip sound: mixed with the music, the music ducked under it, checked with ffmpeg")
struct ClipSoundMixTests {
    @Test("a clip's sound without music: at its exact sample, silence elsewhere, the track exactly the show's length")
    func clipAlone() async throws {
        guard let path = clip(talkingClip) else { return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        // From 0.5 s into the clip, at 1 s of a 4 s show, for 2 s.
        let prepared = try await clipShow(seconds: 4, output: output, clips: [clipSound(path, start: 1, inPoint: 0.5, duration: 2)])
        _ = try await prepared.render()
        let stream = try probeAudio(output)
        #expect(stream["codec_name"] == "aac" && stream["sample_rate"] == "48000" && stream["channels"] == "2")
        let duration = try probeDuration(output, stream: "a:0")
        #expect(abs(duration - 4) <= 1024.0 / 48000, "audio lasts \(duration) s")
        let out = left(try decodeAudio(output)), source = left(try decodeAudio(path))
        #expect(abs(out.count - 192_000) < 1024)
        // The clip's sound from its in-point lies at 1 s, to the sample.
        let match = bestLag(output: out, source: source, outputStart: 48_000 + 4800, sourceStart: 24_000 + 4800, window: 16_384, range: 480)
        #expect(match.lag == 0, "the clip's sound is \(match.lag) samples off (correlation \(match.correlation))")
        #expect(match.correlation > 0.95)
        #expect(abs(rms(out, span(1.1, 2.9)) - rms(source, span(0.6, 2.4))) < 0.1 * rms(source, span(0.6, 2.4)))
        // Silence before and after it.
        #expect(rms(out, span(0, 0.95)) < 1e-4, "before: \(rms(out, span(0, 0.95)))")
        #expect(rms(out, span(3.05, 3.95)) < 1e-4, "after: \(rms(out, span(3.05, 3.95)))")
    }

    /// Clips whose sound starts after their first frame (by the container's timestamps), with
    /// other codecs: AAC 48 kHz 21 ms late (AV1 clip), AC-3 mono 62 ms late (Matroska), PCM
    /// mono 44.1 kHz (a Live Photo's movie).
    static let synced: [(name: String, late: Double)] = [
        ("mp4_av1_main10_pq_hdr10_720x1280_aac_4s.mp4", 0.021), ("mkv_h264_ac3_1080x720_1s.mkv", 0.129 - 0.067),
        ("livephoto_iphone15pro_IMG_4394.mov", 0), (talkingClip, 0),
    ]

    @Test("the clip's sound keeps its place against its pictures: a late start by its timestamps stays late, to the sample", arguments: synced)
    func sync(name: String, late: Double) async throws {
        guard let path = clip(name) else { return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        let prepared = try await clipShow(seconds: 2, output: output, clips: [clipSound(path, start: 0.5, duration: 1)])
        _ = try await prepared.render()
        let out = left(try decodeAudio(output)), source = left(try decodeAudio(path))
        let lateFrames = Int((late * 48_000).rounded())
        // The loudest stretch of the clip's first second, found in the source.
        let window = 8192
        let best = stride(from: 0, to: 48_000 - lateFrames - window, by: 2400).max { rms(source, $0..<($0 + window)) < rms(source, $1..<($1 + window)) }!
        let match = bestLag(output: out, source: source, outputStart: 24_000 + lateFrames + best, sourceStart: best, window: window, range: 480)
        #expect(match.lag == 0, "\(name): \(match.lag) samples off (correlation \(match.correlation))")
        #expect(match.correlation > 0.9, "\(name): \(match)")
        #expect(rms(out, 0..<23_900) < 1e-4 && rms(out, 72_100..<96_000) < 1e-4, "\(name): sound outside the clip's time")
    }

    @Test("the music ducks 12 dB under a clip, with 250 ms raised-cosine ramps ending at its start and starting at its end")
    func ducking() async throws {
        guard let path = clip(talkingClip) else { return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        let music = try toneMusic(in: folder)
        // The clip plays from 1.5 s to 3.5 s of a 5 s show.
        let prepared = try await clipShow(seconds: 5, output: output, music: music, clips: [clipSound(path, start: 1.5, inPoint: 0.5, duration: 2)])
        _ = try await prepared.render()
        let out = left(try decodeAudio(output))
        let full = toneAmplitude(out, hertz: 1000, span(0.3, 1.1))
        #expect(full > 0.1, "the music's level before the clip: \(full)")
        let under = toneLevel(out, span(1.6, 3.4), reference: full)
        #expect(under <= -9, "the music under the clip: \(under) dB")
        #expect(abs(under + 12) < 0.3, "the music under the clip: \(under) dB, not -12")
        #expect(abs(toneLevel(out, span(3.9, 4.9), reference: full)) < 0.2, "after the clip")
        // The ramps: half way down at 125 ms before the clip, half way up 125 ms after it,
        // untouched 300 ms before and after.
        #expect(abs(toneLevel(out, around(1.375), reference: full) + 6) < 0.7, "ramp down's middle: \(toneLevel(out, around(1.375), reference: full))")
        #expect(abs(toneLevel(out, around(3.625), reference: full) + 6) < 0.7, "ramp up's middle: \(toneLevel(out, around(3.625), reference: full))")
        #expect(abs(toneLevel(out, around(1.2), reference: full)) < 0.3)
        #expect(abs(toneLevel(out, around(3.8), reference: full)) < 0.3)
        #expect(toneLevel(out, around(1.49), reference: full) < -11, "fully down at the clip's start")
        // The clip's sound is there over the music, at its sample: the tone taken out of both.
        let match = bestLag(output: notched(out), source: notched(left(try decodeAudio(path))),
                            outputStart: 72_000 + 4800, sourceStart: 24_000 + 4800, window: 16_384, range: 480)
        #expect(match.lag == 0 && match.correlation > 0.95, "\(match)")
    }

    @Test("--duck 0 leaves the music alone under the clip; the clip's sound is still there")
    func noDuck() async throws {
        guard let path = clip(talkingClip) else { return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        let music = try toneMusic(in: folder)
        let prepared = try await clipShow(seconds: 4, output: output, music: music, clips: [clipSound(path, start: 1, inPoint: 0.5, duration: 2)]) {
            $0.clipSound.duckDecibels = 0
        }
        _ = try await prepared.render()
        let out = left(try decodeAudio(output))
        let full = toneAmplitude(out, hertz: 1000, span(0.2, 0.9))
        #expect(abs(toneLevel(out, span(1.1, 2.9), reference: full)) < 0.3)
        let match = bestLag(output: notched(out), source: notched(left(try decodeAudio(path))),
                            outputStart: 48_000 + 4800, sourceStart: 24_000 + 4800, window: 16_384, range: 480)
        #expect(match.lag == 0 && match.correlation > 0.95, "the clip's sound over the music: \(match)")
    }

    @Test("muted clips: the music alone, not ducked, sample for sample as without the clip")
    func muted() async throws {
        guard let path = clip(talkingClip) else { return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let music = try toneMusic(in: folder)
        let plain = try await clipShow(seconds: 3, output: folder.path("plain.mp4"), music: music, clips: [])
        let mutedShow = try await clipShow(seconds: 3, output: folder.path("muted.mp4"), music: music,
                                     clips: [clipSound(path, start: 1, inPoint: 0.5, duration: 1.5)]) { $0.clipSound.muted = true }
        _ = try await plain.render()
        _ = try await mutedShow.render()
        #expect(try decodeAudio(folder.path("muted.mp4")) == decodeAudio(folder.path("plain.mp4")))
    }

    @Test("a clip's level: -6 dB gives the clip's sound at half its amplitude")
    func clipLevel() async throws {
        guard let path = clip(talkingClip) else { return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        var settings = ClipSoundSettings()
        settings.levelDecibels = -6
        let quiet = try #require(settings.sound(of: ClipSource(path: path), start: MediaTime(value: 1, timescale: 1),
                                                inPoint: MediaTime(value: 1, timescale: 2), duration: MediaTime(value: 2, timescale: 1)))
        #expect(quiet.levelDecibels == -6)
        settings.muted = true
        #expect(settings.sound(of: ClipSource(path: path), start: .zero, inPoint: .zero, duration: MediaTime(value: 1, timescale: 1)) == nil)
        let loud = try await clipShow(seconds: 4, output: folder.path("as-recorded.mp4"), clips: [clipSound(path, start: 1, inPoint: 0.5, duration: 2)])
        let lowered = try await clipShow(seconds: 4, output: folder.path("lowered.mp4"), clips: [quiet]) { $0.clipSound.levelDecibels = -6 }
        _ = try await loud.render()
        _ = try await lowered.render()
        let a = left(try decodeAudio(folder.path("as-recorded.mp4"))), b = left(try decodeAudio(folder.path("lowered.mp4")))
        let ratio = 20 * log10(rms(b, span(1.1, 2.9)) / rms(a, span(1.1, 2.9)))
        #expect(abs(ratio + 6) < 0.2, "\(ratio) dB")
    }

    @Test("--loudness measures the mix: the output's integrated loudness (ffmpeg's ebur128) is the target within 1 LU")
    func loudness() async throws {
        guard let path = clip("mp4_h264_rot90ccw_aac_720p_5s.mp4"), let song = media("flac_stereo_music.flac") else {
            return withKnownIssue(noSharedClips) { throw ProbeError.noFFprobe }
        }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        let clips = [clipSound(path, start: 0.5, inPoint: 0.4, duration: 4, level: 6)]
        let prepared = try await clipShow(seconds: 6, output: output, music: song, clips: clips) { $0.loudness = -20 }
        let result = try await prepared.render()
        let report = try #require(result.loudness)
        #expect(report.final == -20)
        let measured = try measuredLoudness(output)
        #expect(abs(measured + 20) <= 1, "the output measures \(measured) LUFS")
        // It is the mix that was measured, not the music alone.
        let musicOnly = try await clipShow(seconds: 6, output: folder.path("music.mp4"), music: song, clips: []) { $0.loudness = -20 }
        let alone = try #require(try await musicOnly.render().loudness)
        #expect(abs(alone.measured - report.measured) > 0.5, "music alone \(alone.measured), mix \(report.measured)")
    }

    @Test("a show with neither music nor clip sound has no audio track; one with music and no clips ignores the clip settings")
    func noClips() async throws {
        guard let song = media("flac_stereo_music.flac") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let silent = try await clipShow(seconds: 1, output: folder.path("silent.mp4"), clips: [])
        _ = try await silent.render()
        #expect(try audioStreamCount(folder.path("silent.mp4")) == 0)
        let plain = try await clipShow(seconds: 1.5, output: folder.path("plain.mp4"), music: song, clips: [])
        let set = try await clipShow(seconds: 1.5, output: folder.path("set.mp4"), music: song, clips: []) {
            $0.clipSound = ClipSoundSettings(muted: false, levelDecibels: 10, duckDecibels: -30, rampSeconds: 1)
        }
        _ = try await plain.render()
        _ = try await set.render()
        #expect(FileManager.default.contents(atPath: folder.path("plain.mp4")) == FileManager.default.contents(atPath: folder.path("set.mp4")))
    }
}
