import Foundation
import Testing
import TestSupport

/// The committed snapshots of the help texts, next to this file.
private let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

/// The help of the tool and of every subcommand, compared with `Snapshots/<name>.txt`, so that
/// no help text changes unseen: when one changes on purpose, review the diff the test prints,
/// then update the snapshots with
///
///     SNAPSHOT_UPDATE=1 swift test --skip-build --filter HelpSnapshotTests
///
/// and commit them. ArgumentParser wraps the help at 80 columns when stdout is not a terminal.
@Suite("slideshow: the help of every subcommand, against its committed snapshot (issue 20)", needsBuiltTool)
struct HelpSnapshotTests {
    @Test("each help text is its snapshot", arguments: [
        ("slideshow", ["--help"]),
        ("make", ["make", "--help"]),
        ("batch", ["batch", "--help"]),
        ("filters", ["filters", "--help"]),
        ("formats", ["formats", "--help"]),
    ])
    func help(name: String, arguments: [String]) throws {
        let result = try slideshow(arguments)
        #expect(result.status == 0 && result.stderr.isEmpty)
        let snapshot = snapshots.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["SNAPSHOT_UPDATE"] == "1" {
            try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
            try result.stdout.write(to: snapshot)
            return
        }
        let expected = try Data(contentsOf: snapshot)
        guard result.stdout != expected else { return }
        let folder = try TemporaryFolder()
        let actual = folder.path("\(name).txt")
        try result.stdout.write(to: URL(fileURLWithPath: actual))
        let diff = try run("/usr/bin/diff", ["-u", snapshot.path, actual])
        Issue.record("`slideshow \(arguments.joined(separator: " "))` is not its snapshot (SNAPSHOT_UPDATE=1 updates it):\n\(diff.stdoutText)")
    }

    @Test("the help names every photo format the decoders read and every field a manifest job may have")
    func helpFollowsTheLists() throws {
        let make = try slideshow(["make", "--help"]).stdoutText.replacingOccurrences(of: "\n", with: " ")
        for format in ["JPEG", "PNG", "HEIF/HEIC", "AVIF", "WebP"] { #expect(make.contains(format), "\(format)") }
        let batch = try slideshow(["batch", "--help"]).stdoutText.replacingOccurrences(of: "\n", with: " ")
        for field in ["transition", "transitionDuration", "fadeIn", "fadeOut", "motion", "zoom", "framing", "loudness", "path"] {
            #expect(batch.contains(" \(field),") || batch.contains(" \(field);") || batch.contains(" \(field) "), "\(field)")
        }
        let overview = try slideshow(["--help"]).stdoutText.replacingOccurrences(of: "\n", with: " ")
        for status in ["0 success", "1 a photo", "64 a usage error", "129 hung up (SIGHUP", "130 interrupted (SIGINT)", "143 terminated (SIGTERM)"] {
            #expect(overview.contains(status), "\(status)")
        }
    }
}
