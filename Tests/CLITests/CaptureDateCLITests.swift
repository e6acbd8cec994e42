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
}
