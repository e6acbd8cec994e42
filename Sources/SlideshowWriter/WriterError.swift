import SlideshowSupport

/// Why a video could not be written. It names the output file and says why, in one line.
public typealias WriterError = FileError<WriterFailure>

/// The kinds of ``WriterError``, for code that acts on them (and tests that assert them).
public enum WriterFailure: Sendable, Hashable {
    /// A file is already at the output path and overwriting was not asked for.
    case outputExists
    /// Another render put a file at the output path while this one was writing (neither
    /// asked to overwrite): the other's file stays, this one is discarded.
    case outputTaken
    /// The output's folder does not exist.
    case noSuchFolder
    /// The output path is a folder.
    case outputIsFolder
    /// Something other than a regular file is at the output path (a device, FIFO or
    /// socket): it is never replaced, even with overwrite.
    case notAFile
    /// The output path cannot name a file: empty, ending in `/`, a name or path too
    /// long, or a symbolic link to nothing.
    case invalidPath
    /// The output (or its temporary file) cannot be created or written: permissions, a read-only disk.
    case notWritable
    /// The disk is full, or a file-size limit was reached.
    case diskFull
    /// The settings cannot make a video (odd size, unknown preset, …).
    case invalidSettings
    /// An append came at a time not after the previous one, or outside the session.
    case invalidTime
    /// A call came in the wrong state, e.g. an append before `startWriting()`.
    case invalidState
    /// The encoder or muxer failed.
    case encoderFailed
    /// The writing was cancelled; nothing was left at the output path.
    case cancelled
}
