import SlideshowSupport

/// Why a clip cannot be played. It names the file (for a motion photo, the photo) and says
/// why, in one line.
public typealias ClipError = FileError<ClipFailure>

/// The kinds of ``ClipError``, for code that acts on them (and tests that assert them).
public enum ClipFailure: Sendable, Hashable {
    /// No such file.
    case missing
    /// The file cannot be read, or libavformat cannot make sense of it (damaged, truncated
    /// before its index, not a media file at all).
    case unreadable
    /// A media file without a video stream (an audio file; cover art does not count).
    case noVideoStream
    /// A format libavformat reads that is not a movie: a still picture, a GIF or text read as a
    /// one-stream "video" (the demuxer named).
    case unsupportedContainer(String)
    /// A video stream in a codec this FFmpeg cannot decode (named; `none` when libavcodec does
    /// not know it at all).
    case unsupportedCodec(String)
    /// Larger than ``ClipLimits`` allow (pixels or duration).
    case tooLarge
    /// The decoder failed for a reason other than damaged data.
    case decodeFailed
}

/// Something a clip's reader noticed and worked around (the show goes on).
public struct ClipWarning: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The video stopped before its stated length (truncated or damaged): the last good
        /// frame is held for the rest of the clip.
        case endedEarly
        /// Packets the decoder refused as damaged were skipped.
        case damagedPackets
        /// A motion photo's embedded video could not be opened: the still is shown instead.
        case damagedMotionVideo
    }

    public var path: String
    public var kind: Kind
    public var message: String

    public init(path: String, kind: Kind, message: String) {
        self.path = path
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// What a clip may be at most; checked by ``ClipProbe`` before a render starts.
public struct ClipLimits: Sendable, Hashable {
    /// The largest coded picture, in pixels (default 8192 × 4320, 8K).
    public var maxPixels: Int
    /// The largest width or height.
    public var maxDimension: Int
    /// The longest clip, in seconds (default one hour).
    public var maxDuration: Double

    public init(maxPixels: Int = 8192 * 4320, maxDimension: Int = 8192, maxDuration: Double = 3600) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxDuration = maxDuration
    }

    public static let `default` = ClipLimits()
}

