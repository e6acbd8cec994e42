import Foundation
import Synchronization
import Testing
import TestSupport
import SlideshowText

/// A small, quick job for a manifest (tests run in debug builds).
private func job(_ photos: [String], _ output: String, _ extra: String = "") -> String {
    let list = photos.map { "\"\($0)\"" }.joined(separator: ", ")
    return #"{"photos": [\#(list)], "output": "\#(output)", "size": "96x64", "duration": 1\#(extra)}"#
}

/// A job that is still rendering seconds after it starts: every frame encoded.
private func longJob(_ output: String) -> String {
    let photos = Array(repeating: samplePhotos, count: 10).flatMap { $0 }.map { "\"\($0)\"" }.joined(separator: ",")
    return #"{"photos": [\#(photos)], "output": "\#(output)", "size": "640x480", "duration": 120, "hold": "encode"}"#
}


/// Runs `slideshow` with stdout on a file handle of the test's choosing (`/dev/full`, a pipe).
private func slideshow(_ arguments: [String], stdout: FileHandle, timeout: Double = 120) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: slideshowTool)
    process.arguments = arguments
    process.standardOutput = stdout
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus, stderr)
}

/// Waits until a condition holds, or the time is up. - Returns: whether it held.
private func wait(seconds: Double, until condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(20_000)
    }
    return true
}

