import Foundation
import Testing
import TestSupport

/// `../shared/clips`, or nil in a fresh clone.
private let clips: URL? = {
    let url = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/clips")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.tsv").path) ? url : nil
}()

private func clip(_ name: String) -> String { clips!.appendingPathComponent(name).path }

private func frameCount(_ path: String) throws -> String {
    let result = try run(which("ffprobe")!, ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
    return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite("slideshow make: clips among the photos", needsBuiltTool,
       .enabled(if: clips != nil && which("ffprobe") != nil, "skipped: ../shared/clips (or ffprobe) is absent; these tests need the shared clips"))
struct ClipCLITests {
    @Test("clip.mp4#t=1,2 plays its part; the --json report's starts include the clip")
    func part() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("show.mp4")
        let result = try slideshow(["make", samplePhotos[0], clip("mp4_h264_rot90ccw_aac_720p_5s.mp4") + "#t=1,2.5", samplePhotos[2],
                                    "--slide-duration", "1", "--size", "64x48", "--preset", "ultrafast", "--json", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let photos = try #require(report["photos"] as? [[String: Any]])
        #expect(photos.map { $0["path"] as? String } == [samplePhotos[0], clip("mp4_h264_rot90ccw_aac_720p_5s.mp4"), samplePhotos[2]])
        #expect(photos.map { ($0["start"] as? NSNumber)?.doubleValue } == [0, 1, 2.5])
        #expect(report["frames"] as? Int == 105)
        #expect(try frameCount(output) == "105")
    }

    @Test("a file whose name holds #t= is that file, played whole")
    func literalName() throws {
        let folder = try TemporaryFolder()
        let odd = folder.path("odd#t=0,0.5.mp4")
        try FileManager.default.copyItem(atPath: clip("mp4_h264_960x540_noaudio_1s.mp4"), toPath: odd)
        let output = folder.path("show.mp4")
        let result = try slideshow(["make", odd, "--size", "64x48", "--preset", "ultrafast", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try frameCount(output) == "31")
    }

    @Test("usage errors (status 64): a part that is not one, a part outside the clip, clips longer than --duration",
          arguments: [
            (["#t=abc"], "photos: ", "is not a part of a clip (#t=start,end, #t=start or #t=,end, in seconds)"),
            (["#t=2,9"], "photos: ", "the part 2.0–9.0 s is not within its 4.972 s"),
            (["", "--duration", "3"], "--duration: ", "the clips alone last 4.972 s of the 3.0 s show, which leaves the 1 photo no time"),
          ])
    func usage(_ extra: [String], _ start: String, _ text: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0], clip("mp4_h264_rot90ccw_aac_720p_5s.mp4") + extra[0]] + extra.dropFirst()
                                   + ["--size", "64x48", "-o", folder.path("show.mp4")])
        #expect(result.status == 64)
        let line = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.contains(start) && line.contains(text), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("show.mp4")))
    }

    @Test("an audio file and a clip in a codec not supported are one line naming the file, status 1")
    func badClips() throws {
        let folder = try TemporaryFolder()
        let music = clip("music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3")
        let result = try slideshow(["make", samplePhotos[0], music, "--size", "64x48", "-o", folder.path("show.mp4")])
        #expect(result.status == 1)
        #expect(result.stderr == "slideshow: \(music): has no video stream\n")
    }

    @Test("--motion-photos play and still are taken; another value is a usage error")
    func motionPhotos() throws {
        let folder = try TemporaryFolder()
        let google = clip("mp_google_motionphoto_small_1080x1920.heic")
        for mode in ["play", "still"] {
            let output = folder.path("\(mode).mp4")
            let result = try slideshow(["make", google, "--motion-photos", mode, "--size", "64x48", "--duration", "2",
                                        "--preset", "ultrafast", "-o", output])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try frameCount(output) == "60")
        }
        let bad = try slideshow(["make", google, "--motion-photos", "live", "-o", folder.path("x.mp4")])
        #expect(bad.status == 64)
    }

    @Test("memory stays flat: six clips in a row peak within 25 MB of two (a reader is closed when its clip's time ends)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "skipped: needs GNU time"))
    func flatMemory() throws {
        let folder = try TemporaryFolder()
        let vfr = clip("mp4_h264_720p_vfr_aac_gps_3s.mp4")
        func peak(_ count: Int) throws -> Int {
            let run = try runMeasuringMemory(slideshowTool, ["make"] + Array(repeating: vfr, count: count)
                                             + ["--size", "320x180", "--preset", "ultrafast", "--transition", "fade", "--quiet",
                                                "-o", folder.path("\(count).mp4")])
            #expect(run.status == 0, "\(run.stderr)")
            return run.peakResidentBytes
        }
        let two = try peak(2), six = try peak(6)
        #expect(six < two + 25 << 20, "two clips \(two >> 20) MB, six \(six >> 20) MB")
    }
}
