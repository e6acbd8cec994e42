// TIFF blocks with capture dates, and JPEGs carrying them, for the metadata tests of every target.

/// A TIFF block with an EXIF IFD holding `DateTimeOriginal` (and optionally `OffsetTimeOriginal`).
public func exifBlock(date: String, offset: String? = nil, littleEndian: Bool = true, dateType: UInt16 = 2) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
    var bytes: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
    // IFD0 at 8: one entry, the EXIF pointer to 26.
    bytes += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)
    let dateBytes = Array(date.utf8) + [0]
    let offsetBytes = offset.map { Array($0.utf8) + [0] }
    let entries = offsetBytes == nil ? 1 : 2
    let dataStart = 26 + 2 + entries * 12 + 4
    bytes += u16(entries) + u16(0x9003) + u16(Int(dateType)) + u32(dateBytes.count) + u32(dataStart)
    if let offsetBytes {
        bytes += u16(0x9011) + u16(2) + u32(offsetBytes.count) + u32(dataStart + dateBytes.count)
    }
    bytes += u32(0) + dateBytes + (offsetBytes ?? [])
    return bytes
}

/// A JPEG prefix: SOI, then an `Exif` APP1 segment holding a TIFF block.
public func jpegWithEXIF(_ tiff: [UInt8]) -> [UInt8] {
    let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
    let length = payload.count + 2
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xD9]
}
