import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowMetadata
import SlideshowPicking
import SlideshowPixels

/// Variants of one shared camera photo, made with ffmpeg at 1600 pixels wide (small enough for
/// debug builds), each given a capture date: the sets the grouping and quality tests pick from.
enum Variant: String, CaseIterable {
    /// The photo, recompressed at high quality.
    case original
    /// 6% cropped off (3% left, 2% top), at high quality.
    case cropped
    /// Recompressed hard (JPEG quality ~40).
    case recompressed
    /// Gaussian blur, sigma 5 at 1600 px.
    case blurred
    /// Gaussian blur, sigma 20 at 1600 px: blurred whatever its siblings.
    case veryBlurred
    /// Twice as bright: highlights clipped.
    case overexposed
    /// A seventh of the light.
    case dark

    var filter: String {
        switch self {
        case .original, .recompressed: "scale=1600:-2"
        case .cropped: "crop=iw*0.94:ih*0.94:iw*0.03:ih*0.02,scale=1600:-2"
        case .blurred: "scale=1600:-2,gblur=sigma=5"
        case .veryBlurred: "scale=1600:-2,gblur=sigma=20"
        case .overexposed: "scale=1600:-2,lutrgb=r=val*2.2:g=val*2.2:b=val*2.2"
        case .dark: "scale=1600:-2,lutrgb=r=val/7:g=val/7:b=val/7"
        }
    }

    var quality: String { self == .recompressed ? "14" : "3" }
}

enum PickFixtures {
    /// ffmpeg, needed to make the variants.
    static let ffmpeg = which("ffmpeg")

    /// Whether the variant tests can run: the shared photos and ffmpeg.
    static let available = TestEnvironment.sharedPhotos != nil && ffmpeg != nil

    static let unavailable: Comment = "skipped: ../shared/photos is absent (a fresh clone) or ffmpeg is not installed; the test makes its variants from the shared camera photos with ffmpeg"

    /// Writes `variant` of shared photo `name` to `path`, with EXIF DateTimeOriginal `date`
    /// (`2024:05:12 10:00:00`); nil date: none.
    static func make(_ variant: Variant, of name: String, at path: String, date: String?) throws {
        let source = try #require(TestEnvironment.sharedPhoto(name))
        let result = try run(ffmpeg!, ["-v", "error", "-y", "-i", source, "-vf", variant.filter, "-q:v", variant.quality, "-f", "mjpeg", "-"])
        #expect(result.status == 0, "ffmpeg: \(result.stderr)")
        var bytes = [UInt8](result.stdout)
        if let date {
            // After SOI: an Exif APP1 holding the date.
            bytes = Array(bytes[0..<2]) + SyntheticJPEG.exifSegment(exifBlock(date: date)) + Array(bytes[2...])
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A screenshot: a PNG at an iPhone's screen size (ffmpeg's test pattern), without a date.
    static func screenshot(at path: String) throws {
        let result = try run(ffmpeg!, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1170x2532", "-frames:v", "1", path])
        #expect(result.status == 0, "ffmpeg: \(result.stderr)")
    }

    /// The camera photos of distinct scenes.
    static let scenes = ["camera_nikon_d90_12mp.jpg", "camera_canon_eos5d_13mp_portrait.jpg", "camera_nokia_8.3_9mp_wide.jpg",
                         "progressive_panasonic_lc70_1280x960.jpg"]
}

/// A summary made up for the picker's pure tests: a hash, a time, good quality.
func summary(_ path: String, hash: UInt64, seconds: Int64?, detail: Double = 0.3, mean: Double = 120,
             highlights: Double = 0.01, content: PhotoSummary.Content = .photo) -> PhotoSummary {
    let date = seconds.flatMap { s -> CaptureDate? in
        let day = s / 86400, rest = s % 86400
        // 2024-05-12 plus whole days kept small: the tests stay within a day or two.
        return CaptureDate(year: 2024, month: 5, day: 12 + Int(day), hour: Int(rest / 3600), minute: Int(rest % 3600 / 60), second: Int(rest % 60))
    }
    return PhotoSummary(path: path, content: content, captureDate: date, size: Size(width: 4000, height: 3000), hash: hash,
                        sharpness: detail * detail * 2500, detail: detail, meanLuma: mean, highlights: highlights, shadows: 0.01)
}

/// Distinct 64-bit hashes, each at least 24 bits from every other (a fixed generator: repeatable).
func distinctHashes(_ count: Int) -> [UInt64] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hashes: [UInt64] = []
    while hashes.count < count {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let candidate = state ^ (state >> 29)
        if hashes.allSatisfy({ ($0 ^ candidate).nonzeroBitCount >= 24 }) { hashes.append(candidate) }
    }
    return hashes
}
