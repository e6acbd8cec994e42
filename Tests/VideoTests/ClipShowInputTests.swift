import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFormats
import SlideshowFraming
import SlideshowKit
import SlideshowMetadata
import SlideshowPixels
import SlideshowVideo

/// Items that are not what they seem, and motion photos: each bad input refused at validation
/// as one typed error naming the file; damaged videos played as far as they go, with a warning.
@Suite("Clip inputs and motion photos in shows", .enabled(if: Clips.available, Clips.skipped), .serialized)
struct ClipShowInputTests {
    static func show(_ items: [String], in folder: TemporaryFolder, _ configure: (inout Slideshow) -> Void = { _ in }) -> Slideshow {
        ClipShowTests.show(items, in: folder, configure)
    }

    static func clipError(_ items: [String], in folder: TemporaryFolder) async -> ClipError? {
        do {
            try await show(items, in: folder).validate()
            return nil
        } catch {
            guard case .clip(let clip) = error else { return nil }
            return clip
        }
    }

    @Test("an item is a clip by its content, not its name: a clip named .jpg plays, a JPEG named .mp4 is a photo")
    func byContent() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: Clips.path("mp4_h264_960x540_noaudio_1s.mp4"), toPath: folder.path("clip.jpg"))
        try FileManager.default.copyItem(atPath: ClipShowTests.photo, toPath: folder.path("photo.mp4"))
        let prepared = try await Self.show([folder.path("clip.jpg"), folder.path("photo.mp4")], in: folder).validate()
        #expect(prepared.photos.map(\.format) == [.video, .jpeg])
        #expect(prepared.photos[0].clip?.codec == "h264" && prepared.plan.photoStarts == [0, 31])
    }

    @Test("a clip larger than any photo may be (over 256 MB) is a clip, not a photo too large")
    func largerThanPhotos() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("long.mp4")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30", "-t", "1", "-c:v", "libx264", "-preset", "ultrafast",
                          "-movflags", "+faststart", path])
        // A 260 MB free box after the movie, as a sparse file (nothing is written to disk).
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let end = try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x10, 0x40, 0x00, 0x00] + Array("free".utf8)))
        try handle.truncate(atOffset: end + (260 << 20))
        try handle.close()
        let prepared = try await Self.show([path], in: folder).validate()
        #expect(prepared.photos[0].clip != nil && prepared.plan.frameCount == 30)
    }

    @Test("an audio file is a clip without a video stream")
    func audioFile() async throws {
        let folder = try TemporaryFolder()
        let error = await Self.clipError([ClipShowTests.photo, Clips.path("music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3")], in: folder)
        #expect(error?.kind == .noVideoStream && error?.path == Clips.path("music_downtown_boogie_bryanteoh_pd_105bpm_25s.mp3"))
    }

    /// Refused before issue 33; a codec this FFmpeg cannot decode is CameraClipTests.undecodableCodecIsNamed's.
    @Test("a clip in any codec libavcodec decodes is a clip (MPEG-4 Part 2, Motion JPEG in a MOV)", arguments: ["mpeg4", "mjpeg"])
    func anyDecodableCodec(_ codec: String) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("old.mov")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-c:v", codec, path])
        let prepared = try await Self.show([ClipShowTests.photo, path], in: folder).validate()
        #expect(prepared.photos[1].clip?.codec == codec)
    }

    @Test("a movie cut off before its index is an unreadable clip, not a photo that is no image")
    func cutBeforeIndex() async throws {
        let folder = try TemporaryFolder()
        // The shared MP4 keeps its moov after the samples: its first half has none.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Clips.path("mp4_h264_rot90ccw_aac_720p_5s.mp4")))
        let cut = folder.path("cut.mp4")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let error = await Self.clipError([cut], in: folder)
        #expect(error?.kind == .unreadable && error?.path == cut)
    }

    @Test("a clip whose pictures are all damaged is refused at validation, before anything renders")
    func damagedPictures() async throws {
        let folder = try TemporaryFolder()
        let whole = folder.path("whole.mp4")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30:duration=1", "-c:v", "libx264", "-preset", "ultrafast",
                          "-movflags", "+faststart", whole])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let mdat = try #require(bytes.range(of: Data("mdat".utf8))).upperBound
        bytes.replaceSubrange(mdat..<bytes.count, with: Data(count: bytes.count - mdat))
        let damaged = folder.path("damaged.mp4")
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let error = await Self.clipError([ClipShowTests.photo, damaged], in: folder)
        #expect(error?.kind == .unreadable && error?.path == damaged)
        #expect(!FileManager.default.fileExists(atPath: folder.path("show.mp4")))
    }

    @Test("a file that is neither an image nor a clip stays a photo error")
    func neither() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("notes.jpg")
        try Data("just words".utf8).write(to: URL(fileURLWithPath: path))
        await #expect {
            try await Self.show([path], in: folder).validate()
        } throws: { error in
            guard case .photo(let photo) = error as? RenderError else { return false }
            return photo.kind == .notAnImage
        }
    }

    @Test("a truncated clip plays what is there, holds its last good frame for its whole length, and the render says so")
    func truncated() async throws {
        let folder = try TemporaryFolder()
        let whole = folder.path("whole.mp4")
        try Clips.ffmpeg(["-i", Clips.path("mp4_h264_rot90ccw_aac_720p_5s.mp4"), "-c", "copy", "-movflags", "+faststart", whole])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = folder.path("cut.mp4")
        try bytes.prefix(bytes.count * 2 / 5).write(to: URL(fileURLWithPath: cut))
        let show = Self.show([ClipShowTests.photo, cut], in: folder)
        let prepared = try await show.validate()
        // Its stated length: 4.972 s, 149 frames, after the photo's 30.
        #expect(prepared.plan.frameCount == 179)
        let result = try await prepared.render()
        #expect(result.warnings.contains { $0.kind == .clip && $0.path == cut && $0.message.hasPrefix(cut + ": its video stops at") })
        let count = try Clips.ffprobe(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", show.output])
        #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "179")
        let frames = try ClipShowTests.frames(show.output)
        #expect(psnr(frames[170], frames[178]) >= 40)
    }

    @Test("a clip whose sound runs on after its pictures plays its whole length, its last picture held, without a warning")
    func soundLongerThanPictures() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("talk.mp4")
        try Clips.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=30:duration=1", "-f", "lavfi", "-i", "sine=duration=2",
                          "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", path])
        let show = Self.show([path], in: folder)
        let prepared = try await show.validate()
        #expect(prepared.photos[0].clip.map { ($0.videoDuration ?? 0) < 1.1 && $0.duration > 1.9 } == true)
        let result = try await prepared.render()
        #expect(result.frames == Int((prepared.photos[0].clip!.duration * 30).rounded()))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    /// A photo whose motion video plays: frames during it match the video's (PSNR), frames
    /// after it are the still, held (skip packets), as the same show without playing shows it.
    func playsThenHolds(_ photo: String, in folder: TemporaryFolder, referenceFilters: String = "", minimumPSNR: Double = 35) async throws {
        let located = try #require(MotionPhoto.locate(photo: photo))
        let videoFrames = Int((try ClipProbe.probe(located.source).duration * 30).rounded())
        // 640x360, so that the video's picture is large enough for 4:2:0 chroma not to dominate the comparison.
        let size = Size(width: 640, height: 360)
        var playing = ClipShowTests.show([ClipShowTests.photo, photo], in: folder, size: size) { $0.motionPhotos = .play }
        playing.length = .perSlide(seconds: 3)
        let prepared = try await playing.validate()
        #expect(prepared.photos[1].motionClip != nil)
        #expect(prepared.plan.videoFrames == [nil, videoFrames])
        #expect(prepared.plan.segments.last == .hold(photo: 1, frames: (90 + videoFrames)..<180))
        _ = try await prepared.render()
        var still = playing
        still.motionPhotos = .still
        still.output = folder.path("still.mp4")
        _ = try await still.render()
        let frames = try ClipShowTests.frames(playing.output, size: size), stills = try ClipShowTests.frames(still.output, size: size)
        #expect(frames.count == 180 && stills.count == 180)
        let video = prepared.photos[1].motionClip!
        let content = FitGeometry(source: video.displaySize, target: size, mode: .aspectFit).content
        // ffmpeg reads the embedded video from a copy of its bytes (the show read it in place).
        var referencePath = video.source.path
        if let range = video.source.byteRange {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: referencePath))
            referencePath = folder.path("embedded.mp4")
            try bytes[Int(range.lowerBound)..<Int(range.upperBound)].write(to: URL(fileURLWithPath: referencePath))
        }
        let reference = try Clips.referenceFrames(referencePath, size: Size(width: content.width, height: content.height),
                                                  extraFilters: referenceFilters)
        for k in [2, videoFrames - 1] {
            let ours = ClipShowTests.crop(frames[90 + k], content, width: size.width)
            let value = psnr(ours, Clips.frame(at: Double(k) / 30, in: reference))
            #expect(value >= minimumPSNR, "video frame \(k): \(value) dB")
        }
        // During the video the picture differs from the still; after it, it is the still.
        #expect(psnr(frames[92], stills[92]) < 30)
        #expect(psnr(frames[179], stills[179]) >= 40)
        let sizes = try ClipShowTests.packetSizes(playing.output)
        #expect(sizes[(91 + videoFrames)..<180].allSatisfy { $0 <= 64 })
    }

    @Test("an Apple Live Photo (a photo and the MOV beside it) plays its movie, then holds the still")
    func livePhoto() async throws {
        let folder = try TemporaryFolder()
        // The real pair: the iOS 18 HEIC (whose gain-map references libheif 1.15 refused) and its MOV.
        try FileManager.default.copyItem(atPath: Clips.path("livephoto_iphone15pro_IMG_4394.HEIC"), toPath: folder.path("IMG_4394.HEIC"))
        try FileManager.default.copyItem(atPath: Clips.path("livephoto_iphone15pro_IMG_4394.mov"), toPath: folder.path("IMG_4394.MOV"))
        // Its movie is Display P3, converted to BT.709 in linear light by the show; ffmpeg's zscale
        // does the same for the reference, with filters of its own: 33.3 dB measured, 32 asked.
        try await playsThenHolds(folder.path("IMG_4394.HEIC"), in: folder,
                                 referenceFilters: "zscale=primariesin=smpte432:primaries=709:transferin=709:transfer=709:matrixin=709:matrix=709:rangein=full:range=full,",
                                 minimumPSNR: 32)
    }

    @Test("a Google motion photo (HEIC, XMP Container) plays its embedded video, read in place, then holds the still")
    func googleMotionPhoto() async throws {
        let folder = try TemporaryFolder()
        try await playsThenHolds(Clips.path("mp_google_motionphoto_small_1080x1920.heic"), in: folder)
    }

    @Test("a Samsung motion photo (HEIC, mpvd box) plays its embedded video, then holds the still")
    func samsungMotionPhoto() async throws {
        let folder = try TemporaryFolder()
        try await playsThenHolds(Clips.path("mp_samsung_s22_motionphoto.heic"), in: folder)
    }

    @Test("a motion photo whose embedded video is damaged shows its still, with a warning; without --motion-photos play nothing is read")
    func damagedMotionVideo() async throws {
        let folder = try TemporaryFolder()
        let original = Clips.path("mp_google_motionphoto_small_1080x1920.heic")
        let video = try #require(MotionPhoto.locate(photo: original)).source.byteRange!
        var bytes = try Data(contentsOf: URL(fileURLWithPath: original))
        // Everything after the video's ftyp box zeroed: no moov, no samples.
        let start = Int(video.lowerBound) + 32
        bytes.replaceSubrange(start..<Int(video.upperBound), with: Data(count: Int(video.upperBound) - start))
        let damaged = folder.path("damaged.heic")
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let show = Self.show([damaged], in: folder) { $0.motionPhotos = .play }
        let prepared = try await show.validate()
        #expect(prepared.photos[0].motionClip == nil && prepared.plan.isHoldsOnly)
        #expect(prepared.warnings.contains { $0.kind == .clip && $0.path == damaged && $0.message.hasPrefix(damaged + ": its motion photo video cannot be played") })
        let result = try await prepared.render()
        #expect(result.warnings.contains { $0.kind == .clip && $0.message.hasPrefix(damaged + ": its motion photo video cannot be played") })
        var still = show
        still.motionPhotos = .still
        still.output = folder.path("still.mp4")
        #expect(try await still.validate().warnings.isEmpty)
    }

    @Test("a clip's creation_time more than a day in the future is ignored, as a photo's capture date is (issue 31)")
    func futureCreationTime() async throws {
        let folder = try TemporaryFolder()
        let clip = folder.path("future.mp4")
        // An MP4's mvhd holds 32-bit seconds since 1904 (to February 2040): 2039 is the future that fits.
        try Clips.ffmpeg(["-i", Clips.path("mp4_h264_960x540_noaudio_1s.mp4"), "-c", "copy", "-metadata", "creation_time=2039-06-01T00:00:00Z", clip])
        let prepared = try await Self.show([clip], in: folder) { _ in }.validate()
        #expect(prepared.photos[0].clip != nil)
        #expect(prepared.photos[0].captureDate == nil)
    }

    @Test("--order date places a clip by its creation_time among the photos")
    func dateOrder() async throws {
        let folder = try TemporaryFolder()
        let early = folder.path("early.mp4"), late = folder.path("late.mp4")
        for (path, time) in [(early, "2001-01-01T10:00:00Z"), (late, "2030-06-01T10:00:00Z")] {
            try Clips.ffmpeg(["-i", Clips.path("mp4_h264_960x540_noaudio_1s.mp4"), "-c", "copy", "-metadata", "creation_time=\(time)", path])
        }
        let show = Self.show([late, ClipShowTests.photo, early], in: folder) { $0.order = .date }
        let prepared = try await show.validate()
        let order = prepared.slideshow.photos.map(\.path)
        let clips = order.filter { $0 != ClipShowTests.photo }
        #expect(clips == [early, late])
        #expect(prepared.photos[order.firstIndex(of: early)!].captureDate == CaptureDate(year: 2001, month: 1, day: 1, hour: 10, utcOffsetMinutes: 0))
    }
}
