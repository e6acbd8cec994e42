import Foundation
import SlideshowFormats

/// When a photo was taken: its EXIF `DateTimeOriginal`, with the offset from UTC when the
/// camera recorded one (`OffsetTimeOriginal`, EXIF 2.31).
///
/// EXIF stores local wall-clock time, `YYYY:MM:DD HH:MM:SS`, without a time zone. The date
/// imprint prints it as it is (what the camera's clock said); the MP4's `creation_time` needs
/// an instant, so it uses the offset when there is one and otherwise reads the time as UTC.
public struct CaptureDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, e.g. 2008.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month, 1 to 31.
    public var day: Int
    /// The hour, 0 to 23.
    public var hour: Int
    /// The minute, 0 to 59.
    public var minute: Int
    /// The second, 0 to 60.
    public var second: Int
    /// The local time's offset east of UTC in minutes, nil when the photo does not say.
    public var utcOffsetMinutes: Int?

    /// Creates a date; nil when a field is out of its range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, utcOffsetMinutes: Int? = nil) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (utcOffsetMinutes.map { abs($0) <= 14 * 60 } ?? true) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Parses EXIF's `YYYY:MM:DD HH:MM:SS` (dashes are accepted between the date's fields, as
    /// some writers use them); nil for anything else, including the all-blank and all-zero
    /// values cameras write when their clock is unset.
    public init?(exif text: String, offset: String? = nil) {
        let characters = Array(text.utf8)
        guard characters.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let c = characters[index]
                guard c >= 0x30, c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            return value
        }
        let separators = [(4, [0x3A, 0x2D]), (7, [0x3A, 0x2D]), (10, [0x20, 0x54]), (13, [0x3A]), (16, [0x3A])] as [(Int, [UInt8])]
        guard separators.allSatisfy({ $0.1.contains(characters[$0.0]) }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                  utcOffsetMinutes: offset.flatMap { Self.offsetMinutes($0) })
    }

    /// `+HH:MM` or `-HH:MM` in minutes; nil otherwise.
    package static func offsetMinutes(_ text: String) -> Int? {
        let c = Array(text.utf8)
        guard c.count >= 6, c[0] == 0x2B || c[0] == 0x2D, c[3] == 0x3A,
              let h = Int(String(decoding: c[1..<3], as: UTF8.self)), let m = Int(String(decoding: c[4..<6], as: UTF8.self)),
              h <= 14, m < 60 else { return nil }
        return (c[0] == 0x2D ? -1 : 1) * (h * 60 + m)
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Seconds since 1970-01-01 00:00 UTC: the offset applied when known, else the time read as UTC.
    public var secondsSince1970: Int64 {
        // Days from the civil date (Howard Hinnant's algorithm), then the time of day.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64((utcOffsetMinutes ?? 0) * 60)
    }

    /// The instant in UTC as ISO 8601 with microseconds, the form FFmpeg's `creation_time` takes:
    /// `2008-10-22T16:28:39.000000Z`.
    public var iso8601UTC: String {
        let seconds = secondsSince1970
        var days = seconds / 86_400, rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        // The civil date of a day count (Hinnant's inverse).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yearOfEra + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60)).000000Z"
    }

    /// `2008:10:22 16:28:39`, with the offset after it when known.
    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let base = "\(year):\(two(month)):\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
        guard let offset = utcOffsetMinutes else { return base }
        return base + " \(offset < 0 ? "-" : "+")\(two(abs(offset) / 60)):\(two(abs(offset) % 60))"
    }

    /// Earlier instants first (by ``secondsSince1970``).
    public static func < (a: CaptureDate, b: CaptureDate) -> Bool {
        a.secondsSince1970 < b.secondsSince1970
    }
}

extension CaptureDate {
    /// The capture date in a TIFF block: an EXIF APP1 payload after `Exif\0\0`, a PNG `eXIf`
    /// chunk, or the EXIF item of a HEIF or WebP file (after any header offset).
    ///
    /// Follows IFD0's EXIF pointer (tag 0x8769) to the EXIF IFD and reads `DateTimeOriginal`
    /// (0x9003, ASCII) and `OffsetTimeOriginal` (0x9011, ASCII) with ``TIFFBlock``, which checks
    /// every offset against the block's end: any damage gives nil. Nothing else of the block
    /// (GPS, serial numbers, maker notes) is read.
    /// - Parameters:
    ///   - bytes: the bytes holding the block.
    ///   - range: where the block lies in `bytes`; offsets inside count from its start.
    /// - Returns: the date, or nil when there is none or it cannot be read.
    public static func parse(tiff bytes: [UInt8], in range: Range<Int>) -> CaptureDate? {
        TIFFBlock(bytes, range)?.captureDate
    }

    /// The capture date a photo file states, whatever its format (``PhotoMetadata``); nil for
    /// a file that is not a photo this library reads.
    /// - Parameters:
    ///   - bytes: the file's bytes: a prefix holding the header is enough for JPEG and PNG,
    ///     HEIF, AVIF and WebP need the whole file.
    package static func parse(photo bytes: [UInt8]) -> CaptureDate? {
        guard case .supported(let format) = FormatSniffer.sniff(bytes) else { return nil }
        return PhotoMetadata(reading: bytes, format: format).captureDate
    }

    /// The capture date of a photo file, in any format this library reads: a JPEG's or PNG's
    /// first 256 KiB are read (all of the header in every camera file seen so far), a HEIF's,
    /// AVIF's or WebP's whole file (their EXIF may follow the image data). nil when the file
    /// has no date, cannot be read, or states an implausible one (reported as a
    /// ``PhotoWarning``; see ``plausible(_:photo:now:)``).
    /// - Parameters:
    ///   - photo: the photo.
    public static func read(_ photo: Photo) -> CaptureDate? {
        guard let prefix = try? PhotoFile.read(photo.path, limit: 256 << 10),
              case .supported(let format) = FormatSniffer.sniff(prefix.bytes) else { return nil }
        var bytes = prefix.bytes
        if format != .jpeg && format != .png && bytes.count < prefix.fileSize {
            guard let whole = try? PhotoFile.read(photo.path) else { return nil }
            bytes = whole.bytes
        }
        return plausible(PhotoMetadata(reading: bytes, format: format).captureDate, photo: photo.path)
    }

    /// The first year a photograph can come from: 1826, Niépce's view from the window at Le Gras.
    public static let earliestPlausibleYear = 1826

    /// The date when it is plausible, else nil with a ``PhotoWarning`` naming the photo.
    ///
    /// A date before ``earliestPlausibleYear`` or in the future is a camera's unset or broken
    /// clock (or a damaged tag), not when the picture was taken: it would print a wrong imprint
    /// and give the whole video a wrong creation time. "Future" allows one day of slack, as a
    /// date without an offset is read as UTC and local time runs up to 14 hours ahead.
    /// - Parameters:
    ///   - date: the date the photo states, or nil.
    ///   - path: the photo's path, for the warning.
    ///   - now: seconds since 1970 to compare with; the clock's by default.
    package static func plausible(_ date: CaptureDate?, photo path: String,
                          now: Int64 = Int64(Date().timeIntervalSince1970)) -> CaptureDate? {
        guard let date else { return nil }
        let problem: String
        if date.year < earliestPlausibleYear {
            problem = "is before \(earliestPlausibleYear), the year of the first photograph"
        } else if date.secondsSince1970 > now + 86_400 {
            problem = "is in the future"
        } else {
            return date
        }
        PhotoWarnings.report(PhotoWarning(path: path, reason: "its capture date \(date) \(problem); it is ignored"))
        return nil
    }
}
