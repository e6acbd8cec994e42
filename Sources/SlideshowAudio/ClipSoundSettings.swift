import SlideshowSupport

/// How the clips' own sound is mixed with the music.
public struct ClipSoundSettings: Sendable, Hashable {
    /// Whether the clips' sound is left out; false by default.
    public var muted: Bool
    /// The clips' sound level, in dB (0 leaves it as recorded).
    public var levelDecibels: Double
    /// How far the music goes down under a clip with sound, in dB (negative).
    public var duckDecibels: Double
    /// The length of the music's ramps down and up around such a clip, in seconds.
    public var rampSeconds: Double

    /// Creates settings; the defaults (the product's: the show's settings take theirs from here)
    /// play the clips' sound as recorded and duck the music a little under it.
    public init(muted: Bool = false, levelDecibels: Double = 0, duckDecibels: Double = -12, rampSeconds: Double = 0.25) {
        self.muted = muted
        self.levelDecibels = levelDecibels
        self.duckDecibels = duckDecibels
        self.rampSeconds = rampSeconds
    }
}

extension ClipSoundSettings {
    /// The clips' level may go from 40 dB down to 20 dB up.
    public static let levelRange = -40.0...20.0
    /// The duck may take the music down by up to 40 dB, or not at all (0).
    public static let duckRange = -40.0...0.0
    /// A ramp lasts at most 2 s (0: a step).
    public static let rampRange = 0.0...2.0

    /// The first setting that cannot be used, and why: the one owner of the clip sound's rules
    /// (the show's settings check calls it).
    package var settingError: AudioSettingError? {
        if !levelDecibels.isFinite || !Self.levelRange.contains(levelDecibels) {
            return AudioSettingError(.clipLevel, "the clips' level \(Message.seconds(levelDecibels)) dB must be between \(Int(Self.levelRange.lowerBound)) and \(Int(Self.levelRange.upperBound)) dB")
        }
        if !duckDecibels.isFinite || !Self.duckRange.contains(duckDecibels) {
            let hint = duckDecibels.isFinite && duckDecibels > 0 ? " (it is how far the music goes down, e.g. -12)" : ""
            return AudioSettingError(.duck, "the duck \(Message.seconds(duckDecibels)) dB must be between \(Int(Self.duckRange.lowerBound)) and 0 dB\(hint); 0 leaves the music alone")
        }
        if !rampSeconds.isFinite || !Self.rampRange.contains(rampSeconds) {
            return AudioSettingError(.duck, "the duck's ramps of \(Message.seconds(rampSeconds)) s must last 0 to \(Int(Self.rampRange.upperBound)) s")
        }
        return nil
    }
}
