import Foundation
import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio

@Suite("batch manifests: the music's fields, and the loudness in the job lines", needsBuiltTool)
struct ManifestAudioTests {
    @Test("every audio field gives the soundtrack make would; the path is relative to the manifest's folder")
    func fields() throws {
        let jobs = try BatchManifest(data: Data(#"""
            [{"photos": ["a.jpg"], "output": "a.mp4", "audio": "music/song.mp3", "audioBitrate": "128k", "audioStart": 12.5,
              "audioFadeIn": 1, "audioFadeOut": 3, "audioLoop": false, "loudness": -16},
             {"photos": ["b.jpg"], "output": "b.mp4", "audio": "/abs/song.flac", "audioBitrate": 96000, "duration": "audio"},
             {"photos": ["c.jpg"], "output": "c.mp4"}]
            """#.utf8), relativeTo: "/shows").jobs
        #expect(jobs[0].slideshow.soundtrack == Soundtrack(path: "/shows/music/song.mp3", start: 12.5, fadeIn: 1, fadeOut: 3,
                                                           loops: false, loudness: -16, bitrate: 128_000))
        #expect(jobs[0].slideshow.length == .total(seconds: 3))
        #expect(jobs[1].slideshow.soundtrack == Soundtrack(path: "/abs/song.flac", bitrate: 96_000))
        #expect(jobs[1].slideshow.length == .soundtrack)
        #expect(jobs[2].slideshow.soundtrack == nil)
    }

    @Test("bad audio fields are refused, each naming its field", arguments: [
        (#""audio": 3"#, "audio", "must be a path"),
        (#""audio": "s.mp3", "audioBitrate": "loud""#, "audioBitrate", "'loud' is not a bit rate such as 192k or 128000"),
        (#""audio": "s.mp3", "audioStart": -1"#, "audioStart", "the audio start -1.0 s must be 0 or more"),
        (#""audio": "s.mp3", "audioLoop": "no""#, "audioLoop", "must be true or false"),
        (#""loudness": -16"#, "loudness", "is only for a soundtrack: give an audio file too"),
        (#""duration": "audio""#, "duration", "a duration of 'audio' needs an audio file"),
    ])
    func refused(fields: String, field: String, reason: String) {
        expectManifestRefused(fields, field: field, reason: reason)
    }

    @Test("slideshow batch: a job with a loudness reports it; a job with bad audio fails alone")
    func batchLines() throws {
        guard let audio = media("flac_stereo_music.flac") else { return withKnownIssue(noSharedMedia) { throw ProbeError.noFFprobe } }
        let folder = try TemporaryFolder()
        let manifest = folder.path("jobs.json")
        let text = """
            [{"photos": ["\(photos[0])"], "output": "loud.mp4", "size": "320x240", "duration": 1, "audio": "\(audio)", "loudness": -20},
             {"photos": ["\(photos[1])"], "output": "bad.mp4", "size": "320x240", "duration": 1, "audio": "nothere.flac"},
             {"photos": ["\(photos[1])"], "output": "plain.mp4", "size": "320x240", "duration": 1, "audio": "\(audio)"}]
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: manifest))
        let result = try slideshow(["batch", manifest, "--jobs", "1"])
        #expect(result.status == 1)
        let lines = result.stdoutText.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.sorted { ($0["index"] as? Int ?? 0) < ($1["index"] as? Int ?? 0) }
        try #require(lines.count == 3)
        #expect(lines[0]["status"] as? String == "ok")
        #expect(lines[0]["finalLoudness"] as? Double == -20)
        #expect((lines[0]["measuredLoudness"] as? Double).map { $0 < -20.5 || $0 > -19.5 } == true)
        #expect(lines[1]["status"] as? String == "failed")
        #expect(lines[1]["error"] as? String == "\(folder.path("nothere.flac")): no such audio file")
        #expect(lines[2]["status"] as? String == "ok")
        #expect(lines[2]["finalLoudness"] == nil)
        #expect(folder.contents() == ["jobs.json", "loud.mp4", "plain.mp4"])
    }
}

/// Expects a one-job manifest with `fields` beside its photos and output to be refused with
/// exactly one error: on `field`, for `reason`.
func expectManifestRefused(_ fields: String, field: String, reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try BatchManifest(data: Data(#"[{"photos": ["a.jpg"], "output": "a.mp4", \#(fields)}]"#.utf8), relativeTo: nil)
        Issue.record("accepted \(fields)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.errors == [ManifestError(job: 0, field: field, reason: reason)], sourceLocation: sourceLocation)
    }
}
