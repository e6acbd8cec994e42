import Foundation
import Testing
import TestSupport

@Suite("slideshow make: looks that chain, --title, --date-stamp, --fit blur", needsBuiltTool)
struct FilmCameraTests {
    @Test("a chain with parameters, a title, a date stamp and blur fill render; ffprobe reads the title back; --json names the chain")
    func everything() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("film.mp4")
        let result = try slideshow(["make"] + samplePhotos + ["--size", "160x90", "--duration", "1.5", "--fps", "2", "--preset", "ultrafast",
                                                             "--filter", "sepia:intensity=0.5, vignette:radius=1.8", "--fit", "blur",
                                                             "--date-stamp", "--date-format", "iso", "--title", "Film", "--json", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(report?["look"] as? String == "sepia:intensity=0.5+vignette:radius=1.8")
        let ffprobe = try #require(which("ffprobe"))
        let format = try run(ffprobe, ["-v", "error", "-show_entries", "format_tags", "-of", "default=noprint_wrappers=1", output]).stdoutText
        #expect(format.contains("TAG:title=Film\n"))
        #expect(!format.contains("creation_time"))  // the samples carry no capture date
    }

    @Test("bad --date-format and --fit values are usage errors naming the choices", arguments: [
        (["--date-format", "ydm"], "--date-format: 'ydm' is not one of ymd ('YY M D), mdy (M D 'YY), dmy (D M 'YY), iso (YYYY-MM-DD)"),
        (["--fit", "stretch"], "stretch"),
    ])
    func usage(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try slideshow(["make", samplePhotos[0]] + arguments + ["-o", folder.path("out.mp4")])
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(folder.contents().isEmpty)
    }

    @Test("a manifest takes dateStamp, dateFormat and title, and fit blur")
    func manifest() throws {
        let folder = try TemporaryFolder()
        let photos = samplePhotos.map { "\"\($0)\"" }.joined(separator: ", ")
        let json = """
            [{"photos": [\(photos)], "output": "\(folder.path("m.mp4"))", "size": "160x90", "fps": 2, "preset": "ultrafast",
              "fit": "blur", "filter": "minimal-life,vignette", "dateStamp": true, "dateFormat": "dmy", "title": "From a manifest"}]
            """
        let result = try slideshow(["batch", "-"], stdin: Data(json.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let ffprobe = try #require(which("ffprobe"))
        #expect(try run(ffprobe, ["-v", "error", "-show_entries", "format_tags=title", "-of", "csv=p=0", folder.path("m.mp4")]).stdoutText == "From a manifest\n")
        let bad = try slideshow(["batch", "-"], stdin: Data(#"{"photos": ["a.jpg"], "output": "x.mp4", "dateStamp": "yes", "dateFormat": "nope"}"#.utf8))
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("job 0: dateStamp: must be true or false"), "\(bad.stderr)")
    }
}
