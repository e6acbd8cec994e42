import Foundation
import SlideshowKit
import Testing
import TestSupport
import SlideshowText

/// The problems of a manifest whose relative paths are relative to `folder`; empty when it is accepted.
private func problems(_ jobs: [String], in folder: TemporaryFolder) -> [ManifestError] {
    do {
        _ = try BatchManifest(data: Data("[\(jobs.joined(separator: ",\n"))]".utf8), relativeTo: folder.url.path)
        return []
    } catch {
        return error.errors
    }
}

@Suite("BatchManifest: the files jobs read and write (issue 21 items 5 and 11)")
struct ManifestFilesTests {
    /// A folder holding the photos `a.mp4` and `b.mp4` and the music `song.mp4` (any bytes: the
    /// manifest only looks them up).
    private func folderWithInputs() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for name in ["a.mp4", "b.mp4", "song.mp4"] {
            #expect(FileManager.default.createFile(atPath: folder.path(name), contents: Data(name.utf8)))
        }
        return folder
    }

    @Test("a job whose output is another job's photo is refused, however the path is spelled")
    func outputIsAnotherJobsPhoto() throws {
        let folder = try folderWithInputs()
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
        #expect(problems([#"{"photos": ["a.mp4"], "output": "x.mp4"}"#, #"{"photos": ["b.mp4"], "output": "sub/../a.mp4"}"#], in: folder) == [
            ManifestError(job: 1, field: "output", reason: "sub/../a.mp4 is read by job 0 (photo 0): no job may write a file a job reads"),
        ])
        // The photo read by a later job, through a symbolic link; and through a hard link.
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.mp4"), withDestinationPath: folder.path("b.mp4"))
        try FileManager.default.linkItem(atPath: folder.path("a.mp4"), toPath: folder.path("hard.mp4"))
        #expect(problems([#"{"photos": ["a.mp4"], "output": "b.mp4"}"#, #"{"photos": ["link.mp4", "hard.mp4"], "output": "y.mp4"}"#], in: folder) == [
            ManifestError(job: 0, field: "output", reason: "b.mp4 is read by job 1 (photo 0): no job may write a file a job reads"),
        ])
        #expect(problems([#"{"photos": ["a.mp4"], "output": "x.mp4"}"#, #"{"photos": ["hard.mp4"], "output": "a.mp4"}"#], in: folder).map(\.job) == [1, 1])
    }

    @Test("a job whose output is its own photo, or any job's music, is refused before anything renders")
    func outputIsAnInput() throws {
        let folder = try folderWithInputs()
        #expect(problems([#"{"photos": ["a.mp4", "b.mp4"], "output": "./b.mp4"}"#], in: folder) == [
            ManifestError(job: 0, field: "output", reason: "./b.mp4 is read by this job (photo 1): no job may write a file a job reads"),
        ])
        #expect(problems([#"{"photos": ["a.mp4"], "output": "x.mp4", "audio": "song.mp4"}"#, #"{"photos": ["b.mp4"], "output": "song.mp4"}"#], in: folder) == [
            ManifestError(job: 1, field: "output", reason: "song.mp4 is read by job 0 (its music): no job may write a file a job reads"),
        ])
        #expect(problems([#"{"photos": ["a.mp4"], "output": "x.mp4", "audio": "song.mp4"}"#, #"{"photos": ["a.mp4"], "output": "y.mp4"}"#], in: folder).isEmpty)
    }

    @Test("outputs named in NFC and in NFD are two files on Linux, not duplicates; the same bytes twice are")
    func canonicallyEquivalentNames() throws {
        let folder = try folderWithInputs()
        let composed = "caf\u{E9}.mp4", decomposed = "cafe\u{301}.mp4"
        #expect(composed == decomposed)  // Swift's String equality, which the check must not use.
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        #expect(problems([#"{"photos": ["a.mp4"], "output": "\#(composed)"}"#, #"{"photos": ["b.mp4"], "output": "\#(decomposed)"}"#], in: folder).isEmpty)
        #expect(problems([#"{"photos": ["a.mp4"], "output": "\#(decomposed)"}"#, #"{"photos": ["b.mp4"], "output": "./\#(decomposed)"}"#], in: folder) == [
            ManifestError(job: 1, field: "output", reason: "job 0 writes ./\(decomposed) too"),
        ])
        // A photo in NFD is not an output in NFC.
        #expect(FileManager.default.createFile(atPath: folder.path("cafe\u{301}.mp4"), contents: Data([1])))
        #expect(problems([#"{"photos": ["cafe\u0301.mp4"], "output": "caf\u00E9.mp4"}"#], in: folder).isEmpty)
    }
}

