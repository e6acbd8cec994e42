import Dispatch
import Foundation
import SlideshowKit

/// The tool's dealings with the terminal and the process: messages, exit codes, signals.
enum Terminal {
    enum Stream { case standardOutput, standardError }

    static func isTerminal(_ stream: Stream) -> Bool {
        isatty(stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO) == 1
    }

    /// A line on stderr.
    static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// `slideshow: <message>` on stderr, then exit status 1.
    static func fail(_ message: String, status: Int32 = 1) -> Never {
        say("slideshow: \(message)")
        exit(status)
    }

    /// The signal sources; kept alive for the life of the process.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// SIGINT and SIGTERM remove unfinished outputs, say what became of the outputs in one
    /// line (`slideshow: interrupted; <report>`), and exit 130 or 143; SIGXFSZ (a file-size limit) and SIGPIPE become
    /// write errors instead of killing the process.
    static func installSignalHandlers(report: @escaping @Sendable () -> String = { "no output was written" }) {
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        for (number, name) in [(SIGINT, "interrupted"), (SIGTERM, "terminated")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global(qos: .userInteractive))
            source.setEventHandler {
                UnfinishedOutputs.removeAll()
                say("slideshow: \(name); \(report())")
                _exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// A one-line progress bar on stderr, for terminals.
final class ProgressBar: @unchecked Sendable {
    // @unchecked: `last` is touched only under `lock`.
    private let total: Int
    private let lock = NSLock()
    private var last: (done: Int, detail: String)?

    init(total: Int) {
        self.total = total
        update(0)
    }

    /// Draws the bar when `done` or `detail` (shown after the count) changed.
    func update(_ done: Int, detail: String = "") {
        lock.lock()
        defer { lock.unlock() }
        guard last?.done != done || last?.detail != detail else { return }
        last = (done, detail)
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(done)/\(total) photos\(detail)".utf8))
    }

    /// Removes the bar; the next ``update(_:detail:)`` draws it again.
    func clear() {
        lock.lock()
        defer { lock.unlock() }
        last = nil
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
