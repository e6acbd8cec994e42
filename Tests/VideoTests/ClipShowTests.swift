import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowAudio
import SlideshowFFmpeg
import SlideshowFormats
import SlideshowFraming
import SlideshowKit
import SlideshowPixels
import SlideshowText
import SlideshowWriter

/// Shows with clips among the photos, rendered through the library and read back with
/// ffmpeg/ffprobe: which clip frame each show frame holds, its fit and orientation, the
/// lengths, trims, transitions, held photo frames, and the clips' sound placed for the mixer.
@Suite("Clips in shows", .enabled(if: Clips.available, Clips.skipped), .serialized)
struct ClipShowTests {
    static let size = Size(width: 320, height: 180)
    static let photo = TestEnvironment.sample("landscape.jpg")
    static let square = TestEnvironment.sample("square.jpg")

    /// A 320x180, 30 fps show of `items`, near-lossless (CRF 10) so that what is compared is
    /// the frame choice and the fit, not the encoder's noise.
    static func show(_ items: [String], in folder: TemporaryFolder, name: String = "show.mp4", size: Size = size,
                     _ configure: (inout Slideshow) -> Void = { _ in }) -> Slideshow {
        var show = Slideshow(photos: items.map(Photo.init(path:)), output: folder.path(name), length: .perSlide(seconds: 1),
                             video: VideoSettings(size: size, framesPerSecond: 30, crf: 10, preset: "ultrafast"))
        configure(&show)
        return show
    }

    /// Every frame of a rendered show as RGB.
    static func frames(_ path: String, size: Size = size) throws -> [[UInt8]] {
        try FrameDecoder.frames(of: path, pixelFormat: "rgb24", width: size.width, height: size.height).map { [UInt8]($0) }
    }

    /// The columns `x` of an RGB frame of the show's size.
    static func columns(_ pixels: [UInt8], _ x: Range<Int>) -> [UInt8] {
        crop(pixels, Rect(x: x.lowerBound, y: 0, width: x.count, height: size.height))
    }

