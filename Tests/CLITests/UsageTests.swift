import Foundation
import Testing
import TestSupport

/// Runs `slideshow` through the shell, for redirections: `$0` is the tool, `"$@"` the arguments.
private func shell(_ script: String, _ arguments: [String] = []) throws -> ProcessResult {
    try run("/bin/sh", ["-c", script, slideshowTool] + arguments, timeout: 120)
}

/// The lines the progress bar drew on a terminal `columns` wide (util-linux `script` gives the
/// render a pseudo-terminal), as the terminal shows them: each drawing starts with `\r` and a clear.
private func progressLines(columns: Int, in folder: TemporaryFolder) throws -> [String] {
    let command = "stty cols \(columns) rows 24; exec \"$0\" make \"$1\" \"$2\" -o \"$3\" --size 96x64 --duration 1"
    // script runs its command through a shell: every path is quoted (a checkout's path may hold a space).
    func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let paths = [slideshowTool, samplePhotos[0], samplePhotos[2], folder.path("bar.mp4")].map(quoted).joined(separator: " ")
    let result = try run("/usr/bin/script", ["-qec", "sh -c \(quoted(command)) \(paths)", "/dev/null"], timeout: 120)
    #expect(result.status == 0, "\(result.stderr)")
    // The text before the first drawing is empty, and after the last is the render's summary.
    return result.stdoutText.components(separatedBy: "\r\u{1B}[K").dropFirst().dropLast().map {
        $0.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
    }
}

@Suite("slideshow: usage errors, stdout and the terminal (issue 21 items 5, 7, 9, 12, 13)", needsBuiltTool)
struct UsageTests {
    @Test("an unknown name for any enum option is refused on one line, the names separated by commas", arguments: [
        ("--transition", "sparkle", "'none', 'fade', 'fadeblack', 'fadewhite', 'wipeleft', 'wiperight', 'wipeup', 'wipedown', 'slideleft', 'slideright', 'slideup', 'slidedown', 'circleopen', 'circleclose' or 'random'"),
        ("--motion", "spin", "'none', 'kenburns', 'zoom-in', 'zoom-out', 'pan-left', 'pan-right', 'pan-up' or 'pan-down'"),
        ("--fit", "stretch", "'letterbox', 'fill' or 'blur'"),
        ("--hold", "maybe", "'skip' and 'encode'"),
        ("--framing", "eyes", "'center' and 'faces'"),
    ])
    func unknownName(option: String, value: String, names: String) throws {
        let result = try slideshow(["make", samplePhotos[0], "-o", "/nonexistent/x.mp4", option, value])
        #expect(result.status == 64)
        let first = try #require(result.stderr.split(separator: "\n").first)
        #expect(first.hasPrefix("Error: The value '\(value)' is invalid for '\(option) <"))
        #expect(first.hasSuffix(". Please provide one of \(names)."), "\(first)")
        #expect(!result.stderr.contains("\\n"))
    }

    @Test("a single-value option given twice is a usage error naming it, for make and batch", arguments: [
        ["make", samplePhotos[0], "-o", "/nonexistent/x.mp4", "--audio", "missing.mp3", "--audio", "ok.wav"],
        ["make", samplePhotos[0], "-o", "/nonexistent/x.mp4", "--audio=missing.mp3", "--audio=ok.wav"],
        ["make", samplePhotos[0], "-o", "/nonexistent/x.mp4", "--output", "/nonexistent/y.mp4"],
        ["make", samplePhotos[0], "-o", "/nonexistent/x.mp4", "--loudness", "-16", "--fps", "24", "--loudness", "-23"],
        ["batch", "jobs.json", "--jobs", "2", "--jobs", "3"],
    ])
    func repeatedOption(arguments: [String]) throws {
        let result = try slideshow(arguments)
        #expect(result.status == 64)
        let option = ["--audio", "--output", "--loudness", "--jobs"].first { name in arguments.filter { $0.hasPrefix(name) || $0 == "-o" && name == "--output" }.count > 1 }
        #expect(result.stderr.split(separator: "\n").first == "Error: \(try #require(option)) is given more than once; give it once")
    }

    @Test("options that repeat by design, photos among option values, and words after -- are not repeats")
    func notRepeated() throws {
        let folder = try TemporaryFolder()
        // `--title --size`: no; but a value equal to an option's name after `=` is a value.
        let result = try slideshow(["make", samplePhotos[0], "--title=--size", "--size", "96x64", "--duration", "1", "-o", folder.path("a.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("formats, filters, --help and --version to a stdout that cannot take them: status 1 and one line", arguments: [
        (["formats"], "the report"), (["filters"], "the report"), (["--help"], "the help"), (["make", "--help"], "the help"), (["--version"], "the help"),
    ])
    func stdoutFull(arguments: [String], what: String) throws {
        let result = try shell("exec \"$0\" \"$@\" > /dev/full", arguments)
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: stdout: cannot write \(what) (No space left on device)\n")
        let ok = try slideshow(arguments)
        #expect(ok.status == 0 && !ok.stdout.isEmpty && ok.stderr.isEmpty)
    }

    @Test("the progress bar fits the terminal: narrower on a narrow one, the count alone below a minimum, never wrapping",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux script"))
    func progressBarWidth() throws {
        let folder = try TemporaryFolder()
        let wide = try progressLines(columns: 120, in: folder)
        #expect(wide.first == String(repeating: "░", count: 30) + " 0/2 photos")
        #expect(wide.last == String(repeating: "█", count: 30) + " 2/2 photos")
        try FileManager.default.removeItem(atPath: folder.path("bar.mp4"))
        let narrow = try progressLines(columns: 40, in: folder)
        #expect(narrow.first == String(repeating: "░", count: 28) + " 0/2 photos")
        #expect(narrow.allSatisfy { $0.count <= 39 }, "\(narrow)")
        try FileManager.default.removeItem(atPath: folder.path("bar.mp4"))
        let tiny = try progressLines(columns: 12, in: folder)
        #expect(tiny.first == "0/2 photos")
        #expect(tiny.allSatisfy { $0.count <= 11 }, "\(tiny)")
    }

    @Test("batch --overwrite refuses, before anything renders, a job whose output is another job's photo")
    func overwriteAnotherJobsPhoto() throws {
        let folder = try TemporaryFolder()
        let photo = folder.path("a.mp4")  // a JPEG named as an output may be
        try FileManager.default.copyItem(atPath: samplePhotos[0], toPath: photo)
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        let manifest = folder.path("jobs.json")
        try Data("""
            [{"photos": ["a.mp4"], "output": "one.mp4", "size": "96x64", "duration": 1},
             {"photos": ["\(samplePhotos[2])"], "output": "./sub/../a.mp4", "size": "96x64", "duration": 1}]
            """.utf8).write(to: URL(fileURLWithPath: manifest))
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
        let result = try slideshow(["batch", "--overwrite", "--jobs", "1", manifest])
        #expect(result.status == 64)
        #expect(result.stderr == "slideshow: \(manifest): job 1: output: ./sub/../a.mp4 is read by job 0 (photo 0): no job may write a file a job reads\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path("one.mp4")))
    }
}
