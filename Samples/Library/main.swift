import Foundation
import SlideshowKit

// slideshow-example: renders the project's sample photos into a slideshow through the library.
//
//   swift run slideshow-example [output.mp4]
//
// The photos are Samples/photos/*.jpg; the output is example.mp4 in the working folder unless
// given.

let photos = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Library
    .deletingLastPathComponent()  // Samples
    .appendingPathComponent("photos")
let output = CommandLine.arguments.dropFirst().first ?? "example.mp4"

var show = Slideshow(
    photos: ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: photos.appendingPathComponent($0).path) },
    output: output)
show.length = .perSlide(seconds: 2)
show.video = VideoSettings(size: Size(width: 1280, height: 720))
show.look = Looks.minimalLife
show.overwrite = true

do {
    let result = try await show.render { progress in
        print("photo \(progress.completedPhotos) of \(progress.totalPhotos)")
    }
    print("\(result.output): \(result.frames) frames, \(result.duration.seconds) s, \(result.bytes) bytes in \(String(format: "%.2f", result.seconds)) s")
} catch {
    // `error` is a RenderError: it names the photo or the output at fault, and why.
    print("slideshow-example: \(error)")
    exit(1)
}
