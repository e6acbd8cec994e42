import Foundation
import Testing
import TestSupport
import SlideshowFraming

/// OpenCV is not linked: the face detector's shim is a library of its own,
/// libSlideshowFaceDetection.so, loaded beside the executable when faces are first looked for.
@Suite("Face detection library: loaded beside the executable at the first face looked for, one error naming it when it cannot be")
struct FaceDetectionLibraryTests {
    @Test("it is looked for beside the test bundle, where SwiftPM builds it, then in lib beside its folder and where the loader looks; it loads")
    func loadsBesideTheBundle() throws {
        let products = TestEnvironment.productsDirectory.resolvingSymlinksInPath()
        #expect(FaceDetectionLibrary.candidates == [products.appendingPathComponent("libSlideshowFaceDetection.so").path,
                                                    products.deletingLastPathComponent().path + "/lib/libSlideshowFaceDetection.so",
                                                    "libSlideshowFaceDetection.so"])
        _ = try FaceDetectionLibrary.loaded()
    }

    @Test("a library that cannot be loaded is named, with the loader's reason and the way round it")
    func missing() {
        let path = "/nonexistent/libSlideshowFaceDetection.so"
        let error = #expect(throws: FaceDetectionError.self) { try FaceDetectionLibrary(paths: [path]) }
        #expect(error?.call == "dlopen(\(path))")
        #expect(error?.message == "face detection: dlopen(\(path)): \(path): cannot open shared object file: No such file or directory"
            + " (libSlideshowFaceDetection.so belongs beside the tool; --framing center does without it)")
    }

    @Test("a library without the functions is named with the one it lacks")
    func notTheLibrary() {
        let error = #expect(throws: FaceDetectionError.self) { try FaceDetectionLibrary(paths: ["libz.so.1"]) }
        #expect(error?.call == "dlsym(libz.so.1, sfd_cascade_open)", "\(String(describing: error))")
    }
}
