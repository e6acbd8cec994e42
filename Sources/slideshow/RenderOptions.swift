import ArgumentParser
import SlideshowKit

/// The options that describe how a slideshow looks and is encoded. The library's
/// ``SlideshowOptions`` checks them, by the same rules as a batch manifest's jobs.
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

    @Option(help: "x264 constant rate factor, 1 to 51 (lower is better quality; 0, lossless, is not possible in H.264 High).")
    var crf: Int = 20

    @Option(help: ArgumentHelp("x264 preset, ultrafast to placebo.", valueName: "preset"))
    var preset: String = "medium"

    @Option(help: ArgumentHelp("skip: repeat held frames without encoding them (fast, exact); encode: encode every frame.", valueName: "mode"))
    var hold: HoldStrategy = .skip

    func validate() throws {
        do {
            try options.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The library's options.
    var options: SlideshowOptions {
        SlideshowOptions(duration: duration, slideDuration: slideDuration, size: size, fps: fps, filter: filter,
                         fit: fit, background: background, crf: crf, preset: preset, hold: hold)
    }

    /// The slideshow these options describe.
    /// - Throws: `ValidationError` naming the option at fault.
    func slideshow(photos: [String], output: String, overwrite: Bool) throws -> Slideshow {
        do {
            return try options.slideshow(photos: photos.map(Photo.init(path:)), output: output, overwrite: overwrite)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

extension HoldStrategy: ExpressibleByArgument {}
extension FitMode: ExpressibleByArgument {}
