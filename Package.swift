// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "slideshow",
    // Linux only (Debian 12's FFmpeg 5.1 and libjpeg-turbo through pkg-config); no Apple platform is supported.
    products: [
        .library(name: "SlideshowKit", targets: ["SlideshowKit"]),
        .executable(name: "slideshow", targets: ["slideshow"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target SlideshowKit` (`make docs`): the DocC
        // catalog in Sources/SlideshowKit/SlideshowKit.docc. A plugin only: nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C libraries, each behind one shim header.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavcodec-dev", "libavformat-dev", "libswscale-dev", "libavutil-dev", "libswresample-dev", "libavfilter-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(name: "CProcessTuning"),
        // OpenCV's cascade face detector (libopencv-objdetect-dev) behind a C shim; the cascade
        // itself is read at run time from opencv-data.
        .target(
            name: "CFaceDetection",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [.linkedLibrary("opencv_objdetect"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core")]
        ),
        .systemLibrary(
            name: "CEBUR128",
            pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"])]
        ),
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(
            name: "CLCMS",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        .systemLibrary(
            name: "CZimg",
            pkgConfig: "zimg",
            providers: [.apt(["libzimg-dev"])]
        ),
        // aubio's onset detector, for the beat analysis (Audio/Beats).
        .systemLibrary(
            name: "CAubio",
            pkgConfig: "aubio",
            providers: [.apt(["libaubio-dev"])]
        ),
        // Pango with Cairo (HarfBuzz shaping, FriBidi, fontconfig fallback) for captions and cards.
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]
        ),

        // zlib, for the compressed text chunks of PNG metadata (Metadata/).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // The library, in folders by pipeline stage:
        // Support/ (messages, process tuning, file errors), Pixels/ (sizes, colours, pixel buffers,
        // media time), FFmpeg/ (owned AVFrame/AVPacket, check), Metadata/ (orientation, capture
        // dates, ICC), Images/ (the request layer; JPEG/, PNG/, HEIF/, WebP/ one folder per format),
        // Color/ (ICC → sRGB), Framing/ (fit geometry, the crop rule, faces), Looks/, Plan/ (the
        // frame plan: timeline, transitions, motion), Compositor/ (one plan segment → frames, the
        // backdrop), Audio/ (decode → loudness → AAC), Writer/ (H.264, MP4, the asset writer),
        // Slideshow/ (validates, plans and renders a show), Batch/ (manifests and the runner),
        // Picking/ (folders listed; --pick: small decodes summarised, moments grouped, the best chosen).
        .target(
            name: "SlideshowKit",
            dependencies: ["CFFmpeg", "CTurboJPEG", "CProcessTuning", "CEBUR128", "CFaceDetection", "CHeif", "CWebP", "CLCMS", "CZimg", "CAubio", "CPangoCairo", "CZlib"]
        ),

        // The command-line tool: parses, calls the library, reports.
        .executableTarget(
            name: "slideshow",
            dependencies: [
                "SlideshowKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // A sample program that renders a slideshow through the library: `swift run slideshow-example`.
        .executableTarget(name: "slideshow-example", dependencies: ["SlideshowKit"], path: "Samples/Library"),

        // The speed and memory benchmark: `make bench`.
        .executableTarget(name: "slideshow-bench", dependencies: ["SlideshowKit"]),

        // Helpers every test target shares: where the shared photos are, ffprobe, temp folders.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ImagesTests", dependencies: ["SlideshowKit", "TestSupport"]),
        .testTarget(name: "LooksTests", dependencies: ["SlideshowKit", "TestSupport"]),
        .testTarget(name: "WriterTests", dependencies: ["SlideshowKit", "TestSupport"]),
        .testTarget(name: "SlideshowTests", dependencies: ["SlideshowKit", "TestSupport"]),
        // Snapshots/: the help texts, compared by HelpSnapshotTests (SNAPSHOT_UPDATE=1 rewrites them).
        .testTarget(name: "CLITests", dependencies: ["slideshow", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "BatchTests", dependencies: ["SlideshowKit", "TestSupport"]),
        .testTarget(name: "AudioTests", dependencies: ["SlideshowKit", "TestSupport", "slideshow"]),
        .testTarget(name: "BeatTests", dependencies: ["SlideshowKit", "TestSupport"]),
        .testTarget(name: "TextTests", dependencies: ["SlideshowKit", "TestSupport"]),
        .testTarget(name: "VideoTests", dependencies: ["SlideshowKit", "TestSupport"]),
        // Folders as input and --pick (Picking/): listing, grouping, quality, coverage, the report.
        .testTarget(name: "PickingTests", dependencies: ["SlideshowKit", "TestSupport"]),
    ]
)
