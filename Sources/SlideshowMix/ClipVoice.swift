import Foundation
import SlideshowAudio
import SlideshowFFmpeg
import SlideshowVideo
import SlideshowPixels

extension ClipSound {
    /// The sample frames (48 kHz, show time) the sound covers: from its start rescaled to
    /// 48 kHz (rounded to the nearest frame: exact for every frame rate that divides 48 000,
    /// within half a sample otherwise), for `round down(duration × 48 000)` frames, as many
    /// as ``ClipAudioReader`` gives; cut at the show's end.
    package func frames(showFrames: Int) -> Range<Int> {
        let rate = Int32(AudioFormat.sampleRate)
        let first = Int(MediaTime.rescale(start.value, from: start.timescale, to: rate))
        let count = Int(duration.value * Int64(rate) / Int64(duration.timescale))
        let lower = min(max(0, first), showFrames)
        return lower..<min(max(lower, first + count), showFrames)
    }
}

extension ClipSoundSettings {
    /// The sound of a clip with an audio stream at these settings: nil when the clips are
    /// muted, otherwise placed at `start` at ``levelDecibels``. Validation makes
    /// ``PreparedSlideshow/clipSounds`` with it, one per clip that has sound.
    public func sound(of source: ClipSource, start: MediaTime, inPoint: MediaTime, duration: MediaTime) -> ClipSound? {
        muted ? nil : ClipSound(source: source, start: start, inPoint: inPoint, duration: duration, levelDecibels: levelDecibels)
    }
}

/// One clip's sound in the mix: its reader is opened when the mix reaches the clip's first
/// sample and closed after its last, so that only the clips playing have a file open, and only
/// a chunk of each is decoded at a time.
///
/// A clip whose sound cannot be read at render time (validation already opened the clip)
/// does not stop the show: the rest of it is silence, with a warning.
package final class ClipVoice {
    package let sound: ClipSound
    /// The show's frames it covers.
    package let frames: Range<Int>
    /// The linear gain of its level.
    package let gain: Float
    /// Warnings for the user, once it has played.
    package private(set) var warnings: [SoundWarning] = []

    private var reader: ClipAudioReader?
    /// Whether the reader was opened (or failed to open).
    private var opened = false
    /// Whether no more sound will be decoded: the reader ended, failed, or was closed.
    private var ended = false
    /// Decoded sound not yet mixed (interleaved), from `pendingStart` on.
    private var pending: [Float] = []
    private var pendingStart = 0
    /// Frames of it mixed so far.
    private var mixed = 0

    package init(sound: ClipSound, showFrames: Int) {
        self.sound = sound
        frames = sound.frames(showFrames: showFrames)
        gain = Float(pow(10, sound.levelDecibels / 20))
    }

    /// Whether it has a file open now.
    package var isOpen: Bool { reader != nil }

    /// Adds its sound to the interleaved stereo frames `chunk` that start at show frame `first`.
    package func add(into chunk: inout [Float], from first: Int) {
        let channels = AudioFormat.channels
        let end = first + chunk.count / channels
        let overlap = max(first, frames.lowerBound + mixed)..<min(end, frames.upperBound)
        guard !overlap.isEmpty else { return }
        if !opened { open() }
        let wanted = overlap.count * channels
        while !ended && pending.count - pendingStart < wanted {
            readMore()
        }
        let available = min(wanted, pending.count - pendingStart)
        let offset = (overlap.lowerBound - first) * channels
        for index in 0..<available {
            chunk[offset + index] += pending[pendingStart + index] * gain
        }
        pendingStart += available
        // Compacted once at least half is mixed: each sample is moved at most once more (linear time).
        if pendingStart > 1 << 15 && pendingStart * 2 >= pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        mixed += overlap.count
        if frames.lowerBound + mixed >= frames.upperBound {
            // Its last frame is mixed: the file is closed and nothing is kept.
            close()
            pending = []
            pendingStart = 0
        }
    }

    private func open() {
        opened = true
        do {
            guard let reader = try ClipAudioReader(source: sound.source, inPoint: sound.inPoint, duration: sound.duration) else {
                warnings.append(SoundWarning(kind: .clip, path: sound.source.path, message: "\(sound.source): the clip has no sound to play; its time is silent"))
                return close()
            }
            self.reader = reader
        } catch {
            warnings.append(SoundWarning(kind: .clip, path: sound.source.path, message: "\(error.description): its sound is left out"))
            close()
        }
    }

    private func readMore() {
        guard let reader else { return close() }
        do {
            guard let samples = try reader.read() else {
                // The reader gave all it has (fewer frames than the show leaves it): silence.
                return close()
            }
            pending += samples
        } catch {
            warnings.append(SoundWarning(kind: .clip, path: sound.source.path, message: "\(error.description): the rest of its sound is left out"))
            close()
        }
    }

    private func close() {
        reader = nil
        ended = true
    }
}
