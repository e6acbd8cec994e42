import Foundation
import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowPixels
import SlideshowWriter
import SlideshowText

/// A manifest of one or more jobs, as a JSON array.
private func manifest(_ jobs: String..., relativeTo folder: String? = nil) throws(InvalidManifest) -> BatchManifest {
    try BatchManifest(data: Data("[\(jobs.joined(separator: ",\n"))]".utf8), relativeTo: folder)
}

/// The problems a manifest is refused for.
private func problems(_ jobs: String...) -> [ManifestError] {
    do {
        _ = try BatchManifest(data: Data("[\(jobs.joined(separator: ",\n"))]".utf8), relativeTo: nil)
        return []
    } catch {
        return error.errors
    }
}

private let good = #"{"photos": ["a.jpg"], "output": "a.mp4"}"#

@Suite("BatchManifest: parsing and strict validation")
struct ManifestTests {
    @Test("a job with every field gives the slideshow make would")
    func everyField() throws {
        let jobs = try manifest(#"""
            {"photos": ["a.jpg", "b.png"], "output": "out.mp4", "duration": 4.5, "size": "640x360", "fps": 25,
             "filter": "minimal-life", "fit": "fill", "background": "#102030", "crf": 23, "preset": "fast", "hold": "encode", "codec": "hevc"}
            """#, #"{"photos": ["c.jpg"], "output": "c.mp4", "slideDuration": 2}"#).jobs
        #expect(jobs.map(\.index) == [0, 1])
        let show = jobs[0].slideshow
        #expect(show.photos == [Photo(path: "a.jpg"), Photo(path: "b.png")])
        #expect(show.output == "out.mp4")
        #expect(show.length == .total(seconds: 4.5))
        #expect(show.video == VideoSettings(size: Size(width: 640, height: 360), framesPerSecond: 25, crf: 23, preset: "fast", hold: .encode, codec: .hevc))
        #expect(show.look.name == "minimal-life")
        #expect(show.contentMode == .aspectFill)
        #expect(show.background == RGBColor(red: 0x10, green: 0x20, blue: 0x30))
        #expect(show.overwrite == false)
        var options = SlideshowOptions(duration: 4.5, size: "640x360", fps: 25, filter: "minimal-life", fit: .fill, background: "#102030",
                                       crf: 23, preset: "fast", hold: .encode)
        options.codec = .hevc
        let made = try options.slideshow(photos: show.photos, output: show.output)
        #expect(made.video == show.video && made.length == show.length && made.background == show.background)
        // Defaults are make's.
        let defaults = jobs[1].slideshow
        #expect(defaults.length == .perSlide(seconds: 2))
        #expect(defaults.video == VideoSettings())
        #expect(defaults.look.name == "original" && defaults.contentMode == .aspectFit && defaults.background == .black)
    }

    @Test("codec per job: av1 in MP4 and WebM, a .webm job without a codec is VP9, h264 by default")
    func codecPerJob() throws {
        let jobs = try manifest(#"{"photos": ["a.jpg"], "output": "a.mp4", "codec": "av1"}"#, #"{"photos": ["a.jpg"], "output": "b.webm", "codec": "av1"}"#,
                                #"{"photos": ["a.jpg"], "output": "c.webm"}"#, #"{"photos": ["a.jpg"], "output": "d.mp4"}"#).jobs
        #expect(jobs.map(\.slideshow.video.codec) == [.av1, .av1, .vp9, .h264])
    }

    @Test("each bad job is refused naming its index and the field", arguments: [
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "durration": 3}"#, "durration", "unknown field (did you mean duration?)"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "colour": "black"}"#, "colour", "unknown field"),
        (#"{"output": "x.mp4"}"#, "photos", "missing (required)"),
        (#"{"photos": ["a.jpg"], "output": null}"#, "output", "missing (required)"),
        (#"{"photos": "a.jpg", "output": "x.mp4"}"#, "photos", "must be an array of paths or photo objects"),
        (#"{"photos": [], "output": "x.mp4"}"#, "photos", "no photos given"),
        (#"{"photos": ["a.jpg", ""], "output": "x.mp4"}"#, "photos", "photo 1 is an empty path"),
        (#"{"photos": ["a.jpg"], "output": ""}"#, "output", "is an empty path"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "duration": "3"}"#, "duration", "must be a number of seconds"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "duration": -1}"#, "duration", "the duration must be a positive number of seconds, not -1.0 s in total"),
        (#"{"photos": ["a.jpg", "b.jpg", "c.jpg"], "output": "x.mp4", "duration": 0.05}"#, "duration", "0.05 s in total at 30 fps gives 2 frames for 3 photos; each photo needs at least one frame"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "slideDuration": 0}"#, "slideDuration", "the duration must be a positive number of seconds, not 0.0 s per slide"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "duration": 1, "slideDuration": 1}"#, "slideDuration", "give duration or slideDuration, not both"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "size": "big"}"#, "size", "'big' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "size": "321x240"}"#, "size", "321x240 must have an even width and height (4:2:0 video)"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "size": "8194x240"}"#, "size", "size 8194x240 is larger than 8192 pixels a side"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "fps": 0}"#, "fps", "frame rate 0 is not between 1 and 240"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "fps": 29.97}"#, "fps", "must be a whole number"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "crf": 60}"#, "crf", "CRF 60 is not between 1 and 51"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "preset": "warp"}"#, "preset", "preset 'warp' is not one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "filter": "sepai"}"#, "filter", "'sepai' is not a look; the looks are original, minimal-life, tumble-down, sepia, vignette"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "background": "red"}"#, "background", "'red' is not a colour of the form #RRGGBB"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "fit": "stretch"}"#, "fit", "'stretch' is not one of letterbox, fill, blur"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "hold": "maybe"}"#, "hold", "'maybe' is not one of skip, encode"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "codec": "prores"}"#, "codec", "'prores' is not one of h264, hevc, av1, vp9"),
        (#"{"photos": ["a.jpg"], "output": "x.mp4", "codec": "vp9"}"#, "codec", "vp9 is not written in MP4 (.mp4, .m4v): give h264, hevc or av1, or name the output .webm"),
        (#"{"photos": ["a.jpg"], "output": "x.webm", "codec": "h264"}"#, "codec", "h264 is not written in WebM (.webm): give av1 or vp9, or name the output .mp4"),
        (#"{"photos": ["a.jpg"], "output": "x.mkv"}"#, "output", "'x.mkv' must end in .mp4 or .m4v (MP4: H.264, HEVC or AV1 with AAC), .webm (WebM: VP9 or AV1 with Opus) or .gif or .webp (an animated preview)"),
    ])
    func badJob(job: String, field: String, reason: String) {
        #expect(problems(good, job) == [ManifestError(job: 1, field: field, reason: reason)])
    }

    @Test("a job that is not an object is refused as a whole")
    func notAnObject() {
        #expect(problems(good, "3", #"["a.jpg"]"#) == [
            ManifestError(job: 1, field: nil, reason: "not a JSON object"),
            ManifestError(job: 2, field: nil, reason: "not a JSON object"),
        ])
        #expect(ManifestError(job: 1, field: nil, reason: "not a JSON object").description == "job 1: not a JSON object")
    }

    @Test("every problem of every job is reported, in order, and described as job: field: reason")
    func allProblems() {
        let found = problems(
            #"{"photos": ["a.jpg"], "output": "x.mp4", "durration": 3, "fps": 0}"#,
            good,
            #"{"output": "y.mp4", "size": "97x64"}"#)
        #expect(found == [
            ManifestError(job: 0, field: "durration", reason: "unknown field (did you mean duration?)"),
            ManifestError(job: 0, field: "fps", reason: "frame rate 0 is not between 1 and 240"),
            ManifestError(job: 2, field: "photos", reason: "missing (required)"),
            ManifestError(job: 2, field: "size", reason: "97x64 must have an even width and height (4:2:0 video)"),
        ])
        #expect(found.map(\.description) == [
            "job 0: durration: unknown field (did you mean duration?)",
            "job 0: fps: frame rate 0 is not between 1 and 240",
            "job 2: photos: missing (required)",
            "job 2: size: 97x64 must have an even width and height (4:2:0 video)",
        ])
    }

    @Test("two jobs writing the same output are refused, however the path is spelled")
    func duplicateOutputs() {
        #expect(problems(good, #"{"photos": ["b.jpg"], "output": "./a.mp4"}"#, #"{"photos": ["c.jpg"], "output": "sub/../a.mp4"}"#) == [
            ManifestError(job: 1, field: "output", reason: "job 0 writes ./a.mp4 too"),
            ManifestError(job: 2, field: "output", reason: "job 0 writes sub/../a.mp4 too"),
        ])
        let cwd = FileManager.default.currentDirectoryPath
        #expect(problems(good, #"{"photos": ["b.jpg"], "output": "\#(cwd)/a.mp4"}"#).map(\.job) == [1])
        #expect(problems(good, #"{"photos": ["b.jpg"], "output": "b.mp4"}"#).isEmpty)
    }

    @Test("JSON Lines: one job per line, blank lines ignored; the same jobs as the array")
    func jsonLines() throws {
        let lines = "\(good)\n\n  \n{\"photos\": [\"b.jpg\"], \"output\": \"b.mp4\", \"fps\": 24}\r\n"
        let jobs = try BatchManifest(data: Data(lines.utf8), relativeTo: nil).jobs
        #expect(jobs.map(\.index) == [0, 1])
        #expect(jobs.map(\.slideshow.output) == ["a.mp4", "b.mp4"])
        #expect(jobs[1].slideshow.video.framesPerSecond == 24)
        do {
            _ = try BatchManifest(data: Data("\(good)\nnot json\n{\"output\": 3}\n".utf8), relativeTo: nil)
            Issue.record("accepted")
        } catch {
            // The words after "not JSON" are JSONSerialization's.
            #expect(error.errors.first?.job == 1 && error.errors.first?.field == nil)
            #expect(error.errors.first?.reason.hasPrefix("line 2 is not JSON (") == true)
            #expect(error.errors.dropFirst() == [
                ManifestError(job: 2, field: "photos", reason: "missing (required)"),
                ManifestError(job: 2, field: "output", reason: "must be a path"),
            ])
        }
    }

    @Test("an empty manifest has no jobs; text that is not JSON is refused as a whole")
    func wholeManifest() throws {
        #expect(try BatchManifest(data: Data(), relativeTo: nil).jobs.isEmpty)
        #expect(try BatchManifest(data: Data(" [ ] ".utf8), relativeTo: nil).jobs.isEmpty)
        do {
            _ = try BatchManifest(data: Data("[\(good),".utf8), relativeTo: nil)
            Issue.record("accepted")
        } catch {
            #expect(error.errors.count == 1 && error.errors[0].job == nil && error.errors[0].field == nil)
            #expect(error.errors[0].reason.hasPrefix("not a JSON array of jobs ("))
        }
        #expect(throws: InvalidManifest(errors: [ManifestError(job: nil, field: nil, reason: "cannot be read (No such file or directory)")])) {
            try BatchManifest(contentsOfFile: "/nonexistent/jobs.json")
        }
    }

    @Test("relative paths are relative to the manifest's folder; absolute ones stay; without a folder they stay as given")
    func relativePaths() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("jobs.json")
        try Data(#"[{"photos": ["a.jpg", "/abs/b.jpg", "sub/c.jpg"], "output": "out/x.mp4"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let show = try #require(try BatchManifest(contentsOfFile: path).jobs.first).slideshow
        #expect(show.photos.map(\.path) == [folder.path("a.jpg"), "/abs/b.jpg", folder.path("sub/c.jpg")])
        #expect(show.output == folder.path("out/x.mp4"))
        let relative = try #require(try manifest(#"{"photos": ["a.jpg"], "output": "out/x.mp4"}"#, relativeTo: "jobs").jobs.first)
        #expect(relative.slideshow.photos == [Photo(path: "jobs/a.jpg")] && relative.slideshow.output == "jobs/out/x.mp4")
        let stdin = try #require(try manifest(#"{"photos": ["a.jpg"], "output": "out/x.mp4"}"#).jobs.first)
        #expect(stdin.slideshow.photos == [Photo(path: "a.jpg")] && stdin.slideshow.output == "out/x.mp4")
    }

    @Test("shard i of n holds the jobs whose index mod n is i; the shards together hold each job once")
    func shards() throws {
        let jobs = (0..<7).map { #"{"photos": ["a.jpg"], "output": "\#($0).mp4"}"# }
        let all = try BatchManifest(data: Data("[\(jobs.joined(separator: ","))]".utf8), relativeTo: nil)
        #expect(all.shard(0, of: 3).map(\.index) == [0, 3, 6])
        #expect(all.shard(1, of: 3).map(\.index) == [1, 4])
        #expect(all.shard(2, of: 3).map(\.index) == [2, 5])
        #expect(all.shard(0, of: 1).map(\.index) == Array(0..<7))
        #expect(all.shard(9, of: 10).isEmpty)
        #expect((0..<4).flatMap { all.shard($0, of: 4).map(\.index) }.sorted() == Array(0..<7))
    }

    @Test("the example manifest in Samples is valid, and its photos are there")
    func sample() throws {
        let path = TestEnvironment.packageRoot.appendingPathComponent("Samples/manifest.json").path
        let jobs = try BatchManifest(contentsOfFile: path).jobs
        #expect(jobs.count == 3)
        #expect(jobs.allSatisfy { $0.slideshow.photos.allSatisfy { FileManager.default.fileExists(atPath: $0.path) } })
    }

    @Test("captionsFile (--captions) is read relative to the manifest's folder, is an input no job may write, and goes with no other captions")
    func captionsFile() throws {
        let folder = try TemporaryFolder()
        try Data("Erste\n\nDritte\n".utf8).write(to: URL(fileURLWithPath: folder.path("c.txt")))
        let show = try manifest(#"{"photos": ["a.jpg", "b.jpg", "c.jpg"], "output": "o.mp4", "captionsFile": "c.txt"}"#, relativeTo: folder.url.path).jobs[0].slideshow
        #expect(show.text.captions == [Caption("Erste"), nil, Caption("Dritte")])
        #expect(show.otherInputs == [folder.path("c.txt")])
        #expect(problems(#"{"photos": ["a.jpg"], "output": "o.mp4", "captions": ["A"], "captionsFile": "c.txt"}"#)
                == [ManifestError(job: 0, field: "captionsFile", reason: "give captions or captionsFile, not both")])
        #expect(problems(#"{"photos": [{"path": "a.jpg", "caption": "A"}], "output": "o.mp4", "captions": ["B"]}"#)
                == [ManifestError(job: 0, field: "captions", reason: "give captions or a caption in the photo objects, not both")])
        #expect(problems(#"{"photos": ["a.jpg"], "output": "o.mp4", "captionsFile": "/nonexistent/c.txt"}"#).map(\.field) == ["captionsFile"])
        // Another job's output that is this job's captions file (the file exists, as outputs may).
        try Data("A\n".utf8).write(to: URL(fileURLWithPath: folder.path("c.mp4")))
        #expect(throws: InvalidManifest.self) {
            try manifest(#"{"photos": ["a.jpg"], "output": "o.mp4", "captionsFile": "c.mp4"}"#, #"{"photos": ["b.jpg"], "output": "c.mp4"}"#, relativeTo: folder.url.path)
        }
        do {
            _ = try manifest(#"{"photos": ["a.jpg"], "output": "o.mp4", "captionsFile": "c.mp4"}"#, #"{"photos": ["b.jpg"], "output": "c.mp4"}"#, relativeTo: folder.url.path)
        } catch {
            #expect(error.errors.map(\.description) == ["job 1: output: c.mp4 is read by job 0 (its captions file): no job may write a file a job reads"])
        }
    }

    @Test("the fields a job may have: photos and output, then every setting's key in the table's order")
    func fields() {
        // The keys themselves are docs/settings.md's, which a test compares with the table.
        #expect(BatchManifest.fields == ["photos", "output"] + Setting.all.compactMap(\.key).filter { $0 != "photos" && $0 != "output" })
        #expect(Set(BatchManifest.fields).count == BatchManifest.fields.count)
        #expect(BatchManifest.fields.contains("captionsFile"))
    }
}
