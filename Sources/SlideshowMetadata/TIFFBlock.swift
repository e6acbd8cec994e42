import SlideshowPixels

/// The EXIF tags this library reads, and where each lives.
///
package enum EXIFTag: Int {
    /// IFD0: how the stored pixels turn upright (SHORT, 1 to 8).
    case orientation = 0x0112
    /// IFD0: the text describing the picture (ASCII); a caption (``CaptionText``).
    case imageDescription = 0x010E
    /// IFD0: where the EXIF IFD starts (LONG or IFD).
    case exifPointer = 0x8769
    /// EXIF IFD: when the picture was taken, local wall-clock time (ASCII `YYYY:MM:DD HH:MM:SS`).
    case dateTimeOriginal = 0x9003
    /// EXIF IFD: the offset from UTC of ``dateTimeOriginal`` (ASCII `+HH:MM`, EXIF 2.31).
    case offsetTimeOriginal = 0x9011
}

/// A TIFF block's header and IFD entries, read with every offset checked: the EXIF block of
/// every container (``MetadataBlocks``) is one of these.
///
/// It reads untrusted bytes: every offset is checked against the block's end before it is
/// read, nothing is allocated, and any damage gives nil. It never traps.
package struct TIFFBlock {
    /// The bytes holding the block (a whole file, or an item's data).
    package let bytes: [UInt8]
    /// Where the block starts in ``bytes``; offsets inside it count from here.
    package let base: Int
    /// The block's length; nothing past it is read.
    package let length: Int
    /// `II` (little-endian) or `MM` (big-endian).
    package let littleEndian: Bool
    /// The offset of IFD0.
    package let firstIFD: Int

    /// Reads the TIFF header (`II*\0` or `MM\0*`, then IFD0's offset) of the block in `range`;
    /// nil when the range lies outside `bytes` or the header is not TIFF's.
    package init?(_ bytes: [UInt8], _ range: Range<Int>) {
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

    /// The 16-bit value at `offset` in the block, nil past its end.
    package func u16(_ offset: Int) -> Int? {
        guard offset >= 0, offset <= length - 2 else { return nil }
        let a = Int(bytes[base + offset]), b = Int(bytes[base + offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    /// The 32-bit value at `offset` in the block, nil past its end.
    package func u32(_ offset: Int) -> Int? {
        guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }

    /// An entry of the IFD at `ifd`: its type, count, and where its value lies (in the entry
    /// when it fits in 4 bytes, else at the offset the entry holds).
    package func entry(_ tag: Int, inIFDAt ifd: Int) -> (type: Int, count: Int, valueOffset: Int)? {
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
    package func ascii(_ entry: (type: Int, count: Int, valueOffset: Int)?) -> String? {
        guard let entry, entry.type == 2, entry.count > 0, entry.valueOffset + entry.count <= length else { return nil }
        let start = base + entry.valueOffset
        let slice = bytes[start..<start + entry.count]
        return String(decoding: slice.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The offset of the EXIF IFD (IFD0's pointer, tag 0x8769), nil without one.
    package var exifIFD: Int? {
        guard let pointer = entry(EXIFTag.exifPointer.rawValue, inIFDAt: firstIFD), pointer.type == 4 || pointer.type == 13 else { return nil }
        return u32(pointer.valueOffset)
    }

    /// The orientation: tag 0x0112 in IFD0, of type SHORT with at least one value, 1 to 8.
    package var orientation: Orientation? {
        guard let entry = entry(EXIFTag.orientation.rawValue, inIFDAt: firstIFD),
              entry.type == 3, entry.count >= 1, let value = u16(entry.valueOffset) else { return nil }
        return Orientation(rawValue: value)
    }

    /// The capture date: `DateTimeOriginal` in the EXIF IFD, with `OffsetTimeOriginal` when
    /// there is one; nil when either the pointer or the date is missing or unreadable.
    package var captureDate: CaptureDate? {
        guard let exif = exifIFD, let original = ascii(entry(EXIFTag.dateTimeOriginal.rawValue, inIFDAt: exif)) else { return nil }
        let offset = ascii(entry(EXIFTag.offsetTimeOriginal.rawValue, inIFDAt: exif))
        return CaptureDate(exif: original, offset: offset)
    }
}
