import Foundation
import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowPixels
import SlideshowPlan
import SlideshowSupport
import SlideshowWriter

/// The problems a manifest's bytes are refused for; empty when it is accepted.
private func problems(_ text: String, relativeTo folder: String? = nil) -> [ManifestError] {
    problems(Data(text.utf8), relativeTo: folder)
}

private func problems(_ data: Data, relativeTo folder: String? = nil) -> [ManifestError] {
    do {
        _ = try BatchManifest(data: data, relativeTo: folder)
        return []
    } catch {
        return error.errors
    }
}

private let good = #"{"photos": ["a.jpg"], "output": "a.mp4"}"#

@Suite("BatchManifest: hostile manifests (duplicate keys, BOM, NUL, symbolic links, size, length)")
struct ManifestHardeningTests {
    @Test("a key given twice is refused, naming the key, however it is spelled and wherever the job is", arguments: [
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "duration": 3, "duration": 30}"#, ["duration"]),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "dur\u0061tion": 3, "duration": 30}"#, ["duration"]),
        (#"{"output": "y.mp4", "photos": ["a.jpg"], "output": "x.mp4"}"#, ["output"]),
        (#"{"photos": ["a.jpg"], "photos": ["b.jpg"], "output": "x.mp4", "fps": 24, "fps": 25, "fps": 30}"#, ["photos", "fps"]),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "colour": 1, "colour": 2}"#, ["colour"]),
    ])
    func duplicateKeys(job: String, keys: [String]) throws {
        let found = problems("[\(good), \(job)]")
        let repeated = found.filter { $0.reason == "given more than once" }
        #expect(repeated.map(\.field) == keys.map { Optional($0) }, "\(found)")
        #expect(repeated.allSatisfy { $0.job == 1 })
        #expect(repeated.first?.description == "job 1: \(keys[0]): given more than once")
        // The same job as a JSON Lines line.
        let lines = problems("\(good)\n\(job)\n").filter { $0.reason == "given more than once" }
        #expect(lines == repeated)
    }

    @Test("trailing commas, which Foundation's parser allows, do not hide a repeated key (fuzz finding)")
    func trailingCommas() throws {
        #expect(problems(#"[{"photos": ["a.jpg"], "output": "x.mp4", "fps": 24, "fps": 25,},]"#)
                == [ManifestError(job: 0, field: "fps", reason: "given more than once")])
        #expect(try BatchManifest(data: Data(#"[{"photos": ["a.jpg",], "output": "x.mp4",},]"#.utf8), relativeTo: nil).jobs.count == 1)
        #expect(problems("{\"photos\": [\"a.jpg\"], \"output\": \"x.mp4\", \"fps\": 24, \"fps\": 25,}\n")
                == [ManifestError(job: 0, field: "fps", reason: "given more than once")])
    }

    @Test("keys repeated only inside strings or nested values, or in different jobs, are not duplicates")
    func notDuplicates() throws {
        let jobs = try BatchManifest(data: Data(#"""
            [{"photos": ["\"duration\": 1, \"duration\"", "{\"a\":1,\"a\":2}"], "output": "x.mp4", "duration": 2},
             {"photos": ["b.jpg"], "output": "y.mp4", "duration": 2}]
            """#.utf8), relativeTo: nil).jobs
        #expect(jobs.count == 2 && jobs[0].slideshow.photos.count == 2)
        // A value that is an object is the wrong type, and its own keys are not the job's.
        #expect(problems(#"[{"photos": ["a.jpg"], "output": "x.mp4", "size": {"w": 1, "w": 2}}]"#)
                == [ManifestError(job: 0, field: "size", reason: "must be a string \"WxH\"")])
    }

    @Test("a UTF-8 byte order mark before an array or JSON Lines is accepted")
    func byteOrderMark() throws {
        let bom = Data([0xEF, 0xBB, 0xBF])
        let array = try BatchManifest(data: bom + Data("[\(good)]".utf8), relativeTo: nil)
        #expect(array.jobs.map(\.slideshow.output) == ["a.mp4"])
        let lines = try BatchManifest(data: bom + Data("\(good)\n{\"photos\": [\"b.jpg\"], \"output\": \"b.mp4\"}\n".utf8), relativeTo: nil)
        #expect(lines.jobs.map(\.slideshow.output) == ["a.mp4", "b.mp4"])
        let folder = try TemporaryFolder()
        try (bom + Data("[\(good)]\n".utf8)).write(to: URL(fileURLWithPath: folder.path("jobs.json")))
        #expect(try BatchManifest(contentsOfFile: folder.path("jobs.json")).jobs.map(\.slideshow.output) == [folder.path("a.mp4")])
        // Only at the very start: a BOM in the middle is not JSON.
        #expect(problems(Data("[\(good),".utf8) + bom + Data("\(good)]".utf8)).count == 1)
    }

    @Test("a NUL character in a photo or the output is refused, naming the field; the output is not cut short")
    func nul() async throws {
        #expect(problems(#"[{"photos": ["a.jpg"], "output": "out/a\u0000b.mp4"}]"#)
                == [ManifestError(job: 0, field: "output", reason: "contains a NUL character, which no file name can")])
        #expect(problems(#"[{"photos": ["a.jpg", "b\u0000.jpg"], "output": "x.mp4"}]"#)
                == [ManifestError(job: 0, field: "photos", reason: "photo 1 contains a NUL character, which no file name can")])
        // Two outputs that would be the same file once cut at the NUL: the NUL is the problem named.
        #expect(problems("[\(good), {\"photos\": [\"a.jpg\"], \"output\": \"a.mp4\\u0000.txt\"}]").map(\.field) == ["output"])
        // A raw NUL byte: not UTF-8 JSON (Foundation would read such text as UTF-16, repeated keys unseen).
        let notUTF8 = [ManifestError(job: nil, field: nil, reason: "not UTF-8 text (it holds a NUL byte)")]
        #expect(problems(Data("[\(good)]".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })) == notUTF8)
        #expect(problems(Data("[{\"photos\": [\"a.jpg\"], \"output\": \"a\u{0}b.mp4\"}]".utf8)) == notUTF8)
        // The library refuses it too, for a slideshow made without SlideshowOptions.
        await #expect(throws: RenderError.settings(OptionError(field: .output, reason: "contains a NUL character, which no file name can"))) {
            try await Slideshow(photos: [Photo(path: TestEnvironment.sample("square.jpg"))], output: "x\u{0}.mp4").validate()
        }
        #expect(RenderError.invalid("x\u{0}.mp4: bad").description == "x\\u{0}.mp4: bad")
    }

    @Test("two outputs in one folder reached through a symbolic link, or through .. after a link, are the same output")
    func symlinkedFolder() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("out/deep"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link"), withDestinationPath: folder.path("out"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("deeplink"), withDestinationPath: folder.path("out/deep"))
        let found = problems("""
            [{"photos": ["a.jpg"], "output": "out/a.mp4"},
             {"photos": ["a.jpg"], "output": "link/a.mp4"},
             {"photos": ["a.jpg"], "output": "deeplink/../a.mp4"},
             {"photos": ["a.jpg"], "output": "\(folder.path("link"))/./a.mp4"},
             {"photos": ["a.jpg"], "output": "link/b.mp4"}]
            """, relativeTo: folder.url.path)
        #expect(found == [
            ManifestError(job: 1, field: "output", reason: "job 0 writes link/a.mp4 too"),
            ManifestError(job: 2, field: "output", reason: "job 0 writes deeplink/../a.mp4 too"),
            ManifestError(job: 3, field: "output", reason: "job 0 writes \(folder.path("link"))/./a.mp4 too"),
        ])
    }

    @Test("a manifest over 16 MiB is refused at once, from bytes, a file or an endless stream")
    func sizeCap() throws {
        #expect(BatchManifest.maximumBytes == 16 << 20)
        let tooLarge = [ManifestError(job: nil, field: nil, reason: "the manifest is over 16 MiB, the cap; split it into smaller manifests")]
        #expect(problems(Data(repeating: 0x20, count: BatchManifest.maximumBytes + 1)) == tooLarge)
        // Exactly at the cap: read, and found empty (all spaces).
        #expect(try BatchManifest(data: Data(repeating: 0x20, count: BatchManifest.maximumBytes), relativeTo: nil).jobs.isEmpty)
        // /dev/zero never ends: reading stops at the cap.
        #expect(throws: InvalidManifest(errors: tooLarge)) { try BatchManifest(contentsOfFile: "/dev/zero") }
        // A pipe that never ends (`yes | slideshow batch -`).
        // (A socket pair, so that the writer learns of the closed end from send's EPIPE, not SIGPIPE.)
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let writer = ends[1]
        let feeding = Thread {
            let line = Array("y\n".utf8) + Array(repeating: UInt8(ascii: "y"), count: 4094)
            while line.withUnsafeBytes({ send(writer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
            close(writer)
        }
        feeding.start()
        defer { close(ends[0]) }
        #expect(throws: InvalidManifest(errors: tooLarge)) { try BatchManifest(fileDescriptor: ends[0], relativeTo: nil) }
    }

    @Test("a show longer than 24 hours at 30 fps (2,592,000 frames) is refused; one at the cap is accepted")
    func lengthCap() throws {
        #expect(Timeline.maximumFrames == 2_592_000)
        #expect(try Timeline(photoCount: 1, length: .total(seconds: 86_400), framesPerSecond: 30).frameCount == 2_592_000)
        do {
            _ = try Timeline(photoCount: 1, length: .total(seconds: 86_400.1), framesPerSecond: 30)
            Issue.record("accepted")
        } catch {
            #expect(error.description == "86400.1 s in total at 30 fps is over 2592000 frames (24 hours at 30 fps), the longest show")
        }
        #expect(problems(#"[{"photos": ["a.jpg"], "output": "x.mp4", "duration": 10801, "fps": 240}]"#)
                == [ManifestError(job: 0, field: "duration", reason: "10801.0 s in total at 240 fps is over 2592000 frames (24 hours at 30 fps), the longest show")])
        #expect(problems(#"[{"photos": ["a.jpg", "b.jpg"], "output": "x.mp4", "slideDuration": 1e300}]"#).map(\.field) == ["slideDuration"])
        #expect(problems(#"[{"photos": ["a.jpg"], "output": "x.mp4", "duration": 10800, "fps": 240}]"#).isEmpty)
    }

    @Test("the library's errors speak of settings, never of the command line's options")
    func settingsWords() async throws {
        let cases: [SlideshowOptions] = [SlideshowOptions(size: "big"), SlideshowOptions(fps: 0), SlideshowOptions(crf: 99),
                                         SlideshowOptions(filter: "x"), SlideshowOptions(background: "x"), SlideshowOptions(preset: "x"),
                                         SlideshowOptions(duration: 1, slideDuration: 1), SlideshowOptions(duration: -1), SlideshowOptions(slideDuration: 1e9)]
        for options in cases {
            do {
                _ = try options.slideshow(photos: [Photo(path: "a.jpg")], output: "x.mp4")
                Issue.record("accepted \(options)")
            } catch {
                #expect(!error.description.contains("--") && !error.reason.contains("--"), "\(error)")
                #expect(error.description == "\(error.field.rawValue): \(error.reason)")
            }
        }
        let conflict = OptionError(field: .slideDuration, reason: "give duration or slideDuration, not both", conflicting: .duration)
        #expect(throws: conflict) { try SlideshowOptions(duration: 1, slideDuration: 1).validate() }
        // An output that exists and was not to be replaced.
        let folder = try TemporaryFolder()
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("x.mp4")))
        let show = Slideshow(photos: [Photo(path: TestEnvironment.sample("square.jpg"))], output: folder.path("x.mp4"),
                             video: VideoSettings(size: Size(width: 64, height: 48)))
        do {
            _ = try await show.render()
            Issue.record("replaced")
        } catch {
            guard case .output(let writer) = error else { Issue.record("\(error)"); return }
            #expect(writer.kind == .outputExists && writer.reason == "already exists (replacing it was not asked for)")
        }
    }

    @Test("every message is one line: control characters in fields, values and paths are escaped")
    func oneLine() throws {
        #expect(Message.oneLine("a\nb\r\tc\u{1B}[31m\u{7F}\u{85}\u{2028}é\\n") == "a\\nb\\r\\tc\\u{1B}[31m\\u{7F}\\u{85}\\u{2028}é\\n")
        #expect(Message.oneLine(Message.oneLine("x\ny")) == "x\\ny")
        let found = problems(#"[{"photos": ["a.jpg"], "output": "x.mp4", "dur\nation": 3, "size": "1\n2"}]"#)
        #expect(found.map(\.description) == [
            "job 0: dur\\nation: unknown field (did you mean duration?)",
            "job 0: size: '1\\n2' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080",
        ])
        #expect(OptionError(field: .filter, reason: "'a\u{1B}' is not one").description == "filter: 'a\\u{1B}' is not one")
    }

    @Test("a NUL in any path field (webvtt, audio, font) is refused at validation, naming job and field (issue 31)", arguments: [
        (#""webvtt": "h5/a\u0000b.vtt""#, "webvtt"),
        (#""audio": "m\u0000.mp3""#, "audio"),
        (#""font": "fonts/a\u0000.ttf""#, "font"),
    ])
    func nulInPathFields(fragment: String, field: String) throws {
        let found = problems("[{\"photos\": [\"a.jpg\"], \"output\": \"x.mp4\", " + fragment + "}]")
        #expect(found == [ManifestError(job: 0, field: field, reason: "contains a NUL character, which no file name can")], "\(found)")
    }

    @Test("an empty webvtt path is refused at validation (it was 'is a folder' at render time)")
    func emptyWebVTT() throws {
        #expect(problems(#"[{"photos": ["a.jpg"], "output": "x.mp4", "webvtt": ""}]"#)
                == [ManifestError(job: 0, field: "webvtt", reason: "is an empty path")])
    }

    @Test("a clip's in and out are checked at validation: in < 0, out not after in; a key twice in a photo object (issue 31)")
    func clipFields() throws {
        #expect(problems(#"[{"photos": [{"path": "c.mp4", "in": -1}], "output": "x.mp4"}]"#)
                == [ManifestError(job: 0, field: "photos", reason: "photo 0: in: -1.0 is not 0 or more seconds")])
        #expect(problems(#"[{"photos": ["a.jpg", {"path": "c.mp4", "in": 5, "out": 2}], "output": "x.mp4"}]"#)
                == [ManifestError(job: 0, field: "photos", reason: "photo 1: out: 2.0 is not after in (5.0 s)")])
        #expect(problems(#"[{"photos": [{"path": "c.mp4", "out": 0}], "output": "x.mp4"}]"#)
                == [ManifestError(job: 0, field: "photos", reason: "photo 0: out: 0.0 is not after in (0.0 s)")])
        let repeated = #"[{"photos": ["a.jpg", {"path": "c.mp4", "in": 1, "in": 2}], "output": "x.mp4"}]"#
        #expect(problems(repeated) == [ManifestError(job: 0, field: "photos", reason: "photo 1: in: given more than once")])
        #expect(problems(#"{"photos": [{"path": "c.mp4", "path": "d.mp4"}], "output": "x.mp4"}"# + "\n")
                == [ManifestError(job: 0, field: "photos", reason: "photo 0: path: given more than once")])
        // Keys repeated in different photo objects, or deeper, are not.
        #expect(problems(#"[{"photos": [{"path": "c.mp4", "in": 1}, {"path": "d.mp4", "in": 1, "caption": "{\"in\": 1, \"in\": 2}"}], "output": "x.mp4"}]"#).isEmpty)
    }
}
