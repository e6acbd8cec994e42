import ArgumentParser
import Foundation
import SlideshowKit
import SlideshowSupport

/// `slideshow`: photos to an exact-length H.264 MP4.
@main
struct SlideshowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slideshow",
        abstract: "Turn photos into an MP4 slideshow of exactly the length you ask for.",
        discussion: """
            Exit status: 0 success; 1 a photo, a clip or the output failed (one line on stderr \
            names the file and the reason), for batch a job failed, or stdout could not take a \
            report or the help; 64 a usage error (a clip's part outside the clip and clips \
            longer than --duration included) or an invalid manifest; while make or batch renders, \
            129 hung up (SIGHUP; not when started under nohup, which ignores it), \
            130 interrupted (SIGINT), 143 terminated (SIGTERM): a render stopped by a signal \
            leaves nothing behind.
            """,
        version: SlideshowVersion.current,
        subcommands: [MakeCommand.self, BatchCommand.self, FiltersCommand.self, FormatsCommand.self],
        defaultSubcommand: nil
    )

    /// ArgumentParser's own entry point, except that:
    /// - a usage error's line is one line: a value quoted in it (`The value '1<newline>' is
    ///   invalid for '--fps <fps>'`) has its control characters escaped, as every other message
    ///   does, and the valid names of an option with many (`--transition`) are listed on it,
    ///   separated by commas, where ArgumentParser puts one per line;
    /// - the help and the version are written to stdout as a report is: when stdout cannot take
    ///   them (`slideshow --help > /dev/full`), one line on stderr and status 1.
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
            if code == .success {
                if !text.isEmpty { Terminal.report(text + "\n", what: "the help") }
                exit(withError: ExitCode.success)
            }
            guard !text.isEmpty else { exit(withError: error) }
            let line = message(for: error)
            let hint = RenderOptions.negativeValueHint(for: line, arguments: CommandLine.arguments)
            Terminal.writeToStandardError(text.replacingOccurrences(of: line, with: Message.oneLine(Self.listingOnOneLine(line)) + hint) + "\n")
            exit(withError: ExitCode(code.rawValue))
        }
    }

    /// ArgumentParser's message for a value that is not one of many names, with the names on
    /// its line as it writes a few: `… Please provide one of 'none', 'fade', … or 'random'.`
    static func listingOnOneLine(_ line: String) -> String {
        let marker = ". Please provide one of the following:\n"
        guard let range = line.range(of: marker) else { return line }
        let names = line[range.upperBound...].components(separatedBy: "\n").map { "'\($0.trimmingPrefix("  - "))'" }
        let list = names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
        return line[..<range.lowerBound] + ". Please provide one of \(list)."
    }
}

extension ParsableCommand {
    /// Refuses an option that takes one value and was given more than once (`--audio a.mp3
    /// --audio b.wav`), which ArgumentParser would settle silently by keeping the last.
    ///
    /// The options are the command's own, from ArgumentParser's description of it; the words
    /// are read as ArgumentParser reads them: `--name value`, `--name=value`, `-n value`,
    /// and nothing after `--`.
    /// - Parameter arguments: the words after the command's name; by default the process's.
    /// - Throws: `ValidationError` (status 64) naming the first option given twice.
    static func refuseRepeatedOptions(in arguments: [String]? = nil) throws {
        let arguments = arguments ?? Array(CommandLine.arguments.drop { $0 != configuration.commandName }.dropFirst())
        guard let info = try? JSONDecoder().decode(ToolDescription.self, from: Data(_dumpHelp().utf8)) else { return }
        var optionByName: [String: String] = [:]
        for argument in info.command.arguments where argument.kind == "option" && !argument.isRepeating {
            guard let preferred = argument.preferredName.map(\.spelled) else { continue }
            for name in argument.names ?? [] { optionByName[name.spelled] = preferred }
        }
        var seen: Set<String> = []
        var words = arguments[...]
        while let word = words.popFirst(), word != "--" {
            let name = String(word.prefix { $0 != "=" })
            guard let option = optionByName[name] else { continue }
            if !seen.insert(option).inserted { throw ValidationError("\(option) is given more than once; give it once") }
            if !word.contains("=") { _ = words.popFirst() }
        }
    }
}

/// What `_dumpHelp()` says of a command: its arguments' kinds and names.
private struct ToolDescription: Decodable {
    struct Command: Decodable { var arguments: [Argument] }
    struct Argument: Decodable {
        var kind: String
        var isRepeating: Bool
        var names: [Name]?
        var preferredName: Name?
    }
    struct Name: Decodable {
        var kind: String
        var name: String
        /// `--audio`, `-o`.
        var spelled: String { (kind == "short" ? "-" : "--") + name }
    }
    var command: Command
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
        abstract: "List the photo and clip formats and the colour management built in, one line each."
    )

    func run() {
        Terminal.report(Self.listing() + "\n")
    }

    /// The listing: a format per line with its decoder, the clips, then the colour management.
    static func listing() -> String {
        let width = ImageCapabilities.decoders.map(\.format.count).max() ?? 0
        let formats = ImageCapabilities.decoders.map { decoder in
            decoder.format + String(repeating: " ", count: width - decoder.format.count) + "  " + decoder.library
        }
        let clips = "clips" + String(repeating: " ", count: max(0, width - 5)) + "  " + ClipProbe.capabilities
        return (formats + [clips, "colour management: \(ImageCapabilities.colorManagement)"]).joined(separator: "\n")
    }
}
