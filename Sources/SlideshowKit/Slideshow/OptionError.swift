import SlideshowAudio
import SlideshowSupport

/// Why ``SlideshowOptions`` cannot make a slideshow, or a ``Slideshow``'s settings break one of
/// its rules: the setting at fault and the reason.
///
/// It speaks of settings as ``SlideshowOptions/Field`` names them; a program with its own
/// words for them (the command line's options) builds its message from ``field``, ``reason``
/// and ``conflicting``.
public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The setting at fault.
    public var field: SlideshowOptions.Field
    /// Why, in words that do not depend on how the setting was given, e.g.
    /// `'big' is not WIDTHxHEIGHT with positive numbers, e.g. 1920x1080`.
    public var reason: String
    /// The other setting, when the fault is that both were given (``field`` is the second).
    public var conflicting: SlideshowOptions.Field?

    /// Creates an error.
    public init(field: SlideshowOptions.Field, reason: String, conflicting: SlideshowOptions.Field? = nil) {
        self.field = field
        self.reason = reason
        self.conflicting = conflicting
    }

    init(_ field: SlideshowOptions.Field, _ reason: String) {
        self.init(field: field, reason: reason)
    }

    /// `<field>: <reason>`, one line, e.g. `size: 'big' is not WIDTHxHEIGHT …`.
    public var description: String { Message.oneLine("\(field.rawValue): \(reason)") }
}

extension OptionError {
    /// A sound setting's error as the option's that carries the setting.
    init(_ error: AudioSettingError) {
        let field: SlideshowOptions.Field = switch error.setting {
        case .start: .audioStart
        case .fadeIn: .audioFadeIn
        case .fadeOut: .audioFadeOut
        case .loudness: .loudness
        case .bitrate: .audioBitrate
        case .clipLevel: .clipVolume
        case .duck: .duck
        }
        self.init(field, error.reason)
    }
}
