import Foundation
import Testing
import TestSupport

@Suite("slideshow make: failures are one line, a documented status, and leave nothing behind", needsBuiltTool)
struct FailureTests {
    @Test("each malformed photo fails with status 1 and one line naming it, leaving no output",
          .enabled(if: TestEnvironment.sharedPhotos != nil, TestEnvironment.noSharedPhotos),
          // A HEIC named .jpg is no longer malformed: it is read by its content (PhoneFormatCLITests).
          arguments: TestEnvironment.sharedPhotos(prefix: "malformed_").filter { $0 != "malformed_heic_named_jpg.jpg" }
              + ["12bit_testorig_227x149.jpg"])
    func malformed(name: String) throws {
        let folder = try TemporaryFolder()
        let photo = try #require(TestEnvironment.sharedPhoto(name))
        let output = folder.path("out.mp4")
        let result = try slideshow(["make", samplePhotos[0], photo, "--size", "64x48", "-o", output])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("slideshow: \(photo): ") == true, "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("a missing photo and an empty one: status 1, one line")
    func missingAndEmpty() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path("nope.jpg")
        let result = try slideshow(["make", missing, "-o", folder.path("out.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("slideshow: \(missing): ") && result.stderr.split(separator: "\n").count == 1)
        try Data().write(to: URL(fileURLWithPath: folder.path("empty.jpg")))
        let empty = try slideshow(["make", folder.path("empty.jpg"), "-o", folder.path("out.mp4")])
        #expect(empty.status == 1)
        #expect(empty.stderr.hasPrefix("slideshow: \(folder.path("empty.jpg")): "))
        #expect(folder.contents() == ["empty.jpg"])
    }

    @Test("an existing output survives a failed render, with or without --overwrite")
    func existingOutputSurvives() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("keep.mp4")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: output))
        let broken = folder.path("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xDB, 0, 4, 0, 0]).write(to: URL(fileURLWithPath: broken))
        for extra in [[], ["--overwrite"]] {
            let result = try slideshow(["make", samplePhotos[0], broken, "--size", "64x48", "-o", output] + extra)
            #expect(result.status == 1)
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious")
        }
        // Without --overwrite, good photos are refused too: the file is not replaced.
        let refused = try slideshow(["make", samplePhotos[0], "--size", "64x48", "-o", output])
        #expect(refused.status == 1)
        #expect(refused.stderr == "slideshow: \(output): already exists (use --overwrite to replace it)\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious")
        #expect(folder.contents() == ["broken.jpg", "keep.mp4"])
    }

    @Test("an output that is one of the inputs is refused, and the photo is untouched")
    func outputIsInput() throws {
        let folder = try TemporaryFolder()
        // Named .mp4 (a JPEG inside: photos are recognised by their bytes), as an output must be.
        let photo = folder.path("photo.mp4")
        try FileManager.default.copyItem(atPath: samplePhotos[2], toPath: photo)
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        let result = try slideshow(["make", photo, "--overwrite", "--size", "64x48", "-o", photo])
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(photo): the output is one of the input photos\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before)
    }

    @Test("output folder missing, or the output a folder: status 1, one line, nothing left")
    func badOutputPaths() throws {
        let folder = try TemporaryFolder()
        let noFolder = try slideshow(["make", samplePhotos[0], "--size", "64x48", "-o", folder.path("missing/out.mp4")])
        #expect(noFolder.status == 1)
        #expect(noFolder.stderr.hasPrefix("slideshow: \(folder.path("missing/out.mp4")): ") && noFolder.stderr.split(separator: "\n").count == 1)
        let isFolder = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--overwrite", "-o", folder.url.path])
        #expect(isFolder.status == 1)
        #expect(isFolder.stderr == "slideshow: \(folder.url.path): is a folder, not a file\n")
        #expect(folder.contents().isEmpty)
    }

    @Test("usage errors exit 64", arguments: [[String]]([
        ["--size", "321x240"], ["--size", "0x240"], ["--size", "big"], ["--duration", "1", "--slide-duration", "1"],
        ["--duration", "0.05"], ["--duration", "-1"], ["--filter", "sepai"], ["--filter", "vignette:radus=1"], ["--filter", "minimal-life,"], ["--background", "red"], ["--fps", "0"],
        ["--crf", "60"], ["--preset", "warp"], ["--fit", "stretch"], ["--hold", "maybe"],
    ]))
    func usageErrors(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make"] + samplePhotos + arguments + ["-o", folder.path("out.mp4")])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
        #expect(folder.contents().isEmpty)
    }

