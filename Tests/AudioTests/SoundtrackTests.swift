import Foundation
import Testing
import TestSupport

@Suite("slideshow make --audio: the sound track, checked with ffprobe and ffmpeg", needsBuiltTool)
struct SoundtrackTests {
    /// Each playable format of ../shared/media, with a show of 2 s (short files loop).
    static let formats = [
        "mp3_cbr_128k_stereo.mp3", "mp3_vbr_xing_stereo.mp3", "mp3_id3v2_cover_art.mp3", "m4a_aac_lc_stereo.m4a",
        "m4a_alac_stereo.m4a", "flac_stereo_music.flac", "flac_5.1_6ch.flac", "flac_22050hz_stereo.flac",
        "wav_s16_44k_stereo_music.wav", "wav_short_0.97s_mono.wav", "ogg_vorbis_stereo.ogg", "opus_stereo.opus",
    ]

    @Test("every format plays: AAC-LC, 48 kHz, stereo, as long as the video to within one AAC frame", arguments: formats)
    func format(name: String) throws {
        guard let audio = media(name) else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        try render(["--duration", "2", "--audio", audio], to: output)
        let stream = try probeAudio(output)
        #expect(stream["codec_name"] == "aac")
        #expect(stream["profile"] == "LC")
        #expect(stream["sample_rate"] == "48000")
        #expect(stream["channels"] == "2")
        #expect(stream["start_time"] == "0.000000")
        let duration = try probeDuration(output, stream: "a:0")
        #expect(abs(duration - 2) <= 1024.0 / 48000, "audio lasts \(duration) s")
        #expect(try probeDuration(output, stream: "v:0") == 2)
        let decoded = try decodeAudio(output).count / 2
        #expect(abs(decoded - 96_000) < 1024, "\(decoded) samples decoded")
        // The level of the source (before the fade-out, over its first second at most); the
        // ALAC file is silence itself.
        if name != "m4a_alac_stereo.m4a" {
            let source = left(try decodeAudio(audio, seconds: 1.1)), out = left(try decodeAudio(output))
            let span = 0..<min(source.count - 1024, 48_000)
            #expect(abs(rms(out, span) - rms(source, span)) < 0.2 * rms(source, span) + 1e-3,
                    "level \(rms(out, span)), the source's \(rms(source, span))")
        }
        #expect(folder.contents() == ["show.mp4"])
    }

    @Test("the first sample plays at t = 0: the output's start matches the source's resampled start",
          arguments: ["mp3_vbr_xing_stereo.mp3", "m4a_aac_lc_stereo.m4a", "flac_stereo_music.flac", "opus_stereo.opus",
                      "wav_s16_44k_stereo_music.wav", "flac_22050hz_stereo.flac", "flac_5.1_6ch.flac"])
    func startsAtZero(name: String) throws {
        guard let audio = media(name) else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        try render(["--duration", "1", "--audio", audio], to: output)
        let out = left(try decodeAudio(output)), source = left(try decodeAudio(audio, seconds: 1))
        // From the first audible sample (some files open with near-silence), the same samples at the same indices.
        let first = try #require(source.firstIndex { abs($0) > 0.01 })
        #expect(first < 24_000)
        let match = bestLag(output: out, source: source, outputStart: first, sourceStart: first, window: 16_384)
        #expect(match.lag == 0, "best match \(match.lag) samples off (correlation \(match.correlation))")
        #expect(match.correlation > 0.95)
    }

    @Test("--audio-start: the sound starts that far into the music")
    func audioStart() throws {
        guard let audio = media("flac_stereo_music.flac") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        try render(["--duration", "1", "--audio", audio, "--audio-start", "2.5"], to: output)
        let out = left(try decodeAudio(output)), source = left(try decodeAudio(audio, seconds: 3))
        let match = bestLag(output: out, source: source, sourceStart: 120_000, window: 16_384)
        #expect(match.lag == 0 && match.correlation > 0.95, "\(match)")
        // Not the start of the music.
        #expect(bestLag(output: out, source: source, window: 16_384).correlation < 0.5)
    }

    @Test("music shorter than the show loops with a 100 ms crossfade: no click at the seam; --no-audio-loop leaves silence")
    func loopSeam() throws {
        guard let audio = media("wav_s16_44k_stereo_music.wav") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let looped = folder.path("looped.mp4"), once = folder.path("once.mp4")
        // From 9.5 s into the 10.14 s piece: 0.64 s of music, cut mid-phrase at both ends.
        let options = ["--duration", "1.5", "--audio", audio, "--audio-start", "9.5", "--audio-fade-out", "0"]
        try render(options, to: looped)
        try render(options + ["--no-audio-loop"], to: once)
        let whole = left(try decodeAudio(audio))
        let source = Array(whole[456_000...])
        let pass = source.count, crossfade = 4800
        let out = left(try decodeAudio(looped)), silent = left(try decodeAudio(once))
        // The first pass is the music; the second starts where the crossfade ends, the music's start mixed in.
        #expect(bestLag(output: out, source: source, window: 8192, range: 50).lag == 0)
        let seam = pass - crossfade
        let second = bestLag(output: out, source: source, outputStart: pass, sourceStart: crossfade, window: 8192, range: 50)
        #expect(second.lag == 0 && second.correlation > 0.9, "\(second)")
        // No click: across the seam no jump between neighbouring samples is larger than the
        // largest within the music's own pass (plus a margin for the AAC coding), while a
        // hard cut from its end to its start would be.
        let ownJump = largestJump(source, 1..<pass)
        let seamJump = largestJump(out, (seam - 480)..<(pass + 480))
        let hardCut = abs(source[0] - source[pass - 1])
        #expect(seamJump <= ownJump * 1.1, "seam jump \(seamJump), the music's own largest \(ownJump)")
        #expect(hardCut > ownJump * 1.1, "the test can fail: a hard cut jumps \(hardCut)")
        // Without looping: the music once, then silence.
        #expect(rms(silent, (pass + 2048)..<(pass + 20_000)) < 1e-4)
        #expect(rms(silent, 0..<pass) > 0.01)
    }

    @Test("fades shape the envelope: linear from 0 over the fade-in, to 0 at the end over the fade-out")
    func fades() throws {
        guard let audio = media("wav_s16_44k_stereo_music.wav") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let faded = folder.path("faded.mp4"), plain = folder.path("plain.mp4")
        try render(["--duration", "3", "--audio", audio, "--audio-fade-in", "1", "--audio-fade-out", "1"], to: faded)
        try render(["--duration", "3", "--audio", audio, "--audio-fade-out", "0"], to: plain)
        let a = left(try decodeAudio(faded)), b = left(try decodeAudio(plain))
        // The gain in 50 ms windows: the faded sound over the plain one, by least squares.
        func gain(at seconds: Double) -> Double {
            let start = Int(seconds * 48_000) - 1200
            var dot = 0.0, norm = 0.0
            for index in start..<(start + 2400) { dot += Double(a[index]) * Double(b[index]); norm += Double(b[index]) * Double(b[index]) }
            return dot / max(norm, 1e-12)
        }
        for (time, expected) in [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75), (1.5, 1.0), (2.25, 0.75), (2.5, 0.5), (2.75, 0.25)] {
            #expect(abs(gain(at: time) - expected) < 0.05, "gain at \(time) s is \(gain(at: time)), not \(expected)")
        }
        // The plain one is cut at full level; the faded one ends near silence.
        #expect(rms(a, 143_000..<144_000) < 0.02 * rms(b, 143_000..<144_000) + 1e-4)
    }

    @Test("--duration audio: the show lasts as long as the music after --audio-start")
    func durationAudio() throws {
        guard let audio = media("wav_short_0.97s_mono.wav") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        let result = try render(["--duration", "audio", "--audio", audio, "--json"], to: output)
        // 0.969819 s at 30 fps: 29 frames.
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(report["frames"] as? Int == 29)
        #expect(abs(try probeDuration(output, stream: "v:0") - 29.0 / 30) < 1e-6)
        #expect(abs(try probeDuration(output, stream: "a:0") - 29.0 / 30) <= 1024.0 / 48000)
        let started = folder.path("started.mp4")
        let later = try render(["--duration", "audio", "--audio", audio, "--audio-start", "0.5", "--json"], to: started)
        let laterReport = try #require(try JSONSerialization.jsonObject(with: later.stdout) as? [String: Any])
        #expect(laterReport["frames"] as? Int == 14)  // 0.469819 s
    }

    @Test("--loudness: the output measures the target within 0.5 LU (ffmpeg's ebur128 filter); the report says both",
          arguments: [-23.0, -16.0])
    func loudness(target: Double) throws {
        guard let audio = media("flac_stereo_music.flac") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        let result = try render(["--duration", "3", "--audio", audio, "--loudness", String(target), "--json"], to: output)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let measured = try #require(report["measuredLoudness"] as? Double)
        let final = try #require(report["finalLoudness"] as? Double)
        #expect(final == target, "the true peak did not limit this one")
        #expect(measured != target)
        let ffmpeg = try #require(which("ffmpeg"))
        let probe = try run(ffmpeg, ["-nostats", "-i", output, "-map", "0:a", "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = probe.stderr.components(separatedBy: "Summary:").last ?? ""
        let line = try #require(summary.split(separator: "\n").first { $0.contains("I:") && $0.contains("LUFS") })
        let value = try #require(Double(line.split(separator: " ").dropFirst().first { Double($0) != nil } ?? ""))
        #expect(abs(value - target) <= 0.5, "ffmpeg measures \(value) LUFS")
        let peakLine = try #require(summary.split(separator: "\n").first { $0.contains("Peak:") && $0.contains("dBFS") })
        let peak = try #require(Double(peakLine.split(separator: " ").dropFirst().first { Double($0) != nil } ?? ""))
        #expect(peak <= -0.5, "true peak \(peak) dBTP")
    }

    @Test("without --loudness the report has no loudness; the same command gives the same bytes")
    func deterministic() throws {
        guard let audio = media("mp3_vbr_xing_stereo.mp3") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let first = folder.path("a.mp4"), second = folder.path("b.mp4")
        let result = try render(["--duration", "1.5", "--audio", audio, "--json"], to: first)
        try render(["--duration", "1.5", "--audio", audio], to: second)
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(report["measuredLoudness"] == nil && report["finalLoudness"] == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
        // Photos held longer than FFmpeg's default interleaving window (10 s): the layout still
        // depends on the packets alone, not on when the sound and the pictures reached the muxer.
        let long = ["--duration", "24", "--audio", audio, "--size", "160x120"]
        let third = folder.path("c.mp4"), fourth = folder.path("d.mp4")
        try render(long, to: third)
        try render(long, to: fourth)
        #expect(try Data(contentsOf: URL(fileURLWithPath: third)) == Data(contentsOf: URL(fileURLWithPath: fourth)))
        #expect(abs(try probeDuration(third, stream: "a:0") - 24) <= 1024.0 / 48000)
        // moov before mdat, as without sound.
        let head = String(decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: first)).readData(ofLength: 64), as: UTF8.self)
        #expect(head.contains("moov") && !head.contains("mdat"))
    }
}
