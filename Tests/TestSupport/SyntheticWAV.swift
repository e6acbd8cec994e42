/// WAV files for tests: 16-bit stereo PCM silence, at any rate the header is to say.
public enum SyntheticWAV {
    /// `frames` sample frames of silence under a header that says `rate` samples a second
    /// (a rate of 1 Hz is a sample-rate bomb: 48 000 times as many samples once resampled).
    public static func silence(frames: Int, rate: Int = 48_000) -> [UInt8] {
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let data = frames * 4
        return Array("RIFF".utf8) + le(36 + data, 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(1, 2) + le(2, 2)
            + le(rate, 4) + le(rate * 4, 4) + le(4, 2) + le(16, 2) + Array("data".utf8) + le(data, 4) + [UInt8](repeating: 0, count: data)
    }
}
