import Foundation
import Testing
import TestSupport

@Suite("slideshow make and batch: captions", needsBuiltTool)
struct CaptionCLITests {
    static let base = ["--duration", "1.5", "--size", "320x180"]

    @Test("--captions FILE (CRLF, a final newline, an empty line for none) draws what --caption does; a manifest's photo captions too")
    func captionSourcesAgree() throws {
        let folder = try TemporaryFolder()
        let list = folder.path("captions.txt")
        try Data("Erste Worte\r\n\r\nΤρίτη λέξη\n".utf8).write(to: URL(fileURLWithPath: list))
        #expect(try slideshow(["make"] + samplePhotos + Self.base + ["-o", folder.path("file.mp4"), "--captions", list]).status == 0)
        #expect(try slideshow(["make"] + samplePhotos + Self.base + ["-o", folder.path("given.mp4"),
                                                                     "--caption", "Erste Worte", "--caption", "", "--caption", "Τρίτη λέξη"]).status == 0)
        #expect(try slideshow(["make"] + samplePhotos + Self.base + ["-o", folder.path("plain.mp4")]).status == 0)
        let photos = zip(samplePhotos, ["Erste Worte", nil, "Τρίτη λέξη"]).map { path, caption in
            #"{"path": "\#(path)""# + (caption.map { #", "caption": "\#($0)""# } ?? "") + "}"
        }
        let manifest = folder.path("jobs.json")
        try Data(#"[{"photos": [\#(photos.joined(separator: ", "))], "output": "batch.mp4", "duration": 1.5, "size": "320x180"}]"#.utf8)
            .write(to: URL(fileURLWithPath: manifest))
        let batch = try slideshow(["batch", manifest])
        #expect(batch.status == 0, "\(batch.stderr)")
        let bytes = try ["file", "given", "plain", "batch"].map { try Data(contentsOf: URL(fileURLWithPath: folder.path("\($0).mp4"))) }
        #expect(bytes[0] == bytes[1] && bytes[1] == bytes[3])
        #expect(bytes[0] != bytes[2])
    }

    @Test("bad captions and fonts are refused before anything is written, naming the option or the file",
          arguments: [
            (["--caption", "only one"], "--caption: 1 captions for 3 photos", 64),
            (["--caption", "a", "--captions", "list.txt"], "give --caption or --captions, not both", 64),
            (["--captions", "missing.txt"], "--captions: missing.txt: cannot be read", 64),
            (["--caption-position", "left"], "--caption-position", 64),
            (["--captions-from", "exif"], "--captions-from", 64),
            (["--font", "no/such/font.ttf"], "no/such/font.ttf: ", 1),
          ])
    func refused(arguments: [String], message: String, status: Int32) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make"] + samplePhotos + Self.base + ["-o", folder.path("out.mp4")] + arguments)
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }
}
