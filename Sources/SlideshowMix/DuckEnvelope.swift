import Foundation
import SlideshowAudio

/// How far the music goes down under the clips with sound, at every sample frame of the show.
///
/// Each clip with sound is a *duck*: the music is fully down (by ``depthDecibels``) from the
/// clip's first sample to its last, ramps down over ``rampFrames`` that **end at the clip's
/// start** (so its first word is heard over the lowered music), and ramps up over
/// ``rampFrames`` that **start at the clip's end**. A ramp is a raised cosine in decibels:
/// halfway through it the music is half the depth down (−6 dB of −12), and it starts and
/// ends without a corner, so the change is not heard as a step.
///
/// Clips whose ramps would meet (less than two ramps apart: back-to-back clips, clips
/// side by side in a transition) are one duck: the music stays down from the first one's
/// start to the last one's end. A ramp before the show's start or after its end is cut off
/// there: a clip that opens the show has the music down from its first sample.
package struct DuckEnvelope: Sendable, Equatable {
    /// The frames where the music is fully down, sorted, merged, non-overlapping.
    package let spans: [Range<Int>]
    /// How far down, in dB (0 or negative).
    package let depthDecibels: Double
    /// The length of each ramp in frames.
    package let rampFrames: Int

    /// - Parameters:
    ///   - clips: the frames of each clip with sound (any order, may overlap).
    ///   - depthDecibels: how far the music goes down (0: not at all, and no spans kept).
    ///   - rampFrames: each ramp's length in frames.
    package init(clips: [Range<Int>], depthDecibels: Double, rampFrames: Int) {
        self.depthDecibels = depthDecibels
        self.rampFrames = max(0, rampFrames)
        guard depthDecibels != 0 else {
            spans = []
            return
        }
        var merged: [Range<Int>] = []
        for span in clips.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound - last.upperBound < 2 * self.rampFrames {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        spans = merged
    }

    /// How far into the duck the music is at frame `t`: 0 at full level, 1 fully down.
    package func weight(at t: Int) -> Double {
        var weight = 0.0
        for span in spans {
            if t < span.lowerBound - rampFrames { break }
            if span.contains(t) { return 1 }
            if t < span.lowerBound {
                // Ramping down: u from 0 (the ramp's first frame) towards 1 (the clip's start).
                let u = (Double(t - (span.lowerBound - rampFrames)) + 0.5) / Double(rampFrames)
                weight = max(weight, (1 - cos(.pi * u)) / 2)
            } else if t < span.upperBound + rampFrames {
                let u = (Double(t - span.upperBound) + 0.5) / Double(rampFrames)
                weight = max(weight, (1 + cos(.pi * u)) / 2)
            }
        }
        return weight
    }

    /// The music's linear gain at frame `t`.
    package func gain(at t: Int) -> Float {
        let weight = self.weight(at: t)
        return weight == 0 ? 1 : Float(pow(10, depthDecibels * weight / 20))
    }

    /// Whether the music is at full level over all of `frames` (nothing to do there).
    package func isFlat(over frames: Range<Int>) -> Bool {
        !spans.contains { $0.lowerBound - rampFrames < frames.upperBound && $0.upperBound + rampFrames > frames.lowerBound }
    }

    /// Multiplies interleaved stereo frames starting at show frame `first` by the gain.
    package func apply(to samples: inout [Float], from first: Int) {
        let frames = samples.count / AudioFormat.channels
        guard !isFlat(over: first..<(first + frames)) else { return }
        let fullyDown = Float(pow(10, depthDecibels / 20))
        for frame in 0..<frames {
            let t = first + frame
            let gain = spans.contains { $0.contains(t) } ? fullyDown : self.gain(at: t)
            guard gain != 1 else { continue }
            for channel in 0..<AudioFormat.channels { samples[frame * AudioFormat.channels + channel] *= gain }
        }
    }
}
