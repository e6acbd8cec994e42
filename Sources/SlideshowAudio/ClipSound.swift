import SlideshowFFmpeg
import SlideshowPixels

/// One clip's sound placed in the show: what the soundtrack mixes in under the music.
///
/// Made by validation from the clips in the plan (``PreparedSlideshow/clipSounds``), one per
/// clip that has an audio stream and is not muted; the mixer reads it with ``ClipAudioReader``.
public struct ClipSound: Sendable, Hashable {
    /// The clip (a file, or the byte range of a motion photo's video).
    public var source: ClipSource
    /// When it starts in the show (the opening card included), exact to a video frame.
    public var start: MediaTime
    /// Where in the clip it starts (clip time, from zero).
    public var inPoint: MediaTime
    /// How long it plays.
    public var duration: MediaTime
    /// Its level in dB (``ClipSoundSettings/levelDecibels``).
    public var levelDecibels: Double

    public init(source: ClipSource, start: MediaTime, inPoint: MediaTime, duration: MediaTime, levelDecibels: Double = 0) {
        self.source = source
        self.start = start
        self.inPoint = inPoint
        self.duration = duration
        self.levelDecibels = levelDecibels
    }
}
