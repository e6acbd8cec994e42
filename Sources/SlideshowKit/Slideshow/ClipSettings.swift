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
    /// The few seconds of video in the photo's place (without their sound), from the photo's
    /// cut for as long as the video lasts or the photo's time, then the still held.
    case play
}

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

    /// Creates settings; the defaults (the product's: ``SlideshowOptions/defaults``) play the
    /// clips' sound as recorded and duck the music a little under it.
    public init(muted: Bool = false, levelDecibels: Double = 0, duckDecibels: Double = -12, rampSeconds: Double = 0.25) {
        self.muted = muted
        self.levelDecibels = levelDecibels
        self.duckDecibels = duckDecibels
        self.rampSeconds = rampSeconds
    }
}

extension MotionPhotoPlayback: SettingChoice {}

extension ClipPart {
    /// A W3C Media Fragments temporal part (`t=2.5,8`, `t=2.5`, `t=,8`, `t=npt:1:02.5,1:10`):
    /// seconds, or `[[hh:]mm:]ss[.fff]`, with an optional `npt:` prefix; nil for anything else.
    /// - Parameter fragment: the text after `#`.
    public init?(mediaFragment fragment: String) {
        guard fragment.hasPrefix("t=") else { return nil }
        var value = fragment.dropFirst(2)
        if value.hasPrefix("npt:") { value = value.dropFirst(4) }
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        func seconds(_ text: Substring) -> Double?? {
            if text.isEmpty { return .some(nil) }
            let fields = text.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count <= 3 else { return nil }
            var total = 0.0
            for (index, field) in fields.enumerated() {
                // Hours and minutes are whole numbers; minutes and seconds under 60 after the first field.
                guard let number = Double(field), number.isFinite, number >= 0, field.allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
                if index < fields.count - 1, field.contains(".") { return nil }
                if index > 0, number >= 60 { return nil }
                total = total * 60 + number
            }
            return .some(total)
        }
        guard let start = seconds(parts[0]), let end = parts.count == 2 ? seconds(parts[1]) : .some(nil) else { return nil }
        guard start != nil || end != nil else { return nil }
        self.init(start: start ?? 0, end: end)
    }

    /// A command line's `clip.mov#t=2.5,8`: the path and its part. A file that exists under the
    /// whole name, `#` included, is that file, played whole.
    /// - Returns: the path and the part; the argument unchanged and nil when it names no part.
    public static func splitting(_ argument: String, fileExists: (String) -> Bool) -> (path: String, part: ClipPart?) {
        guard let hash = argument.lastIndex(of: "#"), !fileExists(argument),
              let part = ClipPart(mediaFragment: String(argument[argument.index(after: hash)...])) else { return (argument, nil) }
        return (String(argument[..<hash]), part)
    }
}
