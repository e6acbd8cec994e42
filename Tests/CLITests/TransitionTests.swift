import Foundation
import Testing
import TestSupport

@Suite("slideshow make: transitions, fades and motion", needsBuiltTool)
struct TransitionTests {
    @Test("every bad value is a usage error (64) that names its option",
          arguments: [
            (["--transition", "sparkle"], "--transition"),
            (["--motion", "spin"], "--motion"),
            (["--transition-duration", "-1"], "--transition-duration"),
            (["--transition", "fade", "--transition-duration", "4"], "--transition-duration"),
            (["--transition-duration", "nan"], "--transition-duration"),
            (["--fade-in", "-0.5"], "--fade-in"),
            (["--fade-in", "2", "--fade-out", "1.5"], "--fade-out"),
            (["--zoom", "1.5"], "--zoom"),
            (["--zoom", "-0.1"], "--zoom"),
          ])
    func usage(arguments: [String], option: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make"] + samplePhotos + ["--duration", "3", "--size", "64x48", "-o", folder.path("out.mp4")] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(option), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("--transition none --motion none (whatever the lengths) writes the same bytes as the defaults")
    func cutsUnchanged() throws {
        let folder = try TemporaryFolder()
        let base = ["make"] + samplePhotos + ["--duration", "2.1", "--size", "96x64"]
        #expect(try slideshow(base + ["-o", folder.path("default.mp4")]).status == 0)
        #expect(try slideshow(base + ["-o", folder.path("none.mp4"), "--transition", "none", "--motion", "none",
                                      "--transition-duration", "1", "--zoom", "0.5"]).status == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: folder.path("default.mp4")))
        let b = try Data(contentsOf: URL(fileURLWithPath: folder.path("none.mp4")))
        #expect(a == b && !a.isEmpty)
    }

    @Test("a fade: the same frame count; frames outside the windows are the cuts-only render's (exactly, up to the first window; within coding noise after); one warning when capped")
    func fadeKeepsHolds() throws {
        let folder = try TemporaryFolder()
        let (w, h) = (96, 64)
        let base = ["make"] + samplePhotos + ["--duration", "3", "--size", "\(w)x\(h)", "--crf", "1"]
        #expect(try slideshow(base + ["-o", folder.path("cuts.mp4")]).status == 0)
        let faded = try slideshow(base + ["-o", folder.path("fade.mp4"), "--transition", "fade", "--transition-duration", "1"])
        #expect(faded.status == 0)
        // 30 frames a photo: the middle one keeps 15 alone, so 1 s (30 frames) becomes 15.
        #expect(faded.stderr.split(separator: "\n").filter { $0.hasPrefix("slideshow: warning: ") }
                == ["slideshow: warning: transitions shortened from 1.0 s to 0.5 s (15 frames) so that every photo is alone on screen for at least half its time"])
        let cuts = try FrameDecoder.frames(of: folder.path("cuts.mp4"), pixelFormat: "yuv420p", width: w, height: h)
        let fade = try FrameDecoder.frames(of: folder.path("fade.mp4"), pixelFormat: "yuv420p", width: w, height: h)
        #expect(cuts.count == 90 && fade.count == 90)
        // Windows 23..<38 and 53..<68; every other frame is the cuts-only frame.
        let windows = Set(Array(23..<38) + Array(53..<68))
        for index in 0..<23 { #expect(cuts[index] == fade[index], "frame \(index)") }
        // After a transition the held picture is coded from the frame before (a P frame, not an IDR).
        for index in 23..<90 where !windows.contains(index) {
            let difference = meanAbsoluteDifference(cuts[index], fade[index])
            #expect(difference < 0.5, "frame \(index): \(difference)")
        }
        for index in windows { #expect(meanAbsoluteDifference(cuts[index], fade[index]) > 1, "frame \(index)") }
    }

    @Test("the same command gives the same bytes: random transitions and Ken Burns")
    func deterministic() throws {
        let folder = try TemporaryFolder()
        let base = ["make"] + samplePhotos + ["--duration", "3", "--size", "64x48", "--transition", "random", "--motion", "kenburns",
                                              "--fade-in", "0.2", "--fade-out", "0.2", "--transition-duration", "0.3"]
        #expect(try slideshow(base + ["-o", folder.path("a.mp4")]).status == 0)
        #expect(try slideshow(base + ["-o", folder.path("b.mp4")]).status == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: folder.path("a.mp4")))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: folder.path("b.mp4")))))
        #expect(try ProbedVideo(path: folder.path("a.mp4")).decodedFrames == 90)
    }

    @Test("under motion in letterbox, the bars of every decoded frame are exactly black (Y 16) and the picture moves")
    func barsStillUnderMotion() throws {
        let folder = try TemporaryFolder()
        let (w, h) = (96, 64)
        // The portrait sample fits 48 pixels wide in the middle: columns 0–15 and 80–95 are bars whole macroblocks wide.
        let result = try slideshow(["make", samplePhotos[1], "--duration", "1", "--size", "\(w)x\(h)", "--motion", "kenburns",
                                    "--zoom", "0.3", "-o", folder.path("moving.mp4")])
        #expect(result.status == 0)
        let frames = try FrameDecoder.frames(of: folder.path("moving.mp4"), pixelFormat: "yuv420p", width: w, height: h)
        #expect(frames.count == 30)
        for (index, frame) in frames.enumerated() {
            let bytes = [UInt8](frame.prefix(w * h))  // the Y plane
            var bars: [UInt8] = []
            for y in 0..<h {
                for x in 0..<16 { bars.append(bytes[y * w + x]) }
                for x in 80..<96 { bars.append(bytes[y * w + x]) }
            }
            #expect(bars.allSatisfy { $0 == 16 }, "frame \(index)")
        }
        #expect(Set(frames).count >= 25)
    }
}
