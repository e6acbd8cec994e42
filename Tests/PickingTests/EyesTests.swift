import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFraming
import SlideshowPicking

/// Faces with open eyes (issue 36): OpenCV's eye cascade on each face's band of the eyes, at the
/// analysis size; a blink (here the eyes painted over with the skin beside them) loses to its
/// sibling.
@Suite("Open eyes", .enabled(if: FaceFraming.isAvailable && PhotoAnalysis.eyeDetector != nil && which("ffmpeg") != nil,
                             "skipped: needs OpenCV's cascades (opencv-data) and ffmpeg"))
struct EyesTests {
    /// The astronaut sample (NASA, public domain): Eileen Collins's face near x 60–150, y 80–170
    /// of the upright 384x512 picture.
    static let astronaut = TestEnvironment.sample("portrait-orient6.jpg")

    @Test("the astronaut's face is found and her eyes are open")
    func openEyes() throws {
        let summary = try PhotoAnalysis.summarize(Self.astronaut).get()
        #expect(summary.faces == 1 && summary.facesWithOpenEyes == 1 && summary.eyes == 1)
    }

    /// Her eyelids drawn shut: both eyes painted with the skin beside them and a dark line for
    /// the lashes. The face is still found, with no open eye; beside the open-eyed original (the
    /// same moment: their hashes a few bits apart), the original is picked.
    @Test("with her eyes shut, the face is still found without an open eye, and the open-eyed sibling is picked")
    func shutEyesLose() throws {
        let folder = try TemporaryFolder()
        let shut = folder.path("shut.jpg")
        let lids = ["drawbox=x=64:y=95:w=24:h=12:color=0xc88c73:t=fill", "drawbox=x=108:y=96:w=25:h=12:color=0xc88c73:t=fill",
                    "drawbox=x=65:y=103:w=22:h=2:color=0x503020:t=fill", "drawbox=x=109:y=104:w=23:h=2:color=0x503020:t=fill"]
        let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", Self.astronaut, "-vf", lids.joined(separator: ","), "-q:v", "2", "-y", shut])
        try #require(made.status == 0, "\(made.stderr)")
        let closed = try PhotoAnalysis.summarize(shut).get()
        #expect(closed.faces == 1 && closed.facesWithOpenEyes == 0 && closed.eyes == 0.5)
        let open = try PhotoAnalysis.summarize(Self.astronaut).get()
        #expect((open.hash ^ closed.hash).nonzeroBitCount <= PickRules.duplicateBits, "not one moment")
        // Either order: the open eyes win.
        for summaries in [[closed, open], [open, closed]] {
            let picked = Picker.pick(summaries, target: 1).picked
            #expect(picked.map { summaries[$0].path } == [Self.astronaut])
        }
    }
}
