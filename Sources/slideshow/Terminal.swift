import Dispatch
import Foundation
import SlideshowKit
import Synchronization
import SlideshowSupport

/// The tool's dealings with the terminal and the process: messages, exit codes, signals.
enum Terminal {
    enum Stream { case standardOutput, standardError }

    static func isTerminal(_ stream: Stream) -> Bool {
        isatty(stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO) == 1
    }

    /// A line on stderr, always one: control characters in it are escaped (``Message/oneLine(_:)``).
    static func say(_ line: String) {
        writeToStandardError(Message.oneLine(line) + "\n")
    }

    /// Text on stdout, written with `write(2)`, whole.
    /// - Returns: nil when it was written, else why not (`No space left on device`, `Broken pipe`, …).
    static func writeToStandardOutput(_ text: String) -> String? {
        write(Array(text.utf8), to: STDOUT_FILENO)
    }

    /// A report on stdout (`make --json`, `filters`, `formats`, the help), or, when stdout
    /// cannot take it, one line on stderr and status 1: a script that reads the report must not
    /// take silence for success. Every write to stdout goes through here or through
    /// ``writeToStandardOutput(_:)`` with its failure handled.
    /// - Parameter what: what the text is, for the line: `stdout: cannot write the report (…)`.
    static func report(_ text: String, what: String = "the report") {
        if let reason = writeToStandardOutput(text) { fail("stdout: cannot write \(what) (\(reason))") }
    }

    /// Text on stderr, written with `write(2)`.
    ///
    /// Best effort: when stderr cannot take it (a file on a full disk or past `ulimit -f`, a
    /// closed pipe or terminal), the text is lost and the exit status still tells.
    /// `FileHandle.write(_:)` would trap instead, turning a clean failure into a crash.
    static func writeToStandardError(_ text: String) {
        _ = write(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Writes all the bytes, retrying after a signal. - Returns: nil, or the reason it failed.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return written < 0 ? String(cString: strerror(errno)) : "nothing was written"
            }
        }
        return nil
    }

    /// One line for a failed render: the library's, with the command line's words where the
    /// library speaks of settings (an existing output it was not asked to replace: use
    /// `--overwrite`). A race lost to another render (``WriterFailure/outputTaken``) keeps the library's words.
    static func describe(_ error: RenderError) -> String {
        if case .output(let writer) = error, writer.kind == .outputExists {
            return Message.oneLine("\(writer.path): already exists (use --overwrite to replace it)")
        }
        return error.description
    }

    /// Prints a render's warnings (e.g. a broken colour profile replaced by sRGB), one line
    /// each, `slideshow: warning: <file>: <reason>`; the exit status is unchanged. The JSON
    /// reports give each one's kind and file as well (``ReportWarning``).
    static func warn(_ warnings: [RenderWarning]) {
        for warning in warnings { say("slideshow: warning: \(warning.message)") }
    }

    /// `slideshow: <message>` on stderr, then exit status 1.
    static func fail(_ message: String, status: Int32 = 1) -> Never {
        say("slideshow: \(message)")
        exit(status)
    }

    /// The signal sources; kept alive for the life of the process.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Whether ``stop(status:_:)`` is under way: the program is about to exit with its status.
    static let stopping = Atomic<Bool>(false)

    /// For the main task, when a render ended because ``stop(status:_:)`` stopped it: waits for
    /// the stop to exit, so that nothing else is printed and the status is the stop's.
    static func waitForStop() -> Never {
        while true { sleep(60) }
    }

    /// The progress bar on screen, which a message clears first.
    static let progressBar = Mutex<ProgressBar?>(nil)

    /// Stops the program at once, as a signal does: removes unfinished outputs, clears the
    /// progress bar, says one line and exits with `status`.
    ///
    /// It never waits long for a lock another thread may hold while blocked on a full pipe or
    /// a stopped terminal: the bar is given 0.2 s, and the caller's `message` must be as quick
    /// (a batch's takes at most 0.7 s).
    static func stop(status: Int32, _ message: @Sendable () -> String) -> Never {
        stopping.store(true, ordering: .sequentiallyConsistent)
        // The message first: it stops the renders under way and waits for them (briefly) to end.
        let text = message()
        UnfinishedOutputs.removeAll()
        progressBar.withLock { $0 }?.stop()
        say("slideshow: \(text)")
        _exit(status)
    }

    /// SIGINT, SIGTERM and SIGHUP remove unfinished outputs, clear the progress bar, say what
    /// became of the outputs in one line (`slideshow: interrupted; <report>`), and exit 130, 143
    /// or 129, within a second whatever stdout and stderr do (SIGHUP not when it was ignored at
    /// start, as under `nohup`); SIGXFSZ (a file-size limit) and SIGPIPE become write errors
    /// instead of killing the process. The overview's exit statuses (`slideshow --help`) say the same.
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
                stop(status: 128 + number) { "\(name); \(report())" }
            }
            source.resume()
            sources.append(source)
        }
    }
}

