import Foundation
import Testing
import TestSupport

@Suite("slideshow make --audio: bad audio is refused before any video is encoded", needsBuiltTool)
struct BadAudioTests {
    /// A bad audio file and the reason the tool must give.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var make: @Sendable (TemporaryFolder) throws -> String?
        var reason: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "missing", make: { $0.path("nothere.mp3") }, reason: "no such audio file"),
        Case(name: "zero-length", make: { folder in
            #expect(FileManager.default.createFile(atPath: folder.path("empty.mp3"), contents: Data()))
            return folder.path("empty.mp3")
        }, reason: "the audio file is empty (0 bytes)"),
        Case(name: "a folder", make: { folder in
            try FileManager.default.createDirectory(atPath: folder.path("songs.mp3"), withIntermediateDirectories: false)
            return folder.path("songs.mp3")
        }, reason: "is a folder, not an audio file"),
        Case(name: "a FIFO", make: { folder in
            #expect(mkfifo(folder.path("stream.mp3"), 0o644) == 0)
            return folder.path("stream.mp3")
        }, reason: "is not a regular file"),
        Case(name: "a device", make: { _ in "/dev/zero" }, reason: "is not a regular file"),
        Case(name: "text", make: { folder in
            #expect(FileManager.default.createFile(atPath: folder.path("notes.txt"), contents: Data("hello, not music\n".utf8)))
            return folder.path("notes.txt")
        }, reason: "not an audio file FFmpeg can read, or a damaged one (Invalid data found when processing input)"),
        Case(name: "a WAV whose header says 1 Hz (a sample-rate bomb: 4.7 GB)", make: { folder in
            try Data(SyntheticWAV.silence(frames: 220_500, rate: 1)).write(to: URL(fileURLWithPath: folder.path("bomb.wav")))
            return folder.path("bomb.wav")
        }, reason: "its sample rate of 1 Hz is outside 4000–768000 Hz, the rates sound is taken at"),
        Case(name: "a WAV whose header says 2 MHz", make: { folder in
            try Data(SyntheticWAV.silence(frames: 4_800, rate: 2_000_000)).write(to: URL(fileURLWithPath: folder.path("fast.wav")))
            return folder.path("fast.wav")
        }, reason: "its sample rate of 2000000 Hz is outside 4000–768000 Hz, the rates sound is taken at"),
        Case(name: "a photo: no audio stream", make: { _ in TestEnvironment.sample("square.jpg") }, reason: "has no audio stream"),
        Case(name: "damaged FLAC (no STREAMINFO)", make: { _ in media("flac_damaged_missing_streaminfo.flac") },
             reason: "not an audio file FFmpeg can read, or a damaged one (Invalid data found when processing input)"),
        Case(name: "truncated MP3", make: { _ in media("mp3_truncated_too_short.mp3") },
             reason: "not an audio file FFmpeg can read, or a damaged one (Invalid argument)"),
    ]

    @Test("refused with one line naming the file and the reason, status 1, nothing written", arguments: cases)
    func refused(bad: Case) throws {
        let folder = try TemporaryFolder()
        guard let audio = try bad.make(folder) else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let before = folder.contents()
        let output = folder.path("show.mp4")
        // A long show at a large size: had the video started, it would take seconds, not these milliseconds.
        let started = Date()
        let result = try slideshow(["make"] + photos + ["--duration", "600", "--audio", audio, "-o", output])
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(audio): \(bad.reason)\n")
        #expect(folder.contents() == before, "no output, no temporary file")
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test("audio settings out of range, or without --audio: usage errors (64)", arguments: [[String]]([
        ["--audio-start", "-1"], ["--audio-fade-in", "-2"], ["--audio-fade-out", "nan"], ["--audio-bitrate", "fast"],
        ["--audio-bitrate", "8k"], ["--loudness", "0"], ["--loudness", "-16", "--no-audio"], ["--duration", "soon"],
    ]))
    func usage(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let audio = media("wav_short_0.97s_mono.wav") ?? "music.wav"
        let withAudio = arguments.contains("--no-audio") ? [] : ["--audio", audio]
        let result = try slideshow(["make"] + photos + arguments.filter { $0 != "--no-audio" } + withAudio + ["-o", folder.path("out.mp4")])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("--duration audio without --audio is a usage error")
    func durationAudioNeedsAudio() throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make"] + photos + ["--duration", "audio", "-o", folder.path("out.mp4")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--duration: a duration of 'audio' needs an audio file"), "\(result.stderr)")
    }

    @Test("damage inside the stream is skipped like players skip it, with a warning; the track keeps its length")
    func damagedInside() throws {
        guard let original = media("mp3_vbr_xing_stereo.mp3") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        // A copy with 6000 bytes of noise a sixth of the way in (a corrupt stretch of frames).
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        var noise: UInt32 = 12345
        for index in 50_000..<56_000 {
            noise = noise &* 1_103_515_245 &+ 12345
            bytes[index] = UInt8(truncatingIfNeeded: noise >> 16)
        }
        let audio = folder.path("damaged.mp3")
        try Data(bytes).write(to: URL(fileURLWithPath: audio))
        let output = folder.path("show.mp4")
        let result = try render(["--duration", "3", "--audio", audio, "--quiet"], to: output)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("slideshow: warning: \(audio): skipped ") == true)
        #expect(lines.first?.hasSuffix("damaged audio packets") == true || lines.first?.hasSuffix("damaged audio packet") == true)
        #expect(abs(try probeDuration(output, stream: "a:0") - 3) <= 1024.0 / 48000)
    }

    @Test("a photo that fails while the show renders stops the sound too: status 1, one line, nothing left")
    func photoFailsMidRender() throws {
        guard let audio = media("flac_stereo_music.flac"),
              let broken = TestEnvironment.sharedPhoto("malformed_bad_huffman_table.jpg") else {
            return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe }
        }
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", photos[0], broken, photos[1], "--size", "160x120", "--duration", "20",
                                    "--audio", audio, "-o", folder.path("show.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(broken): corrupt JPEG data (Bogus Huffman table definition)\n")
        #expect(folder.contents().isEmpty)
    }

    @Test("--audio-start past the music's end is refused before encoding")
    func startPastEnd() throws {
        guard let audio = media("wav_short_0.97s_mono.wav") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let result = try slideshow(["make"] + photos + ["--audio", audio, "--audio-start", "5", "-o", folder.path("out.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(audio): the audio start 5 s is past the music's end (0.970 s)\n")
        #expect(folder.contents().isEmpty)
    }
}

@Suite("slideshow make --audio: music too short, and a loudness the true peak stops short", needsBuiltTool)
struct ShortMusicAndLoudnessTests {
    @Test("1 ms of music over a 60-s show is refused at once with one line, status 1, nothing written")
    func oneMillisecond() throws {
        let folder = try TemporaryFolder()
        var wav: [UInt8] = Array("RIFF".utf8) + [132, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0]
        wav += [0x80, 0xBB, 0, 0, 0, 0x77, 1, 0, 2, 0, 16, 0] + Array("data".utf8) + [96, 0, 0, 0]
        wav += (0..<48).flatMap { i -> [UInt8] in let v = UInt16(bitPattern: Int16(i % 2 == 0 ? 8000 : -8000)); return [UInt8(v & 0xFF), UInt8(v >> 8)] }
        #expect(FileManager.default.createFile(atPath: folder.path("blip.wav"), contents: Data(wav)))
        let started = ContinuousClock.now
        let result = try slideshow(["make"] + photos + ["--duration", "60", "--audio", folder.path("blip.wav"), "--loudness", "-16",
                                                        "-o", folder.path("out.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(folder.path("blip.wav")): the music lasts 0.001 s after its start; it must last at least 0.1 s\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.mp4")))
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("--loudness that the true-peak ceiling stops short warns with the figure reached, without --json",
          .enabled(if: media("ogg_vorbis_stereo.ogg") != nil, noSharedMedia))
    func loudnessShortfall() throws {
        let folder = try TemporaryFolder()
        let result = try render(["--duration", "audio", "--audio", media("ogg_vorbis_stereo.ogg")!, "--loudness", "-5", "--quiet"],
                                to: folder.path("loud.mp4"))
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("slideshow: warning: the music reaches -") }
        #expect(warnings.count == 1, "\(result.stderr)")
        #expect(warnings.first?.contains("LUFS, not the -5 LUFS asked for: its true peak after AAC encoding may not exceed -1 dBTP") == true)
    }

    /// ffmpeg's ebur128 filter on a file's sound: integrated loudness (LUFS) and true peak (dBTP).
    static func ebur128(_ path: String) throws -> (loudness: Double, truePeak: Double) {
        let result = try run(which("ffmpeg")!, ["-nostats", "-hide_banner", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"])
        let summary = result.stderr.components(separatedBy: "Summary:").last ?? ""
        func value(after label: String) -> Double? {
            guard let range = summary.range(of: label) else { return nil }
            return Double(summary[range.upperBound...].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return (value(after: "I:") ?? .nan, value(after: "Peak:") ?? .nan)
    }

    @Test("with --loudness the true peak is at most -1 dBTP in the file, by ffmpeg's ebur128 after AAC decoding (it was +0.3)",
          .enabled(if: media("ogg_vorbis_stereo.ogg") != nil && which("ffmpeg") != nil, noSharedMedia),
          arguments: ["-9", "-16", "-5"])
    func truePeakInTheFile(_ loudness: String) throws {
        let folder = try TemporaryFolder()
        try render(["--duration", "audio", "--audio", media("ogg_vorbis_stereo.ogg")!, "--loudness", loudness, "--quiet"],
                   to: folder.path("loud.mp4"))
        let measured = try Self.ebur128(folder.path("loud.mp4"))
        #expect(measured.truePeak <= -1.0, "\(measured)")
        // Where the peak allows it, the loudness asked for is reached.
        if loudness == "-16" { #expect(abs(measured.loudness + 16) <= 0.3, "\(measured)") }
    }
}
