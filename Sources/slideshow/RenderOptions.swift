import ArgumentParser
import SlideshowKit

/// The options that describe how a slideshow looks and is encoded.
struct RenderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Total length in seconds (default 3).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Seconds per photo, instead of --duration.", valueName: "seconds"))
    var slideDuration: Double?

    @Option(help: ArgumentHelp("Frame size, even width and height.", valueName: "WxH"))
    var size: String = "1920x1080"

    @Option(help: "Frames per second.")
    var fps: Int = 30

    @Option(help: ArgumentHelp("Film look: \(Looks.all.map(\.name).joined(separator: ", ")).", valueName: "look"))
    var filter: String = "original"

    @Option(help: ArgumentHelp("letterbox (bars, the whole photo) or fill (crop to fill the frame).", valueName: "mode"))
    var fit: FitMode = .letterbox

    @Option(help: ArgumentHelp("Colour of the letterbox bars.", valueName: "#RRGGBB"))
    var background: String = "#000000"

    @Option(help: "x264 constant rate factor, 0 to 51 (lower is better quality).")
    var crf: Int = 20

    @Option(help: ArgumentHelp("x264 preset, ultrafast to placebo.", valueName: "preset"))
    var preset: String = "medium"

    @Option(help: ArgumentHelp("skip: repeat held frames without encoding them (fast, exact); encode: encode every frame.", valueName: "mode"))
    var hold: HoldStrategy = .skip

    enum FitMode: String, ExpressibleByArgument, CaseIterable {
        case letterbox, fill
    }

    func validate() throws {
        _ = try settings(photoCount: nil)
    }

    /// The library's settings for these options.
    /// - Throws: `ValidationError` naming the option at fault.
    func settings(photoCount: Int?) throws -> (video: VideoSettings, length: SlideshowLength, look: any Look, mode: ContentMode, background: RGBColor) {
        guard let frameSize = Size(parsing: size), frameSize.width > 0, frameSize.height > 0 else {
            throw ValidationError("--size '\(size)' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080")
        }
        guard frameSize.width % 2 == 0, frameSize.height % 2 == 0 else {
            throw ValidationError("--size \(frameSize) must have an even width and height (4:2:0 video)")
        }
        let video = VideoSettings(size: frameSize, framesPerSecond: fps, crf: crf, preset: preset, hold: hold)
        if let problem = video.problem { throw ValidationError(problem) }
        guard let look = Looks.named(filter) else {
            throw ValidationError("--filter '\(filter)' is not one of \(Looks.all.map(\.name).joined(separator: ", "))")
        }
        guard let color = RGBColor(hex: background) else {
            throw ValidationError("--background '\(background)' is not a colour of the form #RRGGBB")
        }
        if duration != nil && slideDuration != nil {
            throw ValidationError("give --duration or --slide-duration, not both")
        }
        let length: SlideshowLength = slideDuration.map { .perSlide(seconds: $0) } ?? .total(seconds: duration ?? 3)
        if let photoCount {
            do {
                _ = try Timeline(photoCount: photoCount, length: length, framesPerSecond: fps)
            } catch {
                throw ValidationError(error.description)
            }
        }
        return (video, length, look, fit == .letterbox ? .aspectFit : .aspectFill, color)
    }
}

extension HoldStrategy: ExpressibleByArgument {}
