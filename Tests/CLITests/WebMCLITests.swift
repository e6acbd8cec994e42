import Foundation
import Testing
import TestSupport

@Suite("slideshow make -o x.webm: VP9 (or AV1) with Opus; a codec WebM cannot carry is a usage error", needsBuiltTool)
struct WebMCLITests {
    @Test(".webm without --codec is VP9 in WebM; --codec av1 is AV1 in WebM", arguments: [nil, "av1"])
    func written(_ codec: String?) throws {
        let folder = try TemporaryFolder()
        let output = folder.path("out.webm")
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--duration", "1", "--quiet", "-o", output]
                                   + (codec.map { ["--codec", $0] } ?? []), timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try run(which("ffprobe")!, ["-v", "error", "-show_entries", "format=format_name:stream=codec_name", "-of", "csv=p=0", output])
        #expect(probe.stdoutText.contains("matroska,webm"), "\(probe.stdoutText)")
        #expect(probe.stdoutText.contains(codec ?? "vp9"), "\(probe.stdoutText)")
    }

    @Test("--codec h264 or hevc with .webm, vp9 with .mp4: status 64, one line naming --codec; nothing written",
          arguments: [("h264", "out.webm"), ("hevc", "out.webm"), ("vp9", "out.mp4")])
    func refused(_ codec: String, _ name: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--codec", codec, "-o", folder.path(name)], timeout: 60)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--codec: \(codec) is not written in"), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }
}

/// Issue 34: "Chromium plays the WebM (VP9 and AV1) and MP4 (AV1) outputs, seeking to the middle of
/// each photo shows that photo", through `.ci/chromium-seek` (headless Chromium, one launch).
@Suite("Chromium plays and seeks VP9 and AV1 outputs",
       .enabled(if: which("chromium") != nil && which("python3") != nil && which("ffmpeg") != nil, "skipped: no chromium, python3 or ffmpeg"),
       needsBuiltTool)
struct ChromiumPlaybackTests {
    @Test("VP9 in WebM, AV1 in WebM (cuts) and AV1 in MP4 (fades: libaom's good-mode stretches): the middle of each photo is that photo's colour")
    func seeks() throws {
        let folder = try TemporaryFolder()
        let colours = [("red", "ff0000", [255, 0, 0]), ("green", "00ff00", [0, 255, 0]), ("blue", "0000ff", [0, 0, 255])]
        var photos: [String] = []
        for (name, hex, _) in colours {
            let photo = folder.path("\(name).jpg")
            let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-f", "lavfi", "-i", "color=c=0x\(hex):s=320x240", "-frames:v", "1", photo])
            #expect(made.status == 0, "\(made.stderr)")
            photos.append(photo)
        }
        let shows = [("vp9.webm", ["--codec", "vp9"]), ("av1.webm", ["--codec", "av1"]),
                     ("av1.mp4", ["--codec", "av1", "--transition", "fade", "--transition-duration", "0.3"])]
        for (name, options) in shows {
            let result = try slideshow(["make"] + photos + ["--size", "160x120", "--duration", "3", "--quiet", "-o", folder.path(name)] + options, timeout: 300)
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
        let script = TestEnvironment.packageRoot.appendingPathComponent(".ci/chromium-seek").path
        let seek = try run(script, shows.map { folder.path($0.0) }, timeout: 180)
        #expect(seek.status == 0, "\(seek.stdoutText) \(seek.stderr)")
        let lines = seek.stdoutText.split(separator: "\n")
        #expect(lines.count == 3)
        for (line, show) in zip(lines, shows) {
            // `path 160x120 3.000 0.5:R,G,B 1.5:R,G,B 2.5:R,G,B`
            let fields = line.split(separator: " ")
            #expect(fields.count == 6 && fields[1] == "160x120" && fields[2] == "3.000", "\(show.0): \(line)")
            guard fields.count == 6 else { continue }
            for (seek, colour) in zip(fields[3...], colours) {
                let mean = seek.split(separator: ":")[1].split(separator: ",").compactMap { Int($0) }
                #expect(mean.count == 3 && zip(mean, colour.2).allSatisfy { abs($0 - $1) <= 16 }, "\(show.0) at \(seek): \(colour.0) expected")
            }
        }
    }
}
