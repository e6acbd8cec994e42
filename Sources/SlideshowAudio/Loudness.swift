import Foundation
internal import CEBUR128
import SlideshowSupport

/// EBU R 128 measurement with libebur128: integrated loudness and true peak of 48 kHz stereo.
///
/// Every libebur128 call goes through ``check(_:_:path:)``: a code other than success throws
/// an ``AudioError`` of kind `.measurementFailed` with libebur128's meaning.
package final class LoudnessMeter {
    private let meter: OwnedLoudnessMeter
    /// The audio file measured, for errors.
    package let path: String

    /// What to measure: integrated loudness and true peak by default.
    package init(path: String, mode: Int32 = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)) throws(AudioError) {
        self.path = path
        guard let meter = OwnedLoudnessMeter(mode: mode) else {
            throw AudioError(path: path, kind: .measurementFailed, reason: "cannot measure loudness (ebur128_init: out of memory or invalid mode)")
        }
        self.meter = meter
    }

    /// Adds interleaved stereo frames.
    /// - Throws: ``AudioError`` `.measurementFailed` (out of memory).
    package func add(_ samples: [Float]) throws(AudioError) {
        let code = samples.withUnsafeBufferPointer { buffer in
            ebur128_add_frames_float(meter.state, buffer.baseAddress, buffer.count / AudioFormat.channels)
        }
        try Self.check(code, "ebur128_add_frames_float", path: path)
    }

    /// The integrated loudness in LUFS (−∞ for silence).
    /// - Throws: ``AudioError`` `.measurementFailed` (the meter was made without integrated loudness).
    package func integratedLoudness() throws(AudioError) -> Double {
        var value = -Double.infinity
        try Self.check(ebur128_loudness_global(meter.state, &value), "ebur128_loudness_global", path: path)
        return value
    }

    /// The highest true peak of the channels, in dBTP (−∞ for silence).
    /// - Throws: ``AudioError`` `.measurementFailed` (the meter was made without true peak).
    package func truePeak() throws(AudioError) -> Double {
        var highest = 0.0
        for channel in 0..<UInt32(AudioFormat.channels) {
            var peak = 0.0
            try Self.check(ebur128_true_peak(meter.state, channel, &peak), "ebur128_true_peak", path: path)
            highest = max(highest, peak)
        }
        return highest > 0 ? 20 * log10(highest) : -.infinity
    }

    /// libebur128's return codes, each call's checked here: success passes, anything else
    /// throws with the meaning libebur128's header gives it.
    /// - Throws: ``AudioError`` `.measurementFailed` naming the call and the meaning.
    package static func check(_ code: Int32, _ call: String, path: String) throws(AudioError) {
        guard code != Int32(EBUR128_SUCCESS.rawValue) else { return }
        let meaning = switch UInt32(bitPattern: code) {
        case EBUR128_ERROR_NOMEM.rawValue: "out of memory"
        case EBUR128_ERROR_INVALID_MODE.rawValue: "invalid mode (the meter does not measure that)"
        case EBUR128_ERROR_INVALID_CHANNEL_INDEX.rawValue: "invalid channel index"
        case EBUR128_ERROR_NO_CHANGE.rawValue: "no change"
        default: "unknown error \(code)"
        }
        throw AudioError(path: path, kind: .measurementFailed, reason: "cannot measure loudness (\(call): \(meaning))")
    }
}

extension Soundtrack {
    /// Measures the sound the show will have (start, loop, fades) without a gain, and works
    /// out the gain that brings it to ``loudness`` with the true peak at or under −1 dBTP in
    /// the file, after AAC encoding.
    ///
    /// The audio is decoded once for this and streamed through two meters: libebur128 on the
    /// sound itself (the integrated loudness), and ``EncodedPeakMeter`` on the sound encoded
    /// and decoded again (the peak a player will meet, which the AAC encoder can raise by
    /// 2 dB on loud music). The gain is capped by the encoded peak, less
    /// ``encodedPeakMargin`` for the encoder's response to the gain itself; it is decoded
    /// again for the render.
    /// - Returns: nil when no loudness was asked for.
    /// - Throws: ``AudioError`` when the file cannot be read, `.empty` when the part used
    ///   is silent (its loudness cannot be raised), `.measurementFailed` when libebur128 or
    ///   the AAC round trip fails.
    package func measureLoudness(totalFrames: Int) throws(AudioError) -> LoudnessReport? {
        guard let target = loudness else { return nil }
        return try Self.measureLoudness(of: SoundtrackStream(soundtrack: self, totalFrames: totalFrames),
                                        target: target, path: path, bitrate: bitrate)
    }

    /// Measures a show's sound as it comes (the music alone, or the mix with the clips'
    /// sound) and works out the gain to `target` (see ``measureLoudness(totalFrames:)``).
    /// - Parameters:
    ///   - path: the music's file, for errors.
    ///   - bitrate: the AAC bit rate the render will use.
    /// - Throws: ``AudioError`` when the sound cannot be read, `.empty` when it is silent,
    ///   `.measurementFailed` when libebur128 or the AAC round trip fails.
    package static func measureLoudness(of sound: some ShowSound, target: Double, path: String, bitrate: Int) throws(AudioError) -> LoudnessReport {
        let meter = try LoudnessMeter(path: path)
        let encoded = try EncodedPeakMeter(path: path, bitrate: bitrate)
        // A cancelled render stops measuring (its stage then throws `.cancelled`).
        while !Cancellation.isCancelled, let chunk = try sound.next(maxFrames: 16_384) {
            try meter.add(chunk)
            try encoded.add(chunk)
        }
        let measured = try meter.integratedLoudness()
        let peak = max(try meter.truePeak(), try encoded.truePeak())
        guard measured.isFinite else {
            throw AudioError(path: path, kind: .empty, reason: "the part of the music used is silent; its loudness cannot be set")
        }
        var gain = target - measured
        let ceiling = Self.truePeakCeiling - Self.encodedPeakMargin
        if peak + gain > ceiling { gain = ceiling - peak }
        return LoudnessReport(measured: measured, truePeak: peak, gain: gain, final: measured + gain, target: target)
    }

    /// Headroom under ``truePeakCeiling`` when the gain is capped by the peak (0.5 dB): the
    /// AAC encoder's overshoot changes a little with the level it is given, and ffmpeg's
    /// `ebur128` filter measures true peak with another upsampling filter than libebur128
    /// (on the shared Vorbis tone, a margin of 0.2 dB read −1.0 dBTP there, to one decimal).
    package static let encodedPeakMargin = 0.5
}
