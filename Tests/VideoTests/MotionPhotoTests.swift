import Foundation
import Testing
import TestSupport
@testable import SlideshowKit

/// Motion photos' videos are found in place, with the right byte ranges.
@Suite(.enabled(if: Clips.available, Clips.skipped))
struct MotionPhotoTests {
    /// ffprobe's codec and size of a byte range of a file (its `subfile` protocol).
    private func probeRange(_ source: ClipSource) throws -> String {
        let range = try #require(source.byteRange)
        return try Clips.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0",
                                  "subfile,,start,\(range.lowerBound),end,\(range.upperBound),,:\(source.path)"])
            .trimmingCharacters(in: CharacterSet(charactersIn: ", \n"))
    }

    @Test func samsungHEIC() throws {
        let photo = Clips.path("mp_samsung_s22_motionphoto.heic")
        let video = try #require(MotionPhoto.locate(photo: photo))
        #expect(video.kind == .heifMotionPhotoBox)
        // The mpvd box's payload: 2 193 658 bytes (exiftool's MotionPhotoVideo), to the end of the file.
        #expect(video.source.byteRange == 1_455_411..<3_649_069)
        #expect(video.presentationTimestampMicroseconds == 2_056_590)
        #expect(try probeRange(video.source) == "hevc,1440,1080")
        var warnings: [ClipWarning] = []
        let clip = try #require(MotionPhoto.clip(for: photo, warnings: &warnings))
        #expect(warnings.isEmpty)
        #expect(clip.info.codec == "hevc")
        #expect(clip.info.rotation == -90)
        #expect(clip.info.hasAudio)
        #expect(abs(clip.info.duration - 2.08) < 0.02)
    }

    @Test func samsungHEICFramesMatchFFmpeg() throws {
        let photo = Clips.path("mp_samsung_s22_motionphoto.heic")
        let video = try #require(MotionPhoto.locate(photo: photo))
        let range = try #require(video.source.byteRange)
        let size = Size(width: 108, height: 144)
        let reference = try Clips.referenceFrames("subfile,,start,\(range.lowerBound),end,\(range.upperBound),,:\(photo)", size: size)
        let reader = try ClipReader(source: video.source, size: size, framesPerSecond: 30, duration: MediaTime(value: 1, timescale: 2))
        for index in 0..<15 {
            let frame = try #require(try reader.nextFrame())
            #expect(psnr(frame.pixels, Clips.frame(at: Double(index) / 30, in: reference)) >= 35)
        }
    }

    @Test func googleHEIC() throws {
        let photo = Clips.path("mp_google_motionphoto_small_1080x1920.heic")
        let video = try #require(MotionPhoto.locate(photo: photo))
        #expect(video.kind == .heifMotionPhotoBox)
        // The XMP's video item Length (28 803), counted from the end of the 57 672-byte file.
        #expect(video.source.byteRange == 28_869..<57_672)
        #expect(try probeRange(video.source) == "h264,80,60")
        var warnings: [ClipWarning] = []
        let clip = try #require(MotionPhoto.clip(for: photo, warnings: &warnings))
        #expect(clip.info.codedSize == Size(width: 80, height: 60))
        #expect(warnings.isEmpty)
    }

    /// The manifest: "image and video were shortened by the source, so neither decodes: use for
    /// detection/offset parsing only". So: the offset is found, and the video is refused with a warning.
    @Test func samsungJPEGStructureOnly() throws {
        let photo = Clips.path("mp_samsung_microvideo_jpeg_STRUCTURE_ONLY.jpg")
        let video = try #require(MotionPhoto.locate(photo: photo))
        #expect(video.kind == .microVideoOffset)
        // MicroVideoOffset 2582 from the end of the 22 927-byte file (right after the
        // MotionPhoto_Data marker), up to the SEF trailer's SEFH.
        #expect(video.source.byteRange == 20_345..<22_883)
        var warnings: [ClipWarning] = []
        #expect(MotionPhoto.clip(for: photo, warnings: &warnings) == nil)
        #expect(warnings.map(\.kind) == [.damagedMotionVideo])
    }

    @Test func samsungJPEGTrailerWithoutXMP() throws {
        // The same file with its XMP offset made unreadable: the MotionPhoto_Data marker is found instead.
        let folder = try Clips.temporary()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Clips.path("mp_samsung_microvideo_jpeg_STRUCTURE_ONLY.jpg")))
        let field = try #require(bytes.range(of: Data("MicroVideoOffset".utf8)))
        bytes.replaceSubrange(field, with: Data("MicroVideoXXXXXX".utf8))
        let photo = folder.path("trailer.jpg")
        try bytes.write(to: URL(fileURLWithPath: photo))
        let video = try #require(MotionPhoto.locate(photo: photo))
        #expect(video.kind == .samsungTrailer)
        #expect(video.source.byteRange == 20_345..<22_883)
    }

    @Test func appleLivePhotoBySameName() throws {
        let photo = Clips.path("livephoto_iphone15pro_IMG_4394.HEIC")
        let video = try #require(MotionPhoto.locate(photo: photo))
        #expect(video.kind == .livePhotoMovie)
        #expect(video.source == ClipSource(path: Clips.path("livephoto_iphone15pro_IMG_4394.mov")))
        #expect(MotionPhoto.appleContentIdentifier(photo: photo) == "ED2A2552-C906-486E-9DA5-17DABDF672A7")
    }

    @Test func appleLivePhotoByContentIdentifier() throws {
        // Links with different names: only the content identifier pairs them.
        let folder = try Clips.temporary()
        let photo = folder.path("IMG_0001.HEIC"), movie = folder.path("IMG_0002.mov")
        try FileManager.default.createSymbolicLink(atPath: photo, withDestinationPath: Clips.path("livephoto_iphone15pro_IMG_4394.HEIC"))
        try FileManager.default.createSymbolicLink(atPath: movie, withDestinationPath: Clips.path("livephoto_iphone15pro_IMG_4394.mov"))
        let video = try #require(MotionPhoto.locate(photo: photo))
        #expect(video.source.path == movie)
    }

    @Test func plainStillHasNoMotion() {
        #expect(MotionPhoto.locate(photo: TestEnvironment.sample("landscape.jpg")) == nil)
    }
}
