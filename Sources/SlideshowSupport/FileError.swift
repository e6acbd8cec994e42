/// Why a file could not be used: the file as the user gave it, the kind of failure and a
/// reason, described in one line as `<path>: <reason>`.
///
/// The photo, the music, the clip and the output each have their own kinds: ``PhotoError``,
/// ``AudioError``, ``ClipError`` and ``WriterError`` are this type with their own `Kind`.
public struct FileError<Failure: Sendable & Hashable>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure, for code that acts on them (and tests that assert them).
    public typealias Kind = Failure

    /// The file's path as the user gave it; empty when the failure concerns no file.
    public var path: String
    /// The kind of failure.
    public var kind: Kind
    /// A short, lower-case reason for the user, e.g. `truncated JPEG data (Premature end of JPEG file)`.
    public var reason: String

    /// Creates an error.
    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// `<path>: <reason>`; the reason alone when the path is empty.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
