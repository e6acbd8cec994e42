import Synchronization

/// Something about a photo the user should know although the photo renders, e.g. a broken
/// colour profile that was replaced by sRGB.
public struct PhotoWarning: Sendable, Equatable, CustomStringConvertible {
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

/// Where ``PhotoWarning``s go: one handler for the whole process, set by the program.
///
/// Each distinct warning (path and reason) is delivered once per process, however many
/// times the photo is decoded (the check before a render, retries, the jobs of a batch), so
/// the user reads one line per photo. Without a handler, warnings are dropped.
public enum PhotoWarnings {
    private static let state = Mutex<(handler: (@Sendable (PhotoWarning) -> Void)?, seen: Set<String>)>((nil, []))

    /// Sets the handler, called from whichever thread decodes the photo.
    /// - Parameters:
    ///   - handler: receives each distinct warning once; nil drops them.
    public static func setHandler(_ handler: (@Sendable (PhotoWarning) -> Void)?) {
        state.withLock { $0.handler = handler }
    }

    /// Delivers a warning unless the same one was delivered before.
    package static func report(_ warning: PhotoWarning) {
        let handler: (@Sendable (PhotoWarning) -> Void)? = state.withLock { state in
            guard state.seen.insert(warning.description).inserted else { return nil }
            return state.handler
        }
        handler?(warning)
    }
}
