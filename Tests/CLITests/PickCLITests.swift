import Foundation
import Testing
import TestSupport

/// `make` with folders, `--pick` and `--dry-run`: the listing, the JSON explanation, one warning
/// for unreadable files, and a render of the picks checked with ffprobe.
@Suite("slideshow make: folders, --pick and --dry-run", needsBuiltTool)
struct PickCLITests {
    /// A folder of the three samples, a byte-identical copy of one (a duplicate), a sidecar,
    /// a hidden file and a GIF.
    static func makeFolder(_ folder: TemporaryFolder) throws -> String {
        let root = folder.path("trip")
        try FileManager.default.createDirectory(atPath: root + "/day2", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: samplePhotos[0], toPath: root + "/a1.jpg")
        try FileManager.default.copyItem(atPath: samplePhotos[0], toPath: root + "/a2.jpg")
        try FileManager.default.copyItem(atPath: samplePhotos[1], toPath: root + "/b.jpg")
        try FileManager.default.copyItem(atPath: samplePhotos[2], toPath: root + "/day2/c.jpg")
        try FileManager.default.copyItem(atPath: samplePhotos[2], toPath: root + "/.hidden.jpg")
        try Data("<x/>".utf8).write(to: URL(fileURLWithPath: root + "/b.xmp"))
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: root + "/anim.gif"))
        return root
    }

    @Test("a folder's dry run lists its photos in name order, the unreadable one in one warning")
    func folderDryRun() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeFolder(folder)
        let result = try slideshow(["make", root, "--dry-run", "-o", folder.path("out.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText == [root + "/a1.jpg", root + "/a2.jpg", root + "/b.jpg", root + "/day2/c.jpg"].map { $0 + "\n" }.joined())
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("slideshow: warning: 1 file cannot be read and is left out: \(root)/anim.gif (not a JPEG") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.mp4")))
    }

    @Test("--dry-run needs no -o; a render without -o is a usage error")
    func dryRunWithoutOutput() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeFolder(folder)
        let listing = try slideshow(["make", root, "--pick", "2", "--dry-run"])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdoutText.hasPrefix("picked 2 of 5 inputs: 3 moments"))
        // The name the settings are checked under is never written (the tool runs in this process's folder).
        #expect(!FileManager.default.fileExists(atPath: "slideshow.mp4"))
        let render = try slideshow(["make", root, "--pick", "2"])
        #expect(render.status == 64)
        #expect(render.stderr.hasPrefix("Error: give the output file: -o FILE (only --dry-run goes without one)"))
    }

    @Test("a batch job with a pick reports every input on its line")
    func batchLineCarriesThePick() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeFolder(folder)
        let manifest = folder.path("jobs.json")
        try Data(#"[{"photos": ["\#(root)"], "pick": 2, "output": "out.mp4", "duration": 2, "size": "160x90"}]"#.utf8).write(to: URL(fileURLWithPath: manifest))
        let result = try slideshow(["batch", manifest])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(line["status"] as? String == "ok")
        let pick = try #require(line["pick"] as? [String: Any])
        let picked = try #require(pick["picked"] as? [String])
        #expect(picked.count == 2)
        #expect((line["photos"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == picked)
        let inputs = try #require(pick["inputs"] as? [[String: Any]])
        #expect(inputs.count == 5)
        #expect(inputs.first { ($0["path"] as? String) == root + "/a2.jpg" }?["reason"] as? String == "duplicate")
    }

    @Test("--pick --dry-run --json explains every input: picked, duplicate of, unreadable")
    func pickJSON() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeFolder(folder)
        let result = try slideshow(["make", root, "--pick", "5", "--dry-run", "--json", "-o", folder.path("out.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let pick = try #require(report["pick"] as? [String: Any])
        #expect(pick["asked"] as? String == "5")
        #expect(pick["target"] as? Int == 5)
        #expect(pick["moments"] as? Int == 3)
        let inputs = try #require(pick["inputs"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: inputs.map { (($0["path"] as! String).replacingOccurrences(of: root + "/", with: ""), $0) })
        #expect(Set(byName.keys) == ["a1.jpg", "a2.jpg", "b.jpg", "day2/c.jpg", "anim.gif"])
        #expect(byName["a1.jpg"]?["picked"] as? Bool == true)
        #expect(byName["a2.jpg"]?["picked"] as? Bool == false)
        #expect(byName["a2.jpg"]?["reason"] as? String == "duplicate")
        #expect(byName["a2.jpg"]?["of"] as? String == root + "/a1.jpg")
        #expect((byName["a2.jpg"]?["message"] as? String)?.hasPrefix("a near-duplicate of \(root)/a1.jpg") == true)
        #expect(byName["anim.gif"]?["reason"] as? String == "unreadable")
        #expect((byName["b.jpg"]?["hash"] as? String)?.count == 16)
        #expect(report["photos"] as? [String] == pick["picked"] as? [String])
        #expect((report["photos"] as? [String])?.count == 3)
        #expect((report["skipped"] as? [[String: Any]])?.count == 1)
    }

    @Test("--pick renders the picks, and the JSON report carries the explanation")
    func pickRender() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeFolder(folder)
        let output = folder.path("out.mp4")
        let result = try slideshow(["make", root, "--pick", "auto", "--duration", "6", "--size", "320x240", "--json", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect((report["photos"] as? [[String: Any]])?.count == 2)
        let pick = try #require(report["pick"] as? [String: Any])
        #expect(pick["target"] as? Int == 2)
        #expect(pick["why"] as? String == "6 s at about 3 s a photo")
        #expect(try ProbedVideo(path: output).decodedFrames == 180)
    }

    @Test("the plain dry run marks picks with + and the others with - and why")
    func pickText() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeFolder(folder)
        let result = try slideshow(["make", root, "--pick", "1", "--dry-run", "-o", folder.path("out.mp4")])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("picked 1 of 5 inputs: 3 moments") == true)
        #expect(lines.count == 6)
        #expect(lines.filter { $0.hasPrefix("+ ") }.count == 1)
        #expect(lines.contains { $0.hasPrefix("- \(root)/a2.jpg") && $0.contains("a near-duplicate of \(root)/a1.jpg") })
    }

    @Test("usage errors: --pick 0, auto without a length, captions with a pick")
    func pickUsage() throws {
        let folder = try TemporaryFolder()
        let root = try Self.makeFolder(folder)
        let zero = try slideshow(["make", root, "--pick", "0", "-o", folder.path("out.mp4")])
        #expect(zero.status == 64)
        let auto = try slideshow(["make", root, "--pick", "auto", "-o", folder.path("out.mp4")])
        #expect(auto.status == 64)
        #expect(auto.stderr.contains("--pick: auto needs the show's length"), "\(auto.stderr)")
        let captions = try slideshow(["make", root, "--pick", "2", "--caption", "x", "-o", folder.path("out.mp4")])
        #expect(captions.status == 64)
        #expect(captions.stderr.contains("--pick: per-photo settings"), "\(captions.stderr)")
    }
}
