/// Reads the EXIF orientation tag (0x0112) from JPEG bytes or a bare TIFF block.
///
/// libjpeg-turbo does not read EXIF, so this does, over untrusted bytes: every offset is
/// checked against the end of its segment before it is read, nothing is allocated, and any
/// damage (offsets past the end, zero-length segments, a wrong tag type, a value outside
/// 1...8) gives `nil`, which callers treat as ``Orientation/up``. It never traps.
enum EXIFOrientation {
    /// The orientation of a JPEG file.
    ///
    /// Scans the markers after SOI (FF D8) until SOS (FF DA); in the first APP1 segment that
    /// starts with `Exif\0\0`, reads the TIFF header (`II*\0` little-endian or `MM\0*`
    /// big-endian), the offset of IFD0, its entry count and 12-byte entries, and returns
    /// the SHORT value of tag 0x0112 when it is 1 to 8.
    /// - Parameters:
    ///   - jpeg: the file's bytes (a prefix holding the header is enough).
    /// - Returns: the orientation, or nil when absent or garbled.
    static func parse(jpeg: [UInt8]) -> Orientation? {
        var found: Orientation?
        var sawExif = false
        _ = JPEGMarkers.scan(jpeg) { marker, payload in
            guard marker == 0xE1, !sawExif else { return true }
            let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"
            guard payload.count >= exifHeader.count,
                  jpeg[payload.lowerBound..<payload.lowerBound + exifHeader.count].elementsEqual(exifHeader)
            else { return true }
            sawExif = true
            found = parse(tiff: jpeg, in: payload.lowerBound + exifHeader.count..<payload.upperBound)
            return false
        }
        return found
    }

    /// The orientation in a TIFF block: an EXIF APP1 payload after `Exif\0\0`, or a PNG `eXIf` chunk.
    /// - Parameters:
    ///   - bytes: the bytes holding the block.
    ///   - range: where the block lies in `bytes`; nothing outside it is read. Offsets in the
    ///     block count from its start.
    /// - Returns: the orientation, or nil when absent or garbled.
    static func parse(tiff bytes: [UInt8], in range: Range<Int>) -> Orientation? {
        // Tag 0x0112 in IFD0, of type 3 (SHORT) with at least one value, left-justified in the
        // entry's value field; every offset checked by the TIFF reader the capture date shares.
        guard let tiff = TIFFBlock(bytes, range), let entry = tiff.entry(0x0112, inIFDAt: tiff.firstIFD),
              entry.type == 3, entry.count >= 1, let value = tiff.u16(entry.valueOffset) else { return nil }
        return Orientation(rawValue: value)
    }
}

/// Walks the marker segments at the start of a JPEG file.
enum JPEGMarkers {
    /// How a walk ended.
    enum End: Equatable {
        /// It reached the SOS segment (the start of the entropy-coded data).
        case startOfScan
        /// The visitor asked to stop.
        case stopped
        /// The bytes ran out before SOS (a truncated file, or a prefix too short).
        case endOfData
        /// The marker structure is broken; the text says how.
        case malformed(String)
    }

    /// Visits each marker segment from after SOI up to and including SOS.
    ///
    /// Every segment visited lies wholly inside `bytes`. Fill bytes (FF FF …) before a
    /// marker are skipped; standalone markers (TEM, RSTn) carry no length and are not visited.
    /// Stray bytes between segments are skipped up to the next FF, as libjpeg does (it warns
    /// "Corrupt JPEG data: N extraneous bytes before marker", and decodes the picture whole);
    /// `extraneous` counts them.
    /// - Parameters:
    ///   - bytes: the file's bytes, starting with SOI.
    ///   - extraneous: set to the number of stray bytes skipped.
    ///   - visit: called with the marker's second byte and the range of its payload (after the
    ///     two length bytes); return false to stop.
    static func scan(_ bytes: [UInt8], extraneous: UnsafeMutablePointer<Int>? = nil,
                     _ visit: (UInt8, Range<Int>) -> Bool) -> End {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .malformed("no JPEG start-of-image marker") }
        var index = 2
        while true {
            guard index < bytes.count else { return .endOfData }
            if bytes[index] != 0xFF {
                let start = index
                while index < bytes.count && bytes[index] != 0xFF { index += 1 }
                extraneous?.pointee += index - start
                continue
            }
            while index < bytes.count && bytes[index] == 0xFF { index += 1 }
            guard index < bytes.count else { return .endOfData }
            let marker = bytes[index]
            index += 1
            switch marker {
            case 0x00:
                return .malformed("a stuffed FF 00 where a marker belongs")
            case 0x01, 0xD0...0xD7:
                continue  // standalone: no length
            case 0xD8:
                return .malformed("a second start-of-image marker")
            case 0xD9:
                return .malformed("the image ends before any image data")
            default:
                break
            }
            guard index + 2 <= bytes.count else { return .endOfData }
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            guard length >= 2 else { return .malformed("a marker segment of length \(length)") }
            let end = index + length
            guard end <= bytes.count else { return .endOfData }
            if !visit(marker, index + 2..<end) { return .stopped }
            if marker == 0xDA { return .startOfScan }
            index = end
        }
    }

    /// The file with the stray bytes between its header segments removed, or nil when it has none.
    ///
    /// libjpeg warns about such bytes and TurboJPEG's stop-on-warning mode would then refuse
    /// the photo, although they hide nothing: the segments are copied from SOI through SOS,
    /// then the image data as it is, so that a warning during the decode still means damage
    /// in the image data.
    static func withoutExtraneousBytes(_ bytes: [UInt8]) -> [UInt8]? {
        var extraneous = 0
        var segments: [(marker: UInt8, range: Range<Int>)] = []
        let end = scan(bytes, extraneous: &extraneous) { marker, payload in
            segments.append((marker, payload))
            return true
        }
        guard extraneous > 0, end == .startOfScan, let last = segments.last else { return nil }
        var cleaned: [UInt8] = [0xFF, 0xD8]
        cleaned.reserveCapacity(bytes.count)
        for segment in segments {
            // The marker, then the two length bytes before the payload.
            cleaned += [0xFF, segment.marker]
            cleaned += bytes[segment.range.lowerBound - 2..<segment.range.upperBound]
        }
        cleaned += bytes[last.range.upperBound...]
        return cleaned
    }
}
