import Foundation
import SlideshowKit
import Testing
import TestSupport

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
    /// A folder holding the photos `a.jpg` and `b.jpg` and the music `song.wav` (any bytes: the
    /// manifest only looks them up).
    private func folderWithInputs() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for name in ["a.jpg", "b.jpg", "song.wav"] {
            #expect(FileManager.default.createFile(atPath: folder.path(name), contents: Data(name.utf8)))
        }
        return folder
    }

    @Test("a job whose output is another job's photo is refused, however the path is spelled")
    func outputIsAnotherJobsPhoto() throws {
        let folder = try folderWithInputs()
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4"}"#, #"{"photos": ["b.jpg"], "output": "sub/../a.jpg"}"#], in: folder) == [
            ManifestError(job: 1, field: "output", reason: "sub/../a.jpg is read by job 0 (photo 0): no job may write a file a job reads"),
        ])
        // The photo read by a later job, through a symbolic link; and through a hard link.
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.jpg"), withDestinationPath: folder.path("b.jpg"))
        try FileManager.default.linkItem(atPath: folder.path("a.jpg"), toPath: folder.path("hard.jpg"))
        #expect(problems([#"{"photos": ["a.jpg"], "output": "b.jpg"}"#, #"{"photos": ["link.jpg", "hard.jpg"], "output": "y.mp4"}"#], in: folder) == [
            ManifestError(job: 0, field: "output", reason: "b.jpg is read by job 1 (photo 0): no job may write a file a job reads"),
        ])
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4"}"#, #"{"photos": ["hard.jpg"], "output": "a.jpg"}"#], in: folder).map(\.job) == [1, 1])
    }

    @Test("a job whose output is its own photo, or any job's music, is refused before anything renders")
    func outputIsAnInput() throws {
        let folder = try folderWithInputs()
        #expect(problems([#"{"photos": ["a.jpg", "b.jpg"], "output": "./b.jpg"}"#], in: folder) == [
            ManifestError(job: 0, field: "output", reason: "./b.jpg is read by this job (photo 1): no job may write a file a job reads"),
        ])
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4", "audio": "song.wav"}"#, #"{"photos": ["b.jpg"], "output": "song.wav"}"#], in: folder) == [
            ManifestError(job: 1, field: "output", reason: "song.wav is read by job 0 (its music): no job may write a file a job reads"),
        ])
        #expect(problems([#"{"photos": ["a.jpg"], "output": "x.mp4", "audio": "song.wav"}"#, #"{"photos": ["a.jpg"], "output": "y.mp4"}"#], in: folder).isEmpty)
    }

    @Test("outputs named in NFC and in NFD are two files on Linux, not duplicates; the same bytes twice are")
    func canonicallyEquivalentNames() throws {
        let folder = try folderWithInputs()
        let composed = "caf\u{E9}.mp4", decomposed = "cafe\u{301}.mp4"
        #expect(composed == decomposed)  // Swift's String equality, which the check must not use.
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        #expect(problems([#"{"photos": ["a.jpg"], "output": "\#(composed)"}"#, #"{"photos": ["b.jpg"], "output": "\#(decomposed)"}"#], in: folder).isEmpty)
        #expect(problems([#"{"photos": ["a.jpg"], "output": "\#(decomposed)"}"#, #"{"photos": ["b.jpg"], "output": "./\#(decomposed)"}"#], in: folder) == [
            ManifestError(job: 1, field: "output", reason: "job 0 writes ./\(decomposed) too"),
        ])
        // A photo in NFD is not an output in NFC.
        #expect(FileManager.default.createFile(atPath: folder.path("cafe\u{301}.jpg"), contents: Data([1])))
        #expect(problems([#"{"photos": ["cafe\u0301.jpg"], "output": "caf\u00E9.jpg"}"#], in: folder).isEmpty)
    }
}
