import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowAudio

/// A mono 16-bit WAV of `frames` samples at 48 kHz, a 440 Hz tone at half scale.
func toneWAV(frames: Int) -> Data {
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    var pcm: [UInt8] = []
    for i in 0..<frames { pcm += le16(Int((16384 * sin(2 * Double.pi * 440 * Double(i) / 48000)).rounded()) & 0xFFFF) }
    let fmt = le16(1) + le16(1) + le32(48000) + le32(96000) + le16(2) + le16(16)
    let body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(16) + fmt + Array("data".utf8) + le32(pcm.count) + pcm
    return Data(Array("RIFF".utf8) + le32(body.count) + body)
}

@Suite("Audio checks: libebur128's codes, music too short to loop, the loudness not reached")
struct AudioChecksTests {
    @Test("every libebur128 code but success throws .measurementFailed with libebur128's meaning")
    func ebur128Codes() throws {
        #expect(throws: Never.self) { try LoudnessMeter.check(0, "ebur128_true_peak", path: "a.wav") }
        let meanings = [1: "out of memory", 2: "invalid mode", 3: "invalid channel index", 4: "no change", 99: "unknown error 99"]
        for (code, meaning) in meanings {
            let error = #expect(throws: AudioError.self) { try LoudnessMeter.check(Int32(code), "ebur128_true_peak", path: "a.wav") }
            #expect(error?.kind == .measurementFailed)
            #expect(error?.reason.contains("ebur128_true_peak: \(meaning)") == true, "\(String(describing: error))")
        }
    }

    @Test("a meter made without true peak refuses to give one (it said -inf before)")
    func ebur128ModeRefused() throws {
        // EBUR128_MODE_I alone (5): no true peak.
        let meter = try LoudnessMeter(path: "tone.wav", mode: 5)
        try meter.add([Float](repeating: 0.25, count: 9600))
        _ = try meter.integratedLoudness()
        let error = #expect(throws: AudioError.self) { _ = try meter.truePeak() }
        #expect(error?.kind == .measurementFailed)
        #expect(error?.reason == "cannot measure loudness (ebur128_true_peak: invalid mode (the meter does not measure that))")
    }

    @Test("music shorter than 0.1 s is refused as .tooShort; 0.1 s is taken", arguments: [(48, false), (4799, false), (4800, true)])
    func tooShortMusic(_ frames: Int, _ taken: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("blip.wav")
        try toneWAV(frames: frames).write(to: folder.url.appendingPathComponent("blip.wav"))
        let soundtrack = Soundtrack(path: path, loudness: -16)
        if taken {
            #expect(try soundtrack.open(measuring: false).length == 0.1)
            #expect(try soundtrack.open(measuring: true).length == 0.1)
        } else {
            for measuring in [false, true] {
                let error = #expect(throws: AudioError.self) { try soundtrack.open(measuring: measuring) }
                #expect(error?.kind == .tooShort)
                #expect(error?.reason == String(format: "the music lasts %.3f s after its start; it must last at least 0.1 s", Double(frames) / 48000))
            }
        }
    }

    @Test("the loudness report says when the true-peak ceiling stopped the gain short of the target")
    func shortfall() {
        let stopped = LoudnessReport(measured: -20, truePeak: -5.14, gain: 4.14, final: -15.86, target: -9)
        #expect(stopped.shortfall == "the music reaches -15.86 LUFS, not the -9 LUFS asked for: its true peak after AAC encoding may not exceed -1 dBTP")
        #expect(LoudnessReport(measured: -20, truePeak: -12, gain: 4, final: -16, target: -16).shortfall == nil)
    }
}
