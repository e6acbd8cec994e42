/// The IPTC `Caption-Abstract` (record 2, dataset 120) of a JPEG's Photoshop APP13 segment,
/// or of a PNG's raw IPTC profile (``PNGTextChunks``: the same resources, or the bare records).
///
/// The segment is `Photoshop 3.0\0`, then image resources: `8BIM`, a 2-byte id, a Pascal
/// name padded to an even length, a 4-byte size and the data padded to even. Resource 0x0404
/// holds the IPTC-NAA records: `0x1C`, record, dataset, a 2-byte length, the data. Every
/// length is checked against the bytes; damage gives nil. The text is UTF-8 when it is valid
/// UTF-8 (or the record 1:90 says so); otherwise ISO 8859-1, IPTC's default, turned into UTF-8.
package enum IPTCCaption {
    package static let photoshopHeader: [UInt8] = Array("Photoshop 3.0".utf8) + [0]

    /// The caption's bytes as UTF-8, nil when there is none.
    /// - Parameter segment: `Photoshop 3.0\0` and the image resources.
    package static func read(_ segment: [UInt8]) -> [UInt8]? {
        guard let iptc = resource(0x0404, in: segment) else { return nil }
        return caption(inRecords: iptc)
    }

    /// The caption's bytes as UTF-8 from IPTC-IIM records, nil when there is none.
    package static func caption(inRecords iptc: [UInt8]) -> [UInt8]? {
        var offset = 0
        var caption: [UInt8]?
        var utf8Declared = false
        while offset + 5 <= iptc.count, iptc[offset] == 0x1C {
            let record = iptc[offset + 1], dataset = iptc[offset + 2]
            let length = Int(iptc[offset + 3]) << 8 | Int(iptc[offset + 4])
            guard length & 0x8000 == 0, offset + 5 + length <= iptc.count else { break }
            let data = Array(iptc[offset + 5..<offset + 5 + length])
            if record == 1 && dataset == 90 && data == [0x1B, 0x25, 0x47] { utf8Declared = true }
            if record == 2 && dataset == 120 && caption == nil { caption = data }
            offset += 5 + length
        }
        guard let caption else { return nil }
        if utf8Declared || String(validating: caption, as: UTF8.self) != nil { return caption }
        // ISO 8859-1: each byte is the code point of the same value.
        return Array(String(String.UnicodeScalarView(caption.map { Unicode.Scalar($0) })).utf8)
    }

    /// The data of image resource `id`, nil when it is missing or the resources are damaged.
    package static func resource(_ id: Int, in segment: [UInt8]) -> [UInt8]? {
        var offset = photoshopHeader.count
        while offset + 12 <= segment.count, segment[offset..<offset + 4].elementsEqual("8BIM".utf8) {
            let resourceID = Int(segment[offset + 4]) << 8 | Int(segment[offset + 5])
            let nameLength = Int(segment[offset + 6])
            var cursor = offset + 6 + 1 + nameLength
            if (1 + nameLength) % 2 == 1 { cursor += 1 }
            guard cursor + 4 <= segment.count else { return nil }
            let size = Int(segment[cursor]) << 24 | Int(segment[cursor + 1]) << 16 | Int(segment[cursor + 2]) << 8 | Int(segment[cursor + 3])
            cursor += 4
            guard size >= 0, size <= segment.count - cursor else { return nil }
            if resourceID == id { return Array(segment[cursor..<cursor + size]) }
            offset = cursor + size + (size & 1)
        }
        return nil
    }
}
