import Foundation
import Synchronization
import Testing
import TestSupport

/// Bad input and failing machines, end to end: what `slideshow make` does with photos that are
/// huge, endless or absurd, with a full disk, and with another render racing it to its output.
/// (FailureTests covers malformed files, signals and bad output paths.)
@Suite("slideshow make: limits and faults", needsBuiltTool)
struct FaultTests {
    /// Writes bytes into a folder and returns the path.
    func write(_ bytes: [UInt8], _ name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The files a render left beside its output, other than the inputs written there.
    func leftovers(in folder: TemporaryFolder, besides inputs: [String] = []) -> [String] {
        folder.contents().filter { !inputs.contains($0) }
    }

    @Test("unusual but valid photos render: CMYK, arithmetic-coded, greyscale, progressive, PNG with and without alpha, 2x1, a 7.8:1 panorama",
          .enabled(if: TestEnvironment.sharedPhotos != nil, TestEnvironment.noSharedPhotos),
          arguments: ["cmyk_pillow_sample_100x100.jpg", "arith_testimg_227x149.jpg", "grey_testimg_227x149.jpg",
                      "progressive_testimg_227x149.jpg", "progressive_panasonic_lc70_1280x960.jpg", "png_rgb_120x96.png",
                      "png_rgba_32x32.png", "tiny_2x1_orient8.jpg", "panorama_openpano_cmu1_6000x771.jpg"])
    func unusualPhotos(name: String) throws {
        let folder = try TemporaryFolder()
        let photo = try #require(TestEnvironment.sharedPhoto(name))
        let output = folder.path("out.mp4")
        let result = try slideshow(["make", photo, "--size", "64x48", "--duration", "0.1", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ProbedVideo(path: output).decodedFrames == 3)
        #expect(folder.contents() == ["out.mp4"])
    }

    @Test("a 20000x14000 JPEG renders to 1920x1080 in at most 250 MB peak RSS (decoded at 1/8 scale)")
    func hugePhotoMemory() throws {
        let folder = try TemporaryFolder()
        // A real 4:4:4 YCbCr baseline JPEG of 280 megapixels, 3.3 MB: every block a flat grey.
        let photo = try write(SyntheticJPEG.grey(width: 20000, height: 14000, components: 3), "huge.jpg", in: folder)
        let output = folder.path("huge.mp4")
        let run = try runMeasuringMemory(slideshowTool, ["make", photo, "--duration", "1", "--quiet", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        // A full-size RGB decode alone would be 840 MB.
        #expect(run.peakResidentBytes <= 250_000_000, "peak RSS \(run.peakResidentBytes / 1_000_000) MB")
        let probe = try ProbedVideo(path: output)
        #expect(probe.decodedFrames == 30)
        #expect(probe.stream["width"] == "1920" && probe.stream["height"] == "1080")
        #expect(leftovers(in: folder, besides: ["huge.jpg"]) == ["huge.mp4"])
    }

    @Test("a photo over the 300-megapixel cap is refused from its header: status 1, one line, nothing left")
    func overPixelCap() throws {
        let folder = try TemporaryFolder()
        // 30000x20000 = 600 MP, stated in a 300-byte header with no image data behind it.
        let photo = try write(SyntheticJPEG.grey(width: 30000, height: 20000, components: 3, data: false), "vast.jpg", in: folder)
        let result = try slideshow(["make", samplePhotos[0], photo, "--size", "64x48", "-o", folder.path("out.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(photo): the JPEG is 30000x20000 (600 megapixels), over the 300-megapixel cap\n")
        #expect(leftovers(in: folder, besides: ["vast.jpg"]).isEmpty)
    }

    @Test("a progressive JPEG of 501 scans is refused when it is decoded: status 1, one line, no temporary file left")
    func absurdScanCount() throws {
        let folder = try TemporaryFolder()
        let photo = try write(SyntheticJPEG.progressive(scans: 501), "scans.jpg", in: folder)
        let result = try slideshow(["make", samplePhotos[0], photo, "--size", "64x48", "-o", folder.path("out.mp4")], timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(photo): a progressive JPEG of more than 500 scans is refused (Progressive JPEG image has more than 500 scans)\n")
        #expect(leftovers(in: folder, besides: ["scans.jpg"]).isEmpty)
    }

    @Test("a FIFO or /dev/zero as a photo: refused at once, status 1, one line; it does not hang", .timeLimit(.minutes(1)))
    func endlessFiles() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("pipe.jpg")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (photo, what) in [(fifo, "a FIFO"), ("/dev/zero", "a character device")] {
            // Killed after 20 s should it hang (it takes milliseconds): the status would then be 137.
            let result = try slideshow(["make", samplePhotos[0], photo, "--size", "64x48", "-o", folder.path("out.mp4")], timeout: 20)
            #expect(result.status == 1, "\(photo): \(result.stderr)")
            #expect(result.stderr == "slideshow: \(photo): not a regular file (\(what))\n")
        }
        #expect(leftovers(in: folder, besides: ["pipe.jpg"]).isEmpty)
    }

    @Test("a full disk (a file-size limit, ulimit -f): status 1, one line naming the output, nothing left",
          arguments: [false, true])
    func fullDisk(overwrite: Bool) throws {
        let folder = try TemporaryFolder()
        let output = folder.path("full.mp4")
        if overwrite { try Data("precious".utf8).write(to: URL(fileURLWithPath: output)) }
        // The limit is 64 blocks (dash counts 512 bytes: 32 KiB); the video would be several
        // hundred kilobytes. SIGXFSZ is ignored by the tool, so writes fail with EFBIG instead.
        let command = ["make"] + samplePhotos + ["--size", "640x480", "--crf", "5", "--preset", "ultrafast", "-o", output]
            + (overwrite ? ["--overwrite"] : [])
        let result = try run("/bin/sh", ["-c", "ulimit -f 64 && exec \"$0\" \"$@\"", slideshowTool] + command, timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "slideshow: \(output): no space left for the video (File too large)\n")
        #expect(folder.contents() == (overwrite ? ["full.mp4"] : []))
        if overwrite { #expect(try String(contentsOfFile: output, encoding: .utf8) == "precious") }
        // Not vacuous: without the limit the same command writes the video.
        let unlimited = try slideshow(command + ["--overwrite"])
        #expect(unlimited.status == 0, "\(unlimited.stderr)")
        #expect((try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? 0) > 64 * 1024)
    }

    @Test("a full disk under stderr too (stderr a file past ulimit -f): status 1, no crash, nothing left")
    func fullDiskUnderStderr() throws {
        let folder = try TemporaryFolder()
        let errors = folder.path("errors.txt")
        // Nothing can be written at all: not the video, not the message. The status still tells.
        let command = ["make", samplePhotos[0], "--size", "64x48", "-o", folder.path("out.mp4")]
        let result = try run("/bin/sh", ["-c", "ulimit -f 0 && exec \"$0\" \"$@\" 2>\"$ERRORS\"", slideshowTool] + command,
                             environment: ProcessInfo.processInfo.environment.merging(["ERRORS": errors]) { $1 }, timeout: 60)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(folder.contents() == ["errors.txt"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: errors)).isEmpty)
    }

    /// Runs two commands at the same moment, each on its own thread, and returns both results.
    func race(_ first: [String], _ second: [String]) throws -> [ProcessResult] {
        let results = Mutex<[Int: Result<ProcessResult, any Error>]>([:])
        let group = DispatchGroup()
        for (index, arguments) in [first, second].enumerated() {
            DispatchQueue.global().async(group: group) {
                let result = Result { try slideshow(arguments, timeout: 120) }
                results.withLock { $0[index] = result }
            }
        }
        group.wait()
        return try results.withLock { results in try [results[0]!.get(), results[1]!.get()] }
    }

    @Test("two renders racing to one output: one complete video, byte for byte one of them, never a mix; no temporary files",
          arguments: [false, true])
    func concurrentRenders(overwrite: Bool) throws {
        let folder = try TemporaryFolder()
        let output = folder.path("race.mp4")
        // Two different videos (120 and 150 frames, every frame encoded), so a mix would show.
        let common = ["--size", "320x240", "--hold", "encode", "--preset", "ultrafast", "--quiet"] + (overwrite ? ["--overwrite"] : [])
        let a = ["make"] + samplePhotos + common + ["--duration", "4"]
        let b = ["make"] + samplePhotos.reversed() + common + ["--duration", "5"]
        let results = try race(a + ["-o", output], b + ["-o", output])

        // Each video alone, for reference (renders are deterministic).
        let referenceA = folder.path("a.mp4"), referenceB = folder.path("b.mp4")
        #expect(try slideshow(a + ["-o", referenceA]).status == 0)
        #expect(try slideshow(b + ["-o", referenceB]).status == 0)
        let written = try Data(contentsOf: URL(fileURLWithPath: output))
        let candidates = [try Data(contentsOf: URL(fileURLWithPath: referenceA)), try Data(contentsOf: URL(fileURLWithPath: referenceB))]
        #expect(candidates.contains(written), "the output is neither video whole")
        let frames = try ProbedVideo(path: output).decodedFrames
        #expect(frames == 120 || frames == 150)

        if overwrite {
            // Both succeed; the later rename wins.
            #expect(results.map(\.status) == [0, 0], "\(results.map(\.stderr))")
        } else {
            // One wins; the other is refused, either at its start or when it tries to move its file into place.
            #expect(results.map(\.status).sorted() == [0, 1], "\(results.map(\.stderr))")
            let loser = try #require(results.first { $0.status == 1 })
            #expect(loser.stderr.hasPrefix("slideshow: \(output): already exists"), "\(loser.stderr)")
            #expect(loser.stderr.split(separator: "\n").count == 1)
            let winner = results[0].status == 0 ? 0 : 1
            #expect(written == candidates[winner], "the file is the winner's video")
        }
        #expect(folder.contents() == ["a.mp4", "b.mp4", "race.mp4"], "no temporary files")
    }
}
