import Foundation
import Testing
import TestSupport

@Suite("slideshow make: implausible capture dates are ignored with a warning that names the photo", needsBuiltTool)
struct CaptureDateCLITests {
    @Test("1799, 9999 and next year: a warning each, no creation time; 1903: drawn, but left out of the creation time with a warning")
    func implausibleDates() throws {
        let folder = try TemporaryFolder()
        let nextYear = Calendar(identifier: .gregorian).component(.year, from: Date()) + 1
        var paths: [String: String] = [:]
        for (name, date) in [("old", "1799:01:01 00:00:00"), ("far", "9999:12:31 23:59:59"), ("next", "\(nextYear):06:01 12:00:00"),
                             ("scan", "1903:07:01 12:00:00")] {
            let jpeg = SyntheticJPEG.grey(width: 16, height: 8, before: SyntheticJPEG.exifSegment(exifBlock(date: date)))
            paths[name] = folder.path("\(name).jpg")
            try Data(jpeg).write(to: URL(fileURLWithPath: paths[name]!))
        }
        let output = folder.path("out.mp4")
        let result = try slideshow(["make", paths["old"]!, paths["far"]!, paths["next"]!, paths["scan"]!, "--date-stamp",
                                    "--size", "320x180", "--fps", "2", "--duration", "4", "--preset", "ultrafast", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init).filter { $0.contains("capture date") }
        // One line each (the order follows the header reads, which may run in parallel).
        #expect(lines.count == 4 && Set(lines) == [
            "slideshow: warning: \(paths["old"]!): its capture date 1799:01:01 00:00:00 is before 1826, the year of the first photograph; it is ignored",
            "slideshow: warning: \(paths["far"]!): its capture date 9999:12:31 23:59:59 is in the future; it is ignored",
            "slideshow: warning: \(paths["next"]!): its capture date \(nextYear):06:01 12:00:00 is in the future; it is ignored",
            "slideshow: warning: \(paths["scan"]!): its capture date 1903:07:01 12:00:00 is outside what an MP4's creation time can hold (1904 to 2040); the video's creation time leaves it out",
        ], "\(result.stderr)")
        let probe = try run(which("ffprobe")!, ["-v", "error", "-show_format", "-show_streams", output])
        #expect(!probe.stdoutText.contains("creation_time"), "\(probe.stdoutText)")
    }

    @Test("--json gives each warning its kind and file; stderr says the same line; two renders in one process each say theirs")
    func jsonWarnings() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("old.jpg")
        try Data(SyntheticJPEG.grey(width: 16, height: 8, before: SyntheticJPEG.exifSegment(exifBlock(date: "1799:01:01 00:00:00"))))
            .write(to: URL(fileURLWithPath: path))
        let line = "\(path): its capture date 1799:01:01 00:00:00 is before 1826, the year of the first photograph; it is ignored"
        let result = try slideshow(["make", path, "--size", "64x48", "--fps", "2", "--duration", "1", "--preset", "ultrafast",
                                    "-o", folder.path("out.mp4"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let warnings = try #require(report["warnings"] as? [[String: String]], "\(result.stdoutText)")
        #expect(warnings == [["kind": "photo", "path": path, "message": line]])
        #expect(result.stderr == "slideshow: warning: \(line)\n")
        // A batch of two jobs of the same photo: each job's line carries the warning (no
        // process-wide memory of warnings already said).
        let manifest = folder.path("jobs.json")
        try Data("""
            [{"photos": ["old.jpg"], "output": "a.mp4", "size": "64x48", "fps": 2, "duration": 1, "preset": "ultrafast"},
             {"photos": ["old.jpg"], "output": "b.mp4", "size": "64x48", "fps": 2, "duration": 1, "preset": "ultrafast"}]
            """.utf8).write(to: URL(fileURLWithPath: manifest))
        let batch = try slideshow(["batch", manifest, "--jobs", "1"])
        #expect(batch.status == 0, "\(batch.stderr)")
        let lines = batch.stdoutText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 2)
        for job in lines {
            #expect((job["warnings"] as? [[String: String]])?.map { $0["kind"] } == ["photo"], "\(job)")
        }
        #expect(batch.stderr.components(separatedBy: "slideshow: warning: ").count - 1 == 2, "\(batch.stderr)")
    }
}
