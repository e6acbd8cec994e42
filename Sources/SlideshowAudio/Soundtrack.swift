import Foundation
import Synchronization
import SlideshowPixels
import SlideshowSupport

/// The music of a slideshow: an audio file and how it is fitted to the show.
///
/// ```swift
/// var show = Slideshow(photos: photos, output: "out.mp4")
/// show.soundtrack = Soundtrack(path: "song.mp3", start: 12, loudness: -16)
/// ```
///
/// The file is decoded with libavformat/libavcodec (MP3, AAC and ALAC in M4A, FLAC, WAV,
/// Ogg Vorbis, Opus, …), resampled to 48 kHz stereo, and encoded as AAC-LC beside the video.
/// The track lasts exactly as long as the show (to within one AAC frame, 1024 samples),
/// starting at t = 0 with the first video frame. Music shorter than the show loops, with a
/// ``crossfade`` at each seam, unless ``loops`` is false: then the rest is silence.
public struct Soundtrack: Sendable, Hashable {
    /// The audio file.
    public var path: String
    /// Seconds into the music where the show's sound starts; 0 by default.
    public var start: Double
    /// Seconds of fade-in at the start of the show; 0 (none) by default.
    public var fadeIn: Double
    /// Seconds of fade-out at the end of the show; 2 by default, and never more than half the show.
    public var fadeOut: Double
    /// Whether music shorter than the show starts again (from ``start``); true by default.
    public var loops: Bool
    /// The integrated loudness (LUFS) to bring the sound to, e.g. −16 for phones, −23 for
    /// broadcast; nil (the default) leaves the level as it is.
    public var loudness: Double?
    /// The AAC encoder's bit rate in bits per second; 192 000 by default.
    public var bitrate: Int
    /// The overlap of two passes at a loop's seam, in seconds; nil for ``crossfade``. A show
    /// cut on the beat sets it so that each pass starts a whole number of beats after the one
    /// before (``MusicLayout/beatSeam(of:start:passLength:)``): the beat goes on across the seam.
    package var seam: Double? = nil
    /// Seconds more of the music skipped on its first pass only; 0 by default. A show cut on the
    /// beat enters the music less than a frame after ``start``, where its beats fall on the frames
    /// (``MusicLayout/entry``); later passes start at ``start``, so the seams keep the beat.
    package var entry: Double = 0

    /// The length of the equal-power crossfade at a loop's seam: 100 ms (4800 samples).
    public static let crossfade = MediaTime(value: 1, timescale: 10)
    /// The true-peak ceiling a loudness gain respects: −1 dBTP.
    public static let truePeakCeiling = -1.0
    /// The shortest music used, after ``start``: 0.1 s (one ``crossfade``). Shorter music would
    /// loop thousands of times a second and, brought to a loudness, become a hum or DC.
    public static let minimumLength = 0.1
    /// The bit rates accepted, in bits per second.
    public static let bitrates = 32_000...512_000
    /// The integrated loudnesses a soundtrack may be brought to, in LUFS.
    public static let loudnessRange = -70.0 ... -5.0

    /// Creates a soundtrack; the defaults are the product's (the show's settings take theirs from here).
    public init(path: String, start: Double = 0, fadeIn: Double = 0, fadeOut: Double = 2, loops: Bool = true,
                loudness: Double? = nil, bitrate: Int = 192_000) {
        self.path = path
        self.start = start
        self.fadeIn = fadeIn
        self.fadeOut = fadeOut
        self.loops = loops
        self.loudness = loudness
        self.bitrate = bitrate
    }

    /// The settings a soundtrack has unless told otherwise.
    public static let defaults = Soundtrack(path: "")

    /// What is wrong with the settings (not the file), or nil.
    public var problem: String? { settingError?.reason }

    /// The first setting (not the file) that cannot be used, and why: the one owner of the
    /// soundtrack's rules.
    package var settingError: AudioSettingError? {
        if !start.isFinite || start < 0 { return AudioSettingError(.start, "the audio start \(Message.seconds(start)) s must be 0 or more") }
        if !fadeIn.isFinite || fadeIn < 0 { return AudioSettingError(.fadeIn, "the audio fade-in \(Message.seconds(fadeIn)) s must be 0 or more") }
        if !fadeOut.isFinite || fadeOut < 0 { return AudioSettingError(.fadeOut, "the audio fade-out \(Message.seconds(fadeOut)) s must be 0 or more") }
        if let loudness, !loudness.isFinite || !Self.loudnessRange.contains(loudness) {
            return AudioSettingError(.loudness, "the loudness \(loudness) LUFS must be between \(Int(Self.loudnessRange.lowerBound)) and \(Int(Self.loudnessRange.upperBound))")
        }
        if !Self.bitrates.contains(bitrate) { return AudioSettingError(.bitrate, "the audio bit rate \(bitrate) b/s must be between \(Self.bitrates.lowerBound / 1000)k and \(Self.bitrates.upperBound / 1000)k") }
        return nil
    }

