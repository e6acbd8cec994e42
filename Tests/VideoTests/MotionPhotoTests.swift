import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFFmpeg
import SlideshowFormats
import SlideshowPixels
import SlideshowSupport
import SlideshowVideo

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

    @Test("a FIFO named *.mov in a Live Photo's folder is not opened by the content-identifier scan", .timeLimit(.minutes(1)))
    func fifoInContentIdentifierScan() throws {
        let folder = try Clips.temporary()
        let photo = folder.path("IMG_0001.HEIC")
        try FileManager.default.createSymbolicLink(atPath: photo, withDestinationPath: Clips.path("livephoto_iphone15pro_IMG_4394.HEIC"))
        #expect(mkfifo(folder.path("IMG_0000.mov"), 0o600) == 0)
        #expect(MotionPhoto.locate(photo: photo) == nil)
    }

    @Test("the content-identifier scan opens each movie of a folder once, however many photos ask (it was photos × movies)")
    func contentIdentifierScanOncePerFolder() throws {
        let folder = try Clips.temporary()
        for index in 1...3 {
            try FileManager.default.createSymbolicLink(atPath: folder.path("IMG_000\(index).HEIC"), withDestinationPath: Clips.path("livephoto_iphone15pro_IMG_4394.HEIC"))
        }
        // A movie without the identifier first in name order, then the one with it.
        try FileManager.default.createSymbolicLink(atPath: folder.path("A.mov"), withDestinationPath: Clips.path("mov_h264_iphone6_portrait_rot90_aac_568x320.mov"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("B.mov"), withDestinationPath: Clips.path("livephoto_iphone15pro_IMG_4394.mov"))
        let probe = ReadProbe()
        try ReadProbe.$current.withValue(probe) {
            for index in 1...3 {
                let video = try #require(MotionPhoto.locate(photo: folder.path("IMG_000\(index).HEIC")))
                #expect(video.source.path == folder.path("B.mov"))
            }
        }
        #expect(probe.movieIdentifierReads.load(ordering: .relaxed) == 2)
        // A movie added (the folder changes): scanned again.
        try FileManager.default.removeItem(atPath: folder.path("B.mov"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("C.mov"), withDestinationPath: Clips.path("livephoto_iphone15pro_IMG_4394.mov"))
        #expect(MotionPhoto.locate(photo: folder.path("IMG_0001.HEIC"))?.source.path == folder.path("C.mov"))
    }

    @Test func plainStillHasNoMotion() {
        #expect(MotionPhoto.locate(photo: TestEnvironment.sample("landscape.jpg")) == nil)
    }
}

/// Motion photos whose structure states impossible numbers (issue 31): never a trap, the still
/// with a warning. The files are built by ``HostileMotionPhoto``; no shared clip is needed.
struct HostileMotionPhotoTests {
    /// What ``MotionPhoto/embeddedVideo(size:read:)`` finds in bytes held in memory.
    private func embedded(_ bytes: [UInt8]) -> MotionPhoto.Embedded {
        MotionPhoto.embeddedVideo(size: Int64(bytes.count)) { offset, count in
            guard offset >= 0, offset < Int64(bytes.count) else { return Data() }
            return Data(bytes[Int(offset)..<min(Int(offset) + count, bytes.count)])
        }
    }

    /// The warnings `MotionPhoto.clip(for:)` gives for the bytes as a file, which must be no clip.
    private func clipWarnings(_ bytes: [UInt8], name: String) throws -> (path: String, messages: [String]) {
        let folder = try TemporaryFolder()
        let path = folder.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var warnings: [ClipWarning] = []
        #expect(MotionPhoto.clip(for: path, warnings: &warnings) == nil)
        #expect(MotionPhoto.locate(photo: path) == nil)
        #expect(warnings.allSatisfy { $0.kind == .damagedMotionVideo })
        return (path, warnings.map(\.description))
    }

    @Test("a JPEG whose XMP MicroVideoOffset is Int64.min (or past either end of the file) is damage, not a trap")
    func microVideoOffsetOverflow() throws {
        for offset in ["-9223372036854775808", "9223372036854775807", "-1", "0", "99999"] {
            let bytes = HostileMotionPhoto.jpeg(microVideoOffset: offset)
            #expect(embedded(bytes) == .damaged("its XMP says the motion photo video starts \(offset) bytes before the file's end, outside its \(bytes.count) bytes"))
            let (path, messages) = try clipWarnings(bytes, name: "offset.jpg")
            #expect(messages == ["\(path): its motion photo video cannot be played (its XMP says the motion photo video starts \(offset) bytes before the file's end, outside its \(bytes.count) bytes): showing the still"])
        }
        // The right offset still finds the video.
        let good = HostileMotionPhoto.jpeg(microVideoOffset: "\(HostileMotionPhoto.mp4Start.count)")
        #expect(embedded(good) == .video(.microVideoOffset, Int64(good.count - HostileMotionPhoto.mp4Start.count)..<Int64(good.count), timestamp: nil))
    }

    @Test("a HEIF top-level box before mpvd with a 64-bit size of 2^63-1 (or 2^64-1) is damage, not a trap")
    func boxSizeOverflow() throws {
        for size: UInt64 in [0x7FFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0x7FFF_FFFF_FFFF_FFF0] {
            let bytes = HostileMotionPhoto.heif(HostileMotionPhoto.largeBox("mdat", size: size, [1, 2, 3, 4])
                                                + HostileMotionPhoto.box("mpvd", HostileMotionPhoto.mp4Start))
            guard case .damaged(let reason) = embedded(bytes) else { Issue.record("\(embedded(bytes))"); continue }
            #expect(reason.hasPrefix("its 'mdat' box at byte 40 says "), "\(reason)")
            let (_, messages) = try clipWarnings(bytes, name: "box.heic")
            #expect(messages.count == 1 && messages[0].contains("its motion photo video cannot be played (its 'mdat' box at byte 40"), "\(messages)")
        }
    }

    @Test("an mpvd box with a 64-bit size of 2^63-1, or cut short by the file's end, warns that the video is cut short")
    func mpvdCutShort() throws {
        let huge = HostileMotionPhoto.heif(HostileMotionPhoto.largeBox("mpvd", size: 0x7FFF_FFFF_FFFF_FFFF, HostileMotionPhoto.mp4Start))
        #expect(embedded(huge) == .damaged("its motion photo video is cut short: the 'mpvd' box at byte 40 says 9223372036854775807 bytes, but the file ends \(huge.count - 40) bytes after it starts"))
        // A real-looking mpvd whose last 100 bytes are missing (issue 31, item 10).
        let whole = HostileMotionPhoto.heif(HostileMotionPhoto.box("mpvd", HostileMotionPhoto.mp4Start + [UInt8](repeating: 0, count: 200)))
        #expect(embedded(whole) == .video(.heifMotionPhotoBox, 48..<Int64(whole.count), timestamp: nil))
        let cut = Array(whole.dropLast(100))
        #expect(embedded(cut) == .damaged("its motion photo video is cut short: the 'mpvd' box at byte 40 says \(whole.count - 40) bytes, but the file ends \(cut.count - 40) bytes after it starts"))
        let (path, messages) = try clipWarnings(cut, name: "cut.heic")
        #expect(messages == ["\(path): its motion photo video cannot be played (its motion photo video is cut short: the 'mpvd' box at byte 40 says \(whole.count - 40) bytes, but the file ends \(cut.count - 40) bytes after it starts): showing the still"])
        // A box smaller than its own header, and a 64-bit size cut off by the end.
        #expect(embedded(HostileMotionPhoto.heif([0, 0, 0, 4] + Array("mpvd".utf8) + [UInt8](repeating: 0, count: 8)))
                == .damaged("its 'mpvd' box at byte 40 says 4 bytes, less than its own header"))
    }

    @Test("a FIFO named like a Live Photo's movie is never opened: locating returns at once", .timeLimit(.minutes(1)))
    func fifoMovieBeside() throws {
        let folder = try TemporaryFolder()
        let photo = folder.path("IMG_1.jpg")
        try Data(SyntheticJPEG.grey(width: 16, height: 16)).write(to: URL(fileURLWithPath: photo))
        #expect(mkfifo(folder.path("IMG_1.mov"), 0o600) == 0)
        #expect(mkfifo(folder.path("fifo.heic"), 0o600) == 0)
        #expect(MotionPhoto.locate(photo: photo) == nil)
        #expect(MotionPhoto.locate(photo: folder.path("fifo.heic")) == nil)
    }
}
