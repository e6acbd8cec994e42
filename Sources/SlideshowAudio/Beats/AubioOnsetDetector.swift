package import CAubio

/// aubio's onset detector, owned: its onset detection function (spectral flux over a phase vocoder).
///
/// Fed a hop of mono samples at a time, it gives the onset detection function's value for
/// that hop: how much the spectrum grew, the "novelty" the onsets and the tempo are read from.
/// aubio's own peak picker is not used: it drops an onset when the hop *after* it is silent
/// (its silence gate looks at the current hop, a few hops after the peak), so clicks or
/// drum hits in digital silence would vanish; ``BeatGridFit/onsets(in:hopSeconds:start:)``
/// picks the peaks instead. The aubio objects (`aubio_onset_t` and the two `fvec_t` buffers) are
/// each owned by a wrapper of its own (``AubioOnset``, ``AubioVector``) that this object alone
/// holds; it is used inside one analysis and never shared between tasks.
package final class AubioOnsetDetector {
    /// Samples per hop.
    package let hop: Int
    /// The samples' rate in Hz.
    package let sampleRate: Int
    private let onset: AubioOnset
    private let input: AubioVector
    private let output: AubioVector
    private var filled = 0
    private var level: Float = 0

    /// Makes a detector.
    /// - Parameters:
    ///   - method: aubio's onset function (`specflux`, `hfc`, `complex`, …).
    ///   - window: the phase vocoder's window in samples (a power of two).
    ///   - hop: samples per hop.
    ///   - sampleRate: the samples' rate in Hz.
    /// - Returns: nil when aubio refuses the settings or cannot allocate (what was made is
    ///   freed by its owner).
    package init?(method: String = "specflux", window: Int, hop: Int, sampleRate: Int) {
        guard let onset = AubioOnset(method: method, window: window, hop: hop, sampleRate: sampleRate),
              let input = AubioVector(length: hop), let output = AubioVector(length: 1) else { return nil }
        self.onset = onset
        self.input = input
        self.output = output
        self.hop = hop
        self.sampleRate = sampleRate
    }

    /// Adds samples; `hopDone` runs once for each complete hop, with the onset function's
    /// value and the hop's level (the sum of its samples' magnitudes).
    package func feed(_ samples: UnsafeBufferPointer<Float>, hopDone: (_ novelty: Float, _ level: Float) -> Void) {
        var index = 0
        while index < samples.count {
            let take = min(hop - filled, samples.count - index)
            (input.pointer.pointee.data + filled).update(from: samples.baseAddress! + index, count: take)
            for offset in index..<(index + take) { level += abs(samples[offset]) }
            filled += take
            index += take
            if filled == hop {
                filled = 0
                aubio_onset_do(onset.pointer, input.pointer, output.pointer)
                hopDone(aubio_onset_get_descriptor(onset.pointer), level)
                level = 0
            }
        }
    }
}

/// An `aubio_onset_t`, owned: deleted once, in deinit.
package final class AubioOnset {
    package let pointer: OpaquePointer

    package init?(method: String, window: Int, hop: Int, sampleRate: Int) {
        guard let pointer = new_aubio_onset(method, UInt32(window), UInt32(hop), UInt32(sampleRate)) else { return nil }
        self.pointer = pointer
    }

    deinit { del_aubio_onset(pointer) }
}

/// An `fvec_t`, owned: deleted once, in deinit.
package final class AubioVector {
    package let pointer: UnsafeMutablePointer<fvec_t>

    package init?(length: Int) {
        guard let pointer = new_fvec(UInt32(length)) else { return nil }
        self.pointer = pointer
    }

    deinit { del_fvec(pointer) }
}
