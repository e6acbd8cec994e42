import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFFmpeg
import SlideshowFormats
import SlideshowFraming
import SlideshowKit
import SlideshowPixels
import SlideshowVideo
import SlideshowWriter

/// Camera clips (issue 33): every container and codec family that cameras, camcorders and old
/// phones write, made with ffmpeg from a shared clip in the test itself (tiny: a second or so,
/// small pictures), read by content, each frame against ffmpeg's own decode (with `bwdif` where
/// the pictures are interlaced) and its sound against ffmpeg's, placed on the clip's clock.
@Suite(.enabled(if: Clips.available, Clips.skipped), .serialized)
struct CameraClipTests {
    struct Case: Sendable, CustomStringConvertible {
        /// The made file's name (its extension is what cameras use; the content decides).
        var file: String
        /// ffmpeg's arguments after the input.
        var arguments: [String]
        /// libavformat's container and libavcodec's codec names.
        var container: String
        var codec: String
        var pixelFormat: String
        /// The show's rate (the clip's own, rounded).
        var fps: Int
        /// The size the reader is asked for and the references are scaled to.
        var size: Size
        /// The frames are flagged interlaced (compared with ffmpeg's `bwdif`, one frame per pair).
        var interlaced = false
        /// The stream's pixel aspect ratio.
        var pixelAspect = 1.0
        var description: String { file }
    }

    /// The shared clip the camera clips are made from: real motion, with sound.
    static let source = "mp4_h264_720p_vfr_aac_gps_3s.mp4"

    static let cases: [Case] = [
        Case(file: "MVI_0001.AVI", arguments: ["-vf", "scale=320:180", "-c:v", "mjpeg", "-pix_fmt", "yuvj422p", "-q:v", "2",
                                               "-c:a", "pcm_s16le"],
             container: "avi", codec: "mjpeg", pixelFormat: "yuvj422p", fps: 30, size: Size(width: 320, height: 180)),
        Case(file: "DSCF0002.AVI", arguments: ["-vf", "scale=320:180", "-c:v", "mpeg4", "-q:v", "2", "-c:a", "libmp3lame"],
             container: "avi", codec: "mpeg4", pixelFormat: "yuv420p", fps: 30, size: Size(width: 320, height: 180)),
        Case(file: "CLIP0003.AVI", arguments: ["-vf", "scale=320:180", "-c:v", "libx264", "-crf", "16", "-c:a", "ac3"],
             container: "avi", codec: "h264", pixelFormat: "yuv420p", fps: 30, size: Size(width: 320, height: 180)),
        Case(file: "00004.MTS", arguments: ["-vf", "scale=320:180", "-c:v", "libx264", "-crf", "16", "-c:a", "ac3",
                                            "-f", "mpegts", "-mpegts_m2ts_mode", "1"],
             container: "mpegts", codec: "h264", pixelFormat: "yuv420p", fps: 30, size: Size(width: 320, height: 180)),
        Case(file: "GOPR0005.TS", arguments: ["-vf", "scale=320:180", "-c:v", "libx264", "-crf", "16", "-c:a", "aac", "-f", "mpegts"],
             container: "mpegts", codec: "h264", pixelFormat: "yuv420p", fps: 30, size: Size(width: 320, height: 180)),
        Case(file: "VIDEO0006.3GP", arguments: ["-s", "352x288", "-r", "15", "-c:v", "h263", "-q:v", "2", "-ar", "8000", "-ac", "1",
                                                "-c:a", "aac"],
             container: "mov,mp4", codec: "h263", pixelFormat: "yuv420p", fps: 15, size: Size(width: 352, height: 288),
             pixelAspect: 12.0 / 11),
        Case(file: "VIDEO0007.3G2", arguments: ["-vf", "scale=176:144", "-c:v", "mpeg4", "-q:v", "2", "-ar", "16000", "-ac", "1",
                                                "-c:a", "aac", "-f", "3g2"],
             container: "mov,mp4", codec: "mpeg4", pixelFormat: "yuv420p", fps: 30, size: Size(width: 176, height: 144)),
        Case(file: "VTS_01_1.VOB", arguments: ["-vf", "scale=320:180", "-c:v", "mpeg2video", "-q:v", "2", "-c:a", "mp2", "-f", "vob"],
             container: "mpeg", codec: "mpeg2video", pixelFormat: "yuv420p", fps: 30, size: Size(width: 320, height: 180)),
        Case(file: "MOV008.MPG", arguments: ["-vf", "scale=320:180", "-c:v", "mpeg2video", "-q:v", "2", "-c:a", "ac3", "-f", "mpeg"],
             container: "mpeg", codec: "mpeg2video", pixelFormat: "yuv420p", fps: 30, size: Size(width: 320, height: 180)),
        // MiniDV: PAL is 4:2:0, NTSC 4:1:1; both bottom field first, their frames flagged interlaced.
        Case(file: "pal.dv", arguments: ["-target", "pal-dv"], container: "dv", codec: "dvvideo", pixelFormat: "yuv420p",
             fps: 25, size: Size(width: 360, height: 288), interlaced: true, pixelAspect: 16.0 / 15),
        Case(file: "ntsc.dv", arguments: ["-target", "ntsc-dv"], container: "dv", codec: "dvvideo", pixelFormat: "yuv411p",
             fps: 30, size: Size(width: 360, height: 240), interlaced: true, pixelAspect: 8.0 / 9),
    ]

