import Foundation
import SlideshowPixels
import SlideshowSupport

/// The sound of a show, `totalFrames` stereo frames long, produced a chunk at a time from a
/// ``Soundtrack``: start offset, loop with a crossfade (or silence), fades, gain.
///
/// Nothing is kept but the chunk at hand and, when looping, the last ``Soundtrack/crossfade``
/// of sound (held back so that it can be mixed into the head of the next pass once the end
/// of the music shows up). A 60-minute file is never read into memory.
///
/// Looping: the part of the music after the start offset plays again and again. At each
/// seam, the last C frames of one pass and the first C frames of the next are mixed with an
/// equal-power crossfade (gains cos θ and sin θ, θ going from 0 to π/2), C = 100 ms (or the
/// soundtrack's ``Soundtrack/seam``), or half the pass when the music is shorter than 2 C.
///
/// Fades are linear in amplitude: the gain rises from 0 over the fade-in and falls to 0 at
/// the show's end over the fade-out (capped at half the show).
package final class SoundtrackStream {
    package let soundtrack: Soundtrack
    package let totalFrames: Int
    /// The linear gain applied to every sample.
    package let gain: Float
    /// Warnings for the user (damaged packets skipped), once the stream is done.
    package private(set) var warnings: [SoundWarning] = []

    private var reader: AudioReader?
    private let startFrames: Int
    private let crossfadeFrames: Int
    private let fadeInFrames: Int
    private let fadeOutFrames: Int
    /// Frames handed out so far.
    package private(set) var produced = 0
    /// Sound ready to hand out (interleaved), from `readyStart` on.
    private var ready: [Float] = []
    private var readyStart = 0
    /// The frames of the current pass still to skip (the start offset, and on the first pass the entry).
    private var toSkip: Int
    /// Frames of music read in the current pass (after the skip).
    private var passFrames = 0
    /// The held-back end of the pass so far (interleaved), at most `crossfadeFrames` long.
    private var tail: [Float] = []
    /// After the music's end without looping (or when it cannot be read again): silence.
    private var silent = false
    private var skippedPackets = 0
    /// Sound the reader gave before the stream took it over (validation's first chunk).
    private var pending: [Float]?

    /// - Parameters:
    ///   - totalFrames: the show's length in 48 kHz frames.
    ///   - gain: the loudness gain in dB (0 for none).
    ///   - opened: the file as validation opened it, to go on from instead of opening it again.
    package init(soundtrack: Soundtrack, totalFrames: Int, gainDecibels: Double = 0,
         opened: (reader: AudioReader, first: [Float])? = nil) throws(AudioError) {
        self.soundtrack = soundtrack
        self.totalFrames = totalFrames
        gain = Float(pow(10, gainDecibels / 20))
        let rate = Double(AudioFormat.sampleRate)
        startFrames = Int((soundtrack.start * rate).rounded())
        crossfadeFrames = soundtrack.seam.map { Int(($0 * rate).rounded()) }
            ?? Int(MediaTime.rescale(Soundtrack.crossfade.value, from: Soundtrack.crossfade.timescale, to: Int32(AudioFormat.sampleRate)))
        fadeInFrames = min(totalFrames, Int((soundtrack.fadeIn * rate).rounded()))
        fadeOutFrames = min(totalFrames / 2, Int((soundtrack.fadeOut * rate).rounded()))
        toSkip = startFrames + Int((soundtrack.entry * rate).rounded())
        if let opened {
            reader = opened.reader
            pending = opened.first
        } else {
            ReadProbe.current?.musicOpens.add(1, ordering: .relaxed)
            reader = try AudioReader(path: soundtrack.path)
        }
    }

    /// The next at most `maxFrames` frames (interleaved stereo); nil once `totalFrames` have been given.
    package func next(maxFrames: Int) throws(AudioError) -> [Float]? {
        let wanted = min(maxFrames, totalFrames - produced)
        guard wanted > 0 else {
            finishWarnings()
            return nil
        }
        while (ready.count - readyStart) / AudioFormat.channels < wanted {
            try fill()
        }
        let count = wanted * AudioFormat.channels
        var chunk = Array(ready[readyStart..<(readyStart + count)])
        readyStart += count
        if readyStart > 1 << 16 {
            ready.removeFirst(readyStart)
            readyStart = 0
        }
        shape(&chunk, from: produced)
        produced += wanted
        return chunk
    }

    /// Applies the gain and the fades to frames starting at frame `first` of the show.
    private func shape(_ chunk: inout [Float], from first: Int) {
        let frames = chunk.count / AudioFormat.channels
        let fadeOutStart = totalFrames - fadeOutFrames
        for frame in 0..<frames {
            let t = first + frame
            var weight = gain
            if t < fadeInFrames { weight *= Float(t) / Float(fadeInFrames) }
            if t >= fadeOutStart && fadeOutFrames > 0 { weight *= Float(totalFrames - t) / Float(fadeOutFrames) }
            chunk[2 * frame] *= weight
            chunk[2 * frame + 1] *= weight
        }
    }

    /// Adds at least one frame to `ready`.
    private func fill() throws(AudioError) {
        if silent {
            ready += [Float](repeating: 0, count: 4096 * AudioFormat.channels)
            return
        }
        guard let chunk = try readMusic() else {
            try endOfPass()
            return
        }
        passFrames += chunk.count / AudioFormat.channels
        guard soundtrack.loops else {
            ready += chunk
            return
        }
        tail += chunk
        let excess = tail.count - crossfadeFrames * AudioFormat.channels
        if excess > 0 {
            ready += tail[0..<excess]
            tail.removeFirst(excess)
        }
    }

    /// The next chunk of the current pass, after the start offset; nil at its end.
    private func readMusic() throws(AudioError) -> [Float]? {
        while let reader {
            var next = pending
            pending = nil
            if next == nil { next = try reader.read() }
            guard var chunk = next else { return nil }
            if toSkip > 0 {
                let skip = min(toSkip, chunk.count / AudioFormat.channels)
                toSkip -= skip
                chunk.removeFirst(skip * AudioFormat.channels)
            }
            if !chunk.isEmpty { return chunk }
        }
        return nil
    }

    /// The music ended: crossfade into the next pass, or go silent.
    private func endOfPass() throws(AudioError) {
        noteDamage()
        guard soundtrack.loops, passFrames > 0 else {
            ready += tail
            tail = []
            silent = true
            return
        }
        let fade = min(crossfadeFrames, passFrames / 2)
        let channels = AudioFormat.channels
        ready += tail[0..<(tail.count - fade * channels)]
        let ending = Array(tail.suffix(fade * channels))
        tail = []
        // The next pass.
        do {
            reader = try AudioReader(path: soundtrack.path)
        } catch {
            warnings.append(SoundWarning(kind: .music, path: soundtrack.path, message: "\(soundtrack.path): the music could not be read again for its loop (\(error.reason)); the rest is silence"))
            ready += ending
            silent = true
            return
        }
        toSkip = startFrames
        passFrames = 0
        var head: [Float] = []
        while head.count < fade * channels, let chunk = try readMusic() {
            head += chunk
        }
        passFrames = head.count / channels
        var mixed = [Float](repeating: 0, count: fade * channels)
        for frame in 0..<min(fade, head.count / channels) {
            let theta = (Double(frame) + 0.5) / Double(fade) * .pi / 2
            let (out, into) = (Float(cos(theta)), Float(sin(theta)))
            for channel in 0..<channels {
                let index = frame * channels + channel
                mixed[index] = ending[index] * out + head[index] * into
            }
        }
        ready += mixed
        if head.count > fade * channels {
            tail = Array(head[(fade * channels)...])
            let excess = tail.count - crossfadeFrames * channels
            if excess > 0 {
                ready += tail[0..<excess]
                tail.removeFirst(excess)
            }
        }
    }

    private func noteDamage() {
        guard let reader else { return }
        skippedPackets += reader.skippedPackets
        if let stopped = reader.stoppedEarly {
            warnings.append(SoundWarning(kind: .music, path: soundtrack.path, message: "\(soundtrack.path): the audio stops early (\(stopped)); the rest of the pass is left out"))
        }
        self.reader = nil
    }

    private func finishWarnings() {
        if let reader, reader.skippedPackets > 0 { skippedPackets += reader.skippedPackets }
        reader = nil
        if skippedPackets > 0 {
            warnings.append(SoundWarning(kind: .music, path: soundtrack.path, message: "\(soundtrack.path): skipped \(skippedPackets) damaged audio packet\(skippedPackets == 1 ? "" : "s")"))
            skippedPackets = 0
        }
    }
}
