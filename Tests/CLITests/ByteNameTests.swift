import Foundation
import Testing
import SlideshowKit
import TestSupport
import SlideshowSupport

/// The names in a folder, as the bytes the system has (`opendir`/`readdir`, no decoding).
private func byteNames(in folder: String) -> [[UInt8]] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [[UInt8]] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
        if name != Array(".".utf8), name != Array("..".utf8) { names.append(name) }
    }
    return names
}

/// Runs `slideshow` from `folder` through `/bin/sh`, whose `printf` makes the arguments'
/// bytes (`\377` is 0xFF): Foundation's `Process` can only pass UTF-8.
private func slideshowInShell(_ arguments: String, in folder: TemporaryFolder) throws -> ProcessResult {
    try run("/bin/sh", ["-c", "cd \"$1\" && exec \"$2\" \(arguments)", "sh", folder.url.path, slideshowTool])
}

private let badPhoto = Array("bad".utf8) + [0xFF] + Array(".jpg".utf8)
private let badOutput = Array("out".utf8) + [0xFF] + Array(".mp4".utf8)

/// Copies a sample photo to a name that is not UTF-8, made from its bytes.
private func writeBytesNamed(_ name: [UInt8], from source: String, in folder: TemporaryFolder) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: source))
    let path = folder.url.path + "/" + PathBytes.string(name)
    let descriptor = PathBytes.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    #expect(written == data.count)
}

@Suite("Paths are bytes: names that are not UTF-8 reach the files they name, and print as \\xFF")
struct PathBytesTests {
    @Test("any bytes survive the trip to a string and back; valid UTF-8 is the string it spells; escapes print as \\xFF")
    func roundTrip() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 1...255, using: &generator) }
            #expect(PathBytes.bytes(PathBytes.string(bytes)) == bytes)
        }
        #expect(PathBytes.string(Array("Ångström/ü.jpg".utf8)) == "Ångström/ü.jpg")
        #expect(PathBytes.string(badPhoto) == "bad\u{10FFFF}.jpg")
        // Overlong, surrogate, cut-short and past-U+10FFFF sequences are bytes, not characters.
        for invalid: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            #expect(PathBytes.string(invalid).unicodeScalars.map(\.value) == invalid.map { 0x10FF00 + UInt32($0) })
        }
        // A name holding an escape scalar itself (valid UTF-8 F4 8F BF BF) keeps its bytes too.
        let literal: [UInt8] = [0x61, 0xF4, 0x8F, 0xBF, 0xBF]
        #expect(PathBytes.bytes(PathBytes.string(literal)) == literal)
        #expect(Message.oneLine("slideshow: \(PathBytes.string(badPhoto)): no such file") == "slideshow: bad\\xFF.jpg: no such file")
        #expect(Message.oneLine(PathBytes.string([0x80, 0x0A])) == "\\x80\\n")
    }

    @Test("`make` renders bad\\xFF.jpg to out\\xFF.mp4: the exact byte name exists, and nothing named with U+FFFD",
          needsBuiltTool)
    func render() throws {
        let folder = try TemporaryFolder()
        try writeBytesNamed(badPhoto, from: samplePhotos[0], in: folder)
        let result = try slideshowInShell(#"make "$(printf 'bad\377.jpg')" -o "$(printf 'out\377.mp4')" --duration 1 --size 96x64"#,
                                          in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let names = byteNames(in: folder.url.path)
        #expect(names.contains(badOutput), "\(names)")
        #expect(!names.contains { $0.count > 3 && $0.starts(with: Array("out".utf8)) && $0 != badOutput }, "\(names)")
        // Its report names it escaped, on one line.
        #expect(result.stderr.hasPrefix("out\\xFF.mp4: 30 frames"), "\(result.stderr)")
    }

    @Test("a missing photo and an unreadable output folder named with such bytes print them as \\xFF", needsBuiltTool)
    func messages() throws {
        let folder = try TemporaryFolder()
        let missing = try slideshowInShell(#"make "$(printf 'missing\376.jpg')" -o out.mp4 --duration 1 --size 96x64"#, in: folder)
        #expect(missing.status == 1)
        #expect(missing.stderr == "slideshow: missing\\xFE.jpg: no such file\n")
        try writeBytesNamed(badPhoto, from: samplePhotos[0], in: folder)
        let noFolder = try slideshowInShell(#"make "$(printf 'bad\377.jpg')" -o "$(printf 'no\377/out.mp4')" --duration 1 --size 96x64"#, in: folder)
        #expect(noFolder.status == 1)
        #expect(noFolder.stderr.hasPrefix("slideshow: no\\xFF/out.mp4: "), "\(noFolder.stderr)")
        #expect(!noFolder.stderr.contains("\u{FFFD}"))
    }

    @Test("a manifest names such files with the same convention: U+10FF00 + the byte (\\uDBFF\\uDFFF for 0xFF)", needsBuiltTool)
    func manifest() throws {
        let folder = try TemporaryFolder()
        try writeBytesNamed(badPhoto, from: samplePhotos[0], in: folder)
        let manifest = #"[{"photos": ["bad\uDBFF\uDFFF.jpg"], "output": "out\uDBFF\uDFFF.mp4", "size": "96x64", "duration": 1}]"#
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: folder.path("jobs.json")))
        let result = try slideshow(["batch", folder.path("jobs.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(byteNames(in: folder.url.path).contains(badOutput))
    }
}
