/// A sound setting that cannot be used (not a file that cannot): which one, and why. The show
/// reports it as the matching option's error.
public struct AudioSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The settings of ``Soundtrack`` and ``ClipSoundSettings``.
    public enum Setting: Sendable, Hashable, CaseIterable {
        /// ``Soundtrack/start``.
        case start
        /// ``Soundtrack/fadeIn``.
        case fadeIn
        /// ``Soundtrack/fadeOut``.
        case fadeOut
        /// ``Soundtrack/loudness``.
        case loudness
        /// ``Soundtrack/bitrate``.
        case bitrate
        /// ``ClipSoundSettings/levelDecibels``.
        case clipLevel
        /// ``ClipSoundSettings/duckDecibels`` and ``ClipSoundSettings/rampSeconds``.
        case duck
    }

    /// The setting at fault.
    public var setting: Setting
    /// Why, e.g. `the audio start -1 s must be 0 or more`.
    public var reason: String

    /// Creates an error.
    public init(_ setting: Setting, _ reason: String) {
        self.setting = setting
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
