import ArgumentParser
import Foundation
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

    /// ArgumentParser's own entry point, except that a usage error's line is one line: a value
    /// quoted in it (`The value '1<newline>' is invalid for '--fps <fps>'`) has its control
    /// characters escaped, as every other message does.
    static func main() async {
        do {
            // Raw argv: a file name that is not UTF-8 reaches the library byte for byte (PathBytes).
            var command = try parseAsRoot(PathBytes.commandLineArguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            guard code != .success, !text.isEmpty else { exit(withError: error) }
            let line = message(for: error)
            let hint = RenderOptions.negativeValueHint(for: line, arguments: CommandLine.arguments)
            Terminal.writeToStandardError(text.replacingOccurrences(of: line, with: Message.oneLine(line) + hint) + "\n")
            exit(withError: ExitCode(code.rawValue))
        }
    }
}

/// The tool's version.
enum SlideshowVersion {
    static let current = "0.1.0"
}

/// `slideshow filters`: the looks, one line each, with their parameters and defaults.
struct FiltersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filters",
        abstract: "List the film looks, with their parameters and defaults.",
        discussion: """
            --filter takes a look, or several separated by commas, applied left to right; a look's \
            parameters follow its name as :key=value, e.g. --filter minimal-life,vignette:intensity=1.2:radius=1.8
            """
    )

    func run() {
        Terminal.report(Self.listing() + "\n")
    }

    /// The listing: a look per line, then a line per parameter, indented.
    static func listing() -> String {
        let width = Looks.catalogue.map(\.name.count).max() ?? 0
        var lines: [String] = []
        for look in Looks.catalogue {
            let padding = String(repeating: " ", count: width - look.name.count)
            lines.append("\(look.name)\(padding)  \(look.summary)")
            for parameter in look.parameters {
                let range = parameter.range
                let upper = range.upperBound == .greatestFiniteMagnitude ? "" : LookParameter.format(range.upperBound)
                lines.append("  \(look.name):\(parameter.name)=\(LookParameter.format(parameter.defaultValue))  (\(LookParameter.format(range.lowerBound)) to \(upper)) \(parameter.meaning)")
            }
        }
        lines.append("")
        lines.append("Chain looks with commas, applied left to right: --filter minimal-life,vignette:intensity=1.2:radius=1.8")
        return lines.joined(separator: "\n")
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
