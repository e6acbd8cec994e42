import SlideshowSupport

/// Why a soundtrack cannot be used. It names the audio file and says why, in one line.
public typealias AudioError = FileError<AudioFailure>

/// The kinds of ``AudioError``, for code that acts on them (and tests that assert them).
public enum AudioFailure: Sendable, Hashable {
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
