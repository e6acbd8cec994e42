import Foundation

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
    static func offsetMinutes(_ text: String) -> Int? {
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
    /// (0x9003, ASCII) and `OffsetTimeOriginal` (0x9011, ASCII). Like ``EXIFOrientation``, it
    /// reads untrusted bytes: every offset is checked against the block's end, and any damage
    /// gives nil. Nothing else of the block (GPS, serial numbers, maker notes) is read.
    /// - Parameters:
    ///   - bytes: the bytes holding the block.
    ///   - range: where the block lies in `bytes`; offsets inside count from its start.
    /// - Returns: the date, or nil when there is none or it cannot be read.
    public static func parse(tiff bytes: [UInt8], in range: Range<Int>) -> CaptureDate? {
        guard let tiff = TIFFBlock(bytes, range),
              let exifPointer = tiff.entry(0x8769, inIFDAt: tiff.firstIFD), exifPointer.type == 4 || exifPointer.type == 13,
              let exifIFD = tiff.u32(exifPointer.valueOffset),
              let original = tiff.ascii(tiff.entry(0x9003, inIFDAt: exifIFD)) else { return nil }
        let offset = tiff.ascii(tiff.entry(0x9011, inIFDAt: exifIFD))
        return CaptureDate(exif: original, offset: offset)
    }

    /// The capture date of a JPEG (its first `Exif` APP1 segment) or a PNG (its `eXIf` chunk),
    /// from the file's bytes or a prefix holding the header.
    static func parse(photo bytes: [UInt8]) -> CaptureDate? {
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            var found: CaptureDate?
            _ = JPEGMarkers.scan(bytes) { marker, payload in
                guard marker == 0xE1 else { return true }
                let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
                guard payload.count >= 6, bytes[payload.lowerBound..<payload.lowerBound + 6].elementsEqual(exifHeader) else { return true }
                found = parse(tiff: bytes, in: payload.lowerBound + 6..<payload.upperBound)
                return false
            }
            return found
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, bytes[0..<8].elementsEqual(signature) else { return nil }
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = bytes[offset + 4..<offset + 8]
            let start = offset + 8
            guard length >= 0, start + length <= bytes.count else { return nil }
            if type.elementsEqual("eXIf".utf8) { return parse(tiff: bytes, in: start..<start + length) }
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
            offset = start + length + 4
        }
        return nil
    }

    /// The capture date of a photo file: its first 256 KiB are read (all of the file's header
    /// in every camera file seen so far); nil when the file has no date, cannot be read, or
    /// is in a format without EXIF here.
    /// - Parameters:
    ///   - photo: the photo.
    public static func read(_ photo: Photo) -> CaptureDate? {
        guard let prefix = try? PhotoFile.read(photo.path, limit: 256 << 10) else { return nil }
        return parse(photo: prefix.bytes)
    }
}

/// A TIFF block's header and IFD entries, read with every offset checked.
struct TIFFBlock {
    let bytes: [UInt8]
    let base: Int
    let length: Int
    let littleEndian: Bool
    let firstIFD: Int

    init?(_ bytes: [UInt8], _ range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= 8 else { return nil }
        self.bytes = bytes
        base = range.lowerBound
        length = range.count
        switch (bytes[base], bytes[base + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        let little = littleEndian, start = range.lowerBound
        let b = bytes[start + 2..<start + 8].map(Int.init)
        let magic = little ? b[0] | b[1] << 8 : b[0] << 8 | b[1]
        let ifd = little ? b[2] | b[3] << 8 | b[4] << 16 | b[5] << 24 : b[2] << 24 | b[3] << 16 | b[4] << 8 | b[5]
        guard magic == 42 else { return nil }
        firstIFD = ifd
    }

    func u16(_ offset: Int) -> Int? {
        guard offset >= 0, offset <= length - 2 else { return nil }
        let a = Int(bytes[base + offset]), b = Int(bytes[base + offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ offset: Int) -> Int? {
        guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }

    /// An entry of the IFD at `ifd`: its type, count, and where its value lies (in the entry
    /// when it fits in 4 bytes, else at the offset the entry holds).
    func entry(_ tag: Int, inIFDAt ifd: Int) -> (type: Int, count: Int, valueOffset: Int)? {
        guard let count = u16(ifd) else { return nil }
        let start = ifd + 2
        let available = max(0, (length - start) / 12)
        for index in 0..<min(count, available) {
            let entry = start + index * 12
            guard u16(entry) == tag else { continue }
            guard let type = u16(entry + 2), let values = u32(entry + 4) else { return nil }
            let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8, 13: 4]
            guard let size = sizes[type] else { return nil }
            let total = values * size
            if total <= 4 { return (type, values, entry + 8) }
            guard let offset = u32(entry + 8), offset >= 0, offset <= length - total else { return nil }
            return (type, values, offset)
        }
        return nil
    }

    /// The text of an ASCII entry, up to its first NUL.
    func ascii(_ entry: (type: Int, count: Int, valueOffset: Int)?) -> String? {
        guard let entry, entry.type == 2, entry.count > 0, entry.valueOffset + entry.count <= length else { return nil }
        let start = base + entry.valueOffset
        let slice = bytes[start..<start + entry.count]
        return String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
    }
}