    /// Opens the file once and decodes its first samples: everything that can be known wrong
    /// about it before a video is encoded. When the show's length follows the music and the
    /// container does not state the music's length, the same reader goes on to the end to
    /// measure it, so the file is not opened twice.
    /// - Parameter measuring: whether the length must be known (a show as long as its music).
    /// - Returns: the file's description; the music's length after ``start`` in seconds, as
    ///   the container states it or as measured (nil when neither); and, unless measuring
    ///   read it to the end, the open file for the render's pass to go on from.
    /// - Throws: ``AudioError``: `.invalidSettings`, `.missing`, `.unreadable`, `.notAudio`,
    ///   `.noAudioStream`, `.unsupported`, `.damaged`, `.empty` (no samples, or none after ``start``),
    ///   `.tooShort` (under ``minimumLength`` after ``start``).
    package func open(measuring: Bool) throws(AudioError) -> (info: AudioFileInfo, length: Double?, opened: OpenedMusic?) {
        if let problem { throw AudioError(path: path, kind: .invalidSettings, reason: problem) }
        ReadProbe.current?.musicOpens.add(1, ordering: .relaxed)
        let reader = try AudioReader(path: path)
        var chunk: [Float]? = nil
        repeat {
            chunk = try reader.read()
        } while chunk?.isEmpty == true
        guard let first = chunk else {
            let why = reader.stoppedEarly.map { " (\($0))" } ?? (reader.skippedPackets > 0 ? " (every audio packet is damaged)" : "")
            throw AudioError(path: path, kind: reader.skippedPackets > 0 || reader.stoppedEarly != nil ? .damaged : .empty,
                             reason: "holds no audio samples\(why)")
        }
        guard let duration = reader.info.duration else {
            guard measuring else { return (reader.info, nil, OpenedMusic(reader: reader, first: first)) }
            // The exact length by decoding it all, from the chunk already read on.
            var frames = first.count / AudioFormat.channels
            // A cancelled validation stops measuring (its stage then throws `.cancelled`).
            while !Cancellation.isCancelled, let more = try reader.read() { frames += more.count / AudioFormat.channels }
            let seconds = Double(frames) / Double(AudioFormat.sampleRate) - start
            guard seconds > 0 else {
                throw AudioError(path: path, kind: .empty, reason: String(format: "the audio start %g s is past the music's end", start))
            }
            return (reader.info, try Self.checkLength(seconds, path: path), nil)
        }
        if start >= duration {
            throw AudioError(path: path, kind: .empty, reason: String(format: "the audio start %g s is past the music's end (%.3f s)", start, duration))
        }
        return (reader.info, try Self.checkLength(duration - start, path: path), OpenedMusic(reader: reader, first: first))
    }

    /// `seconds` when it is at least ``minimumLength``.
    /// - Throws: ``AudioError`` `.tooShort`.
    private static func checkLength(_ seconds: Double, path: String) throws(AudioError) -> Double {
        guard seconds >= minimumLength else {
            throw AudioError(path: path, kind: .tooShort,
                             reason: String(format: "the music lasts %.3f s after its start; it must last at least %g s", seconds, minimumLength))
        }
        return seconds
    }
}

/// The music's file as validation opened it: the reader, just past the first chunk of sound,
/// and that chunk. The render's pass over the music goes on from here (``take()``) instead of
/// opening the file again; a second render of the same prepared show opens it anew.
package final class OpenedMusic: @unchecked Sendable {
    // @unchecked: the reader (which owns the decoder's C objects) is touched by no one until
    // take() hands it out, once, behind the Mutex; from then on only the one who took it uses it.
    private let reader: AudioReader
    private let first: [Float]
    private let taken = Mutex(false)

    package init(reader: AudioReader, first: [Float]) {
        self.reader = reader
        self.first = first
    }

    /// The reader and the chunk it already gave, the first time; nil after.
    package func take() -> (reader: AudioReader, first: [Float])? {
        let wasTaken = taken.withLock { taken in
            defer { taken = true }
            return taken
        }
        return wasTaken ? nil : (reader, first)
    }
}

/// The loudness of a soundtrack before and after its gain.
public struct LoudnessReport: Sendable, Hashable {
    /// The integrated loudness of the part used, as it would sound without the gain (LUFS).
    public var measured: Double
    /// Its true peak without the gain (dBTP): the higher of the sound's and the sound's
    /// after AAC encoding.
    public var truePeak: Double
    /// The gain applied (dB): the target minus ``measured``, lowered if needed so that the
    /// true peak stays at or under −1 dBTP.
    public var gain: Double
    /// The loudness after the gain: ``measured`` + ``gain`` (LUFS).
    public var final: Double
    /// The loudness asked for (LUFS).
    public var target: Double

    package init(measured: Double, truePeak: Double, gain: Double, final: Double, target: Double) {
        self.measured = measured
        self.truePeak = truePeak
        self.gain = gain
        self.final = final
        self.target = target
    }

    /// When the true-peak ceiling kept the sound under the loudness asked for (by more than
    /// 0.05 LU): a line for the user saying what was reached; nil when the target was reached.
    public var shortfall: String? {
        guard target - final > 0.05 else { return nil }
        return String(format: "the music reaches %.2f LUFS, not the %g LUFS asked for: its true peak after AAC encoding may not exceed %g dBTP",
                      final, target, Soundtrack.truePeakCeiling)
    }
}