    @Test("no photos, no output: usage errors")
    func missingArguments() throws {
        #expect(try slideshow(["make", "-o", "x.mp4"]).status == 64)
        #expect(try slideshow(["make", samplePhotos[0]]).status == 64)
        #expect(try slideshow(["frobnicate"]).status == 64)
    }

    @Test("SIGINT, SIGTERM and SIGHUP mid-render: status 130, 143 or 129, one line, nothing left", arguments: [SIGINT, SIGTERM, SIGHUP])
    func signals(signal: Int32) throws {
        let status = 128 + signal
        let folder = try TemporaryFolder()
        let output = folder.path("long.mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: slideshowTool)
        // Long enough to be interrupted: every frame encoded, many photos.
        process.arguments = ["make"] + Array(repeating: samplePhotos, count: 20).flatMap { $0 } + ["--duration", "120", "--hold", "encode", "--size", "640x480", "-o", output]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Wait until the render has started writing (its temporary file exists).
        let deadline = Date().addingTimeInterval(20)
        while folder.contents().isEmpty && Date() < deadline && process.isRunning { usleep(20_000) }
        #expect(!folder.contents().isEmpty, "the render started")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.split(separator: "\n").count == 1)
        #expect(message.hasPrefix("slideshow: "))
        #expect(folder.contents().isEmpty)
    }

    @Test("under nohup (SIGHUP ignored at start), a hang-up does not stop the render")
    func nohup() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("kept.mp4")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // What nohup does: ignore SIGHUP, then exec the program (same process, same disposition).
        process.arguments = ["-c", "trap '' HUP && exec \"$0\" \"$@\"", slideshowTool, "make"] + samplePhotos
            + ["--duration", "60", "--hold", "encode", "--size", "320x240", "--preset", "ultrafast", "--quiet", "-o", output]
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while folder.contents().isEmpty && Date() < deadline && process.isRunning { usleep(20_000) }
        #expect(folder.contents().count == 1 && folder.contents() != ["kept.mp4"], "the render is under way")
        kill(process.processIdentifier, SIGHUP)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(folder.contents() == ["kept.mp4"])
        #expect(try ProbedVideo(path: output).decodedFrames == 1800)
    }
}

@Suite("slideshow: help, version, filters", needsBuiltTool)
struct InfoTests {
    @Test("--version prints the version; --help names the commands and exit statuses")
    func versionAndHelp() throws {
        let version = try slideshow(["--version"])
        #expect(version.status == 0)
        #expect(version.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let help = try slideshow(["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("make") && help.stdoutText.contains("filters") && help.stdoutText.contains("64"))
        let makeHelp = try slideshow(["make", "--help"])
        for option in ["--duration", "--slide-duration", "--size", "--fps", "--filter", "--fit", "--background", "--crf", "--preset",
                       "--overwrite", "--quiet", "--json", "--hold", "--date-stamp", "--date-format", "--title", "--framing"] {
            #expect(makeHelp.stdoutText.contains(option), "\(option)")
        }
    }

    @Test("filters lists every look, with each parameter and its default on a line of its own")
    func filters() throws {
        let result = try slideshow(["filters"])
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let looks = lines.prefix { !$0.isEmpty }.filter { !$0.hasPrefix(" ") }
        #expect(looks.map { $0.split(separator: " ").first.map(String.init) } == ["original", "minimal-life", "tumble-down", "sepia", "vignette"])
        #expect(looks.allSatisfy { $0.split(separator: " ").count > 2 })
        let parameters = lines.filter { $0.hasPrefix("  ") }.map { $0.split(separator: " ").first.map(String.init) }
        #expect(parameters == ["sepia:intensity=0.8", "vignette:intensity=1.5", "vignette:radius=2"])
        #expect(result.stdoutText.contains("--filter minimal-life,vignette:intensity=1.2:radius=1.8"))
    }

    @Test("a bad --filter names the valid looks or parameters")
    func badFilterMessage() throws {
        let folder = try TemporaryFolder()
        let unknown = try slideshow(["make", samplePhotos[0], "--filter", "minimal-life,sepai", "-o", folder.path("out.mp4")])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("'sepai' is not a look; the looks are original, minimal-life, tumble-down, sepia, vignette"))
        let key = try slideshow(["make", samplePhotos[0], "--filter", "vignette:radus=1", "-o", folder.path("out.mp4")])
        #expect(key.status == 64)
        #expect(key.stderr.contains("vignette has no parameter 'radus'; its parameters are intensity, radius"))
    }
}