@Suite("BatchManifest: a job's WebVTT file against the files the jobs write and read (issue 23)")
struct ManifestWebVTTTests {
    /// A folder holding the photos `a.jpg` and `b.jpg` and the music `song.mp3` (any bytes: the
    /// manifest only looks them up).
    private func folderWithInputs() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for name in ["a.jpg", "b.jpg", "song.mp3"] {
            #expect(FileManager.default.createFile(atPath: folder.path(name), contents: Data(name.utf8)))
        }
        return folder
    }

    @Test("a WebVTT file that is another job's video or WebVTT file is refused on the later job's webvtt field")
    func webVTTIsAnotherJobsFile() throws {
        let folder = try folderWithInputs()
        // Another job's video, spelled another way.
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4"}"#,
                          #"{"photos": ["b.jpg"], "output": "y.mp4", "webvtt": "./x.mp4"}"#], in: folder) == [
            ManifestError(job: 1, field: "webvtt", reason: "job 0 writes ./x.mp4 too"),
        ])
        // Another job's WebVTT file.
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4", "webvtt": "subs.vtt"}"#,
                          #"{"photos": ["b.jpg"], "output": "y.mp4", "webvtt": "subs.vtt"}"#], in: folder) == [
            ManifestError(job: 1, field: "webvtt", reason: "job 0 writes subs.vtt too"),
        ])
        // A later job's video that is an earlier job's WebVTT file: the fault is the later job's output.
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4", "webvtt": "y.mp4"}"#,
                          #"{"photos": ["b.jpg"], "output": "y.mp4"}"#], in: folder) == [
            ManifestError(job: 1, field: "output", reason: "job 0 writes y.mp4 too"),
        ])
    }

    @Test("a WebVTT file that is the job's own video is refused before anything renders")
    func webVTTIsItsOwnVideo() throws {
        let folder = try folderWithInputs()
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4", "webvtt": "x.mp4"}"#], in: folder) == [
            ManifestError(job: 0, field: "webvtt", reason: "this job writes x.mp4 as its output too"),
        ])
    }

    @Test("a WebVTT file that is a photo or music a job reads is refused, on the job that writes it")
    func webVTTIsAnInput() throws {
        let folder = try folderWithInputs()
        #expect(problems([#"{"photos": ["a.jpg", "b.jpg"], "output": "x.mp4", "webvtt": "b.jpg"}"#], in: folder) == [
            ManifestError(job: 0, field: "webvtt", reason: "b.jpg is read by this job (photo 1): no job may write a file a job reads"),
        ])
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4", "audio": "song.mp3"}"#,
                          #"{"photos": ["b.jpg"], "output": "y.mp4", "webvtt": "./song.mp3"}"#], in: folder) == [
            ManifestError(job: 1, field: "webvtt", reason: "./song.mp3 is read by job 0 (its music): no job may write a file a job reads"),
        ])
    }

    @Test("a WebVTT file or an output that is a job's font file is refused, on the job that writes it (issue 31)")
    func writesAFontFile() throws {
        let folder = try folderWithInputs()
        #expect(FileManager.default.createFile(atPath: folder.path("f.ttf"), contents: Data("font".utf8)))
        #expect(problems([#"{"photos": ["a.mp4"], "output": "x.mp4", "font": "f.ttf"}"#,
                          #"{"photos": ["b.mp4"], "output": "y.mp4", "webvtt": "./f.ttf"}"#], in: folder) == [
            ManifestError(job: 1, field: "webvtt", reason: "./f.ttf is read by job 0 (its font): no job may write a file a job reads"),
        ])
        #expect(problems([#"{"photos": ["a.mp4"], "output": "x.mp4", "font": "f.ttf", "webvtt": "f.ttf"}"#], in: folder) == [
            ManifestError(job: 0, field: "webvtt", reason: "f.ttf is read by this job (its font): no job may write a file a job reads"),
        ])
        // A font family is no file.
        #expect(problems([#"{"photos": ["a.mp4"], "output": "x.mp4", "font": "DejaVu Sans", "webvtt": "x.vtt"}"#], in: folder).isEmpty)
    }

    @Test("distinct WebVTT files beside distinct videos are accepted")
    func distinctFilesAreAccepted() throws {
        let folder = try folderWithInputs()
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4", "webvtt": "x.vtt"}"#,
                          #"{"photos": ["b.jpg"], "output": "y.mp4", "webvtt": "y.vtt"}"#], in: folder).isEmpty)
    }
}
