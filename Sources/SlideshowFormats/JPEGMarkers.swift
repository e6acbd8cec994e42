/// Walks the marker segments at the start of a JPEG file.
package enum JPEGMarkers {
    /// How a walk ended.
    package enum End: Equatable {
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
    package static func scan(_ bytes: [UInt8], extraneous: UnsafeMutablePointer<Int>? = nil,
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
    package static func withoutExtraneousBytes(_ bytes: [UInt8]) -> [UInt8]? {
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
