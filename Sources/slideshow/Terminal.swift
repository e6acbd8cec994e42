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
        writeToStandardError(line + "\n")
    }

    /// Text on stderr, written with `write(2)`.
    ///
    /// Best effort: when stderr cannot take it (a file on a full disk or past `ulimit -f`, a
    /// closed pipe or terminal), the text is lost and the exit status still tells.
    /// `FileHandle.write(_:)` would trap instead, turning a clean failure into a crash.
    static func writeToStandardError(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// Prints each photo warning (e.g. a broken colour profile replaced by sRGB) as one line,
    /// `slideshow: warning: <file>: <reason>`; the render goes on and the exit status is unchanged.
    static func reportPhotoWarnings() {
        PhotoWarnings.setHandler { warning in say("slideshow: warning: \(warning)") }
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
        // SIGHUP as well (status 129): a closed terminal or a dropped ssh session leaves nothing
        // behind. Not when it was ignored at start (`nohup`): then the render goes on.
        let hangUp = isIgnored(SIGHUP) ? [] : [(SIGHUP, "hung up")]
        for (number, name) in [(SIGINT, "interrupted"), (SIGTERM, "terminated")] + hangUp {
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

extension Terminal {
    /// Whether a signal is ignored, as `nohup` leaves SIGHUP for the program it starts.
    static func isIgnored(_ number: Int32) -> Bool {
        let previous = signal(number, SIG_IGN)
        signal(number, previous)
        return unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
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
        Terminal.writeToStandardError("\r\(bar) \(done)/\(total) photos\(detail)")
    }

    /// Removes the bar; the next ``update(_:detail:)`` draws it again.
    func clear() {
        lock.lock()
        defer { lock.unlock() }
        last = nil
        Terminal.writeToStandardError("\r\u{1B}[K")
    }
}
