/// The part of a clip that plays: from ``start`` to ``end``, in seconds of the clip.
///
/// On the command line `clip.mov#t=2.5,8` (the W3C Media Fragments temporal syntax); in a
/// manifest a photo entry's `in` and `out`.
public struct ClipPart: Sendable, Hashable {
    /// Where the clip starts playing, seconds from its first frame; 0 by default.
    public var start: Double
    /// Where it stops; nil plays to its end.
    public var end: Double?

    /// Creates a part; nil `end` plays to the clip's end.
    public init(start: Double = 0, end: Double? = nil) {
        self.start = start
        self.end = end
    }
}

/// Whether motion photos (Samsung, Google, Apple Live Photos) play their video.
public enum MotionPhotoPlayback: String, Sendable, Hashable, CaseIterable {
    /// The still, as a plain photo (the default).
    case still
    /// The few seconds of video in the photo's place, then the still held.
    case play
}

/// How the clips' own sound is mixed with the music.
public struct ClipSoundSettings: Sendable, Hashable {
    /// Whether the clips' sound is left out; false by default.
    public var muted: Bool
    /// The clips' sound level, in dB (0 leaves it as recorded).
    public var levelDecibels: Double
    /// How far the music goes down under a clip with sound, in dB (negative); −12 by default.
    public var duckDecibels: Double
    /// The length of the music's ramps down and up around such a clip, in seconds.
    public var rampSeconds: Double

    /// Creates settings; the defaults play the clips' sound as recorded and duck the music by 12 dB.
    public init(muted: Bool = false, levelDecibels: Double = 0, duckDecibels: Double = -12, rampSeconds: Double = 0.25) {
        self.muted = muted
        self.levelDecibels = levelDecibels
        self.duckDecibels = duckDecibels
        self.rampSeconds = rampSeconds
    }
}
