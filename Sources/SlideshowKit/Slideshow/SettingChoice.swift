import SlideshowFraming
import SlideshowPlan
import SlideshowWriter

/// A setting whose value is one of a few names (`--fit letterbox`, `"transition": "fade"`):
/// the one list that the command line's parser, the manifest's reader and the help texts use.
public protocol SettingChoice: RawRepresentable<String>, CaseIterable, Sendable {}

extension SettingChoice {
    /// The names, in the order of `allCases`, separated by commas: `letterbox, fill, blur`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The value a name gives.
    /// - Returns: the value, or the reason the name gives none: `'stretch' is not one of letterbox, fill, blur`.
    public static func named(_ name: String) -> Result<Self, ChoiceError> {
        guard let value = Self(rawValue: name) else { return .failure(ChoiceError(reason: "'\(name)' is not one of \(names)")) }
        return .success(value)
    }
}

/// A name that is not one of a ``SettingChoice``'s.
public struct ChoiceError: Error, Sendable, Hashable {
    /// `'stretch' is not one of letterbox, fill, blur`.
    public var reason: String
}

extension FitMode: SettingChoice {}
extension HoldStrategy: SettingChoice {}
extension VideoCodec: SettingChoice {}
extension HDRSetting: SettingChoice {}
extension TransitionEffect: SettingChoice {}
extension MotionStyle: SettingChoice {}
extension Framing: SettingChoice {}
