internal import CAubio

/// aubio's onset detector, owned: spectral flux over a phase vocoder, and its peak picker.
///
/// Fed a hop of mono samples at a time, it gives the onset detection function's value for
/// that hop (how much the spectrum grew: the "novelty" the tempo is read from) and, when its
/// peak picker fires, the onset's time in samples, corrected by aubio for the picker's delay.
/// The aubio objects (`aubio_onset_t` and the two `fvec_t` buffers) belong to this object
/// alone; it is used inside one analysis and never shared between tasks.
final class AubioOnsetDetector {
    /// Samples per hop.
    let hop: Int
    /// The samples' rate in Hz.
    let sampleRate: Int
    private let detector: OpaquePointer
    private let input: UnsafeMutablePointer<fvec_t>
    private let output: UnsafeMutablePointer<fvec_t>
    private var filled = 0

    /// Makes a detector.
    /// - Parameters:
    ///   - method: aubio's onset function (`specflux`, `hfc`, `complex`, …).
    ///   - window: the phase vocoder's window in samples (a power of two).
    ///   - hop: samples per hop.
    ///   - sampleRate: the samples' rate in Hz.
    /// - Returns: nil when aubio refuses the settings or cannot allocate.
    init?(method: String = "specflux", window: Int, hop: Int, sampleRate: Int) {
        guard let detector = new_aubio_onset(method, UInt32(window), UInt32(hop), UInt32(sampleRate)) else { return nil }
        guard let input = new_fvec(UInt32(hop)) else {
            del_aubio_onset(detector)
            return nil
        }
        guard let output = new_fvec(1) else {
            del_aubio_onset(detector)
            del_fvec(input)
            return nil
        }
        self.detector = detector
        self.input = input
        self.output = output
        self.hop = hop
        self.sampleRate = sampleRate
        // Quiet passages are not onsets (aubio's default is -70 dBFS; a fade's tail is not a beat).
        aubio_onset_set_silence(detector, -60)
    }

    deinit {
        del_aubio_onset(detector)
        del_fvec(input)
        del_fvec(output)
    }

    /// Adds samples; `hopDone(descriptor, onset)` runs once for each complete hop, with the
    /// onset function's value and, when an onset was found, its time in samples since the
    /// first sample fed.
    func feed(_ samples: UnsafeBufferPointer<Float>, hopDone: (Float, Int?) -> Void) {
        var index = 0
        while index < samples.count {
            let take = min(hop - filled, samples.count - index)
            (input.pointee.data + filled).update(from: samples.baseAddress! + index, count: take)
            filled += take
            index += take
            if filled == hop {
                filled = 0
                aubio_onset_do(detector, input, output)
                let descriptor = aubio_onset_get_descriptor(detector)
                let onset: Int? = output.pointee.data[0] > 0 ? Int(aubio_onset_get_last(detector)) : nil
                hopDone(descriptor, onset)
            }
        }
    }
}
