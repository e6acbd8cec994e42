import ArgumentParser
import Foundation
import SlideshowKit

/// The options that describe how a slideshow looks and is encoded. The library's
/// ``SlideshowOptions`` holds their defaults and checks them, by the same rules as a batch
/// manifest's jobs; this only names them and puts its own words on the library's errors.
struct RenderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Total length in seconds (default 3).", valueName: "seconds"))
    var duration: Double?

    @Option(help: ArgumentHelp("Seconds per photo, instead of --duration.", valueName: "seconds"))
    var slideDuration: Double?

    @Option(help: ArgumentHelp("Frame size, even width and height.", valueName: "WxH"))
    var size: String = SlideshowOptions().size

    @Option(help: "Frames per second.")
    var fps: Int = SlideshowOptions().fps

    @Option(help: ArgumentHelp("Film look: \(Looks.all.map(\.name).joined(separator: ", ")).", valueName: "look"))
    var filter: String = SlideshowOptions().filter

    @Option(help: ArgumentHelp("letterbox (bars, the whole photo) or fill (crop to fill the frame).", valueName: "mode"))
    var fit: FitMode = SlideshowOptions().fit

    @Option(help: ArgumentHelp("Colour of the letterbox bars.", valueName: "#RRGGBB"))
    var background: String = SlideshowOptions().background

    @Option(help: "x264 constant rate factor, 1 to 51 (lower is better quality; 0, lossless, is not possible in H.264 High).")
    var crf: Int = SlideshowOptions().crf

    @Option(help: ArgumentHelp("x264 preset, ultrafast to placebo.", valueName: "preset"))
    var preset: String = SlideshowOptions().preset

    @Option(help: ArgumentHelp("skip: repeat held frames without encoding them (fast, exact); encode: encode every frame.", valueName: "mode"))
    var hold: HoldStrategy = SlideshowOptions().hold

    func validate() throws {
        do {
            try options.validate()
        } catch {
            throw ValidationError(Self.message(for: error))
        }
    }

    /// The library's error in the command line's words: `--size: '97x64' must …`.
    static func message(for error: OptionError) -> String {
        if let other = error.conflicting {
            return "give \(flag(for: other)) or \(flag(for: error.field)), not both"
        }
        return Message.oneLine("\(flag(for: error.field)): \(error.reason)")
    }

    /// The option that gives a setting: `--slide-duration` for `slideDuration`, as
    /// ArgumentParser names an option after its property; the photos are the arguments.
    static func flag(for field: SlideshowOptions.Field) -> String {
        switch field {
        case .photos: return "photos"
        case .output: return "--output"
        default: return "--" + field.rawValue.unicodeScalars.map { CharacterSet.uppercaseLetters.contains($0) ? "-" + String($0).lowercased() : String($0) }.joined()
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
            throw ValidationError(Self.message(for: error))
        }
    }
}

extension HoldStrategy: ExpressibleByArgument {}
extension FitMode: ExpressibleByArgument {}
