import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowAudio

/// Music without a steady beat gives no grid, and the cuts stay even with the reason.
@Suite struct BeatFallbackTests {
    /// Makes a sound with ffmpeg's generators (`anullsrc`, `anoisesrc`, `sine`).
    private func generate(_ source: String, seconds: Double, in folder: TemporaryFolder, name: String) throws -> String {
        let ffmpeg = try #require(which("ffmpeg"), "ffmpeg is needed (make deps)")
        let path = folder.path(name)
        let result = try run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", source, "-t", "\(seconds)", path], timeout: 60)
        try #require(result.status == 0, "ffmpeg: \(result.stderr)")
        return path
    }

    /// The fallback a show of 12 s, 4 photos at 30 fps gets over this sound.
    private func fallback(_ path: String) throws -> BeatCutFallback? {
        let grid = try BeatAnalysis.grid(path: path, length: 12)
        #expect(grid == nil, "found \(grid.map { "\($0)" } ?? "")")
        let placed = BeatCutPlanner.place(frameCount: 360, framesPerSecond: 30, evenCuts: [90, 180, 270], grid: grid, music: MusicLayout())
        if case .failure(let why) = placed { return why }
        return nil
    }

    @Test func speechHasNoSteadyBeat() throws {
        guard let espeak = which("espeak-ng") else {
            return withKnownIssue("skipped: espeak-ng is absent (Debian's espeak-ng; `make deps` installs it)") { throw SkipNote() }
        }
        let folder = try TemporaryFolder()
        let path = folder.path("speech.wav")
        let text = "This is a slideshow of our summer holiday. We went to the sea, and then we walked in the hills for three days. "
            + "The weather was fine, and the food was good. On the last evening we watched the sun go down over the harbour, and then we drove home."
        let result = try run(espeak, ["-w", path, text], timeout: 60)
        try #require(result.status == 0, "espeak-ng: \(result.stderr)")
        let why = try fallback(path)
        #expect(why == .noSteadyBeat)
        #expect(why?.description == "the music has no steady beat; the cuts stay even")
    }

    @Test func silenceHasNoSteadyBeat() throws {
        let folder = try TemporaryFolder()
        let path = try generate("anullsrc=r=44100:cl=stereo", seconds: 15, in: folder, name: "silence.wav")
        #expect(try fallback(path) == .noSteadyBeat)
    }

    @Test func noiseHasNoSteadyBeat() throws {
        let folder = try TemporaryFolder()
        let path = try generate("anoisesrc=r=44100:color=pink:amplitude=0.5:seed=7", seconds: 15, in: folder, name: "noise.flac")
        #expect(try fallback(path) == .noSteadyBeat)
    }

    @Test func aSteadyToneHasNoSteadyBeat() throws {
        let folder = try TemporaryFolder()
        let path = try generate("sine=frequency=440:sample_rate=48000", seconds: 15, in: folder, name: "tone.wav")
        #expect(try fallback(path) == .noSteadyBeat)
    }

    /// A click every 0.6 s (100 BPM) is the plainest steady beat: found, at its tempo and phase.
    @Test func aClickTrackHasItsBeat() throws {
        let folder = try TemporaryFolder()
        let source = "aevalsrc=exprs='if(lt(mod(t-0.2\\,0.6)\\,0.01)\\,sin(2*PI*1000*t)\\,0)':s=48000"
        let path = try generate(source, seconds: 15, in: folder, name: "clicks.wav")
        let grid = try #require(try BeatAnalysis.grid(path: path, length: 15))
        #expect(abs(grid.period - 0.6) < 0.002, "\(grid)")
        #expect(abs(grid.phase - 0.2) < 0.02, "\(grid)")
        #expect(grid.confidence > 0.9)
    }

    /// A part shorter than four seconds is too short to check a grid on.
    @Test func aShortPartHasNoGrid() throws {
        guard let path = clip("loop_mika_sonicpi_cc0_120bpm_8s.flac") else { return withKnownIssue(noSharedClips) { throw SkipNote() } }
        #expect(try BeatAnalysis.grid(path: path, start: 0, length: 3.5) == nil)
        #expect(try BeatAnalysis.grid(path: path, start: 5, length: 10) == nil)
        #expect(try BeatAnalysis.grid(path: path, start: 0, length: 8) != nil)
    }

    /// A one-bar loop (four kicks at 128 BPM, 1.875 s) is shorter than four seconds, but a show
    /// loops it: analysed as heard, repeated seam to seam, it has its beat (128 BPM or the
    /// half-time 64), and its length stays the pass's, where it loops. Heard once it has none.
    @Test func aOneBarLoopHasTheBeatItIsHeardWith() throws {
        let folder = try TemporaryFolder()
        let kick = "aevalsrc=exprs='exp(-30*mod(t\\,0.46875))*sin(2*PI*60*mod(t\\,0.46875))':s=48000"
        let path = try generate(kick, seconds: 1.875, in: folder, name: "bar.wav")
        #expect(try BeatAnalysis.grid(path: path, length: 20) == nil)
        #expect(try BeatAnalysis.analyse(Soundtrack(path: path, loops: false), showLength: 20).grid == nil)
        let (grid, heard) = try BeatAnalysis.analyse(Soundtrack(path: path), showLength: 20)
        let found = try #require(grid)
        #expect([0.46875, 0.9375].contains { abs(found.period - $0) < 0.003 }, "\(found)")
        #expect(abs(heard - 1.875) < 0.001)
        // The pass steps whole beats: its seam is a declick, not the usual 0.1 s that would bring each pass back early.
        let music = MusicLayout(soundtrack: Soundtrack(path: path), grid: found, musicLength: heard, showLength: 20)
        #expect(music.beatSeam.map { $0 < 0.02 } == true, "\(String(describing: music.beatSeam))")
    }

    /// Unreadable music is the soundtrack's error, by kind.
    @Test func missingMusicThrowsByKind() {
        #expect(throws: AudioError(path: "/nonexistent/song.mp3", kind: .missing, reason: "no such audio file")) {
            try BeatAnalysis.grid(path: "/nonexistent/song.mp3", length: 10)
        }
        #expect {
            try BeatAnalysis.grid(path: "/nonexistent/song.mp3", start: -1, length: 10)
        } throws: { ($0 as? AudioError)?.kind == .invalidSettings }
    }
}
