import Foundation
import SlideshowAudio

/// The music and the clips' own sound mixed into the show's sound, a chunk at a time.
///
/// For each chunk: the music (``SoundtrackStream``: start, loop, fades; silence in a show
/// without music) is lowered under the clips by the ``DuckEnvelope``; each clip's sound
/// (``ClipVoice``) is added at its exact sample, at its level; the loudness gain, when one is
/// asked for, applies to the whole mix; then the ``SoftLimit`` keeps the sum under full scale.
/// Only a chunk is in memory at a time, and only the clips playing in it have a file open.
package final class SoundMix: ShowSound {
    package let totalFrames: Int
    private let music: SoundtrackStream?
    private let envelope: DuckEnvelope
    /// The clips not yet done, in order of their start.
    private var voices: [ClipVoice]
    private var finishedVoices: [ClipVoice] = []
    private let gain: Float
    private let limits: Bool
    package private(set) var produced = 0

    /// - Parameters:
    ///   - music: the music, without a gain of its own; nil for a show without music.
    ///   - clips: each clip's sound.
    ///   - settings: how far and how fast the music ducks under them.
    ///   - totalFrames: the show's length in 48 kHz frames.
    ///   - gainDecibels: the loudness gain of the whole mix (0 for none).
    ///   - limits: whether the ``SoftLimit`` applies (not when measuring the mix's loudness and peak).
    package init(music: SoundtrackStream?, clips: [ClipSound], settings: ClipSoundSettings, totalFrames: Int,
         gainDecibels: Double = 0, limits: Bool = true) {
        self.music = music
        self.totalFrames = totalFrames
        voices = clips.map { ClipVoice(sound: $0, showFrames: totalFrames) }.filter { !$0.frames.isEmpty }
            .sorted { $0.frames.lowerBound < $1.frames.lowerBound }
        let ramp = Int((settings.rampSeconds * Double(AudioFormat.sampleRate)).rounded())
        envelope = DuckEnvelope(clips: voices.map(\.frames), depthDecibels: settings.duckDecibels, rampFrames: ramp)
        gain = Float(pow(10, gainDecibels / 20))
        self.limits = limits
    }

    /// How many clips have their file open now (for tests: only those playing).
    package var openClips: Int { voices.filter(\.isOpen).count }

    package var warnings: [SoundWarning] {
        (music?.warnings ?? []) + (finishedVoices + voices).sorted { $0.frames.lowerBound < $1.frames.lowerBound }.flatMap(\.warnings)
    }

    package func next(maxFrames: Int) throws(AudioError) -> [Float]? {
        let wanted = min(maxFrames, totalFrames - produced)
        guard wanted > 0 else {
            _ = try music?.next(maxFrames: 1)   // lets the music collect its warnings
            return nil
        }
        var chunk = try music?.next(maxFrames: wanted) ?? [Float](repeating: 0, count: wanted * AudioFormat.channels)
        if chunk.count < wanted * AudioFormat.channels {
            chunk += [Float](repeating: 0, count: wanted * AudioFormat.channels - chunk.count)
        }
        envelope.apply(to: &chunk, from: produced)
        let end = produced + wanted
        for voice in voices where voice.frames.lowerBound < end {
            voice.add(into: &chunk, from: produced)
        }
        let (playing, over) = voices.reduce(into: ([ClipVoice](), [ClipVoice]())) { parts, voice in
            if voice.frames.upperBound <= end { parts.1.append(voice) } else { parts.0.append(voice) }
        }
        voices = playing
        finishedVoices += over
        if gain != 1 {
            for index in chunk.indices { chunk[index] *= gain }
        }
        if limits { SoftLimit.apply(to: &chunk) }
        produced = end
        return chunk
    }
}

/// What keeps the mix under full scale where the music and a clip together would go beyond
/// it: a soft clipper with its knee at −1 dBFS and its ceiling at −0.1 dBFS.
///
/// Samples within ±``knee`` pass unchanged (bit for bit: most of a mix, and all of one whose
/// loudness gain was capped by its true peak, never reaches it); above it, the curve
/// `knee + (ceiling − knee)·tanh((|x| − knee)/(ceiling − knee))` bends them smoothly (its slope
/// is 1 at the knee) towards the ``ceiling``, which no sample passes, however loud. Nothing
/// is scaled down, so a clip keeps its level and the music under it its duck; only the peaks
/// that would clip are rounded off. It is memoryless: no look-ahead, no delay, no pumping.
package enum SoftLimit {
    /// −1 dBFS.
    package static let knee = Float(pow(10, -1.0 / 20))
    /// −0.1 dBFS.
    package static let ceiling = Float(pow(10, -0.1 / 20))

    /// One sample through the curve.
    package static func apply(_ x: Float) -> Float {
        let magnitude = Double(abs(x))
        guard magnitude > Double(knee) else { return x }
        let room = Double(ceiling - knee)
        let bent = Float(Double(knee) + room * tanh((magnitude - Double(knee)) / room))
        return x < 0 ? -bent : bent
    }

    package static func apply(to samples: inout [Float]) {
        for index in samples.indices where abs(samples[index]) > knee {
            samples[index] = apply(samples[index])
        }
    }
}

extension SoundMix {
    /// The show's sound when it has clips with sound: the mix, measured first when a loudness
    /// is asked for (a pass of its own over the music and the clips, without a gain or the
    /// limit: the gain must be known before the first sample is encoded, and it applies to
    /// the whole mix).
    /// - Parameters:
    ///   - music: the show's music, nil without.
    ///   - opened: validation's opening of the music, for the render's pass to go on from.
    /// - Throws: ``AudioError`` when the music cannot be read, or its loudness set (see
    ///   ``Soundtrack/measureLoudness(totalFrames:)``).
    package static func prepare(music: Soundtrack?, opened: OpenedMusic?, clips: [ClipSound], settings: ClipSoundSettings,
                        totalFrames: Int) throws(AudioError) -> (SoundMix, LoudnessReport?) {
        var report: LoudnessReport? = nil
        if let music, let target = music.loudness {
            let measuring = SoundMix(music: try SoundtrackStream(soundtrack: music, totalFrames: totalFrames), clips: clips,
                                     settings: settings, totalFrames: totalFrames, limits: false)
            report = try Soundtrack.measureLoudness(of: measuring, target: target, path: music.path, bitrate: music.bitrate)
        }
        let stream = try music.map { music throws(AudioError) in
            try SoundtrackStream(soundtrack: music, totalFrames: totalFrames, opened: opened?.take())
        }
        return (SoundMix(music: stream, clips: clips, settings: settings, totalFrames: totalFrames,
                         gainDecibels: report?.gain ?? 0), report)
    }
}
