import Foundation
import SlideshowSupport

/// Finds the steady beat of the part of a piece of music a show uses.
///
/// ```swift
/// let grid = try BeatAnalysis.grid(path: "song.mp3", start: 12, length: 45)
/// // 120.0 BPM, beat at 0.043 s, confidence 0.93 — or nil for speech, ambient, silence
/// ```
///
/// The music is streamed through the project's ``AudioReader`` (48 kHz stereo), folded to
/// mono at 12 kHz (each run of four stereo frames averaged: the spectrum up to 6 kHz, where
/// kicks, snares and most of a hi-hat's attack lie, for a quarter of the work), and fed hop
/// by hop to aubio's onset detector (spectral flux, 512-sample window, 128-sample hop: 42.7 ms
/// and 10.7 ms). Nothing is kept but the onset function, one number per hop (about 6 000 a
/// minute). ``BeatGridFit`` picks the onsets from it, finds the tempo and the beats (a straight
/// grid, or beats tracked through a drifting tempo) and checks them.
///
/// Only the part used is analysed: from `start` for `length` seconds, or to the music's end
/// when that comes first. A show that loops the music hears that same part again after each
/// seam, so one pass holds every beat it will hear; ``MusicLayout`` carries the grid (which is
/// in music time) across the seams. Reading stops once the part is analysed: the rest of the
/// file is never decoded. (``AudioReader`` cannot seek, so the music before `start` is decoded
/// and skipped, as the soundtrack itself does; only the part after it is analysed.)
public enum BeatAnalysis {
    /// The rate the onsets are found at.
    package static let analysisRate = AudioFormat.sampleRate / decimation
    /// Stereo frames averaged into one analysis sample.
    package static let decimation = 4
    /// aubio's phase vocoder window and hop, in samples at ``analysisRate``.
    package static let window = 512
    package static let hop = 128
    /// The shortest part analysed: a grid needs a few bars to be checked.
    public static let minimumLength = 4.0

    /// The steady beat of `length` seconds of the music from `start`, or nil when it has none
    /// (speech, ambient, silence) or the part is shorter than ``minimumLength``.
    /// - Parameters:
    ///   - path: the audio file.
    ///   - start: seconds into the music where the show's sound starts (`--audio-start`).
    ///   - length: the show's length in seconds (the part of the music it uses).
    /// - Throws: ``AudioError`` from opening or decoding the file: `.missing`, `.unreadable`,
    ///   `.notAudio`, `.noAudioStream`, `.unsupported`, `.damaged`, `.empty`;
    ///   `.invalidSettings` when `start` or `length` is negative or not finite.
    public static func grid(path: String, start: Double = 0, length: Double) throws(AudioError) -> BeatGrid? {
        let profile = try onsetProfile(path: path, start: start, length: length)
        guard profile.duration >= minimumLength else { return nil }
        return BeatGridFit.fit(profile)
    }

    /// The steady beat of the part of a soundtrack a show of `showLength` seconds uses.
    /// - Throws: as ``grid(path:start:length:)``.
    public static func grid(of soundtrack: Soundtrack, showLength: Double) throws(AudioError) -> BeatGrid? {
        try grid(path: soundtrack.path, start: soundtrack.start, length: showLength)
    }

    /// The steady beat of the part of a soundtrack a show of `showLength` seconds uses, and how
    /// long that part is as decoded: `showLength`, or less when the music ends first. That is
    /// where the soundtrack loops, which a container's stated length may miss by its encoder
    /// padding (the shared 120-BPM MP3 states 25.051 s and decodes to 25.000 s: laid out on the
    /// stated length, a looped show's cuts came 51 ms late in its second pass, 102 in its third).
    /// - Throws: as ``grid(path:start:length:)``.
    ///
    /// A loop shorter than ``minimumLength`` (a bar of a house loop: 1.9 s at 128 BPM) holds too
    /// few beats to check a grid on; the show hears it again and again, so it is analysed as
    /// heard: the pass repeated up to the show's length, seam to seam.
    public static func analyse(_ soundtrack: Soundtrack, showLength: Double) throws(AudioError) -> (grid: BeatGrid?, heard: Double) {
        let profile = try onsetProfile(path: soundtrack.path, start: soundtrack.start, length: showLength, repeating: soundtrack.loops)
        return (profile.duration >= minimumLength ? BeatGridFit.fit(profile) : nil, profile.pass ?? profile.duration)
    }

