import Foundation
import Testing
import TestSupport

@Suite("slideshow make: settings x264 or H.264 cannot honour, impossible outputs, exact one-frame shows", needsBuiltTool)
struct OutputHardeningTests {
    @Test("--crf 0 is a usage error naming the valid range (it crashed: a double free after x264 refused lossless High)")
    func crfZero() throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--crf", "0", "-o", folder.path("out.mp4")], timeout: 60)
        #expect(result.status == 64)
        #expect(result.stderr.contains("CRF 0 (lossless) is not possible in H.264 High; give 1 to 51"), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("a size or rate beyond H.264's highest level is a usage error", arguments: [["--size", "8192x8192"], ["--size", "8192x4320", "--fps", "240"]])
    func beyondLevel(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], "-o", folder.path("out.mp4")] + arguments, timeout: 60)
        #expect(result.status == 64)
        #expect(result.stderr.contains("H.264 allows at its highest level (6.2"), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("a FIFO at the output is refused, even with --overwrite, and stays a FIFO")
    func fifoOutput() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("out.mp4")
        #expect(mkfifo(fifo, 0o644) == 0)
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "-o", fifo, "--overwrite"], timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(fifo): is a FIFO, not a regular file; only a regular file can be replaced\n")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(folder.contents() == ["out.mp4"])
    }

    @Test("an impossible output is reported before the photos are read: its own problem, not the missing photo's")
    func outputBeforePhotos() throws {
        let folder = try TemporaryFolder()
        #expect(symlink("nowhere.mp4", folder.path("dangling.mp4")) == 0)
        let missing = folder.path("missing.jpg")
        for (output, reason) in [(folder.path("dangling.mp4"), "is a symbolic link to nowhere.mp4, which does not exist"),
                                 (folder.path("x.mp4") + "/", "ends in '/', so it names a folder, not a file"),
                                 (folder.path("none/x.mp4"), "folder \(folder.path("none")) does not exist")] {
            let result = try slideshow(["make", missing, "-o", output, "--overwrite"], timeout: 60)
            #expect(result.status == 1)
            #expect(result.stderr == "slideshow: \(output): \(reason)\n")
        }
        // An empty output is a setting's problem, refused before anything is read, as a manifest's is.
        let empty = try slideshow(["make", missing, "-o", ""], timeout: 60)
        #expect(empty.status == 64)
        #expect(empty.stderr.hasPrefix("Error: --output: is an empty path\n"), "\(empty.stderr)")
        #expect(folder.contents() == ["dangling.mp4"])
    }

    @Test("a one-frame show lasts exactly its frame in the container too", arguments: [("0.0333", "30", "0.033333"), ("0.0166", "60", "0.016667")])
    func oneFrame(duration: String, fps: String, expected: String) throws {
        let folder = try TemporaryFolder()
        let output = folder.path("one.mp4")
        let result = try slideshow(["make", samplePhotos[0], "--size", "64x48", "--duration", duration, "--fps", fps, "-o", output], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let probed = try ProbedVideo(path: output)
        #expect(probed.decodedFrames == 1)
        #expect(probed.formatDuration == expected)
        #expect(probed.streamDuration == expected)
    }
}
