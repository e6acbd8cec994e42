import Foundation
import Testing
import TestSupport

@Suite("slideshow make: the words parsed once, the duration checked first", needsBuiltTool)
struct OnePassCLITests {
    @Test("--duration=-1 is the duration's fault, not the fades'; a usage error (64) of the make command")
    func negativeDuration() throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "--duration=-1", "-o", folder.path("out.mp4")])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --duration: the duration must be a positive number of seconds, not -1.0 s in total\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("fade"))
        #expect(result.stderr.contains("Usage: slideshow make"), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("a negative value without = says, on its one line, how to pass one", arguments: [
        (["--duration", "-1"], "--duration=-1"),
        (["--fade-in", "-0.5"], "--fade-in=-0.5"),
    ])
    func negativeWithoutEquals(arguments: [String], written: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "-o", folder.path("out.mp4")] + arguments)
        #expect(result.status == 64)
        let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("Error: Missing value for '\(arguments[0]) "), "\(result.stderr)")
        #expect(first.hasSuffix(" (write \(written) for a negative value)"), "\(result.stderr)")
    }

    @Test("a message's seconds are rounded: no float noise from per-slide sums")
    func roundedInMessages() throws {
        let folder = try TemporaryFolder()
        // 3 × 0.1 s is 0.30000000000000004 s in floating point.
        let result = try slideshow(["make"] + samplePhotos + ["--slide-duration", "0.1", "--fade-in", "0.2", "--fade-out", "0.2",
                                                              "-o", folder.path("out.mp4")])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: --fade-out: 0.2 s + 0.2 s of fades are longer than the show (0.3 s)\n"), "\(result.stderr)")
    }
}
