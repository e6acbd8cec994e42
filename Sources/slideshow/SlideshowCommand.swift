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
        subcommands: [MakeCommand.self, BatchCommand.self, FiltersCommand.self],
        defaultSubcommand: nil
    )

    /// ArgumentParser's own entry point, except that a usage error's line is one line: a value
    /// quoted in it (`The value '1<newline>' is invalid for '--fps <fps>'`) has its control
    /// characters escaped, as every other message does.
    static func main() async {
        do {
            var command = try parseAsRoot()
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
            Terminal.writeToStandardError(text.replacingOccurrences(of: line, with: Message.oneLine(line)) + "\n")
            exit(withError: ExitCode(code.rawValue))
        }
    }
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
        Terminal.report(Looks.all.map { look in
            let padding = String(repeating: " ", count: width - look.name.count)
            return "\(look.name)\(padding)  \(Looks.summary(of: look.name) ?? "")\n"
        }.joined())
    }
}