extension Terminal {
    /// The width of the terminal on stderr in columns (`TIOCGWINSZ`), asked each time, so a
    /// resized window is followed; nil when stderr is not a terminal or does not say.
    static func columns() -> Int? {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Whether a signal is ignored, as `nohup` leaves SIGHUP for the program it starts.
    static func isIgnored(_ number: Int32) -> Bool {
        let previous = signal(number, SIG_IGN)
        signal(number, previous)
        return unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// A one-line progress bar on stderr, for terminals.
///
/// The bar on screen is ``Terminal/progressBar``: a message that stops the program clears it
/// first, so the message starts its own line.
final class ProgressBar: @unchecked Sendable {
    // @unchecked: `last` and `stopped` are touched only under `lock`.
    private let total: Int
    private let lock = NSLock()
    private var last: (done: Int, detail: String)?
    private var stopped = false

    init(total: Int) {
        self.total = total
        Terminal.progressBar.withLock { $0 = self }
        update(0)
    }

    /// Clears the bar for good, for a message that ends the program. Waits at most 0.2 s for a
    /// drawing under way (stderr may be a stopped terminal); keeps the lock, so nothing is drawn after.
    func stop() {
        if lock.lock(before: Date().addingTimeInterval(0.2)) { stopped = true }
        Terminal.writeToStandardError("\r\u{1B}[K")
    }

    /// Draws the bar when `done` or `detail` (shown after the count) changed.
    func update(_ done: Int, detail: String = "") {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped, last?.done != done || last?.detail != detail else { return }
        last = (done, detail)
        Terminal.writeToStandardError("\r\u{1B}[K" + Self.line(done: done, of: total, detail: detail, columns: Terminal.columns()))
    }

    /// The widest bar, in cells.
    static let maximumCells = 30
    /// The narrowest bar worth drawing, in cells: below it, only the count is shown.
    static let minimumCells = 10

    /// The bar's line for `done` of `total` photos, fitted to a terminal `columns` wide (nil:
    /// unknown, the widest bar): the count and `detail` after a bar of up to ``maximumCells``
    /// cells, the line one column short of the width, so that the terminal never wraps it. Where
    /// the bar would be narrower than ``minimumCells``, the count alone, cut to the width.
    static func line(done: Int, of total: Int, detail: String, columns: Int?) -> String {
        let count = "\(done)/\(total) photos\(detail)"
        let room = (columns ?? Int.max) - 1
        let cells = min(maximumCells, room - count.count - 1)
        guard cells >= minimumCells else { return String(count.prefix(max(0, room))) }
        let filled = total == 0 ? cells : min(cells, done * cells / total)
        return String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled) + " " + count
    }

    /// Removes the bar; the next ``update(_:detail:)`` draws it again.
    func clear() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        last = nil
        Terminal.writeToStandardError("\r\u{1B}[K")
    }
}
