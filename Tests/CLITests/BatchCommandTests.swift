import Foundation
import Testing
import TestSupport

/// One line of `slideshow batch`'s report.
private struct JobLine: Decodable, Equatable {
    var index: Int
    var output: String
    var status: String
    var seconds: Double
    var frames: Int?
    var error: String?
}

/// The report's lines, by job index; every line must have exactly the seven keys.
private func report(_ stdout: Data) throws -> [Int: JobLine] {
    var lines: [Int: JobLine] = [:]
    for text in String(decoding: stdout, as: UTF8.self).split(separator: "\n") {
        let data = Data(text.utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["index", "output", "status", "seconds", "frames", "error", "photos"], "\(text)")
        let line = try JSONDecoder().decode(JobLine.self, from: data)
        #expect(lines[line.index] == nil, "one line per job")
        lines[line.index] = line
    }
    return lines
}

/// A job object for a manifest: small and quick, since tests run in debug builds.
private func job(_ photos: [String], _ output: String, _ extra: String = "") -> String {
    let list = photos.map { "\"\($0)\"" }.joined(separator: ", ")
    return #"{"photos": [\#(list)], "output": "\#(output)", "size": "96x64", "duration": 1\#(extra)}"#
}


/// A JPEG header followed by garbage.
private func writeBrokenPhoto(_ path: String) throws {
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array(repeating: 0xA5, count: 300)).write(to: URL(fileURLWithPath: path))
}

/// The files left in a folder that are not complete outputs: temporary `.partial` files.
private func partials(_ folder: TemporaryFolder) -> [String] {
    folder.contents().filter { $0.hasSuffix(".partial") }
}