    /// The rectangle `rect` of an RGB frame of the show's size, row after row.
    static func crop(_ pixels: [UInt8], _ rect: Rect, width: Int = size.width) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * 3)
        for y in rect.y..<rect.maxY {
            let start: Int = (y * width + rect.x) * 3
            out += pixels[start..<(start + rect.width * 3)]
        }
        return out
    }

    static func packetSizes(_ path: String) throws -> [Int] {
        try Clips.ffprobe(["-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
            .split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test("a clip's frames in the show are the clip's frames at the show's times (PSNR ≥ 35 dB against ffmpeg's decode and scale), the photos around it held")
    func framesByTimestamp() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("mp4_h264_720p_vfr_aac_gps_3s.mp4")
        let show = Self.show([Self.photo, clip, Self.square], in: folder)
        let prepared = try await show.validate()
        // The clip keeps its own length under a length per slide: 3.635 s is 109 frames.
        #expect(prepared.plan.photoStarts == [0, 30, 139] && prepared.plan.frameCount == 169)
        let result = try await prepared.render()
        #expect(result.frames == 169 && result.photoStarts.map(\.value) == [0, 30, 139])
        let frames = try Self.frames(show.output)
        #expect(frames.count == 169)
        let reference = try Clips.referenceFrames(clip, size: Self.size)
        for k in [0, 1, 14, 15, 30, 57, 90, 108] {
            let value = psnr(frames[30 + k], Clips.frame(at: Double(k) / 30, in: reference))
            #expect(value >= 35, "clip frame \(k): \(value) dB")
        }
        // Held photos stay free: one picture each, every other frame a skip.
        let sizes = try Self.packetSizes(show.output)
        #expect(sizes.count == 169)
        #expect(sizes[1..<30].allSatisfy { $0 <= 64 } && sizes[140..<169].allSatisfy { $0 <= 64 })
        #expect(sizes[0] > 64 && sizes[139] > 64)
    }

    @Test("a portrait phone clip (display matrix −90°) plays upright, letterboxed like a portrait photo")
    func portraitUpright() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("mov_h264_iphone6_portrait_rot90_aac_568x320.mov")
        // 640x360, so that the picture is large enough for 4:2:0 chroma not to dominate the comparison.
        let frameSize = Size(width: 640, height: 360)
        let show = Self.show([clip], in: folder, size: frameSize)
        let prepared = try await show.validate()
        #expect(prepared.photos[0].clip?.displaySize == Size(width: 320, height: 568))
        _ = try await prepared.render()
        let frames = try Self.frames(show.output, size: frameSize)
        // 4.001667 s → 120 frames; the picture is 202x360 in the middle (FitGeometry's rule).
        #expect(frames.count == 120)
        let content = FitGeometry(source: Size(width: 320, height: 568), target: frameSize, mode: .aspectFit).content
        #expect(content == Rect(x: 218, y: 0, width: 202, height: 360))
        let reference = try Clips.referenceFrames(clip, size: Size(width: content.width, height: content.height))
        let sideways = try Clips.referenceFrames(clip, size: Size(width: content.width, height: content.height),
                                                 extraFilters: "transpose=clock,transpose=clock,")
        #expect(psnr(Self.crop(frames[45], content, width: 640), Clips.frame(at: 1.5, in: sideways)) < 20)
        for k in [0, 45, 119] {
            let ours = Self.crop(frames[k], content, width: 640)
            let value = psnr(ours, Clips.frame(at: Double(k) / 30, in: reference))
            #expect(value >= 35, "frame \(k): \(value) dB")
        }
        let length = try Clips.ffprobe(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames,duration",
                                        "-of", "default=nw=1", show.output])
        #expect(length.contains("nb_read_frames=120") && length.contains("duration=4.000000"))
    }

    @Test("a trimmed part plays from its in-point for its length, and its reader decodes only about that part")
    func trimmed() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("mp4_h264_rot90ccw_aac_720p_5s.mp4")
        let show = Self.show([Self.photo, clip], in: folder) {
            $0.photoSettings = [PhotoSettings(), PhotoSettings(clipPart: ClipPart(start: 3, end: 4))]
        }
        let prepared = try await show.validate()
        #expect(prepared.plan.photoStarts == [0, 30] && prepared.plan.frameCount == 60)
        // The player the render uses, driven frame by frame: 30 frames shown, a GOP or so decoded before them.
        var builder = SlideBuilder(slideshow: prepared.slideshow, captureDates: prepared.photos.map(\.captureDate))
        builder.items = prepared.photos
        let player = try builder.clipPlayer(1, plan: prepared.plan)
        for frame in prepared.plan.span(ofPhoto: 1) { _ = try player.picture(at: frame) }
        #expect(player.decodedFrames >= 30 && player.decodedFrames < 75, "decoded \(player.decodedFrames)")
        _ = try await prepared.render()
        let frames = try Self.frames(show.output)
        let display = prepared.photos[1].clip!.displaySize
        let content = FitGeometry(source: display, target: Self.size, mode: .aspectFit).content
        let reference = try Clips.referenceFrames(clip, size: Size(width: content.width, height: content.height))
        for k in [0, 10, 29] {
            let ours = Self.crop(frames[30 + k], content)
            let value = psnr(ours, Clips.frame(at: 3 + Double(k) / 30, in: reference))
            #expect(value >= 35, "frame \(k) of the part: \(value) dB")
        }
    }

    @Test("under a total duration the photos share what the clips leave, to the frame; clips taking it all are a usage error")
    func durationSharing() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("mp4_h264_960x540_noaudio_1s.mp4")   // 1.034 s: 31 frames
        var show = Self.show([Self.photo, clip, Self.square], in: folder)
        show.length = .total(seconds: 4)
        let prepared = try await show.validate()
        #expect(prepared.plan.frameCount == 120 && prepared.plan.photoStarts == [0, 44, 75])
        show.length = .total(seconds: 1)
        await #expect {
            try await show.validate()
        } throws: { error in
            guard case .usage(let problem) = error as? RenderError else { return false }
            return problem.field == .duration && problem.reason.contains("the clips alone last 1.034 s")
        }
        // A part outside the clip names the item.
        show.length = .total(seconds: 4)
        show.photoSettings = [PhotoSettings(), PhotoSettings(clipPart: ClipPart(start: 0.5, end: 2)), PhotoSettings()]
        await #expect {
            try await show.validate()
        } throws: { error in
            guard case .usage(let problem) = error as? RenderError else { return false }
            return problem.field == .photos && problem.reason.hasPrefix(clip + ": the part 0.5–2.0 s")
        }
    }

    /// Issue 31 item 12, through the library: a show of clips alone ignores its total, even one
    /// that would leave each item less than a frame (91 clips in the default 3 s); a show with
    /// one photo among the clips is still refused, naming the duration. (The command line
    /// still refuses such a total before reading the files: see the issue's note.)
    @Test("a show of clips alone ignores a total that would leave its items no frame")
    func clipsAloneIgnoreTheirTotal() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("mp4_h264_960x540_noaudio_1s.mp4")
        var many = Self.show([String](repeating: clip, count: 91), in: folder)
        many.length = .total(seconds: 3)
        #expect(try await many.validate().plan.frameCount == 91 * 31)
        var mixed = Self.show([String](repeating: clip, count: 90) + [Self.photo], in: folder)
        mixed.length = .total(seconds: 3)
        await #expect {
            try await mixed.validate()
        } throws: { error in
            guard case .settings(let problem) = error as? RenderError else { return false }
            return problem.field == .duration && problem.description == "duration: 3.0 s in total at 30 fps gives 90 frames for 91 photos; each photo needs at least one frame"
        }
    }

    @Test("a clip alone lasts its own length whatever the total; the music's length works as a total; a clip that ends the show starts on the beat")
    func clipsAlone() async throws {
        let folder = try TemporaryFolder()
        var show = Self.show([Clips.path("mp4_h264_960x540_noaudio_1s.mp4"), Clips.path("webm_vp9_642x642_30fps_noaudio_bbb_3s.webm")], in: folder)
        show.length = .total(seconds: 3)
        #expect(try await show.validate().plan.photoStarts == [0, 31])
        #expect(try await show.validate().plan.frameCount == 120)
        show = Self.show([Self.photo, Clips.path("mp4_h264_960x540_noaudio_1s.mp4")], in: folder)
        show.soundtrack = Soundtrack(path: Clips.path("loop_mika_sonicpi_cc0_120bpm_8s.flac"))
        show.length = .soundtrack
        let prepared = try await show.validate()
        #expect(prepared.plan.frameCount == 240 && prepared.plan.photoStarts == [0, 209])
        // Cuts on the beat: the clip that ends the show starts on a beat (120 BPM: a quarter
        // beat is 3 frames), trimmed at its end by as much as that takes, or keeps its place.
        show.cuts = .beats
        let beats = try await show.validate()
        let grid = try #require(beats.beatGrid)
        #expect(beats.warnings.isEmpty)
        let cut = beats.plan.photoStarts[1]
        #expect(beats.plan.frameCount == 240 && (209...212).contains(cut))
        let time = Double(cut) / 30, entry = beats.beats?.music?.entry ?? 0
        #expect(cut == 209 || abs(grid.time(ofBeat: grid.beat(nearest: time + entry)) - entry - time) <= 0.5 / 30 + 1e-9, "cut at \(time) s, \(grid)")
    }

    /// A clip among photos with cuts on the beat (issue 30): the photos' cuts on the beat, the
    /// clip from a beat, its length kept (or trimmed by at most a quarter beat to end on one),
    /// its sound placed where it plays; no warning.
    @Test("a clip among photos: the photos cut on the beat, the clip starts on one and keeps its length",
          arguments: [(clip: "mp4_h264_720p_vfr_aac_gps_3s.mp4", at: 2), (clip: "mp4_h264_960x540_noaudio_1s.mp4", at: 4)])
    func clipAmongBeatCuts(clip name: String, at index: Int) async throws {
        let folder = try TemporaryFolder()
        var items = [String](repeating: Self.photo, count: 6)
        items.insert(Clips.path(name), at: index)
        var show = Self.show(items, in: folder)
        show.length = .total(seconds: 20)
        show.soundtrack = Soundtrack(path: Clips.path("music_bass_for_gambling_komiku_cc0_120bpm_25s.mp3"))
        show.cuts = .beats
        show.transition = .fade
        let prepared = try await show.validate()
        #expect(prepared.warnings.isEmpty, "\(prepared.warnings)")
        let grid = try #require(prepared.beatGrid)
        let clip = try #require(prepared.photos[index].clip)
        let length = Int((clip.duration * 30).rounded())
        let starts = prepared.plan.photoStarts + [prepared.plan.frameCount]
        #expect(prepared.plan.frameCount == 600)
        // The music as heard: entered less than a frame in (``MusicLayout/entry``).
        let entry = prepared.beats?.music?.entry ?? 0
        func onBeat(_ frame: Int) -> Bool {
            let time = Double(frame) / 30
            return abs(grid.time(ofBeat: grid.beat(nearest: time + entry)) - entry - time) <= 0.5 / 30 + 1e-9
        }
        // Every cut on a beat but the clip's end, which is on one only when trimmed to it.
        for cut in 1..<items.count where cut != index + 1 { #expect(onBeat(starts[cut]), "cut \(cut) at frame \(starts[cut]) of \(starts)") }
        let played = starts[index + 1] - starts[index]
        let quarter = Int((grid.period * 30 / 4).rounded(.down))
        #expect(played == length || (played < length && length - played <= quarter && onBeat(starts[index + 1])), "\(played) of \(length) frames")
        // The clip's sound (if any) plays from its cut for its share.
        if let sound = prepared.clipSounds.first {
            #expect(sound.start == MediaTime(value: Int64(starts[index]), timescale: 30) && sound.duration == MediaTime(value: Int64(played), timescale: 30))
        }
    }

    @Test("a wipe into a clip shows the clip's first frame before its cut, and a wipe out of a trimmed clip shows what follows its out-point")
    func transitions() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("mp4_h264_720p_vfr_aac_gps_3s.mp4")
        let show = Self.show([Self.photo, clip, Self.square], in: folder) {
            $0.transition = .wipeleft
            $0.transitionDuration = 0.5
            $0.photoSettings = [PhotoSettings(), PhotoSettings(clipPart: ClipPart(start: 1, end: 2)), PhotoSettings()]
        }
        let prepared = try await show.validate()
        #expect(prepared.plan.photoStarts == [0, 30, 60])
        #expect(prepared.plan.transitions.map(\.frames) == [23..<38, 53..<68])
        _ = try await prepared.render()
        let frames = try Self.frames(show.output)
        let reference = try Clips.referenceFrames(clip, size: Self.size)
        // Frame 27 (progress 4.5/15): the incoming clip fills the columns from round(320 × 0.7) = 224.
        // The part starts at 1 s, so the 7 frames before the cut show the clip from 1 − 7/30 s on.
        let into = psnr(Self.columns(frames[27], 224..<320), Self.columns(Clips.frame(at: 1 - 3.0 / 30, in: reference), 224..<320))
        #expect(into >= 35, "into the clip: \(into) dB")
        // Frame 64 (progress 11.5/15): the outgoing clip keeps the columns before round(320 × (1 − 0.7667)) = 75,
        // 4 frames after its out-point at 2 s.
        let out = psnr(Self.columns(frames[64], 0..<75), Self.columns(Clips.frame(at: 2 + 4.0 / 30, in: reference), 0..<75))
        #expect(out >= 35, "out of the clip: \(out) dB")
    }

    @Test("the clips' sound is placed for the mixer: its start in show time after the opening card, its in-point and length; none when muted or silent")
    func clipSounds() async throws {
        let folder = try TemporaryFolder()
        let withSound = Clips.path("mp4_h264_rot90ccw_aac_720p_5s.mp4")
        let silent = Clips.path("mp4_h264_960x540_noaudio_1s.mp4")
        var show = Self.show([Self.photo, withSound, silent], in: folder) {
            $0.photoSettings = [PhotoSettings(), PhotoSettings(clipPart: ClipPart(start: 2.5, end: 4)), PhotoSettings()]
            $0.text.openingCard = TitleCard(title: "Trip")
            $0.text.cardSeconds = 1
        }
        let sounds = try await show.validate().clipSounds
        #expect(sounds == [ClipSound(source: ClipSource(path: withSound), start: MediaTime(value: 60, timescale: 30),
                                     inPoint: MediaTime(value: 2_500_000, timescale: 1_000_000),
                                     duration: MediaTime(value: 45, timescale: 30))])
        show.clipSound.muted = true
        #expect(try await show.validate().clipSounds.isEmpty)
    }

    @Test("a clip fills the frame under fill (cropped by the one rule) and takes the look; Ken Burns leaves it alone")
    func fillAndLook() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("webm_vp9_642x642_30fps_noaudio_bbb_3s.webm")
        let show = Self.show([Self.photo, clip], in: folder) {
            $0.contentMode = .aspectFill
            $0.framing = .center
            $0.motion = .zoomIn
        }
        let prepared = try await show.validate()
        #expect(prepared.plan.motions[1] == nil && prepared.plan.motions[0] != nil)
        _ = try await prepared.render()
        let frames = try Self.frames(show.output)
        #expect(frames.count == 119)
        // 642x642 filling 320x180: scaled to 320x320, rows 70..<250 of it.
        let reference = try Clips.referenceFrames(clip, size: Size(width: 320, height: 320), extraFilters: "")
        for k in [0, 40] {
            let expected = Array(Clips.frame(at: Double(k) / 30, in: reference)[70 * 320 * 3..<250 * 320 * 3])
            let value = psnr(frames[30 + k], expected)
            #expect(value >= 35, "frame \(k): \(value) dB")
        }
    }

    @Test("cards over clips (the first clip's picture blurred behind the title, the last one's behind the closing card) and fades at the ends")
    func cardsAndFades() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("mp4_h264_960x540_noaudio_1s.mp4")
        let show = Self.show([clip, Self.photo, clip], in: folder) {
            $0.text.openingCard = TitleCard(title: "Trip")
            $0.text.closingCard = TitleCard(title: "The end")
            $0.text.cardSeconds = 0.5
            $0.fadeIn = 0.5
            $0.fadeOut = 0.5
        }
        let result = try await show.render()
        // 15 + 31 + 30 + 31 + 15 frames.
        #expect(result.frames == 122 && result.photoStarts.map(\.value) == [15, 46, 76])
        let frames = try Self.frames(show.output)
        #expect(frames.count == 122)
        func mean(_ pixels: [UInt8]) -> Double { Double(pixels.reduce(0) { $0 + Int($1) }) / Double(pixels.count) }
        // The cards are drawn over the clips' pictures, not black.
        #expect(mean(frames[0]) > 20 && mean(frames[121]) > 20)
        // The fades are the shows' (after the opening card, before the closing one), over the clips' first and last frames.
        let reference = try Clips.referenceFrames(clip, size: Self.size)
        #expect(mean(frames[15]) < 0.2 * mean(Clips.frame(at: 0, in: reference)))
        #expect(mean(frames[106]) < 0.2 * mean(Clips.frame(at: 30.0 / 30, in: reference)))
        // The first clip plays from frame 15: frame 15 + k is the clip at k / 30.
        #expect(psnr(frames[15 + 20], Clips.frame(at: 20.0 / 30, in: reference)) >= 35)
    }

    @Test("a wipe between two clips plays both through it: the outgoing one past its end holds its last frame, the incoming one runs from its cut")
    func clipToClip() async throws {
        let folder = try TemporaryFolder()
        let first = Clips.path("mp4_h264_960x540_noaudio_1s.mp4"), second = Clips.path("mp4_h264_720p_vfr_aac_gps_3s.mp4")
        let show = Self.show([first, second], in: folder) {
            $0.transition = .wipeleft
            $0.transitionDuration = 10.0 / 30
        }
        let prepared = try await show.validate()
        #expect(prepared.plan.photoStarts == [0, 31] && prepared.plan.frameCount == 140)
        #expect(prepared.plan.transitions.map(\.frames) == [26..<36])
        _ = try await prepared.render()
        let frames = try Self.frames(show.output)
        #expect(frames.count == 140)
        let a = try Clips.referenceFrames(first, size: Self.size), b = try Clips.referenceFrames(second, size: Self.size)
        // Frame 33 (progress 7.5/10): the first clip at 1.1 s (past its 1.034 s: its last frame) left of x = 80,
        // the second at 2/30 s from x = 80 on.
        let left = psnr(Self.columns(frames[33], 0..<80), Self.columns(Clips.frame(at: 1.1, in: a), 0..<80))
        let right = psnr(Self.columns(frames[33], 80..<320), Self.columns(Clips.frame(at: 2.0 / 30, in: b), 80..<320))
        #expect(left >= 35 && right >= 35, "\(left) dB, \(right) dB")
    }

    @Test("in a manifest with photos' own durations, a clip without one plays its own length and the other photos share the rest")
    func manifestDurations() async throws {
        let folder = try TemporaryFolder()
        let clip = Clips.path("mp4_h264_960x540_noaudio_1s.mp4")   // 31 frames
        let manifest = #"[{"photos": [{"path": "\#(Self.photo)", "duration": 1}, "\#(clip)", "\#(Self.square)"], "output": "\#(folder.path("m.mp4"))", "duration": 4, "size": "320x180"}]"#
        let show = try BatchManifest(data: Data(manifest.utf8), relativeTo: nil).jobs[0].slideshow
        let prepared = try await show.validate()
        #expect(prepared.plan.photoStarts == [0, 30, 61] && prepared.plan.frameCount == 120)
        let perSlide = #"[{"photos": [{"path": "\#(Self.photo)", "duration": 1}, "\#(clip)", "\#(Self.square)"], "output": "\#(folder.path("m.mp4"))", "slideDuration": 2, "size": "320x180"}]"#
        let slides = try await BatchManifest(data: Data(perSlide.utf8), relativeTo: nil).jobs[0].slideshow.validate()
        #expect(slides.plan.photoStarts == [0, 30, 61] && slides.plan.frameCount == 121)
    }

    @Test("a clip's frames go to a motion run's encoder (B-frames); a show with a 4K clip keeps one encoder, for memory")
    func clipEncoders() async throws {
        let folder = try TemporaryFolder()
        func pictureTypes(_ path: String) throws -> [String] {
            try Clips.ffprobe(["-select_streams", "v:0", "-show_entries", "frame=pict_type", "-of", "csv=p=0", path])
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let phone = Self.show([Self.photo, Clips.path("mp4_h264_720p_vfr_aac_gps_3s.mp4")], in: folder, name: "phone.mp4")
        _ = try await phone.validate().render()
        let phoneTypes = try pictureTypes(folder.path("phone.mp4"))
        #expect(phoneTypes.count == 139 && phoneTypes.contains("B"))

        // A 4K clip of a third of a second: over 8.3 MP, so decoded on one thread, and its
        // show's moving frames stay in the stills encoder (VideoSettings.motionRuns).
        let large = folder.path("4k.mp4")
        _ = try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30", "-t", "0.3", "-c:v", "libx264", "-preset", "ultrafast",
                              "-pix_fmt", "yuv420p", "-y", large])
        let show = Self.show([Self.photo, large], in: folder, name: "large.mp4")
        _ = try await show.validate().render()
        let types = try pictureTypes(folder.path("large.mp4"))
        // The photo's IDR and its held frames (0–29), then the clip: an IDR and 8 P frames.
        #expect(types.count == 39 && !types.contains("B"), "\(types)")
        #expect(types.indices.filter { types[$0].hasPrefix("I") } == [0, 30], "\(types)")
    }
}
