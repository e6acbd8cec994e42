import Foundation
internal import CEBUR128

/// EBU R 128 measurement with libebur128: integrated loudness and true peak of 48 kHz stereo.
final class LoudnessMeter {
    private let meter: OwnedLoudnessMeter

    init() throws(FFmpegError) {
        meter = try OwnedLoudnessMeter()
    }

    /// Adds interleaved stereo frames.
    func add(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { buffer in
            _ = ebur128_add_frames_float(meter.state, buffer.baseAddress, buffer.count / AudioFormat.channels)
        }
    }

    /// The integrated loudness in LUFS (−∞ for silence).
    var integratedLoudness: Double {
        var value = -Double.infinity
        _ = ebur128_loudness_global(meter.state, &value)
        return value
    }

    /// The highest true peak of the channels, in dBTP (−∞ for silence).
    var truePeak: Double {
        var highest = 0.0
        for channel in 0..<UInt32(AudioFormat.channels) {
            var peak = 0.0
            _ = ebur128_true_peak(meter.state, channel, &peak)
            highest = max(highest, peak)
        }
        return highest > 0 ? 20 * log10(highest) : -.infinity
    }
}

extension Soundtrack {
    /// Measures the sound the show will have (start, loop, fades) without a gain, and works
    /// out the gain that brings it to ``loudness`` with the true peak at or under −1 dBTP.
    ///
    /// The audio is decoded once for this, streamed through the meter, and decoded again for
    /// the render.
    /// - Returns: nil when no loudness was asked for.
    /// - Throws: ``AudioError`` when the file cannot be read, or `.empty` when the part used
    ///   is silent (its loudness cannot be raised).
    func measureLoudness(totalFrames: Int) throws(AudioError) -> LoudnessReport? {
        guard let target = loudness else { return nil }
        let stream = try SoundtrackStream(soundtrack: self, totalFrames: totalFrames)
        let meter: LoudnessMeter
        do {
            meter = try LoudnessMeter()
        } catch {
            throw AudioError(path: path, kind: .invalidSettings, reason: "cannot measure loudness (\(error.message))")
        }
        while let chunk = try stream.next(maxFrames: 16_384) { meter.add(chunk) }
        let measured = meter.integratedLoudness
        let peak = meter.truePeak
        guard measured.isFinite else {
            throw AudioError(path: path, kind: .empty, reason: "the part of the music used is silent; its loudness cannot be set")
        }
        var gain = target - measured
        if peak + gain > Self.truePeakCeiling { gain = Self.truePeakCeiling - peak }
        return LoudnessReport(measured: measured, truePeak: peak, gain: gain, final: measured + gain)
    }
}