    /// Streams the part and collects aubio's onset function and onsets.
    /// - Parameter repeating: whether music that ends before `length` and is shorter than
    ///   ``minimumLength`` is analysed repeated to `length` (``OnsetProfile/pass`` then gives
    ///   its length), as a looped soundtrack is heard.
    package static func onsetProfile(path: String, start: Double, length: Double, repeating: Bool = false) throws(AudioError) -> OnsetProfile {
        guard start.isFinite, start >= 0, length.isFinite, length >= 0 else {
            throw AudioError(path: path, kind: .invalidSettings, reason: "the beat analysis needs a start and a length of 0 s or more, not \(start) s and \(length) s")
        }
        let reader = try AudioReader(path: path)
        guard let detector = AubioOnsetDetector(window: window, hop: hop, sampleRate: analysisRate) else {
            throw AudioError(path: path, kind: .unsupported, reason: "aubio cannot make its onset detector")
        }
        let rate = Double(AudioFormat.sampleRate)
        var toSkip = Int((start * rate).rounded())
        var toRead = Int((length * rate).rounded())
        var read = 0
        var novelty: [Float] = []
        novelty.reserveCapacity(Int(min(length, 3600) * Double(analysisRate) / Double(hop)) + 1)
        var mono: [Float] = []
        var pending: Float = 0
        var pendingCount = 0
        var levels: [Float] = []
        // The analysis samples of a short pass, kept to be fed again when it loops.
        var short: [Float]? = repeating ? [] : nil
        // A cancelled validation stops here (its stage then throws `.cancelled`).
        while toRead > 0, !Cancellation.isCancelled, let chunk = try reader.read() {
            var frames = chunk.count / AudioFormat.channels
            var first = 0
            if toSkip > 0 {
                let skip = min(toSkip, frames)
                toSkip -= skip
                first = skip
            }
            frames = min(frames, first + toRead)
            guard frames > first else { continue }
            toRead -= frames - first
            read += frames - first
            mono.removeAll(keepingCapacity: true)
            chunk.withUnsafeBufferPointer { samples in
                let scale = 0.5 / Float(decimation)
                for frame in first..<frames {
                    pending += samples[2 * frame] + samples[2 * frame + 1]
                    pendingCount += 1
                    if pendingCount == decimation {
                        mono.append(pending * scale)
                        pending = 0
                        pendingCount = 0
                    }
                }
            }
            if short != nil { short = Double(read) / rate < minimumLength ? short! + mono : nil }
            mono.withUnsafeBufferPointer { samples in
                detector.feed(samples) { value, level in
                    novelty.append(value)
                    levels.append(level)
                }
            }
        }
        var analysed = Double(read) / rate, pass: Double?
        if let short, !short.isEmpty, toRead > 0, !Cancellation.isCancelled {
            // The music ended within the first few seconds and loops: its pass again, to the show's length.
            pass = analysed
            let target = Int((length * Double(analysisRate)).rounded())
            var fed = short.count
            while fed < target {
                let part = short.prefix(target - fed)
                part.withUnsafeBufferPointer { samples in
                    detector.feed(samples) { value, level in
                        novelty.append(value)
                        levels.append(level)
                    }
                }
                fed += part.count
            }
            analysed = Double(fed) / Double(analysisRate)
        }
        let hopSeconds = Double(hop) / Double(analysisRate)
        var profile = OnsetProfile(hopSeconds: hopSeconds, start: start, duration: analysed, novelty: novelty,
                                   onsets: BeatGridFit.onsets(in: novelty, levels: levels, hopSeconds: hopSeconds, start: start))
        profile.pass = pass
        return profile
    }
}