    /// Makes a case's clip (one second of the shared clip) in `folder`.
    static func make(_ clip: Case, in folder: TemporaryFolder) throws -> String {
        let path = folder.path(clip.file)
        try Clips.ffmpeg(["-i", Clips.path(source), "-t", "1"] + clip.arguments + [path])
        return path
    }

    @Test(arguments: cases)
    func playsLikeFFmpeg(_ clip: Case) throws {
        let folder = try Clips.temporary()
        let path = try Self.make(clip, in: folder)
        let info = try ClipProbe.probe(ClipSource(path: path))
        #expect(info.container.hasPrefix(clip.container), "\(info.container)")
        #expect(info.codec == clip.codec)
        #expect(info.pixelFormat == clip.pixelFormat)
        #expect(abs(info.pixelAspect - clip.pixelAspect) < 1e-9)
        #expect(info.hasAudio)

        let filter = clip.interlaced ? "bwdif=mode=send_frame:deint=interlaced," : ""
        let reference = try CameraReference.frames(path, size: clip.size, filter: filter, fieldRate: false)
        let reader = try ClipReader(source: ClipSource(path: path), size: clip.size, framesPerSecond: clip.fps,
                                    duration: MediaTime(value: 4, timescale: 5))
        let frames = try Clips.allFrames(reader)
        #expect(frames.count == clip.fps * 4 / 5)
        var worst = Double.infinity
        for (index, frame) in frames.enumerated() {
            worst = min(worst, lumaPSNR(frame.pixels, Clips.frame(at: Double(index) / Double(clip.fps), in: reference)))
        }
        #expect(worst >= 38, "worst luma PSNR \(worst) dB")
        #expect((reader.deinterlacing != nil) == clip.interlaced)
        #expect(reader.warnings.isEmpty)
        CameraFigures.note("psnr \(clip.file) (\(clip.container) \(clip.codec) \(clip.pixelFormat)\(clip.interlaced ? ", bwdif" : "")): worst luma \(String(format: "%.1f", worst)) dB over \(frames.count) frames")

        // The sound, on the clip's clock, against ffmpeg's decode of it placed on the same clock.
        let placement = try CameraReference.soundPlacement(path, seconds: 0.8)
        #expect(placement.correlation > 0.95, "correlation \(placement.correlation)")
        #expect(abs(placement.lag) <= 1, "ours is \(placement.lag) samples off ffmpeg's")
        CameraFigures.note("sound \(clip.file): correlation \(String(format: "%.4f", placement.correlation)), lag \(placement.lag) samples")
    }

