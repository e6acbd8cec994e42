import Foundation
import SlideshowMetadata
import SlideshowPixels

/// What picking keeps of one photo or clip: a few numbers (some 100 bytes), so that memory
/// stays flat however many are analysed. Made by ``PhotoAnalysis/summarize(_:isClip:)``.
public struct PhotoSummary: Sendable, Hashable {
    /// What kind of picture it is, for leaving screenshots and documents out.
    public enum Content: String, Sendable, Hashable {
        /// A camera's photo (or anything not below).
        case photo
        /// A clip (its first picture was analysed).
        case clip
        /// A screen's picture: a PNG, or a screen's exact size, without a capture date.
        case screenshot
        /// Mostly white paper with little colour, without a capture date: a scanned page, a receipt.
        case document
    }

    /// The file.
    public var path: String
    public var content: Content
    /// When it was taken (EXIF, XMP, a clip's `creation_time`); nil when it does not say.
    public var captureDate: CaptureDate?
    /// The size it is shown at, upright.
    public var size: Size
    /// A 64-bit difference hash of the picture (``PhotoAnalysis/differenceHash(_:width:height:)``):
    /// near-duplicates differ in a few bits.
    public var hash: UInt64
    /// The variance of the Laplacian of its luma at the analysis size (~500 px): high when sharp.
    public var sharpness: Double
    /// The Laplacian's standard deviation over the luma's: sharpness independent of contrast,
    /// for a blur check that needs no sibling (below ``PickRules/blurredDetail``: blurred).
    public var detail: Double
    /// The mean luma, 0 to 255.
    public var meanLuma: Double
    /// The share of pixels at 250 or more: clipped highlights.
    public var highlights: Double
    /// The share of pixels at 8 or less: crushed shadows.
    public var shadows: Double
    /// The file's size in bytes (a clip's 0): between equal siblings, the less compressed wins.
    public var fileBytes: Int = 0
    /// The share of pixels from 215 to 249: paper white, for telling documents.
    public var paperWhite: Double = 0
    /// Faces large enough at the analysis size to tell their eyes (``PhotoAnalysis/eyes(in:width:height:)``).
    public var faces: Int = 0
    /// Of those, the faces where an open eye was found.
    public var facesWithOpenEyes: Int = 0

    package init(path: String, content: Content, captureDate: CaptureDate? = nil, size: Size, hash: UInt64, sharpness: Double, detail: Double, meanLuma: Double, highlights: Double, shadows: Double, fileBytes: Int = 0, paperWhite: Double = 0, faces: Int = 0, facesWithOpenEyes: Int = 0) {
        self.path = path
        self.content = content
        self.captureDate = captureDate
        self.size = size
        self.hash = hash
        self.sharpness = sharpness
        self.detail = detail
        self.meanLuma = meanLuma
        self.highlights = highlights
        self.shadows = shadows
        self.fileBytes = fileBytes
        self.paperWhite = paperWhite
        self.faces = faces
        self.facesWithOpenEyes = facesWithOpenEyes
    }

    /// 1 without faces to judge, else from 0.5 (every face's eyes shut or hidden) to 1 (every
    /// face's eyes open): a blink loses to its sibling, whatever else is equal.
    public var eyes: Double { faces == 0 ? 1 : 0.5 + 0.5 * Double(facesWithOpenEyes) / Double(faces) }

    /// The capture time in seconds since 1970 (``CaptureDate/secondsSince1970``).
    public var seconds: Int64? { captureDate?.secondsSince1970 }

    /// How well exposed, 0.05 to 1: 1 without clipped highlights or crushed shadows and not dark.
    public var exposure: Double {
        var value = 1.0
        value -= 2.5 * max(0, highlights - 0.03)
        value -= 1.5 * max(0, shadows - 0.15)
        if meanLuma < 60 { value -= (60 - meanLuma) / 60 }
        if meanLuma > 200 { value -= (meanLuma - 200) / 55 }
        return min(1, max(0.05, value))
    }
}

/// The numbers picking goes by, in one place.
public enum PickRules {
    /// Two pictures whose hashes differ in at most this many of 64 bits show the same moment.
    public static let duplicateBits = 10
    /// Pictures taken within ``burstSeconds`` of each other are the same moment at up to this many bits.
    public static let burstBits = 22
    /// The time within which a looser hash match still counts (a burst, a still and its clip).
    public static let burstSeconds: Int64 = 3
    /// Pictures taken within ``rapidSeconds`` of each other (a burst's own second, or the next)
    /// are the same moment at up to this many bits: a handheld burst of a moving subject, or a
    /// camera swung while it fires, changes the picture more than a retake does (four frames
    /// 0.2 s apart from a shared phone clip differ in 11 to 28 bits), while pictures of
    /// different scenes differ in 32 on average.
    public static let rapidBits = 28
    /// See ``rapidBits``.
    public static let rapidSeconds: Int64 = 1
    /// Below this ``PhotoSummary/detail``, a picture is blurred whatever its siblings.
    /// Detail falls slowly with blur and varies with the subject (sharp camera photos measure
    /// 0.2 to 1, a Gaussian blur of σ 5 px at 1600 px wide 0.08 to 0.28, of σ 20 px 0.035 to 0.06),
    /// so this catches heavy blur only; a moment's blurred copies are caught by ``relativeBlur``.
    public static let blurredDetail = 0.07
    /// In a moment, a picture under this share of the sharpest one's ``PhotoSummary/sharpness`` is its blurred copy.
    public static let relativeBlur = 0.5
    /// Clipped highlights over this share: over-exposed.
    public static let overexposedHighlights = 0.25
    /// A mean luma under this, or crushed shadows over ``darkShadows``: too dark.
    public static let darkMean = 35.0
    public static let darkShadows = 0.6
    /// `--pick auto`: a photo's comfortable share of the show, in seconds.
    public static let secondsPerPick = 3.0
    /// Gaps of at least this many seconds, and ``gapOverMedian`` times the median gap, split the day.
    public static let minimumClusterGap: Int64 = 60
    public static let gapOverMedian = 4.0
    /// A gap this long (an hour) splits the day whatever the median.
    public static let alwaysClusterGap: Int64 = 3600

    /// Seconds in reports: `6`, `2.5`.
    package static func seconds(_ value: Double) -> String { String(format: "%g", value) }
}
