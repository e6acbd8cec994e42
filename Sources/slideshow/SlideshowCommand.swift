import ArgumentParser
import SlideshowKit

/// `slideshow`: photos to an exact-length H.264 MP4.
@main
struct SlideshowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slideshow",
        abstract: "Turn photos into an MP4 slideshow of exactly the length you ask for.",
        discussion: """
            Exit status: 0 success; 1 a photo or the output failed (one line on stderr names \
            the file and the reason), or for batch a job failed; 64 a usage error or an invalid \
            manifest; 130 interrupted (SIGINT); 143 terminated (SIGTERM).
            """,
        version: SlideshowVersion.current,
        subcommands: [MakeCommand.self, BatchCommand.self, FiltersCommand.self, FormatsCommand.self],
        defaultSubcommand: nil
    )
}

/// The tool's version.
enum SlideshowVersion {
    static let current = "0.1.0"
}

/// `slideshow filters`: the looks, one line each.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the film looks, one line each."
    )

    func run() {
        let width = Looks.all.map(\.name.count).max() ?? 0
        for look in Looks.all {
            let padding = String(repeating: " ", count: width - look.name.count)
            print("\(look.name)\(padding)  \(Looks.summary(of: look.name) ?? "")")
        }
    }
}

/// `slideshow formats`: the image formats and the colour management built in, one line each.
struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the photo formats and the colour management built in, one line each."
    )

    func run() {
        let width = ImageCapabilities.decoders.map(\.format.count).max() ?? 0
        for decoder in ImageCapabilities.decoders {
            let padding = String(repeating: " ", count: width - decoder.format.count)
            print("\(decoder.format)\(padding)  \(decoder.library)")
        }
        print("colour management: \(ImageCapabilities.colorManagement)")
    }
}
