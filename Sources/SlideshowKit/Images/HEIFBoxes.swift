/// Reads the rotation (`irot`) and the other transformations of a HEIF file's primary item from its boxes.
///
/// libheif 1.15 applies `irot` when decoding but has no call that says what it is, and its
/// handle's size is the transformed one for grid images but the coded one for single-coded
/// images (an AVIF with irot 270 reports 1024x722 and decodes to 722x1024). ``ImageManager/inspect(_:)``
/// needs the displayed size without decoding, so the boxes are walked here: `meta` → `pitm`
/// (the primary item), `iprp` → `ipco` (the properties, numbered from 1) and `ipma` (which
/// properties belong to which item). Every read is bounds-checked; anything unexpected gives nil.
enum HEIFBoxes {
    /// The primary item's `irot` angle in quarter turns anticlockwise (0 to 3), nil when the
    /// boxes cannot be read, 0 when there is no `irot`.
    static func primaryRotation(_ bytes: [UInt8]) -> Int? {
        guard let properties = primaryProperties(bytes) else { return nil }
        guard let irot = properties.first(where: { $0.type == "irot" && $0.payload.count >= 1 }) else { return 0 }
        return Int(bytes[irot.payload.lowerBound] & 0x03)
    }

    /// The types of the primary item's transformative properties (`clap`, `irot`, `imir`), in
    /// the order its `ipma` entry lists them (the order libheif applies them in); nil when the
    /// boxes cannot be read.
    static func primaryTransformations(_ bytes: [UInt8]) -> [String]? {
        primaryProperties(bytes)?.map(\.type).filter { ["clap", "irot", "imir"].contains($0) }
    }

    /// The primary item's properties (type and payload), in its `ipma` entry's order; empty
    /// when there are none, nil when the boxes cannot be read.
    private static func primaryProperties(_ bytes: [UInt8]) -> [(type: String, payload: Range<Int>)]? {
        guard let meta = child("meta", in: 0..<bytes.count, of: bytes),
              meta.count >= 4 else { return nil }
        let metaChildren = meta.lowerBound + 4..<meta.upperBound  // meta is a full box
        guard let pitm = child("pitm", in: metaChildren, of: bytes), pitm.count >= 6 else { return nil }
        let primary = bytes[pitm.lowerBound] == 0 ? Int(u16(bytes, pitm.lowerBound + 4)) : Int(u32(bytes, pitm.lowerBound + 4))
        guard let iprp = child("iprp", in: metaChildren, of: bytes),
              let ipco = child("ipco", in: iprp, of: bytes),
              let ipma = child("ipma", in: iprp, of: bytes), ipma.count >= 8 else { return [] }
        // The 1-based index of each property box in ipco, and its payload.
        var properties: [(type: String, payload: Range<Int>)] = []
        var offset = ipco.lowerBound
        while let box = box(at: offset, limit: ipco.upperBound, of: bytes) {
            properties.append((box.type, box.payload))
            offset = box.end
        }
        let version = bytes[ipma.lowerBound]
        let flags = bytes[ipma.lowerBound + 3]
        var cursor = ipma.lowerBound + 4
        var found: [(type: String, payload: Range<Int>)] = []
        let entryCount = Int(u32(bytes, cursor))
        cursor += 4
        for _ in 0..<entryCount {
            let idBytes = version < 1 ? 2 : 4
            guard cursor + idBytes + 1 <= ipma.upperBound else { return nil }
            let item = idBytes == 2 ? Int(u16(bytes, cursor)) : Int(u32(bytes, cursor))
            cursor += idBytes
            let associations = Int(bytes[cursor])
            cursor += 1
            let indexBytes = flags & 1 != 0 ? 2 : 1
            guard cursor + associations * indexBytes <= ipma.upperBound else { return nil }
            for _ in 0..<associations {
                let index = indexBytes == 2 ? Int(u16(bytes, cursor)) & 0x7FFF : Int(bytes[cursor]) & 0x7F
                cursor += indexBytes
                guard item == primary, index >= 1, index <= properties.count else { continue }
                found.append(properties[index - 1])
            }
        }
        return found
    }

    private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(u16(bytes, at)) << 16 | UInt32(u16(bytes, at + 2))
    }

    /// The box starting at `offset` if it lies wholly before `limit`.
    private static func box(at offset: Int, limit: Int, of bytes: [UInt8]) -> (type: String, payload: Range<Int>, end: Int)? {
        guard offset >= 0, offset + 8 <= limit else { return nil }
        var size = Int(u32(bytes, offset))
        var header = 8
        if size == 1 {
            guard offset + 16 <= limit else { return nil }
            let high = Int(u32(bytes, offset + 8)), low = Int(u32(bytes, offset + 12))
            guard high < 1 << 30 else { return nil }
            size = high << 32 | low
            header = 16
        } else if size == 0 {
            size = limit - offset
        }
        guard size >= header, offset + size <= limit else { return nil }
        let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
        return (type, offset + header..<offset + size, offset + size)
    }

    /// The payload of the first child box of a type within a range.
    private static func child(_ type: String, in range: Range<Int>, of bytes: [UInt8]) -> Range<Int>? {
        var offset = range.lowerBound
        while let box = box(at: offset, limit: range.upperBound, of: bytes) {
            if box.type == type { return box.payload }
            offset = box.end
        }
        return nil
    }
}