    /// Motion JPEG's full-range 4:2:2 and DV's 4:1:1 keep their colours: flat colour bars through
    /// each (no scaling), against the bars' own RGB.
    @Test(arguments: [("bars.avi", ["-c:v", "mjpeg", "-pix_fmt", "yuvj422p", "-q:v", "1"], "yuvj422p"),
                      ("bars.dv", ["-s", "720x480", "-r", "30000/1001", "-pix_fmt", "yuv411p", "-c:v", "dvvideo"], "yuv411p")])
    func coloursKept(_ name: String, _ arguments: [String], _ format: String) throws {
        let folder = try Clips.temporary()
        let path = folder.path(name)
        // Eight flat vertical bars (white, yellow, cyan, green, magenta, red, blue, black at 75 %).
        try Clips.ffmpeg(["-f", "lavfi", "-i", "smptebars=size=720x480:rate=30000/1001", "-t", "0.2", "-vf", "crop=720:300:0:0,scale=720:480"]
                         + arguments + [path])
        let info = try ClipProbe.probe(ClipSource(path: path))
        #expect(info.pixelFormat == format)
        let size = Size(width: 720, height: 480)
        let reader = try ClipReader(source: ClipSource(path: path), size: size, framesPerSecond: 30)
        let frame = try #require(try reader.nextFrame())
        let plain = try Clips.ffmpeg(["-f", "lavfi", "-i", "smptebars=size=720x480:rate=30000/1001", "-frames:v", "1",
                                      "-vf", "crop=720:300:0:0,scale=720:480", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        // The middle of each of the seven top bars, away from the chroma's edges.
        var worst = 0
        for bar in 0..<7 {
            let x = bar * 720 / 7 + 720 / 14, y = 100
            let offset = (y * 720 + x) * 3
            for channel in 0..<3 { worst = max(worst, abs(Int(frame.pixels[offset + channel]) - Int(plain[offset + channel]))) }
        }
        #expect(worst <= 6, "a bar is \(worst) levels off")
        CameraFigures.note("colour \(name) (\(format)): bars within \(worst) levels of the source RGB")
    }

    /// Old phones' 3GP sound: AMR-NB (8 kHz) and AMR-WB (16 kHz). This ffmpeg has no AMR
    /// encoder, so the stream is written by hand (storage-format frames of pseudo-random bits, the
    /// highest mode: 12.2 and 23.85 kbit/s, 50 frames a second, which any AMR decoder takes) and
    /// muxed into an H.263 3GP with ffmpeg.
    @Test(arguments: [("amr_nb", "#!AMR\n", UInt8(7 << 3 | 4), 31), ("amr_wb", "#!AMR-WB\n", UInt8(8 << 3 | 4), 60)])
    func amrSoundIn3GP(_ codec: String, _ magic: String, _ header: UInt8, _ payload: Int) throws {
        let folder = try Clips.temporary()
        let video = folder.path("video.3gp"), sound = folder.path("sound.amr"), path = folder.path("VIDEO0010.3GP")
        try Clips.ffmpeg(["-i", Clips.path(Self.source), "-t", "1", "-s", "176x144", "-r", "15", "-c:v", "h263", "-an", video])
        var bytes = [UInt8](magic.utf8)
        var state: UInt32 = 12345
        for _ in 0..<50 {
            bytes.append(header)
            for _ in 0..<payload {
                state = state &* 1_103_515_245 &+ 12345
                bytes.append(UInt8(truncatingIfNeeded: state >> 16))
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: sound))
        try Clips.ffmpeg(["-i", video, "-i", sound, "-map", "0:v", "-map", "1:a", "-c", "copy", path])
        let audio = try Clips.ffprobe(["-select_streams", "a:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path])
        #expect(audio.trimmingCharacters(in: .whitespacesAndNewlines) == codec)
        let info = try ClipProbe.probe(ClipSource(path: path))
        #expect(info.codec == "h263" && info.hasAudio)
        let placement = try CameraReference.soundPlacement(path, seconds: 0.8)
        #expect(placement.correlation > 0.95, "correlation \(placement.correlation)")
        #expect(abs(placement.lag) <= 1, "ours is \(placement.lag) samples off ffmpeg's")
        CameraFigures.note("sound \(codec) in 3GP: correlation \(String(format: "%.4f", placement.correlation)), lag \(placement.lag) samples")
    }

    /// A video in a codec this FFmpeg can read but not decode, and one in a codec it does not
    /// know: one line that names the file, says it is a video and names the codec; never "not an image".
    @Test func undecodableCodecIsNamed() async throws {
        let folder = try Clips.temporary()
        let ts = folder.path("h264.ts")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-t", "0.5", "-c:v", "libx264", ts])
        // The PMT's stream type 0x1B (H.264) made 0xD2 (AVS2, which libavcodec 59 cannot decode).
        let avs2 = folder.path("CAMERA.MTS")
        try Data(CameraReference.retypeTransportStream(try Data(contentsOf: URL(fileURLWithPath: ts)), from: 0x1B, to: 0xD2))
            .write(to: URL(fileURLWithPath: avs2))
        // An AVI whose four characters libavformat does not know.
        let avi = folder.path("h264.avi")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-t", "0.5", "-c:v", "libx264", avi])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: avi))
        let header = bytes.prefix(4096).replacing(Data("H264".utf8), with: Data("ABCD".utf8))
        bytes.replaceSubrange(0..<min(4096, bytes.count), with: header)
        let unknown = folder.path("MVI_0009.AVI")
        try bytes.write(to: URL(fileURLWithPath: unknown))

        for (path, codec, words) in [(avs2, "avs2", ["is a video (MPEG-TS", "AVS2", "(avs2)", "cannot decode"]),
                                     (unknown, "none", ["is a video (AVI", "codec FFmpeg does not know", "'ABCD'"])] {
            do {
                _ = try ClipProbe.probe(ClipSource(path: path))
                Issue.record("\(path) was taken")
            } catch {
                #expect(error.kind == .unsupportedCodec(codec))
            }
            let show = Slideshow(photos: [Photo(path: path)], output: folder.path("show.mp4"), length: .perSlide(seconds: 1),
                                 video: VideoSettings(size: Size(width: 64, height: 48), framesPerSecond: 25))
            do {
                _ = try await show.validate()
                Issue.record("\(path) validated")
            } catch {
                guard case .clip(let clip) = error else { Issue.record("not a clip error: \(error)"); continue }
                let line = clip.description
                #expect(clip.kind == .unsupportedCodec(codec))
                #expect(line.hasPrefix(path + ": "))
                #expect(!line.contains("\n") && !line.contains("not a JPEG") && !line.contains("image"), "\(line)")
                for word in words { #expect(line.contains(word), "\(line) lacks \(word)") }
                CameraFigures.note("message: \(line)")
            }
        }
    }
}

/// Interlaced clips (50i H.264 in MPEG-TS, 50i MPEG-2 in a VOB) made from real motion: every
/// field a different moment of a fast pan. Deinterlaced one frame per field pair in a 25-fps show and one frame
/// per field in a 50-fps show, against ffmpeg's `bwdif` at the same rate (luma PSNR), and a
/// combing measure against the same frames woven (no deinterlacing) and against `bwdif`'s.
@Suite(.enabled(if: Clips.available, Clips.skipped), .serialized)
struct InterlacedClipTests {
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var arguments: [String]
        var codec: String
        var description: String { file }
    }

    /// Fields from a fast pan (the shared clip at three times its speed, 50 pictures a second,
    /// each field one of them) with a camera's soft vertical detail (a slight blur), top field first.
    static let weave = "setpts=PTS/3,fps=50,scale=320:240:flags=area,gblur=sigma=1.2,tinterlace=mode=interleave_top,setfield=tff"
    static let cases: [Case] = [
        Case(file: "00001.MTS", arguments: ["-vf", weave, "-c:v", "libx264", "-flags", "+ildct+ilme", "-x264opts", "tff=1", "-crf", "14",
                                            "-r", "25", "-c:a", "ac3", "-f", "mpegts"], codec: "h264"),
        Case(file: "VTS_02_1.VOB", arguments: ["-vf", weave, "-c:v", "mpeg2video", "-flags", "+ildct+ilme", "-top", "1", "-q:v", "2",
                                               "-r", "25", "-c:a", "mp2", "-f", "vob"], codec: "mpeg2video"),
    ]

    static let size = Size(width: 320, height: 240)

    @Test(arguments: cases, [25, 50])
    func deinterlaced(_ clip: Case, _ fps: Int) throws {
        let folder = try Clips.temporary()
        let path = folder.path(clip.file)
        try Clips.ffmpeg(["-i", Clips.path(CameraClipTests.source), "-t", "1.2"] + clip.arguments + [path])
        let info = try ClipProbe.probe(ClipSource(path: path))
        #expect(info.codec == clip.codec)
        #expect(info.fieldOrder == .topFirst)
        #expect(info.averageFrameRate == 25)

        let fieldRate = fps == 50
        let mode = fieldRate ? "send_field" : "send_frame"
        let bwdif = try CameraReference.frames(path, size: Self.size, filter: "bwdif=mode=\(mode):deint=interlaced,", fieldRate: fieldRate)
        let woven = try CameraReference.frames(path, size: Self.size, filter: "", fieldRate: false)
        let reader = try ClipReader(source: ClipSource(path: path), size: Self.size, framesPerSecond: fps,
                                    duration: MediaTime(value: 1, timescale: 1))
        let frames = try Clips.allFrames(reader)
        #expect(frames.count == fps)
        #expect(reader.deinterlacing == (fieldRate ? .field : .frame))

        var worst = Double.infinity
        var ours = 0.0, theirs = 0.0, plain = 0.0
        for (index, frame) in frames.enumerated() {
            let t = Double(index) / Double(fps)
            let reference = Clips.frame(at: t, in: bwdif)
            worst = min(worst, lumaPSNR(frame.pixels, reference))
            // Moving places: where the woven frame due differs from the one before it.
            let due = Clips.dueIndex(at: t, in: woven)
            guard due > 0 else { continue }
            let moving = Combing.motionMask(woven[due].pixels, woven[due - 1].pixels, size: Self.size)
            ours += Combing.energy(frame.pixels, size: Self.size, mask: moving)
            theirs += Combing.energy(reference, size: Self.size, mask: moving)
            plain += Combing.energy(woven[due].pixels, size: Self.size, mask: moving)
        }
        #expect(worst >= 38, "worst luma PSNR \(worst) dB")
        #expect(plain >= 10 * ours, "combing \(ours) against \(plain) woven")
        #expect(abs(ours - theirs) <= 0.1 * theirs, "combing \(ours) against bwdif's \(theirs)")
        CameraFigures.note(String(format: "interlaced %@ at %d fps (%@): worst luma %.1f dB against bwdif=%@; combing %.1f, woven %.1f (%.0fx), bwdif %.1f (%+.1f%%)",
                                  clip.file, fps, clip.codec, worst, mode, ours, plain, plain / max(ours, 1e-9), theirs,
                                  100 * (ours - theirs) / theirs))
    }

    /// A stream that mixes progressive and interlaced pictures: only the interlaced ones are
    /// filtered; the progressive ones come through as decoded.
    @Test func mixedStreamPerFrame() throws {
        let folder = try Clips.temporary()
        let progressive = folder.path("p.ts"), interlaced = folder.path("i.ts"), list = folder.path("list.txt")
        let source = Clips.path(CameraClipTests.source)
        try Clips.ffmpeg(["-i", source, "-t", "0.4", "-vf", "fps=25,scale=320:240", "-c:v", "libx264", "-crf", "14", "-an", progressive])
        try Clips.ffmpeg(["-ss", "0.4", "-i", source, "-t", "0.4", "-vf", InterlacedClipTests.weave, "-c:v", "libx264",
                          "-flags", "+ildct+ilme", "-x264opts", "tff=1", "-crf", "14", "-r", "25", "-an", interlaced])
        try "file '\(progressive)'\nfile '\(interlaced)'\n".write(toFile: list, atomically: true, encoding: .utf8)
        let mixed = folder.path("mixed.ts")
        try Clips.ffmpeg(["-f", "concat", "-safe", "0", "-i", list, "-c", "copy", mixed])
        let flags = try Clips.ffprobe(["-select_streams", "v:0", "-show_entries", "frame=interlaced_frame", "-of", "csv=p=0", mixed])
            .split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) }
        #expect(flags.first == "0" && flags.last == "1")

        let reference = try CameraReference.frames(mixed, size: Self.size, filter: "bwdif=mode=send_frame:deint=interlaced,", fieldRate: false)
        let decoded = try CameraReference.frames(mixed, size: Self.size, filter: "", fieldRate: false)
        let reader = try ClipReader(source: ClipSource(path: mixed), size: Self.size, framesPerSecond: 25,
                                    duration: MediaTime(value: 4, timescale: 5))
        let frames = try Clips.allFrames(reader)
        #expect(reader.deinterlacing == .frame)
        for (index, frame) in frames.enumerated() {
            let t = Double(index) / 25
            #expect(lumaPSNR(frame.pixels, Clips.frame(at: t, in: reference)) >= 38, "frame \(index)")
            // The progressive part comes through as decoded (bwdif passes it).
            if index < 8 { #expect(lumaPSNR(frame.pixels, Clips.frame(at: t, in: decoded)) >= 45, "frame \(index)") }
        }
    }
}

/// Camera clips in a show: an AVI (Motion JPEG), an interlaced MPEG-TS and a PAL DV clip among
/// photos, each clip's frames at their show times, the sound of each placed at its cut.
@Suite(.enabled(if: Clips.available, Clips.skipped), .serialized)
struct CameraClipShowTests {
    @Test func cameraClipsInAShow() async throws {
        let folder = try TemporaryFolder()
        let mjpeg = try CameraClipTests.make(CameraClipTests.cases[0], in: folder)
        let dv = try CameraClipTests.make(CameraClipTests.cases[9], in: folder)
        let ts = folder.path("00001.MTS")
        let clip = InterlacedClipTests.cases[0]
        try Clips.ffmpeg(["-i", Clips.path(CameraClipTests.source), "-t", "1"] + clip.arguments + [ts])
        let size = Size(width: 320, height: 180)
        var show = Slideshow(photos: [ClipShowTests.photo, mjpeg, ts, dv].map(Photo.init(path:)), output: folder.path("show.mp4"),
                             length: .perSlide(seconds: 1),
                             video: VideoSettings(size: size, framesPerSecond: 25, crf: 10, preset: "ultrafast"))
        show.photoSettings = [PhotoSettings(), PhotoSettings(clipPart: ClipPart(start: 0, end: 0.8)),
                              PhotoSettings(clipPart: ClipPart(start: 0, end: 0.8)), PhotoSettings(clipPart: ClipPart(start: 0, end: 0.8))]
        let prepared = try await show.validate()
        #expect(prepared.plan.photoStarts == [0, 25, 45, 65] && prepared.plan.frameCount == 85)
        // DV's 720x576 at 16:15 is 768x576 upright, 4:3.
        #expect(prepared.photos[3].clip?.displaySize == Size(width: 768, height: 576))
        #expect(prepared.clipSounds.map(\.start.value) == [25, 45, 65])
        #expect(prepared.clipSounds.allSatisfy { $0.duration == MediaTime(value: 20, timescale: 25) })
        _ = try await prepared.render()
        let frames = try ClipShowTests.frames(show.output)
        #expect(frames.count == 85)

        // Each clip's picture, letterboxed as the show fits it, against ffmpeg's (bwdif'd) frame due.
        for (start, path, display, filter) in [(25, mjpeg, Size(width: 320, height: 180), ""),
                                               (45, ts, Size(width: 320, height: 240), "bwdif=mode=send_frame:deint=interlaced,"),
                                               (65, dv, Size(width: 768, height: 576), "bwdif=mode=send_frame:deint=interlaced,")] {
            let content = FitGeometry(source: display, target: size, mode: .aspectFit).content
            let reference = try CameraReference.frames(path, size: Size(width: content.width, height: content.height), filter: filter,
                                                       fieldRate: false)
            for k in [0, 7, 19] {
                let ours = ClipShowTests.crop(frames[start + k], content)
                let value = lumaPSNR(ours, Clips.frame(at: Double(k) / 25, in: reference))
                #expect(value >= 35, "\(path) frame \(k): \(value) dB")
            }
        }
        // The show's sound where the Motion JPEG clip plays is the clip's own (PCM), from its cut.
        let sound = try Clips.ffmpeg(["-i", show.output, "-ss", "1", "-t", "0.8", "-vn", "-ac", "1", "-ar", "48000", "-f", "f32le", "-"])
        let clipSound = try Clips.ffmpeg(["-i", mjpeg, "-t", "0.8", "-vn", "-ac", "1", "-ar", "48000", "-f", "f32le", "-"])
        let a = sound.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let b = clipSound.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let best = CameraReference.bestLag(a, b, within: 2400)
        #expect(best.correlation > 0.8, "correlation \(best.correlation)")
        // AAC's own framing in the output moves it by at most a few milliseconds.
        #expect(abs(best.lag) <= 240, "lag \(best.lag) samples")
        CameraFigures.note(String(format: "show: the MJPEG clip's sound in the rendered show correlates %.3f at %d samples", best.correlation, best.lag))
    }
}

/// ffmpeg's references for the camera tests.
enum CameraReference {
    /// ffmpeg's frames through `filter` (e.g. `bwdif…,`) and a bicubic scale to `size`, each
    /// with its time on the clip's clock; with `fieldRate`, two frames per decoded one (bwdif's
    /// `send_field`), the second half-way to the next.
    static func frames(_ path: String, size: Size, filter: String, fieldRate: Bool) throws -> [(time: Double, pixels: [UInt8])] {
        let data = try Clips.ffmpeg(["-i", path, "-map", "0:v:0", "-vf", filter + "scale=\(size.width):\(size.height)",
                                     "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let start = Double(try Clips.ffprobe(["-show_entries", "format=start_time", "-of", "default=nw=1:nk=1", path])
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        var times = try Clips.ffprobe(["-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time", "-of", "csv=p=0", path])
            .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
            .map { $0 - start }
        if fieldRate {
            times = times.indices.flatMap { index -> [Double] in
                let step = index + 1 < times.count ? times[index + 1] - times[index] : index > 0 ? times[index] - times[index - 1] : 0.04
                return [times[index], times[index] + step / 2]
            }
        }
        let bytes = size.width * size.height * 3
        let count = min(data.count / bytes, times.count)
        return (0..<count).map { ([UInt8](data[$0 * bytes..<($0 + 1) * bytes]), times[$0]) }.map { ($0.1, $0.0) }
    }

    /// Our sound of a clip's first `seconds` against ffmpeg's decode placed on the same clock
    /// (its timestamps less the container's start, gaps filled: `aresample=async=1:first_pts=0`):
    /// the correlation at the best lag, and that lag in samples (48 kHz).
    static func soundPlacement(_ path: String, seconds: Double) throws -> (correlation: Double, lag: Int) {
        let reader = try #require(try ClipAudioReader(source: ClipSource(path: path),
                                                      duration: MediaTime(value: Int64(seconds * 1000), timescale: 1000)))
        var ours: [Float] = []
        while let chunk = try reader.read() { ours += chunk }
        let data = try Clips.ffmpeg(["-i", path, "-vn", "-af", "aresample=async=1:first_pts=0", "-t", "\(seconds)", "-ac", "2", "-ar", "48000",
                                     "-f", "f32le", "-"])
        let theirs = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // Left channel only.
        let a = stride(from: 0, to: ours.count, by: 2).map { ours[$0] }
        let b = stride(from: 0, to: theirs.count, by: 2).map { theirs[$0] }
        return bestLag(a, b, within: 960)
    }

    /// The lag (of `a` behind `b`, in samples) within ±`within` where their normalised correlation is highest.
    static func bestLag(_ a: [Float], _ b: [Float], within: Int) -> (correlation: Double, lag: Int) {
        var best = (correlation: -2.0, lag: 0)
        let count = min(a.count, b.count) - within
        guard count > 0 else { return best }
        for lag in stride(from: -within, through: within, by: 1) {
            var dot = 0.0, a2 = 0.0, b2 = 0.0
            for index in within..<count where index + lag >= 0 && index + lag < a.count {
                let x = Double(a[index + lag]), y = Double(b[index])
                dot += x * y
                a2 += x * x
                b2 += y * y
            }
            let value = a2 > 0 && b2 > 0 ? dot / (a2 * b2).squareRoot() : 0
            if value > best.correlation { best = (value, lag) }
        }
        return best
    }

    /// An MPEG-TS file with every PMT's stream type `from` replaced by `to` (the PMT's CRC redone).
    static func retypeTransportStream(_ data: Data, from: UInt8, to: UInt8) throws -> [UInt8] {
        var bytes = [UInt8](data)
        var pmtPID: Int?
        for offset in stride(from: 0, to: bytes.count - 187, by: 188) where bytes[offset] == 0x47 && bytes[offset + 1] & 0x40 != 0 {
            let pid = Int(bytes[offset + 1] & 0x1F) << 8 | Int(bytes[offset + 2])
            let section = offset + 5 + Int(bytes[offset + 4])
            if pid == 0 {
                // PAT: the first programme's PMT PID.
                pmtPID = Int(bytes[section + 10] & 0x1F) << 8 | Int(bytes[section + 11])
                continue
            }
            guard pid == pmtPID, bytes[section] == 0x02 else { continue }
            let length = Int(bytes[section + 1] & 0x0F) << 8 | Int(bytes[section + 2])
            let end = section + 3 + length - 4
            var entry = section + 12 + (Int(bytes[section + 10] & 0x0F) << 8 | Int(bytes[section + 11]))
            while entry + 5 <= end {
                if bytes[entry] == from { bytes[entry] = to }
                entry += 5 + (Int(bytes[entry + 3] & 0x0F) << 8 | Int(bytes[entry + 4]))
            }
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes[section..<end] {
                crc ^= UInt32(byte) << 24
                for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
            }
            for index in 0..<4 { bytes[end + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        }
        return bytes
    }
}

/// The combing measure: on moving places, the energy of each line's difference from both lines
/// around it where it differs from both the same way (a line of one moment between two of
/// another), the sign of combing.
enum Combing {
    /// BT.601 luma of an RGB pixel, 0–255.
    static func luma(_ pixels: [UInt8], _ index: Int) -> Double {
        0.299 * Double(pixels[index * 3]) + 0.587 * Double(pixels[index * 3 + 1]) + 0.114 * Double(pixels[index * 3 + 2])
    }

    /// The places where two frames' luma differs by more than 12 levels (dilated by a pixel).
    static func motionMask(_ a: [UInt8], _ b: [UInt8], size: Size) -> [Bool] {
        var raw = [Bool](repeating: false, count: size.width * size.height)
        for index in raw.indices { raw[index] = abs(luma(a, index) - luma(b, index)) > 12 }
        var mask = raw
        for y in 1..<(size.height - 1) {
            for x in 1..<(size.width - 1) where raw[y * size.width + x] {
                for dy in -1...1 { for dx in -1...1 { mask[(y + dy) * size.width + x + dx] = true } }
            }
        }
        return mask
    }

    /// The mean over the masked places of max(0, (Y[y] − Y[y−1]) · (Y[y] − Y[y+1])).
    static func energy(_ pixels: [UInt8], size: Size, mask: [Bool]) -> Double {
        var total = 0.0, count = 0
        for y in 1..<(size.height - 1) {
            for x in 0..<size.width where mask[y * size.width + x] {
                let c = luma(pixels, y * size.width + x)
                let up = luma(pixels, (y - 1) * size.width + x), down = luma(pixels, (y + 1) * size.width + x)
                total += max(0, (c - up) * (c - down))
                count += 1
            }
        }
        return count == 0 ? 0 : total / Double(count)
    }
}

/// Luma PSNR (BT.601 weights on RGB) of two equally long RGB pictures, in dB (∞ when equal).
func lumaPSNR(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var total = 0.0
    for index in 0..<(a.count / 3) {
        let d = Combing.luma(a, index) - Combing.luma(b, index)
        total += d * d
    }
    let mse = total / Double(a.count / 3)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// The figures the camera tests measured, printed as `FIGURE camera …` lines (for the notes and the README).
enum CameraFigures {
    static func note(_ line: String) { print("FIGURE camera " + line) }
}