@Suite("slideshow: hostile input and unlucky environments (issue 10)", needsBuiltTool)
struct HardeningTests {
    @Test("a newline or escape in a photo's name is escaped: the error is one line")
    func controlCharactersInPaths() throws {
        let folder = try TemporaryFolder()
        let photo = folder.path("bad\nname\u{1B}[31m.jpg")
        let result = try slideshow(["make", photo, "--size", "64x48", "-o", folder.path("out.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(folder.path("bad\\nname\\u{1B}[31m.jpg")): no such file\n")
        // In a manifest: a field's name and a value; and a usage error's value.
        let manifest = try writeManifest([
            #"{"photos": ["a.jpg"], "output": "x\ny.mp4", "fit": "a\tb"}"#,
            #"{"photos": ["a.jpg"], "output": "y.mp4", "size": "1\r2", "col\u001Bour": 1}"#,
        ], in: folder)
        let batch = try slideshow(["batch", manifest])
        #expect(batch.status == 64)
        #expect(batch.stderr == """
            slideshow: \(manifest): job 0: fit: 'a\\tb' is not one of letterbox, fill, blur
            slideshow: \(manifest): job 1: col\\u{1B}our: unknown field
            slideshow: \(manifest): job 1: size: '1\\r2' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080

            """)
        let usage = try slideshow(["make", samplePhotos[0], "--size", "9\n9", "-o", folder.path("out.mp4")])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--size: '9\\n9' is not WIDTHxHEIGHT"), "\(usage.stderr)")
        // ArgumentParser's own usage errors quote values too.
        let parse = try slideshow(["make", samplePhotos[0], "--fps", "3\u{1B}[2J", "-o", folder.path("out.mp4")])
        #expect(parse.status == 64)
        #expect(parse.stderr.hasPrefix("Error: The value '3\\u{1B}[2J' is invalid for '--fps <fps>'\n"), "\(parse.stderr)")
        let shard = try slideshow(["batch", "jobs.json", "--shard", "1\n/2"])
        #expect(shard.status == 64)
        #expect(shard.stderr.hasPrefix("Error: --shard '1\\n/2' is not i/n"), "\(shard.stderr)")
        // A failed job's error in the report names the photo on one line as well.
        let report = try writeManifest([job([folder.path("a") + "\\nb.jpg"], "out.mp4")], in: folder, name: "report.json")
        let failed = try slideshow(["batch", report])
        #expect(failed.status == 1)
        let line = try #require(try JSONSerialization.jsonObject(with: failed.stdout) as? [String: Any])
        #expect(line["error"] as? String == "\(folder.path("a\\nb.jpg")): no such file")
    }

    @Test("a manifest with a NUL in a path, a key given twice, or two outputs in one folder through a link: 64, naming each")
    func hostileManifests() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: folder.path("out"))
        let manifest = try writeManifest([
            job([samplePhotos[0]], "out/a\\u0000b.mp4"),
            job([samplePhotos[0]], "out/c.mp4", #", "duration": 2"#),
            job([samplePhotos[0]], "out/d.mp4"),
            job([samplePhotos[0]], "link/d.mp4", #", "overwrite": true"#),
        ], in: folder)
        let result = try slideshow(["batch", manifest, "--overwrite"])
        #expect(result.status == 64)
        #expect(result.stderr == """
            slideshow: \(manifest): job 0: output: contains a NUL character, which no file name can
            slideshow: \(manifest): job 1: duration: given more than once
            slideshow: \(manifest): job 3: overwrite: unknown field
            slideshow: \(manifest): job 3: output: job 2 writes link/d.mp4 too

            """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).isEmpty)
    }

    @Test("a manifest with a UTF-8 byte order mark renders")
    func byteOrderMark() throws {
        let folder = try TemporaryFolder()
        try (Data([0xEF, 0xBB, 0xBF]) + Data("[\(job([samplePhotos[0]], "a.mp4"))]\n".utf8)).write(to: URL(fileURLWithPath: folder.path("jobs.json")))
        let result = try slideshow(["batch", folder.path("jobs.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ProbedVideo(path: folder.path("a.mp4")).decodedFrames == 30)
    }

    @Test("--jobs 1000000000 is a usage error at once; --jobs 1024 with two jobs ends")
    func hugeJobs() throws {
        let folder = try TemporaryFolder()
        let manifest = try writeManifest([job([samplePhotos[0]], "a.mp4"), job([samplePhotos[1]], "b.mp4")], in: folder)
        let refused = try slideshow(["batch", manifest, "--jobs", "1000000000"], timeout: 20)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--jobs 1000000000 is not between 1 and 1024"), "\(refused.stderr)")
        #expect(folder.contents() == ["jobs.json"])
        let most = try slideshow(["batch", manifest, "--jobs", "1024"], timeout: 60)
        #expect(most.status == 0)
        #expect(folder.contents() == ["a.mp4", "b.mp4", "jobs.json"])
    }

    @Test("an endless manifest on stdin (yes | slideshow batch -) or from /dev/zero is refused at the 16 MiB cap, status 64")
    func endlessManifest() throws {
        let piped = try run("/bin/sh", ["-c", "yes | \"$0\" batch -", slideshowTool], timeout: 60)
        #expect(piped.status == 64)
        #expect(piped.stderr == "slideshow: stdin: the manifest is over 16 MiB, the cap; split it into smaller manifests\n")
        let zero = try slideshow(["batch", "/dev/zero"], timeout: 60)
        #expect(zero.status == 64)
        #expect(zero.stderr == "slideshow: /dev/zero: the manifest is over 16 MiB, the cap; split it into smaller manifests\n")
    }

    @Test("a show over 2,592,000 frames (24 hours at 30 fps) is a usage error naming the option")
    func tooLong() throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "--duration", "86401", "-o", folder.path("out.mp4")], timeout: 20)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--duration: 86401.0 s in total at 30 fps is over 2592000 frames (24 hours at 30 fps), the longest show"), "\(result.stderr)")
        let perSlide = try slideshow(["make", samplePhotos[0], samplePhotos[1], "--slide-duration", "5401", "--fps", "240", "-o", folder.path("out.mp4")], timeout: 20)
        #expect(perSlide.status == 64)
        #expect(perSlide.stderr.contains("--slide-duration: 5401.0 s per slide at 240 fps is over 2592000 frames"), "\(perSlide.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("stdout that cannot be written (/dev/full): status 1 and one line, for make --json, batch and filters")
    func stdoutWriteErrors() throws {
        let folder = try TemporaryFolder()
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let make = try slideshow(["make", samplePhotos[0], "--size", "96x64", "--duration", "1", "--json", "-o", folder.path("a.mp4")], stdout: full)
        #expect(make.status == 1)
        #expect(make.stderr == "slideshow: stdout: cannot write the report (No space left on device)\n")
        // The video itself was written whole; only its report was lost.
        #expect(try ProbedVideo(path: folder.path("a.mp4")).decodedFrames == 30)
        let filters = try slideshow(["filters"], stdout: full)
        #expect(filters.status == 1)
        #expect(filters.stderr == "slideshow: stdout: cannot write the report (No space left on device)\n")
        // batch stops at the first line it cannot write, as a signal would stop it.
        let manifest = try writeManifest([job([samplePhotos[0]], "b.mp4"), longJob("long.mp4")], in: folder)
        let batch = try slideshow(["batch", manifest, "--jobs", "1"], stdout: full)
        #expect(batch.status == 1)
        #expect(batch.stderr == "slideshow: stdout: cannot write the report (No space left on device); 1 of 2 jobs finished, the other 1 wrote nothing\n")
        #expect(folder.contents() == ["a.mp4", "b.mp4", "jobs.json"])
    }

    @Test("SIGTERM while stdout is a full pipe nobody reads: 143 within a second or so, the summary right, nothing partial left",
          arguments: [SIGTERM, SIGINT])
    func signalWithFullStdout(signal: Int32) throws {
        let folder = try TemporaryFolder()
        let manifest = try writeManifest([job([samplePhotos[0]], "quick.mp4"), longJob("long0.mp4"), longJob("long1.mp4")], in: folder)
        // A pipe filled to the brim before the tool starts: its first line blocks.
        let stdout = Pipe()
        let writer = stdout.fileHandleForWriting.fileDescriptor
        let flags = fcntl(writer, F_GETFL)
        #expect(fcntl(writer, F_SETFL, flags | O_NONBLOCK) == 0)
        var filled = 0
        for chunk in [4096, 1] {
            let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: chunk)
            while true {
                let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                if written <= 0 { break }
                filled += written
            }
        }
        #expect(fcntl(writer, F_SETFL, flags) == 0)
        #expect(filled >= 4096)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: slideshowTool)
        process.arguments = ["batch", manifest, "--jobs", "2"]
        process.standardOutput = stdout
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The quick job is done (its line is stuck) and a long one is writing.
        let started = wait(seconds: 60) {
            folder.contents().contains("quick.mp4") && folder.contents().contains { $0.hasPrefix(".long") && $0.hasSuffix(".partial") }
        }
        #expect(started, "\(folder.contents())")
        usleep(300_000)
        let sent = Date()
        kill(process.processIdentifier, signal)
        let ended = wait(seconds: 10) { !process.isRunning }
        let took = Date().timeIntervalSince(sent)
        #expect(ended, "still running 10 s after the signal")
        guard ended else { return }
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        // A second, on a 2-core machine shared with other builds: allow for the load.
        #expect(took < 3, "took \(took) s")
        let name = signal == SIGINT ? "interrupted" : "terminated"
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr == "slideshow: \(name); 1 of 3 jobs finished, the other 2 wrote nothing\n")
        #expect(folder.contents() == ["jobs.json", "quick.mp4"])
    }

    @Test("Ctrl-C while the progress bar is on a terminal: the bar is cleared before the message")
    func progressBarClearedBeforeMessage() throws {
        let folder = try TemporaryFolder()
        // A pseudo-terminal: /dev/ptmx, unlocked, and its /dev/pts/N for the tool's stderr.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        #expect(master >= 0 && ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0 && ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0)
        let terminal = try #require(FileHandle(forUpdatingAtPath: "/dev/pts/\(number)"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: slideshowTool)
        process.arguments = ["make"] + Array(repeating: samplePhotos, count: 20).flatMap { $0 }
            + ["--duration", "120", "--hold", "encode", "--size", "640x480", "-o", folder.path("out.mp4")]
        process.standardError = terminal
        process.standardOutput = Pipe()
        try process.run()
        try terminal.close()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Read the terminal's screen text as it comes.
        let screen = Mutex(Data())
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }
                screen.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
        }
        reader.start()
        let drawn = wait(seconds: 60) { String(decoding: screen.withLock { $0 }, as: UTF8.self).contains(" photos") }
        #expect(drawn, "the bar was drawn")
        usleep(200_000)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        _ = wait(seconds: 5) { String(decoding: screen.withLock { $0 }, as: UTF8.self).contains("written") }
        close(master)
        let text = String(decoding: screen.withLock { $0 }, as: UTF8.self)
        let message = try #require(text.range(of: "slideshow: interrupted; no output was written"), "\(text.debugDescription)")
        // Right before the message: a carriage return and erase-to-end-of-line, not the bar.
        #expect(text[..<message.lowerBound].hasSuffix("\r\u{1B}[K"), "\(text.suffix(120).debugDescription)")
        #expect(folder.contents().isEmpty)
    }

    // MARK: issue 31

    @Test("a hostile motion photo (MicroVideoOffset Int64.min) in a batch shows its still with a warning; the next job still runs")
    func hostileMotionPhotoInBatch() throws {
        let folder = try TemporaryFolder()
        try Data(HostileMotionPhoto.jpeg(microVideoOffset: "-9223372036854775808")).write(to: URL(fileURLWithPath: folder.path("mp.jpg")))
        let manifest = try writeManifest([job(["mp.jpg"], "a.mp4", #", "motionPhotos": "play""#),
                                          job([samplePhotos[0]], "b.mp4")], in: folder)
        let result = try slideshow(["batch", manifest, "--jobs", "1"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""status":"ok""#) }, "\(result.stdoutText)")
        #expect(folder.contents() == ["a.mp4", "b.mp4", "jobs.json", "mp.jpg"])
        let make = try slideshow(["make", folder.path("mp.jpg"), "--motion-photos", "play", "--size", "64x48", "-o", folder.path("c.mp4")], timeout: 120)
        #expect(make.status == 0)
        #expect(make.stderr.contains("slideshow: warning: \(folder.path("mp.jpg")): its motion photo video cannot be played (its XMP says the motion photo video starts -9223372036854775808 bytes before the file's end"), "\(make.stderr)")
    }

    @Test("a NUL in a manifest's webvtt path is a usage error (64): nothing is written or truncated")
    func nulInWebVTTPath() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("h5"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("h5/a")))
        let manifest = try writeManifest([job([samplePhotos[0]], "x.mp4", #", "captions": ["A"], "webvtt": "h5/a\u0000b.vtt""#)], in: folder)
        let result = try slideshow(["batch", manifest], timeout: 60)
        #expect(result.status == 64)
        #expect(result.stderr == "slideshow: \(manifest): job 0: webvtt: contains a NUL character, which no file name can\n")
        #expect(folder.contents() == ["h5", "jobs.json"])
        #expect(try String(contentsOfFile: folder.path("h5/a"), encoding: .utf8) == "keep")
    }

    @Test("--webvtt naming the video under another spelling, or the music, captions or font file, is refused before anything is written")
    func webVTTNamesAnotherFile() throws {
        let folder = try TemporaryFolder()
        func make(_ arguments: [String]) throws -> ProcessResult {
            try run(slideshowTool, ["make", samplePhotos[0], "--size", "64x48", "--caption", "A"] + arguments, timeout: 120, currentDirectory: folder.url)
        }
        for spelling in ["./v.mp4", "sub/../v.mp4", folder.path("v.mp4")] {
            try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
            for overwrite in [[], ["--overwrite"]] {
                let result = try make(["-o", "v.mp4", "--webvtt", spelling] + overwrite)
                #expect(result.status == 1)
                #expect(result.stderr == "slideshow: \(spelling): the WebVTT file is the video's file\n")
                #expect(folder.contents() == ["sub"])
            }
        }
        // The inputs of every kind: each left as it was.
        let font = folder.path("font.ttf"), captions = folder.path("captions.txt"), music = folder.path("music.wav")
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: font)
        try Data("A\n".utf8).write(to: URL(fileURLWithPath: captions))
        try Data(SyntheticWAV.silence(frames: 48_000)).write(to: URL(fileURLWithPath: music))
        let before = try [font, captions, music].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for (arguments, message) in [(["--font", font, "--webvtt", "./font.ttf"], "./font.ttf: the WebVTT file is the font file"),
                                     (["--audio", music, "--webvtt", "music.wav"], "music.wav: the WebVTT file is the soundtrack's file"),
                                     (["--webvtt", "sub/../music.wav", "--audio", "./music.wav"], "sub/../music.wav: the WebVTT file is the soundtrack's file")] {
            let result = try make(["-o", "v.mp4", "--overwrite"] + arguments)
            #expect(result.status == 1)
            #expect(result.stderr == "slideshow: \(message)\n")
        }
        let result = try run(slideshowTool, ["make", samplePhotos[0], "--size", "64x48", "--captions", captions, "-o", "v.mp4", "--overwrite", "--webvtt", "captions.txt"],
                             timeout: 120, currentDirectory: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: captions.txt: the WebVTT file is the captions file\n")
        #expect(try [font, captions, music].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        #expect(folder.contents() == ["captions.txt", "font.ttf", "music.wav", "sub"])
    }

    @Test("--font naming a FIFO is refused at once, not opened (it hung)", .timeLimit(.minutes(1)))
    func fontFIFO() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("font.ttf")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--caption", "A", "--font", fifo, "-o", folder.path("v.mp4")], timeout: 30)
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(fifo): not a regular file (a FIFO), not a font file\n")
    }

    /// Issue 31 item 11, then issue 33: H.264 in AVI or MPEG-TS was "not a JPEG, PNG, HEIF, AVIF
    /// or WebP image"; it now plays as a clip, without a warning. (x264's B-frames in an AVI,
    /// which has no pts: the frames the decoder gives out at the end have no timestamp and were
    /// timed at 0, "its video stops at 0.00 s"; they follow the frame before now.)
    @Test("H.264 in AVI or MPEG-TS plays as a clip, not 'not an image', its last frames in time",
          .enabled(if: which("ffmpeg") != nil, "skipped: needs ffmpeg"))
    func clipContainers() throws {
        let folder = try TemporaryFolder()
        for name in ["x.avi", "x.ts"] {
            let clip = folder.path(name)
            let made = try run(which("ffmpeg")!, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:d=0.5", "-c:v", "libx264", "-y", clip])
            #expect(made.status == 0, "\(made.stderr)")
            let output = folder.path(name + ".mp4")
            let result = try slideshow(["make", clip, "--size", "64x48", "--quiet", "-o", output], timeout: 60)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            #expect(try probedFramesAndDuration(output).frames == 16)
        }
    }

    /// Issue 31 item 12: a show of clips alone ignores `--duration` (the README says so), even
    /// when it would leave each item no frame: 91 one-frame clips with the default 3 s, and a
    /// 2-s title card in a clips-only show with `--duration 1`. A photo among them is refused.
    @Test("a show of clips alone ignores a --duration that leaves its items no frame, and a card beside it",
          .enabled(if: which("ffmpeg") != nil, "skipped: needs ffmpeg"))
    func clipsAloneIgnoreTheDuration() throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("one.mp4")
        let made = try run(which("ffmpeg")!, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=30", "-frames:v", "1", "-c:v", "libx264", "-y", clip])
        #expect(made.status == 0, "\(made.stderr)")
        let many = try slideshow(["make"] + [String](repeating: clip, count: 91) + ["--size", "64x48", "--quiet", "-o", folder.path("many.mp4")], timeout: 120)
        #expect(many.status == 0, "\(many.stderr)")
        #expect(try probedFramesAndDuration(folder.path("many.mp4")).frames == 91)
        let carded = try slideshow(["make", clip, clip, "--size", "64x48", "--duration", "1", "--title-card", "Title", "--title-card-duration", "2",
                                    "--quiet", "-o", folder.path("card.mp4")], timeout: 60)
        #expect(carded.status == 0, "\(carded.stderr)")
        #expect(try probedFramesAndDuration(folder.path("card.mp4")).frames == 62)
        let mixed = try slideshow(["make"] + [String](repeating: clip, count: 90) + [samplePhotos[0], "--size", "64x48", "-o", folder.path("mixed.mp4")], timeout: 120)
        #expect(mixed.status == 64)
        #expect(mixed.stderr.contains("--duration: 3.0 s in total at 30 fps gives 90 frames for 91 photos"), "\(mixed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("mixed.mp4")))
    }

    @Test("a part to play (#t=) on a photo is a usage error, not ignored")
    func partOnAPhoto() throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0] + "#t=0,1", "--size", "64x48", "-o", folder.path("v.mp4")], timeout: 60)
        #expect(result.status == 64)
        #expect(result.stderr.contains("\(samplePhotos[0]): a part to play (in and out, or #t=) is for a clip, and this is a photo"), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("captions are text: a --caption byte that is not UTF-8 is U+FFFD with a warning; a --captions file's BOM is dropped, UTF-16 read, bad bytes warned of")
    func captionsAreText() throws {
        let folder = try TemporaryFolder()
        func cues(_ arguments: [String], shell: String = "") throws -> (text: String, stderr: String) {
            let vtt = folder.path("c.vtt")
            try? FileManager.default.removeItem(atPath: vtt)
            // Through the shell, so that argv can hold bytes that are not UTF-8.
            let command = "exec \"$0\" \"$@\"" + shell
            let result = try run("/bin/sh", ["-c", command, slideshowTool, "make", samplePhotos[0], "--size", "64x48", "-o", folder.path("v.mp4"),
                                             "--overwrite", "--webvtt", vtt, "--no-burn-captions"] + arguments, timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            return ((try? String(contentsOfFile: vtt, encoding: .utf8)) ?? "", result.stderr)
        }
        let latin1 = try cues([], shell: " --caption \"$(printf 'caf\\351')\"")
        #expect(latin1.text.contains("\ncaf\u{FFFD}\n"), "\(latin1.text.debugDescription)")
        #expect(latin1.stderr.contains("slideshow: warning: --caption 1: not UTF-8 text; the bytes that are not are shown as \u{FFFD}"), "\(latin1.stderr)")
        let file = folder.path("captions.txt")
        for (bytes, caption, warned) in [([0xEF, 0xBB, 0xBF] + Array("Straße\n".utf8), "Straße", false),
                                          ([0xFF, 0xFE, 0x53, 0x00, 0xDF, 0x00, 0x0A, 0x00], "Sß", false),
                                          ([0xFE, 0xFF, 0x00, 0x53, 0x00, 0xDF, 0x00, 0x0A], "Sß", false),
                                          (Array("caf".utf8) + [0xE9, 0x0A], "caf\u{FFFD}", true)] as [([UInt8], String, Bool)] {
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let read = try cues(["--captions", file])
            #expect(read.text.contains("\n\(caption)\n") && !read.text.contains("\u{FEFF}"), "\(read.text.debugDescription)")
            #expect(read.stderr.contains("slideshow: warning: \(file): not UTF-8 text throughout") == warned, "\(read.stderr)")
        }
    }

    @Test("a --captions file that is a FIFO, or over 16 MiB, is refused at once", .timeLimit(.minutes(1)))
    func captionsFileLimits() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("fifo.txt"), big = folder.path("big.txt")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, (16 << 20) + 1) == 0)
        for (path, reason) in [(fifo, "not a regular file (a FIFO)"), (big, "the file is over 16 MiB, the most a captions file may be")] {
            let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--captions", path, "-o", folder.path("v.mp4")], timeout: 30)
            #expect(result.status == 64)
            #expect(result.stderr.hasPrefix("Error: --captions: \(path): \(reason)\n"), "\(result.stderr)")
        }
    }
}
