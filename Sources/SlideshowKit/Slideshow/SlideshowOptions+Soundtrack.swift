import SlideshowAudio

extension SlideshowOptions {
    /// The soundtrack the audio settings describe, or nil without an audio file; its settings'
    /// ranges are `Soundtrack`'s rules, checked with the show's (``Slideshow/checkSettings()``).
    /// (An audio setting given without an audio file is refused by `checkGivenSettings()`.)
    /// - Throws: ``OptionError`` for a bit rate that is not one.
    func soundtrack() throws(OptionError) -> Soundtrack? {
        guard let audio else { return nil }
        guard let bitrate = Self.bitrate(parsing: audioBitrate) else {
            throw OptionError(.audioBitrate, "'\(audioBitrate)' is not a bit rate such as 192k or 128000")
        }
        return Soundtrack(path: audio, start: audioStart, fadeIn: audioFadeIn, fadeOut: audioFadeOut, loops: audioLoop,
                          loudness: loudness, bitrate: bitrate)
    }

    /// `192k`, `0.5M` or `128000` in bits per second.
    static func bitrate(parsing text: String) -> Int? {
        let lower = text.lowercased()
        let (digits, scale): (Substring, Double) = lower.hasSuffix("k") ? (lower.dropLast(), 1000)
            : lower.hasSuffix("m") ? (lower.dropLast(), 1_000_000) : (Substring(lower), 1)
        guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
        let bits = (value * scale).rounded()
        return bits <= Double(Int32.max) ? Int(bits) : nil
    }
}
