import Foundation
import SlideshowKit

// slideshow-app: renders the project's sample photos through SlideshowKit, from a package of
// its own that depends on the slideshow package by path.
//
//   swift run --scratch-path ../../.build-example-app slideshow-app [output.mp4]
//
// It checks the show first (validate), prints what it will play, then renders it.

let photos = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // slideshow-app
    .deletingLastPathComponent()  // Sources
    .deletingLastPathComponent()  // App
    .deletingLastPathComponent()  // Samples
    .appendingPathComponent("photos")
let output = CommandLine.arguments.dropFirst().first ?? "app.mp4"

ProcessTuning.configureForRendering()

var show = Slideshow(
    photos: ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: photos.appendingPathComponent($0).path) },
    output: output)
show.length = .total(seconds: 6)
show.video = VideoSettings(size: Size(width: 1280, height: 720))
show.look = LookChain { Looks.sepia; VignetteLook(radius: 1.8) }
show.transition = .fade
show.backdrop = .blur
show.overwrite = true

do {
    let prepared = try await show.validate()
    for (photo, info) in zip(prepared.slideshow.photos, prepared.photos) {
        print("\(URL(fileURLWithPath: photo.path).lastPathComponent): \(info.displayedSize), \(info.format)")
    }
    let result = try await prepared.render { progress in
        print("photo \(progress.completedPhotos) of \(progress.totalPhotos)")
    }
    print("\(result.output): \(result.frames) frames, \(result.duration.seconds) s, \(result.bytes) bytes, look \(result.look)")
} catch {
    // `error` is a RenderError: it names the photo or the output at fault, and why.
    print("slideshow-app: \(error)")
    exit(1)
}
