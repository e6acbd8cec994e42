import Testing
@testable import SlideshowKit
import SlideshowFFmpeg
import SlideshowSupport
import SlideshowVideo

/// ``ClipError`` is the library's one file error, ``FileError``, with the clip's kinds.
@Suite("ClipError: FileError with ClipFailure kinds")
struct ClipFileErrorTests {
    @Test("a clip error is a FileError: path, kind (with its payload) and reason, described as <path>: <reason>")
    func isFileError() {
        let error = ClipError(path: "clip.avi", kind: .unsupportedContainer("avi"), reason: "is an AVI file; clips are MP4, MOV, MKV or WebM")
        let generic: FileError<ClipFailure> = error
        #expect(generic.description == "clip.avi: is an AVI file; clips are MP4, MOV, MKV or WebM")
        #expect(error.kind == .unsupportedContainer("avi"))
        #expect(error.kind != .unsupportedContainer("wmv"))
        #expect(Set([error, error, ClipError(path: "clip.avi", kind: .unsupportedCodec("avi"), reason: error.reason)]).count == 2)
    }

    @Test("probing a clip that does not exist throws the clip kind .missing, naming the file")
    func missing() {
        #expect {
            try ClipProbe.probe(ClipSource(path: "/nonexistent/clip.mp4"))
        } throws: { error in
            (error as? ClipError)?.kind == .missing && "\(error)".hasPrefix("/nonexistent/clip.mp4: ")
        }
    }
}
