// swift-tools-version: 6.1
import PackageDescription

/// The library's layers, bottom to top (tests and tools may reach any of them).
let layers = ["SlideshowSupport", "SlideshowPixels", "SlideshowFFmpeg", "SlideshowFormats", "SlideshowColor", "SlideshowMetadata",
              "SlideshowFraming", "SlideshowText", "SlideshowAudio", "SlideshowVideo", "SlideshowMix", "SlideshowImages",
              "SlideshowLooks", "SlideshowPlan", "SlideshowPicking", "SlideshowCompositor", "SlideshowWriter", "SlideshowKit"]
let everyLayer: [Target.Dependency] = layers.map { .target(name: $0) }

let package = Package(
    name: "slideshow",
    // Linux only (Debian 12's FFmpeg 5.1 and libjpeg-turbo through pkg-config); no Apple platform is supported.
    products: [
        .library(name: "SlideshowKit", targets: ["SlideshowKit"]),
        .executable(name: "slideshow", targets: ["slideshow"]),
        // OpenCV's face detector, a library of its own that nothing links: loaded beside the tool
        // when faces are first looked for (SlideshowFraming/FaceDetectionLibrary.swift), so that a
        // show without them never maps OpenCV's 15 libraries (8.8 MB).
        .library(name: "SlideshowFaceDetection", type: .dynamic, targets: ["CFaceDetection"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target SlideshowKit` (`make docs`): the DocC
        // catalog in Sources/SlideshowKit/SlideshowKit.docc. A plugin only: nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C libraries, each behind one shim header.
        // libavfilter's headers only: the library is loaded when a filter graph is first built
        // (SlideshowFFmpeg/FilterLibrary.swift), not linked (module.modulemap).
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
        // OpenCV's cascade face detector behind a C shim, built as the SlideshowFaceDetection
        // library (above) and loaded at run time; the cascade itself is read at run time from opencv-data. Its headers are found through `opencv4`, a link to Debian's
        // /usr/include/opencv4 (libopencv-objdetect-dev): OpenCV's pkg-config module would link all
        // of its 55 libraries, and loading them took the tool's start from 0.19 s to 0.82 s and
        // 68 to 145 MB; a search path outside the package would need unsafe flags.
        .target(
            name: "CFaceDetection",
            exclude: ["opencv4"],
            cxxSettings: [.headerSearchPath("opencv4")],
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
        // libwebp's encoder and WebPAnimEncoder (libwebpmux), for the animated WebP previews.
        .systemLibrary(
            name: "CWebPMux",
            pkgConfig: "libwebpmux",
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

        // The library, one target a layer; each target's dependencies are the whole truth, and a
        // lower layer cannot import a higher one (docs/architecture.md draws the graph):
        //   Support → Pixels → FFmpeg, Formats → Color → Metadata → Framing, Text, Audio
        //   → Video → Mix, Images → Looks, Plan, Picking → Compositor → Writer → SlideshowKit → the tool.
        // Support: messages, file errors, paths as bytes, process tuning, the read probe.
        .target(name: "SlideshowSupport", dependencies: ["CProcessTuning"]),
        // Pixels: sizes, colours, pixel buffers, media time, orientation.
        .target(name: "SlideshowPixels"),
        // FFmpeg: owned AVFrame/AVPacket/contexts, byte-range I/O.
        .target(name: "SlideshowFFmpeg", dependencies: ["SlideshowPixels", "SlideshowSupport", "CFFmpeg"]),
        // Formats: container walkers (JPEG markers, HEIF boxes), sniffing, reading a photo's bytes.
        .target(name: "SlideshowFormats", dependencies: ["SlideshowPixels", "SlideshowSupport"]),
        // Color: ICC profiles to sRGB through Little CMS.
        .target(name: "SlideshowColor", dependencies: ["SlideshowPixels", "CLCMS"]),
        // Metadata: orientation, capture dates, captions, ICC profiles, PNG chunks.
        .target(name: "SlideshowMetadata", dependencies: ["SlideshowFormats", "SlideshowColor", "SlideshowPixels", "SlideshowSupport", "CZlib"]),
        // Framing: fit geometry, the crop rule, faces (the detector loaded from the SlideshowFaceDetection library).
        .target(name: "SlideshowFraming", dependencies: ["SlideshowPixels", "SlideshowSupport"]),
        // Text: captions, cards and subtitles, shaped and drawn by Pango.
        .target(name: "SlideshowText", dependencies: ["SlideshowFormats", "SlideshowPixels", "SlideshowSupport", "CPangoCairo"]),
        // Audio: decode → loudness → AAC; the soundtrack and its settings; beats.
        .target(name: "SlideshowAudio", dependencies: ["SlideshowFFmpeg", "SlideshowPixels", "SlideshowSupport", "CFFmpeg", "CEBUR128", "CAubio"]),
        // Video: clips probed, decoded, deinterlaced, turned; motion photos.
        .target(name: "SlideshowVideo", dependencies: ["SlideshowAudio", "SlideshowColor", "SlideshowFFmpeg", "SlideshowFormats", "SlideshowMetadata", "SlideshowPixels", "SlideshowSupport", "CFFmpeg", "CZimg"]),
        // Mix: the music and the clips' own sound, ducked and mixed.
        .target(name: "SlideshowMix", dependencies: ["SlideshowAudio", "SlideshowFFmpeg", "SlideshowPixels", "SlideshowVideo"]),
        // Images: the request layer; JPEG/, PNG/, HEIF/, WebP/ one folder per format.
        .target(name: "SlideshowImages", dependencies: ["SlideshowColor", "SlideshowFFmpeg", "SlideshowFormats", "SlideshowFraming", "SlideshowMetadata", "SlideshowPixels", "SlideshowSupport", "SlideshowText", "SlideshowVideo", "CFFmpeg", "CHeif", "CLCMS", "CTurboJPEG", "CWebP"]),
        // Looks: the film looks and the date imprint.
        .target(name: "SlideshowLooks", dependencies: ["SlideshowMetadata", "SlideshowPixels"]),
        // Plan: the frame plan: timeline, transitions, motion, order.
        .target(name: "SlideshowPlan", dependencies: ["SlideshowMetadata", "SlideshowPixels", "SlideshowSupport"]),
        // Picking: folders listed; small decodes summarised, moments grouped, the best chosen.
        .target(name: "SlideshowPicking", dependencies: ["SlideshowFFmpeg", "SlideshowFormats", "SlideshowFraming", "SlideshowImages", "SlideshowMetadata", "SlideshowPixels", "SlideshowPlan", "SlideshowSupport", "SlideshowVideo"]),
        // Compositor: one plan segment → frames, the backdrop.
        .target(name: "SlideshowCompositor", dependencies: ["SlideshowFormats", "SlideshowFraming", "SlideshowImages", "SlideshowPixels", "SlideshowPlan", "SlideshowText", "SlideshowVideo", "CZimg"]),
        // Writer: H.264 and HEVC (held frames as our own skip slices), VP9 and AV1 (as our own show_existing_frame), MP4 and WebM, the asset writer; the animated GIF and WebP previews.
        .target(name: "SlideshowWriter", dependencies: ["SlideshowAudio", "SlideshowFFmpeg", "SlideshowFormats", "SlideshowMetadata", "SlideshowPixels", "SlideshowSupport", "SlideshowText", "CFFmpeg", "CWebPMux"]),
        // SlideshowKit: the show (validates, plans and renders), batch manifests and the runner.
        .target(
            name: "SlideshowKit",
            dependencies: ["SlideshowAudio", "SlideshowColor", "SlideshowCompositor", "SlideshowFFmpeg", "SlideshowFormats", "SlideshowFraming", "SlideshowImages", "SlideshowLooks", "SlideshowMetadata", "SlideshowMix", "SlideshowPicking", "SlideshowPixels", "SlideshowPlan", "SlideshowSupport", "SlideshowText", "SlideshowVideo", "SlideshowWriter"]
        ),

        // The command-line tool: parses, calls the library, reports.
        .executableTarget(
            name: "slideshow",
            dependencies: [
                "SlideshowKit", "SlideshowSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // A sample program that renders a slideshow through the library: `swift run slideshow-example`.
        .executableTarget(name: "slideshow-example", dependencies: ["SlideshowKit"], path: "Samples/Library"),

        // The speed and memory benchmark: `make bench`.
        .executableTarget(name: "slideshow-bench", dependencies: everyLayer),

        // Helpers every test target shares: where the shared photos are, ffprobe, temp folders.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "ImagesTests", dependencies: everyLayer + ["TestSupport"]),
        .testTarget(name: "LooksTests", dependencies: everyLayer + ["TestSupport"]),
        // CWebP: libwebpdemux's WebPAnimDecoder reads the animated WebP previews back.
        .testTarget(name: "WriterTests", dependencies: everyLayer + ["TestSupport", "CWebP"]),
        // UltraHDR/: five gain-map JPEGs (Ultra HDR and Apple's) from libavif's test data (CREDITS.md), read by UltraHDRTests (and CLITests' UltraHDRCLITests).
        .testTarget(name: "SlideshowTests", dependencies: everyLayer + ["TestSupport"], exclude: ["UltraHDR"]),
        // Snapshots/: the help texts, compared by HelpSnapshotTests (SNAPSHOT_UPDATE=1 rewrites them).
        .testTarget(name: "CLITests", dependencies: everyLayer + ["slideshow", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "BatchTests", dependencies: everyLayer + ["TestSupport"]),
        .testTarget(name: "AudioTests", dependencies: everyLayer + ["TestSupport", "slideshow"]),
        .testTarget(name: "BeatTests", dependencies: everyLayer + ["TestSupport"], exclude: ["Songs"]),
        .testTarget(name: "TextTests", dependencies: everyLayer + ["TestSupport"]),
        .testTarget(name: "VideoTests", dependencies: everyLayer + ["TestSupport"]),
        // Folders as input and --pick (Picking/): listing, grouping, quality, coverage, the report.
        .testTarget(name: "PickingTests", dependencies: everyLayer + ["TestSupport"]),
    ]
)
