/// Something about the show's sound that did not stop the render: damaged music skipped, a
/// clip's sound left out. The file it concerns, and the line for the user.
public struct SoundWarning: Sendable, Hashable, CustomStringConvertible {
    /// Whose sound.
    public enum Source: Sendable, Hashable {
        /// The music (the soundtrack).
        case music
        /// A clip's own sound.
        case clip
    }

    /// Whose sound it is about.
    public var kind: Source
    /// The file: the music's, or the clip's.
    public var path: String
    /// The line for the user, naming the file.
    public var message: String

    public init(kind: Source, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// ``message``.
    public var description: String { message }
}
