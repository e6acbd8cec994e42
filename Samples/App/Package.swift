// swift-tools-version: 6.1
import PackageDescription

// An app outside the slideshow package that uses its library, SlideshowKit, as a dependency
// by path, as an app of your own would (by path, or by version: the package has no unsafe flags). Build it from the project's root with `make example-app`, or here with
// `swift build --scratch-path ../../.build-example-app`; run it with
// `swift run --scratch-path ../../.build-example-app slideshow-app [output.mp4]`.
let package = Package(
    name: "slideshow-app",
    dependencies: [
        .package(name: "slideshow", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "slideshow-app",
            dependencies: [.product(name: "SlideshowKit", package: "slideshow")]
        ),
    ]
)
