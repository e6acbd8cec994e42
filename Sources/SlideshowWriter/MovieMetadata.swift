import SlideshowFormats
import SlideshowMetadata

/// What the MP4 says about itself besides its pictures: a creation time and a title.
///
/// Nothing else is written: no encoder name, no random identifiers, and nothing from the
/// photos' EXIF beyond the capture time (no GPS position, no camera serial numbers, no maker
/// notes), so a video can be shared without what its photos would give away.
public struct MovieMetadata: Sendable, Hashable {
    /// The `creation_time` of the movie and its track (`mvhd`, `tkhd`, `mdhd`), nil for none
    /// (the boxes then hold 0, which readers show as no date); one outside
    /// ``representableCreationTimes`` is not written.
    public var creationTime: CaptureDate?
    /// The title (`©nam` in the `udta` box), nil for none.
    public var title: String?
    /// A timed-text track (`mov_text`) to write beside the video; nil (the default) writes none.
    public var subtitles: SubtitleTrack? = nil

    /// Creates metadata; empty by default.
    public init(creationTime: CaptureDate? = nil, title: String? = nil) {
        self.creationTime = creationTime
        self.title = title
    }

    /// The instants an MP4's `creation_time` can hold as FFmpeg writes it, in seconds since 1970:
    /// after 1904-01-01 00:00:00 UTC through 2040-02-06 06:28:15 UTC.
    ///
    /// libavformat 5.1's movenc writes `mvhd`, `tkhd` and `mdhd` in version 0 (32-bit times,
    /// seconds since 1904) unless the *duration* needs 64 bits, and truncates the time to 32
    /// bits there: a 1903 date would become 2039, a 9999 one 1969. Version 1 cannot be asked for,
    /// so a date outside this range is left out rather than written wrong. (1904 itself is 0,
    /// which readers show as no date.) FFmpeg's own reader takes a stored value below 1970's
    /// for seconds since 1970, so ffprobe shows dates from 1904 to 1969 wrongly; other readers
    /// do not, and the value written is the standard's.
    public static let representableCreationTimes: ClosedRange<Int64> = (-2_082_844_800 + 1)...(Int64(UInt32.max) - 2_082_844_800)

    /// The creation time of a video of these photos: the earliest capture date an MP4 can hold
    /// (``representableCreationTimes``); each photo whose date it cannot hold is named in a
    /// ``PhotoWarning``.
    /// - Parameters:
    ///   - photos: the photos, for the warnings.
    ///   - dates: each photo's capture date (nil for none), in the same order.
    /// - Returns: the earliest date the MP4 can hold, nil when there is none.
    public static func creationTime(of photos: [Photo], dates: [CaptureDate?]) -> CaptureDate? {
        var earliest: CaptureDate?
        for (photo, date) in zip(photos, dates) {
            guard let date else { continue }
            guard representableCreationTimes.contains(date.secondsSince1970) else {
                PhotoWarnings.report(PhotoWarning(path: photo.path, reason:
                    "its capture date \(date) is outside what an MP4's creation time can hold (1904 to 2040); the video's creation time leaves it out"))
                continue
            }
            if earliest.map({ date < $0 }) ?? true { earliest = date }
        }
        return earliest
    }

    /// The libavformat metadata keys and values; a creation time outside
    /// ``representableCreationTimes`` is left out.
    package var entries: [(key: String, value: String)] {
        var entries: [(String, String)] = []
        if let creationTime, Self.representableCreationTimes.contains(creationTime.secondsSince1970) {
            entries.append(("creation_time", creationTime.iso8601UTC))
        }
        if let title, !title.isEmpty { entries.append(("title", title)) }
        return entries
    }
}
