import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowKit
import SlideshowPixels
import SlideshowWriter

private let small = Size(width: 64, height: 48)

/// Writes a three-frame video to `path` through the writer.
private func writeSmall(_ path: String, overwrite: Bool = false) async throws {
    try await writeVideo(to: path, settings: VideoSettings(size: small, preset: "ultrafast"),
                         pictures: [gradient(small, seed: 3)], starts: [0], endFrame: 3, overwrite: overwrite)
}

/// A writer's `startWriting()` error for an output, or nil when it started (and was then cancelled).
private func startError(_ path: String, overwrite: Bool) throws -> WriterError? {
    let writer = try AssetWriter(outputPath: path, settings: VideoSettings(size: small), overwrite: overwrite)
    writer.add(AssetWriterInput(settings: writer.settings))
    defer { writer.cancelWriting() }
    do {
        try writer.startWriting()
        return nil
    } catch {
        return error
    }
}

/// A process ID that is not alive: a child that has exited and been reaped.
private func deadPID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

@Suite("The output file: only regular files replaced, impossible paths refused up front, modes, long names, stale partials")
struct OutputFileTests {
    @Test("a device, a FIFO and a socket are never replaced, even with overwrite; nothing is created beside them")
    func notRegularFiles() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("pipe.mp4")
        #expect(mkfifo(fifo, 0o644) == 0)
        let socketPath = folder.path("socket.mp4")
        let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        for overwrite in [false, true] {
            #expect(try startError(fifo, overwrite: overwrite)
                    == WriterError(path: fifo, kind: .notAFile, reason: "is a FIFO, not a regular file; only a regular file can be replaced"))
            #expect(try startError(socketPath, overwrite: overwrite)?.kind == .notAFile)
            // /dev/null: refused before a temporary file is made in /dev.
            #expect(try startError("/dev/null", overwrite: overwrite)
                    == WriterError(path: "/dev/null", kind: .notAFile, reason: "is a character device, not a regular file; only a regular file can be replaced"))
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        #expect(folder.contents() == ["pipe.mp4", "socket.mp4"])
    }

    @Test("impossible outputs are refused by the check, each naming its real problem",
          arguments: ["dangling", "slash", "empty", "missing folder", "folder", "file as folder", "long name", "long path"])
    func impossibleOutputs(which: String) throws {
        let folder = try TemporaryFolder()
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path("file")))
        #expect(symlink("nowhere.mp4", folder.path("dangling.mp4")) == 0)
        let longName = String(repeating: "n", count: 252) + ".mp4"
        let longPath = folder.url.path + String(repeating: "/p", count: 2100) + ".mp4"
        let (path, expected): (String, WriterError) = switch which {
        case "dangling": (folder.path("dangling.mp4"), WriterError(path: folder.path("dangling.mp4"), kind: .invalidPath,
                                                                     reason: "is a symbolic link to nowhere.mp4, which does not exist"))
        case "slash": (folder.path("x.mp4") + "/", WriterError(path: folder.path("x.mp4") + "/", kind: .invalidPath,
                                                               reason: "ends in '/', so it names a folder, not a file"))
        case "empty": ("", WriterError(path: "", kind: .invalidPath, reason: "the output path is empty"))
        case "missing folder": (folder.path("none/x.mp4"), WriterError(path: folder.path("none/x.mp4"), kind: .noSuchFolder,
                                                                       reason: "folder \(folder.path("none")) does not exist"))
        case "folder": (folder.url.path, WriterError(path: folder.url.path, kind: .outputIsFolder, reason: "is a folder, not a file"))
        case "file as folder": (folder.path("file/x.mp4"), WriterError(path: folder.path("file/x.mp4"), kind: .noSuchFolder,
                                                                       reason: "\(folder.path("file")) is not a folder"))
        case "long name": (folder.path(longName), WriterError(path: folder.path(longName), kind: .invalidPath,
                                                             reason: "the name is 256 bytes, longer than the 255 the file system allows"))
        default: (longPath, WriterError(path: longPath, kind: .invalidPath,
                                        reason: "the path is \(longPath.utf8.count) bytes, longer than the 4095 Linux allows"))
        }
        for overwrite in [false, true] {
            #expect(throws: expected) { try AssetWriter.checkOutput(outputPath: path, overwrite: overwrite) }
            #expect(try startError(path, overwrite: overwrite) == expected)
        }
        #expect(folder.contents() == ["dangling.mp4", "file"])
    }

    @Test("a render checks its output before it reads a photo: a missing photo is not what it reports")
    func outputCheckedFirst() async throws {
        let folder = try TemporaryFolder()
        let show = Slideshow(photos: [Photo(path: folder.path("missing.jpg"))], output: folder.path("x.mp4") + "/")
        let error = await #expect(throws: RenderError.self) { _ = try await show.render() }
        guard case .output(let output)? = error else {
            Issue.record("expected an output error, got \(String(describing: error))")
            return
        }
        #expect(output.kind == .invalidPath)
    }

    @Test("a symbolic link to a file is written through with overwrite: the file is replaced, the link stays")
    func symlinkWrittenThrough() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("real"), withIntermediateDirectories: false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder.path("real/target.mp4")))
        #expect(symlink("real/target.mp4", folder.path("link.mp4")) == 0)
        #expect(try startError(folder.path("link.mp4"), overwrite: false)?.kind == .outputExists)
        try await writeSmall(folder.path("link.mp4"), overwrite: true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.mp4")) == "real/target.mp4")
        #expect(try ProbedVideo(path: folder.path("real/target.mp4")).decodedFrames == 3)
        #expect(folder.contents() == ["link.mp4", "real"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("real")) == ["target.mp4"])
    }

    @Test("a render through a symbolic link reports the bytes of the file it wrote, not of the link")
    func renderThroughLink() async throws {
        let folder = try TemporaryFolder()
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder.path("target.mp4")))
        #expect(symlink("target.mp4", folder.path("link.mp4")) == 0)
        var show = Slideshow(photos: [Photo(path: TestEnvironment.sample("square.jpg"))], output: folder.path("link.mp4"), overwrite: true)
        show.video = VideoSettings(size: small, preset: "ultrafast")
        let result = try await show.render()
        let size = try FileManager.default.attributesOfItem(atPath: folder.path("target.mp4"))[.size] as? Int
        #expect(result.bytes == size && result.bytes > 100)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.mp4")) == "target.mp4")
    }

    @Test("overwrite keeps the replaced file's permission bits; a new file gets the umask's")
    func modes() async throws {
        let folder = try TemporaryFolder()
        let replaced = folder.path("replaced.mp4")
        try Data("old".utf8).write(to: URL(fileURLWithPath: replaced))
        #expect(chmod(replaced, 0o640) == 0)
        try await writeSmall(replaced, overwrite: true)
        var info = stat()
        #expect(stat(replaced, &info) == 0 && info.st_mode & 0o7777 == 0o640)
        #expect(chmod(replaced, 0o604) == 0)
        try await writeSmall(replaced, overwrite: true)
        #expect(stat(replaced, &info) == 0 && info.st_mode & 0o7777 == 0o604)

        let fresh = folder.path("fresh.mp4")
        try await writeSmall(fresh)
        let mask = umask(0o022)
        umask(mask)
        #expect(stat(fresh, &info) == 0 && info.st_mode & 0o7777 == 0o666 & ~mask)
    }

    @Test("a name of 255 bytes renders: its temporary name is shortened to fit, with a hash of the name")
    func longestName() async throws {
        let folder = try TemporaryFolder()
        let name = String(repeating: "é", count: 125) + "x.mp4"  // 2 × 125 + 5 = 255 bytes
        #expect(name.utf8.count == 255)
        try await writeSmall(folder.path(name))
        #expect(folder.contents() == [name])
        let stem = OutputFile.temporaryStem(for: name)
        #expect(stem.utf8.count + 10 + 1 + 20 + ".partial".utf8.count <= 255)
        #expect(stem.hasSuffix(".slideshow-") && stem.hasPrefix(".éé"))
        // Two long names that share their first 200 bytes keep apart.
        #expect(stem != OutputFile.temporaryStem(for: String(repeating: "é", count: 125) + "y.mp4"))
        #expect(OutputFile.temporaryStem(for: "a.mp4") == ".a.mp4.slideshow-")
        // A file system with shorter names (eCryptfs: 143 bytes) gets shorter temporary names.
        let short = OutputFile.temporaryStem(for: String(repeating: "s", count: 143), nameMax: 143)
        #expect(short.utf8.count + 10 + 1 + 20 + ".partial".utf8.count <= 143)
    }

    @Test("an output in a folder whose path leaves no room for the temporary name renders", .timeLimit(.minutes(1)))
    func longestPath() async throws {
        let folder = try TemporaryFolder()
        // Nested folders up to a path of about 4080 bytes: the output's path fits in 4095, the temporary's would not.
        var deep = folder.url.path
        while deep.utf8.count < 4080 - 200 {
            deep += "/" + String(repeating: "d", count: 200)
            #expect(mkdir(deep, 0o755) == 0)
        }
        deep += "/" + String(repeating: "e", count: 4080 - deep.utf8.count - 1)
        #expect(mkdir(deep, 0o755) == 0)
        let output = deep + "/a.mp4"
        #expect(output.utf8.count <= 4095)
        #expect((deep + "/" + ".a.mp4.slideshow-\(getpid())-1.partial").utf8.count > 4095)
        try await writeSmall(output)
        #expect(try ProbedVideo(path: output).decodedFrames == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: deep) == ["a.mp4"])
    }

    @Test("the search for stale temporary files reads every name of a large folder in place (it once read past readdir's buffer)")
    func staleSearchInLargeFolder() throws {
        let folder = try TemporaryFolder()
        // Names of every length from 1 to 255 bytes, several times over: some entry ends a
        // readdir buffer, and the listing must not read beyond it.
        for round in 0..<12 {
            for length in 1...255 {
                let name = String(round) + String(repeating: "n", count: length - 1)
                if name.utf8.count <= 255 { #expect(FileManager.default.createFile(atPath: folder.path(name), contents: nil)) }
            }
        }
        let stale = ".out.mp4.slideshow-\(try deadPID())-1.partial"
        #expect(FileManager.default.createFile(atPath: folder.path(stale), contents: nil,
                                               attributes: [.modificationDate: Date(timeIntervalSinceNow: -60)]))
        let descriptor = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        #expect(OutputFile.removeStale(stem: ".out.mp4.slideshow-", in: descriptor) == [stale])
    }

    @Test("stale temporary files of the same output are removed when their lock is free; a held one stays")
    func stalePartials() async throws {
        let folder = try TemporaryFolder()
        let dead = folder.path(".out.mp4.slideshow-\(try deadPID())-1.partial")
        let held = folder.path(".out.mp4.slideshow-\(getpid())-999999.partial")
        let fresh = folder.path(".out.mp4.slideshow-\(try deadPID())-2.partial")
        let other = folder.path(".other.mp4.slideshow-\(try deadPID())-1.partial")
        let unrelated = folder.path(".out.mp4.slideshow-notapid.partial")
        for path in [dead, held, fresh, other, unrelated] { try Data("partial".utf8).write(to: URL(fileURLWithPath: path)) }
        // A minute old, except `fresh`, which could be a render that has only just created it.
        let old = Date(timeIntervalSinceNow: -60)
        for path in [dead, held, other, unrelated] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        }
        // A live render holds its lock: another open file description of the same file.
        let holder = open(held, O_RDONLY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)

        try await writeSmall(folder.path("out.mp4"))
        #expect(folder.contents() == [URL(fileURLWithPath: fresh).lastPathComponent, URL(fileURLWithPath: held).lastPathComponent,
                                      URL(fileURLWithPath: unrelated).lastPathComponent, URL(fileURLWithPath: other).lastPathComponent,
                                      "out.mp4"].sorted())
    }

    @Test("a render's own temporary file is locked while it runs, so another render never takes it for stale")
    func ownPartialLocked() throws {
        let folder = try TemporaryFolder()
        let writer = try AssetWriter(outputPath: folder.path("busy.mp4"), settings: VideoSettings(size: small))
        writer.add(AssetWriterInput(settings: writer.settings))
        try writer.startWriting()
        defer { writer.cancelWriting() }
        let partial = try #require(folder.contents().first)
        #expect(partial.hasPrefix(".busy.mp4.slideshow-\(getpid())-") && partial.hasSuffix(".partial"))
        let other = open(folder.path(partial), O_RDONLY)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: folder.path(partial))
        let descriptor = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        #expect(OutputFile.removeStale(stem: ".busy.mp4.slideshow-", in: descriptor).isEmpty)
        #expect(folder.contents() == [partial])
    }
}
