/// Why a soundtrack cannot be used. It names the audio file and says why, in one line.
public struct AudioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure, for code that acts on them (and tests that assert them).
    public enum Kind: Sendable, Equatable {
        /// No file at the path.
        case missing
        /// The file exists but cannot be read: permissions, a folder.
        case unreadable
        /// libavformat does not recognise the file, or it is damaged beyond its header.
        case notAudio
        /// The file holds streams, but none of them is audio (a video, a picture).
        case noAudioStream
        /// No decoder for the audio stream's codec.
        case unsupported
        /// The file holds no audio samples at all (or none after the start offset).
        case empty
        /// The audio stream is damaged so that decoding cannot go on.
        case damaged
        /// A soundtrack setting is out of range (a negative start, a bitrate, a loudness).
        case invalidSettings
        /// The music (after its start) is shorter than ``Soundtrack/minimumLength``: too short to
        /// loop or to set its loudness.
        case tooShort
        /// libebur128 refused to measure the loudness (its reason in ``reason``).
        case measurementFailed
    }

    /// The audio file as the user gave it.
    public var path: String
    /// The kind of failure.
    public var kind: Kind
    /// A short, lower-case reason for the user.
    public var reason: String

    /// Creates an error.
    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// `<path>: <reason>`.
    public var description: String { "\(path): \(reason)" }
}
