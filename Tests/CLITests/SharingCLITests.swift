import Foundation
import Testing
import TestSupport

/// `--for <platform>` and `--draft` on the command line and in a manifest (issue 34).
@Suite("slideshow: --for and --draft", needsBuiltTool)
struct SharingCLITests {
    @Test("--for reels --draft: 540x960 at 30 fps, the summary line and the JSON report say draft")
    func draft() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("reel.mp4")
        let result = try slideshow(["make"] + samplePhotos + ["--for", "reels", "--draft", "--duration", "1", "--caption", "One",
                                                               "--caption", "", "--caption", "Three", "--title-card", "Trip", "--title-card-duration", "0.3", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("\(output): draft, 30 frames, 1.000 s, 540x960 at 30 fps, "), "\(result.stderr)")
        // Held frames stay free in a draft: the writer's skip slices, a few bytes each.
        let ffprobe = try #require(which("ffprobe"))
        let packets = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", output])
        let sizes = String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(sizes.count == 30)
        #expect(sizes.filter { $0 <= 100 }.count >= 30 - 4, "\(sizes)")   // the card and 3 photos' first frames are pictures
        let json = try slideshow(["make", samplePhotos[0], "--for", "youtube", "--draft", "--duration", "0.5", "--json", "--overwrite", "-o", output])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(report["draft"] as? Bool == true && report["size"] as? String == "960x540" && report["frames"] as? Int == 15)
        // Not a draft: no key.
        let final = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--duration", "0.2", "--json", "--overwrite", "-o", output])
        #expect(final.status == 0 && !final.stdoutText.contains("draft"), "\(final.stdoutText)")
    }

    @Test("a show longer than the platform takes is a usage error naming the limit; a size given wins")
    func limit() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("story.mp4")
        let result = try slideshow(["make", samplePhotos[0], "--for", "story", "--duration", "75", "-o", output])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--for: the show lasts 75.0 s; story takes at most 60 s: make it shorter"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let given = try slideshow(["make", samplePhotos[0], "--for", "story", "--size", "96x64", "--fps", "10", "--duration", "0.5", "-o", output])
        #expect(given.status == 0 && given.stderr.contains(": 5 frames, 0.500 s, 96x64 at 10 fps, "), "\(given.stderr)")
        let unknown = try slideshow(["make", samplePhotos[0], "--for", "myspace", "-o", output])
        #expect(unknown.status == 64)
    }

    @Test("a manifest's jobs take for and draft each")
    func manifest() throws {
        let folder = try TemporaryFolder()
        let manifest = folder.path("jobs.json")
        func job(_ output: String, _ extra: String) -> String {
            #"{"photos": ["\#(samplePhotos[0])"], "output": "\#(folder.path(output))", "duration": 0.5\#(extra)}"#
        }
        let jobs = [job("a.mp4", #", "for": "tiktok", "draft": true"#), job("b.mp4", #", "for": "square", "size": "64x64", "draft": true"#),
                    job("c.mp4", #", "for": "story", "duration": 61"#).replacingOccurrences(of: #""duration": 0.5, "#, with: "")]
        try Data(("[" + jobs.joined(separator: ",\n") + "]").utf8).write(to: URL(fileURLWithPath: manifest))
        let result = try slideshow(["batch", manifest])
        let lines = result.stdoutText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let byIndex = Dictionary(uniqueKeysWithValues: lines.map { ($0["index"] as! Int, $0) })
        #expect(byIndex[0]?["status"] as? String == "ok" && byIndex[0]?["draft"] as? Bool == true && byIndex[0]?["frames"] as? Int == 15, "\(result.stdoutText) \(result.stderr)")
        #expect(byIndex[1]?["status"] as? String == "ok" && byIndex[1]?["draft"] as? Bool == true)
        #expect(byIndex[2]?["status"] as? String == "failed" && (byIndex[2]?["error"] as? String)?.contains("story takes at most 60 s") == true,
                "\(result.stdoutText) \(result.stderr)")
        let probe = try ProbedVideo(path: folder.path("a.mp4"))
        #expect(probe.stream["width"] == "540" && probe.stream["height"] == "960")
        let square = try ProbedVideo(path: folder.path("b.mp4"))
        #expect(square.stream["width"] == "32" && square.stream["height"] == "32")
    }
}