@Suite("slideshow batch: manifests, parallel jobs, isolated failures", needsBuiltTool)
struct BatchCommandTests {
    @Test("good jobs land and are valid; a broken and a missing photo fail their jobs, named; status 1")
    func mixed() throws {
        let folder = try TemporaryFolder()
        try writeBrokenPhoto(folder.path("broken.jpg"))
        let manifest = try writeManifest([
            job(samplePhotos, "a.mp4"),
            job([samplePhotos[0], "broken.jpg"], "b.mp4"),
            job(["missing.jpg", samplePhotos[1]], "c.mp4"),
            job([samplePhotos[2]], "d.mp4", #", "filter": "minimal-life", "fit": "fill""#),
            job([samplePhotos[1], samplePhotos[2]], "e.mp4", #", "fps": 24"#),
        ], in: folder)
        let result = try slideshow(["batch", manifest, "--jobs", "2"])
        #expect(result.status == 1)
        #expect(result.stderr == "")
        let lines = try report(result.stdout)
        #expect(lines.keys.sorted() == [0, 1, 2, 3, 4])
        #expect(lines.mapValues(\.status) == [0: "ok", 1: "failed", 2: "failed", 3: "ok", 4: "ok"])
        #expect(lines[0]?.frames == 30 && lines[3]?.frames == 30 && lines[4]?.frames == 24)
        #expect(lines[0]?.error == nil && lines[1]?.frames == nil)
        #expect(lines[1]?.error?.hasPrefix("\(folder.path("broken.jpg")): ") == true, "\(String(describing: lines[1]))")
        #expect(lines[2]?.error == "\(folder.path("missing.jpg")): no such file")
        #expect(lines.values.allSatisfy { $0.output == folder.path(["a", "b", "c", "d", "e"][$0.index] + ".mp4") && $0.seconds >= 0 })
        #expect(folder.contents() == ["a.mp4", "broken.jpg", "d.mp4", "e.mp4", "jobs.json"])
        for (name, frames) in [("a.mp4", 30), ("d.mp4", 30), ("e.mp4", 24)] {
            let probed = try ProbedVideo(path: folder.path(name))
            #expect(probed.decodedFrames == frames && probed.formatDuration == "1.000000", "\(name)")
            #expect(probed.stream["width"] == "96" && probed.stream["height"] == "64")
        }
    }

    @Test("a job that runs out of room (a file-size limit, as a full disk) fails alone and leaves nothing")
    func fullDisk() throws {
        let folder = try TemporaryFolder()
        let manifest = try writeManifest([
            job([samplePhotos[0]], "small.mp4"),
            #"{"photos": [\#(samplePhotos.map { "\"\($0)\"" }.joined(separator: ","))], "output": "big.mp4", "size": "1280x720", "crf": 10}"#,
            job([samplePhotos[2]], "small2.mp4"),
        ], in: folder)
        // 64 KB is room for the small videos, not for the big one.
        let result = try run("/bin/sh", ["-c", "ulimit -f 64 && exec \"$0\" batch \"$1\" --jobs 2", slideshowTool, manifest])
        #expect(result.status == 1)
        let lines = try report(result.stdout)
        #expect(lines.mapValues(\.status) == [0: "ok", 1: "failed", 2: "ok"])
        #expect(lines[1]?.error?.hasPrefix("\(folder.path("big.mp4")): ") == true, "\(String(describing: lines[1]))")
        #expect(folder.contents() == ["jobs.json", "small.mp4", "small2.mp4"])
        #expect(try ProbedVideo(path: folder.path("small2.mp4")).decodedFrames == 30)
    }

    @Test("an invalid manifest: status 64, one line per problem naming the job and the field, nothing rendered")
    func invalidManifest() throws {
        let folder = try TemporaryFolder()
        let manifest = try writeManifest([
            job([samplePhotos[0]], "a.mp4"),
            #"{"photos": ["\#(samplePhotos[0])"], "output": "b.mp4", "durration": 3}"#,
            #"{"output": "c.mp4"}"#,
            #"{"photos": ["\#(samplePhotos[0])"], "output": "d.mp4", "size": "97x64"}"#,
            job([samplePhotos[0]], "./a.mp4"),
        ], in: folder)
        let result = try slideshow(["batch", manifest])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            slideshow: \(manifest): job 1: durration: unknown field (did you mean duration?)
            slideshow: \(manifest): job 2: photos: missing (required)
            slideshow: \(manifest): job 3: size: 97x64 must have an even width and height (4:2:0 video)
            slideshow: \(manifest): job 4: output: job 0 writes ./a.mp4 too

            """)
        #expect(folder.contents() == ["jobs.json"])
        let notJSON = try slideshow(["batch", "-"], stdin: Data("{\"photos\": [\"a.jpg\"], \"output\": \"a.mp4\"}\nphotos: a.jpg\n".utf8))
        #expect(notJSON.status == 64)
        #expect(notJSON.stderr.hasPrefix("slideshow: stdin: job 1: line 2 is not JSON (") && notJSON.stderr.split(separator: "\n").count == 1)
        let missing = try slideshow(["batch", folder.path("nope.json")])
        #expect(missing.status == 64)
        #expect(missing.stderr == "slideshow: \(folder.path("nope.json")): cannot be read (No such file or directory)\n")
    }

    @Test("usage errors exit 64", arguments: [[String]]([
        ["--jobs", "0"], ["--jobs", "1025"], ["--shard", "2/2"], ["--shard", "-1/2"], ["--shard", "1"], ["--shard", "a/b"],
        ["--skip-existing", "--overwrite"], ["--frobnicate"],
    ]))
    func usageErrors(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let manifest = try writeManifest([job([samplePhotos[0]], "a.mp4")], in: folder)
        let result = try slideshow(["batch", manifest] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
        if arguments.first == "--jobs" {
            // The library's range, refused by it as by the tool.
            #expect(result.stderr.hasPrefix("Error: --jobs \(arguments[1]) is not between 1 and 1024\n"), "\(result.stderr)")
        }
        #expect(folder.contents() == ["jobs.json"])
    }

    @Test("JSON Lines on stdin; relative paths are relative to the working folder")
    func jsonLinesOnStdin() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("photos"), withIntermediateDirectories: true)
        for (index, photo) in samplePhotos.enumerated() {
            try FileManager.default.copyItem(atPath: photo, toPath: folder.path("photos/\(index).jpg"))
        }
        let lines = [
            job(["photos/0.jpg", "photos/1.jpg"], "one.mp4"),
            "",
            job(["photos/2.jpg"], "two.mp4", #", "slideDuration": null, "filter": "tumble-down""#),
        ].joined(separator: "\n") + "\n"
        let result = try runBatch(["-"], in: folder.url, stdin: Data(lines.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try report(result.stdout)
        #expect(report.mapValues(\.status) == [0: "ok", 1: "ok"])
        #expect(report.mapValues(\.output) == [0: "one.mp4", 1: "two.mp4"])
        #expect(try ProbedVideo(path: folder.path("one.mp4")).decodedFrames == 30)
        #expect(try ProbedVideo(path: folder.path("two.mp4")).decodedFrames == 30)
    }

    @Test("relative paths in a manifest file are relative to its folder, wherever the tool runs")
    func relativeToManifest() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("jobs/out"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: samplePhotos[0], toPath: folder.path("photo.jpg"))
        let manifest = try writeManifest([job(["../photo.jpg"], "out/x.mp4")], in: folder, name: "jobs/list.json")
        let elsewhere = try TemporaryFolder()
        let result = try runBatch([manifest], in: elsewhere.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try report(result.stdout)[0]?.output == folder.path("jobs/out/x.mp4"))
        #expect(try ProbedVideo(path: folder.path("jobs/out/x.mp4")).decodedFrames == 30)
        #expect(elsewhere.contents().isEmpty)
        // A manifest named relative to the working folder resolves the same way.
        let relative = try runBatch(["jobs/list.json", "--overwrite"], in: folder.url)
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(try report(relative.stdout)[0]?.output == "jobs/out/x.mp4")
    }

    @Test("--shard i/n renders only the jobs whose index mod n is i; the shards together render each job once")
    func shard() throws {
        let folder = try TemporaryFolder()
        let manifest = try writeManifest((0..<5).map { job([samplePhotos[$0 % 3]], "\($0).mp4") }, in: folder)
        let first = try slideshow(["batch", manifest, "--shard", "1/2"])
        #expect(first.status == 0)
        #expect(try report(first.stdout).keys.sorted() == [1, 3])
        #expect(folder.contents() == ["1.mp4", "3.mp4", "jobs.json"])
        let second = try slideshow(["batch", manifest, "--shard", "0/2"])
        #expect(try report(second.stdout).keys.sorted() == [0, 2, 4])
        #expect(folder.contents() == ["0.mp4", "1.mp4", "2.mp4", "3.mp4", "4.mp4", "jobs.json"])
        // Validation covers the whole manifest, not only the shard: every machine agrees.
        let invalid = try writeManifest([job([samplePhotos[0]], "a.mp4"), job([samplePhotos[0]], "b.mp4", #", "crf": 99"#)], in: folder, name: "bad.json")
        let refused = try slideshow(["batch", invalid, "--shard", "0/2"])
        #expect(refused.status == 64 && refused.stderr.contains("job 1: crf: "))
    }

    @Test("--skip-existing reports jobs whose output exists as skipped and leaves the files alone")
    func skipExisting() throws {
        let folder = try TemporaryFolder()
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("a.mp4")))
        let manifest = try writeManifest([job([samplePhotos[0]], "a.mp4"), job([samplePhotos[1]], "b.mp4")], in: folder)
        let result = try slideshow(["batch", manifest, "--skip-existing"])
        #expect(result.status == 0)
        let lines = try report(result.stdout)
        #expect(lines.mapValues(\.status) == [0: "skipped", 1: "ok"])
        #expect(lines[0]?.frames == nil && lines[0]?.error == nil)
        #expect(try String(contentsOfFile: folder.path("a.mp4"), encoding: .utf8) == "keep")
        // Without it the job fails, and the file is still untouched; --overwrite replaces it.
        let again = try slideshow(["batch", manifest, "--jobs", "1"])
        #expect(again.status == 1)
        #expect(try report(again.stdout)[0]?.error == "\(folder.path("a.mp4")): already exists (use --overwrite to replace it)")
        #expect(try String(contentsOfFile: folder.path("a.mp4"), encoding: .utf8) == "keep")
        let replaced = try slideshow(["batch", manifest, "--overwrite"])
        #expect(replaced.status == 0)
        #expect(try ProbedVideo(path: folder.path("a.mp4")).decodedFrames == 30)
    }

    @Test("--jobs 2 writes the same bytes as --jobs 1")
    func deterministic() throws {
        var bytes: [[Data]] = []
        for jobs in ["1", "2"] {
            let folder = try TemporaryFolder()
            let manifest = try writeManifest([
                job(samplePhotos, "0.mp4", #", "filter": "minimal-life""#),
                job(samplePhotos.reversed(), "1.mp4", #", "filter": "tumble-down", "fit": "fill""#),
                job([samplePhotos[1]], "2.mp4", ##", "background": "#336699""##),
                job(samplePhotos, "3.mp4", #", "hold": "encode""#),
            ], in: folder)
            let result = try slideshow(["batch", manifest, "--jobs", jobs])
            #expect(result.status == 0, "\(result.stderr)")
            bytes.append(try (0..<4).map { try Data(contentsOf: URL(fileURLWithPath: folder.path("\($0).mp4"))) })
        }
        #expect(bytes[0] == bytes[1])
    }

    @Test("an empty manifest renders nothing and succeeds")
    func empty() throws {
        let result = try slideshow(["batch", "-"], stdin: Data())
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
    }

    @Test("SIGINT and SIGTERM mid-batch: 130 or 143, finished outputs stay and are reported, unfinished ones leave nothing",
          arguments: [SIGINT, SIGTERM])
    func signals(signal: Int32) throws {
        let folder = try TemporaryFolder()
        // Two quick jobs, then long ones (every frame encoded) that are still running when the signal comes.
        let long = Array(repeating: samplePhotos, count: 10).flatMap { $0 }
        let manifest = try writeManifest([job([samplePhotos[0]], "quick0.mp4"), job([samplePhotos[1]], "quick1.mp4")]
            + (0..<4).map { #"{"photos": [\#(long.map { "\"\($0)\"" }.joined(separator: ","))], "output": "long\#($0).mp4", "size": "640x480", "duration": 120, "hold": "encode"}"# },
            in: folder)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: slideshowTool)
        process.arguments = ["batch", manifest, "--jobs", "2"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Wait until the long jobs have started writing (their temporary files exist).
        let deadline = Date().addingTimeInterval(30)
        func longJobsWriting() -> Int { partials(folder).filter { $0.hasPrefix(".long") }.count }
        while longJobsWriting() < 2 && Date() < deadline && process.isRunning { usleep(20_000) }
        #expect(longJobsWriting() == 2, "the long jobs started")
        kill(process.processIdentifier, signal)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        let lines = try report(stdout)
        #expect(lines.mapValues(\.status) == [0: "ok", 1: "ok"])
        let name = signal == SIGINT ? "interrupted" : "terminated"
        #expect(stderr == "slideshow: \(name); 2 of 6 jobs finished, the other 4 wrote nothing\n")
        #expect(folder.contents() == ["jobs.json", "quick0.mp4", "quick1.mp4"])
        #expect(try ProbedVideo(path: folder.path("quick0.mp4")).decodedFrames == 30)
    }

    @Test("batch is listed in the help, with its options and statuses")
    func help() throws {
        #expect(try slideshow(["--help"]).stdoutText.contains("batch"))
        let help = try slideshow(["batch", "--help"])
        #expect(help.status == 0)
        for word in ["--jobs", "--shard", "--skip-existing", "--overwrite", "JSON Lines", "64"] {
            #expect(help.stdoutText.contains(word), "\(word)")
        }
    }
}

/// Runs `slideshow batch` in a working folder.
private func runBatch(_ arguments: [String], in folder: URL, stdin: Data? = nil) throws -> ProcessResult {
    try run(slideshowTool, ["batch"] + arguments, stdin: stdin, currentDirectory: folder)
}
