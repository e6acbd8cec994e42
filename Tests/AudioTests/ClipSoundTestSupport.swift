import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio
import SlideshowFFmpeg
import SlideshowFormats
import SlideshowKit
import SlideshowPixels

/// `../shared/clips`, or nil in a fresh clone that lacks it.
let sharedClips = TestEnvironment.sharedClips

/// The path of a shared clip; nil when `../shared` is absent.
func clip(_ name: String) -> String? { TestEnvironment.sharedClip(name) }

let noSharedClips: Comment = "skipped: ../shared/clips is absent (a fresh clone); the test needs the shared clips"

/// The shared clip with the loudest steady sound (stereo AAC at 44.1 kHz, −34 LUFS, sound from 0.35 s).
let talkingClip = "mp4_h264_720p_vfr_aac_gps_3s.mp4"

/// A steady tone written by ffmpeg's `sine` source into `folder`: the music whose level can be
/// read under a clip (its one frequency, `hertz`, at amplitude `amplitude` on both channels).
func toneMusic(in folder: TemporaryFolder, hertz: Int = 1000, amplitude: Double = 0.25, seconds: Int = 12) throws -> String {
    guard let ffmpeg = which("ffmpeg") else { throw ProbeError.noFFprobe }
    let path = folder.path("tone-\(hertz).wav")
    let result = try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=\(hertz):sample_rate=48000:duration=\(seconds)",
                                  "-af", "volume=\(amplitude * 8),aformat=channel_layouts=stereo", "-c:a", "pcm_f32le", path])
    #expect(result.status == 0, "\(result.stderr)")
    return path
}

/// A show of the two sample photos at 320x240, `seconds` long, validated, with `clips` laid
/// in as validation would lay them (``PreparedSlideshow/clipSounds``).
func clipShow(seconds: Double, output: String, music: String? = nil, clips: [ClipSound],
              configure: (inout SlideshowOptions) -> Void = { _ in }) async throws -> PreparedSlideshow {
    var options = SlideshowOptions(duration: seconds, size: "320x240", preset: "ultrafast")
    options.audio = music
    if music != nil { options.audioFadeOut = 0 }
    configure(&options)
    var prepared = try await options.slideshow(photos: photos.map(Photo.init(path:)), output: output).validate()
    prepared.clipSounds = clips
    return prepared
}

/// A clip's sound at `start` seconds of the show, from `inPoint`, for `duration` seconds.
func clipSound(_ path: String, start: Double, inPoint: Double = 0, duration: Double, level: Double = 0) -> ClipSound {
    ClipSound(source: ClipSource(path: path), start: MediaTime(value: Int64((start * 30).rounded()), timescale: 30),
              inPoint: MediaTime(value: Int64((inPoint * 1000).rounded()), timescale: 1000),
              duration: MediaTime(value: Int64((duration * 30).rounded()), timescale: 30), levelDecibels: level)
}

/// The amplitude of one frequency over `frames` of a mono signal (Goertzel), as a sine's peak.
func toneAmplitude(_ samples: [Float], hertz: Double, _ frames: Range<Int>) -> Double {
    let omega = 2 * Double.pi * hertz / 48_000
    let coefficient = 2 * cos(omega)
    var s1 = 0.0, s2 = 0.0
    for index in frames {
        let s0 = Double(samples[index]) + coefficient * s1 - s2
        s2 = s1
        s1 = s0
    }
    let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
    return 2 * power.squareRoot() / Double(frames.count)
}

/// `toneAmplitude` in dB relative to `reference`.
func toneLevel(_ samples: [Float], hertz: Double = 1000, _ frames: Range<Int>, reference: Double) -> Double {
    20 * log10(toneAmplitude(samples, hertz: hertz, frames) / reference)
}

/// Frames around a time in seconds: `width` frames centred on it.
func around(_ seconds: Double, width: Int = 480) -> Range<Int> {
    let centre = Int(seconds * 48_000)
    return (centre - width / 2)..<(centre + width / 2)
}

/// Frames from one time to another, in seconds.
func span(_ from: Double, _ to: Double) -> Range<Int> { Int(from * 48_000)..<Int(to * 48_000) }

/// The integrated loudness of a file's audio by ffmpeg's `ebur128` filter (the independent meter).
func measuredLoudness(_ path: String) throws -> Double {
    guard let ffmpeg = which("ffmpeg") else { throw ProbeError.noFFprobe }
    let result = try run(ffmpeg, ["-hide_banner", "-nostats", "-i", path, "-map", "0:a:0", "-af", "ebur128", "-f", "null", "-"])
    let text = result.stderr
    guard let summary = text.range(of: "Summary:"),
          let line = text[summary.upperBound...].split(separator: "\n").first(where: { $0.contains("I:") }),
          let value = line.split(separator: " ").compactMap({ Double($0) }).first
    else { throw ProbeError.unreadable(text) }
    return value
}

/// The audio streams ffprobe finds in a file.
func audioStreamCount(_ path: String) throws -> Int {
    guard let ffprobe = which("ffprobe") else { throw ProbeError.noFFprobe }
    let result = try run(ffprobe, ["-v", "error", "-select_streams", "a", "-show_entries", "stream=index", "-of", "csv=p=0", path])
    return result.stdoutText.split(separator: "\n").count
}

/// A mono signal through a narrow notch (a biquad, Q 5) at `hertz`: the tone music taken out,
/// so that what remains of a mix is the clips' sound.
func notched(_ samples: [Float], hertz: Double = 1000) -> [Float] {
    let omega = 2 * Double.pi * hertz / 48_000, alpha = sin(omega) / (2 * 5)
    let a0 = 1 + alpha
    let b0 = 1 / a0, b1 = -2 * cos(omega) / a0, b2 = 1 / a0, a1 = -2 * cos(omega) / a0, a2 = (1 - alpha) / a0
    var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
    return samples.map { sample in
        let x = Double(sample)
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        (x2, x1, y2, y1) = (x1, x, y1, y)
        return Float(y)
    }
}
