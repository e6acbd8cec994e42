import Synchronization

/// Something about a photo the user should know although the photo renders, e.g. a broken
/// colour profile that was replaced by sRGB.
public struct PhotoWarning: Sendable, Hashable, CustomStringConvertible {
    /// The photo's path as the user gave it.
    public var path: String
    /// A short, lower-case reason, e.g. `its colour profile cannot be read; shown as sRGB`.
    public var reason: String

    /// Creates a warning.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `<path>: <reason>`.
    public var description: String { "\(path): \(reason)" }
}

/// Where ``PhotoWarning``s go: the log of the validation or render under way, bound for its
/// work with `PhotoWarnings.$log.withValue(log) { … }` (and bound again on each thread that
/// work hands a decode to); outside one they are dropped. There is no handler for the whole
/// process: each render delivers its own warnings in its result.
package enum PhotoWarnings {
    @TaskLocal package static var log: PhotoWarningLog?

    /// Adds a warning to the current log.
    package static func report(_ warning: PhotoWarning) {
        log?.add(warning)
    }

    /// Runs `body` with `log` bound (on a thread of its own, a worker's), its typed error kept.
    package static func collecting<T, E: Error>(into log: PhotoWarningLog?, _ body: () throws(E) -> T) throws(E) -> T {
        try $log.withValue(log) { () -> Result<T, E> in
            do throws(E) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }.get()
    }
}

/// The photo warnings of one validation or render: each distinct one (path and reason) once,
/// however many times the photo is decoded, in the order found.
package final class PhotoWarningLog: Sendable {
    private let state: Mutex<(warnings: [PhotoWarning], seen: Set<PhotoWarning>)>

    /// - Parameter seen: warnings already delivered (a validation's, for the render after it): not added again.
    package init(seen: [PhotoWarning] = []) {
        state = Mutex(([], Set(seen)))
    }

    /// Adds a warning unless it is there already.
    package func add(_ warning: PhotoWarning) {
        state.withLock { state in
            if state.seen.insert(warning).inserted { state.warnings.append(warning) }
        }
    }

    /// The warnings, in the order found.
    package var warnings: [PhotoWarning] { state.withLock { $0.warnings } }
}
