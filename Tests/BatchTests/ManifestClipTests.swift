import Foundation
import SlideshowKit
import Testing

private func jobs(_ text: String) throws(InvalidManifest) -> [BatchJob] {
    try BatchManifest(data: Data("[\(text)]".utf8), relativeTo: nil).jobs
}

private func problems(_ text: String) -> [String] {
    do {
        _ = try BatchManifest(data: Data("[\(text)]".utf8), relativeTo: nil)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}

@Suite("BatchManifest: clips' parts and motion photos")
struct ManifestClipTests {
    @Test("a photo object's in and out are the clip's part; motionPhotos plays them")
    func parts() throws {
        let show = try jobs(#"""
            {"photos": ["a.jpg", {"path": "clip.mov", "in": 2.5, "out": 8}, {"path": "b.mov", "out": 3}, {"path": "c.mov", "in": 1}],
             "output": "o.mp4", "motionPhotos": "play"}
            """#)[0].slideshow
        #expect(show.photoSettings.map(\.clipPart) == [nil, ClipPart(start: 2.5, end: 8), ClipPart(start: 0, end: 3), ClipPart(start: 1)])
        #expect(show.motionPhotos == .play)
        #expect(try jobs(#"{"photos": ["a.jpg"], "output": "o.mp4"}"#)[0].slideshow.motionPhotos == .still)
    }

    @Test("bad values are refused, naming the job and the field",
          arguments: [
            (#"{"photos": [{"path": "a.mov", "in": "2"}], "output": "o.mp4"}"#, "job 0: photos: photo 0: in: not a number of seconds"),
            (#"{"photos": [{"path": "a.mov", "out": true}], "output": "o.mp4"}"#, "job 0: photos: photo 0: out: not a number of seconds"),
            (#"{"photos": ["a.jpg"], "output": "o.mp4", "motionPhotos": "live"}"#, "job 0: motionPhotos: 'live' is not one of still, play"),
          ])
    func refused(_ manifest: String, _ message: String) {
        #expect(problems(manifest).contains { $0.hasPrefix(message) }, "\(problems(manifest))")
    }
}
