import Foundation
import Testing
import TestSupport

/// The tool does not link OpenCV (`readelf`, the independent reader of its NEEDED entries); a
/// fill show looks for faces through libSlideshowFaceDetection.so beside the tool, and without it
/// fails with one line naming the library, leaving no file, while `--framing center` needs none.
@Suite("The tool without OpenCV linked: the face detection library beside it")
struct FaceLibraryCLITests {
    @Test("readelf: no libopencv_* among the tool's NEEDED libraries; the face detection library has them")
    func notLinked() throws {
        let tool = try run("/usr/bin/readelf", ["-d", slideshowTool])
        #expect(tool.status == 0)
        let needed = String(decoding: tool.stdout, as: UTF8.self)
        #expect(needed.contains("(NEEDED)") && !needed.contains("opencv"))
        let library = try run("/usr/bin/readelf", ["-d", TestEnvironment.productsDirectory.appendingPathComponent("libSlideshowFaceDetection.so").path])
        #expect(String(decoding: library.stdout, as: UTF8.self).contains("[libopencv_objdetect.so"))
    }

    @Test("the tool alone, without the library beside it: fill with faces fails in one line, no file; --framing center renders")
    func toolAlone() throws {
        let folder = try TemporaryFolder()
        let tool = folder.url.appendingPathComponent("slideshow").path
        try FileManager.default.copyItem(atPath: slideshowTool, toPath: tool)
        let output = folder.url.appendingPathComponent("fill.mp4").path
        let photo = samplePhotos[2]
        let arguments = ["make", photo, "--fit", "fill", "--size", "320x180", "--duration", "1", "--quiet", "-o", output]
        let failed = try run(tool, arguments)
        let library = folder.url.resolvingSymlinksInPath().path + "/libSlideshowFaceDetection.so"
        #expect(failed.status != 0)
        #expect(failed.stderr == "slideshow: \(photo): face detection: dlopen(\(library)): \(library): cannot open shared object file: No such file or directory"
            + " (libSlideshowFaceDetection.so belongs beside the tool; --framing center does without it)\n")
        #expect(!FileManager.default.fileExists(atPath: output))
        let centred = try run(tool, arguments + ["--framing", "center"])
        #expect(centred.status == 0, "\(centred.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }
}
