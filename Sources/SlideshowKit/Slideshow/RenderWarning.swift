import SlideshowAudio
import SlideshowFormats
import SlideshowText
import SlideshowVideo

/// Something the user should know about a render that did not stop it: what it is about
/// (``kind``), the file it concerns, and the line to show.
///
/// A program acts on ``kind`` (and ``path``), never on the text: the command line prints
/// ``message``, the JSON reports give all three.
public struct RenderWarning: Sendable, Hashable, CustomStringConvertible {
    /// What a warning is about.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A photo renders with something repaired or left out: a colour profile that cannot be
        /// read, a capture date that cannot be true, damaged data (`PhotoWarning`).
        case photo
        /// A clip's or a motion photo's video: damaged, ended early, left out (`ClipWarning`).
        case clip
        /// A clip's own sound: silent, or left out from where it cannot be read.
        case clipSound = "clip-sound"
        /// The music: damaged packets skipped, stopped early, a loop that cannot be read again.
        case music
        /// The loudness asked for was not reached (the true-peak ceiling).
        case loudness
        /// Cuts asked on the beat stayed even (`BeatCutFallback`).
        case beats
        /// Photos without a capture date played last (`PhotoOrder/date`).
        case order
        /// The text: an unknown font family, a caption repaired (`TextWarning`).
        case text
        /// Files a folder listing left out (unreadable, unsupported).
        case selection
    }

    /// What it is about.
    public var kind: Kind
    /// The file it concerns (a photo, a clip, the music, a font), when there is one.
    public var path: String?
    /// The line for the user, naming the file, e.g. `a.jpg: its colour profile cannot be read; shown as sRGB`.
    public var message: String

    /// Creates a warning.
    public init(kind: Kind, path: String?, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// ``message``.
    public var description: String { message }
}

extension RenderWarning {
    init(_ warning: PhotoWarning) {
        self.init(kind: .photo, path: warning.path, message: warning.description)
    }

    init(_ warning: ClipWarning) {
        self.init(kind: .clip, path: warning.path, message: warning.description)
    }

    init(_ warning: TextWarning) {
        self.init(kind: .text, path: warning.source, message: warning.description)
    }

    init(_ warning: SoundWarning) {
        self.init(kind: warning.kind == .music ? .music : .clipSound, path: warning.path, message: warning.description)
    }
}
