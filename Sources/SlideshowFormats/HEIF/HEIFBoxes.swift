import SlideshowPixels

/// Reads what libheif 1.15 does not say about a HEIF file's primary item from its boxes: its
/// transformations, for a HEIC where its coded pictures lie (``HEVCLayout``), and where its
/// EXIF and XMP items lie (``metadataItems(_:)``, for ``MetadataBlocks``).
///
/// libheif 1.15 applies `irot` when decoding but has no call that says what it is, and its
/// handle's size is the transformed one for grid images but the coded one for single-coded
/// images (an AVIF with irot 270 reports 1024x722 and decodes to 722x1024). ``ImageManager/inspect(_:)``
/// needs the displayed size without decoding, so the boxes are walked here: `meta` → `pitm`
/// (the primary item), `iinf` (each item's type, and a `mime` item's content type), `iref`
/// (a grid's tiles, `dimg`; the item a metadata item describes, `cdsc`), `iloc`
/// (where each item's data lies), `iprp` → `ipco` (the properties, numbered from 1) and `ipma`
/// (which properties belong to which item). Every read is bounds-checked; anything unexpected
/// gives nil.
package enum HEIFBoxes {
    /// What the boxes say of the primary item, read in one pass over them.
    package struct PrimaryItem {
        /// Its `irot` angle in quarter turns anticlockwise (0 to 3), nil when the boxes cannot
        /// be read, 0 when there is no `irot`.
        package var rotation: Int?
        /// The types of its transformative properties (`clap`, `irot`, `imir`), in the order its
        /// `ipma` entry lists them (the order libheif applies them in); nil when the boxes
        /// cannot be read.
        package var transformations: [String]?
        /// Where its HEVC pictures lie, when it is one HEVC picture (`hvc1`) or a grid of them
        /// whose tiles share one configuration and size and carry no transformation of their
        /// own; nil for anything else (AVIF, overlays, derived tiles, data in other items).
        package var hevcLayout: HEVCLayout?
        /// Where the type of each `iref` entry that libheif 1.15 refuses lies (a file offset),
        /// from ``Meta/refusedReferenceTypes``; empty for files it reads as they are.
        package var refusedReferenceTypes: [Int] = []

        package init(rotation: Int? = nil, transformations: [String]? = nil, hevcLayout: HEVCLayout? = nil, refusedReferenceTypes: [Int] = []) {
            self.rotation = rotation
            self.transformations = transformations
            self.hevcLayout = hevcLayout
            self.refusedReferenceTypes = refusedReferenceTypes
        }
    }

    /// Reads the primary item's rotation, transformations and HEVC layout.
    package static func primaryItem(_ bytes: [UInt8]) -> PrimaryItem {
        guard let meta = Meta(bytes) else { return PrimaryItem() }
        return PrimaryItem(rotation: rotation(meta), transformations: transformations(meta), hevcLayout: hevcLayout(meta))
    }

    /// The primary item's rotation alone: ``PrimaryItem/rotation``.
    package static func primaryRotation(_ bytes: [UInt8]) -> Int? { Meta(bytes).flatMap(rotation) }

    /// The primary item's transformations alone: ``PrimaryItem/transformations``.
    package static func primaryTransformations(_ bytes: [UInt8]) -> [String]? { Meta(bytes).flatMap(transformations) }

    /// The primary item's HEVC layout alone: ``PrimaryItem/hevcLayout``.
    package static func hevcLayout(_ bytes: [UInt8]) -> HEVCLayout? { Meta(bytes).flatMap { hevcLayout($0) } }

    /// The data of the primary item's metadata items: its `Exif` item (with the 4-byte offset
    /// to the TIFF header still first) and its XMP (a `mime` item of content type
    /// `application/rdf+xml`). An item that describes (`cdsc`) the primary item is preferred;
    /// else the first of its kind, as files that leave `cdsc` out have one image.
    package static func metadataItems(_ bytes: [UInt8]) -> (exif: ArraySlice<UInt8>?, xmp: ArraySlice<UInt8>?) {
        guard let meta = Meta(bytes) else { return (nil, nil) }
        func first(_ matches: (Int) -> Bool) -> ArraySlice<UInt8>? {
            let items = meta.itemTypes.keys.filter(matches).sorted()
            let describing = items.filter { meta.describes[$0]?.contains(meta.primary) == true }
            return (describing + items).lazy.compactMap { meta.data(of: $0) }.first
        }
        return (first { meta.itemTypes[$0] == "Exif" },
                first { meta.itemTypes[$0] == "mime" && meta.contentTypes[$0] == "application/rdf+xml" })
    }

    package static func rotation(_ meta: Meta) -> Int? {
        guard let properties = meta.properties(of: meta.primary) else { return nil }
        guard let irot = properties.first(where: { $0.type == "irot" && $0.payload.count >= 1 }) else { return 0 }
        return Int(meta.bytes[irot.payload.lowerBound] & 0x03)
    }

    package static func transformations(_ meta: Meta) -> [String]? {
        meta.properties(of: meta.primary)?.map(\.type).filter(Meta.transformations.contains)
    }

    /// Where item `item` (the primary item when nil) lies as HEVC pictures: one picture or a grid.
    package static func hevcLayout(_ meta: Meta, item: Int? = nil) -> HEVCLayout? {
        let item = item ?? meta.primary
        guard let type = meta.itemTypes[item] else { return nil }
        let bytes = meta.bytes
        let size: Size, columns: Int, rows: Int, tiles: [Int]
        switch type {
        case "hvc1":
            tiles = [item]
            (columns, rows) = (1, 1)
            guard let ispe = meta.imageSize(of: item) else { return nil }
            size = ispe
        case "grid":
            guard let grid = meta.data(of: item).flatMap(grid) else { return nil }
            (rows, columns, size) = grid
            guard let references = meta.tiles[item], references.count == rows * columns else { return nil }
            tiles = references
        default:
            return nil
        }
        // Every tile an hvc1 item with the first one's properties: one hvcC, one ispe, no
        // transformation (a grid's transformations are the grid item's own).
        guard size.width > 0, size.height > 0, let first = tiles.first,
              let associations = meta.associations[first],
              tiles.allSatisfy({ meta.itemTypes[$0] == "hvc1" && meta.associations[$0] == associations }),
              let properties = meta.properties(of: first),
              type == "hvc1" || !properties.contains(where: { Meta.transformations.contains($0.type) }),
              let hvcC = properties.first(where: { $0.type == "hvcC" }),
              let configuration = HEVCConfiguration(bytes[hvcC.payload]),
              let tileSize = meta.imageSize(of: first), tileSize.width > 0, tileSize.height > 0,
              // The tiles cover the output, with no column or row wholly outside it.
              tileSize.width * columns >= size.width, tileSize.width * (columns - 1) < size.width,
              tileSize.height * rows >= size.height, tileSize.height * (rows - 1) < size.height
        else { return nil }
        var extents: [[Range<Int>]] = []
        for tile in tiles {
            guard let location = meta.locations[tile], location.method == 0 else { return nil }
            extents.append(location.extents)
        }
        let colr = properties.first { $0.type == "colr" && $0.payload.count >= 11 && String(decoding: bytes[$0.payload.prefix(4)], as: UTF8.self) == "nclx" }
        let nclx = colr.map { colr in
            let at = colr.payload.lowerBound + 4
            return YCbCrEncoding(coefficients: Int(u16(bytes, at + 4)), fullRange: bytes[at + 6] & 0x80 != 0)
        }
        return HEVCLayout(size: size, columns: columns, rows: rows, tileSize: tileSize, configuration: configuration,
                          tiles: extents, matrix: nclx)
    }

    /// The boxes of a file's `meta` that say what its items are and where their data lies.
    package struct Meta {
        package static let transformations: Set<String> = ["clap", "irot", "imir"]

        package let bytes: [UInt8]
        /// The primary item (`pitm`).
        package var primary = 0
        /// Each item's type (`infe` version 2 or 3).
        package var itemTypes: [Int: String] = [:]
        /// The items a grid is made of (`iref` `dimg`), in order.
        package var tiles: [Int: [Int]] = [:]
        /// The items a metadata item describes (`iref` `cdsc`).
        package var describes: [Int: [Int]] = [:]
        /// The content type of each `mime` item.
        package var contentTypes: [Int: String] = [:]
        /// Every `iref` entry: its type (`dimg`, `thmb`, `auxl`, `cdsc` …), from one item to others.
        package var references: [(type: String, from: Int, to: [Int])] = []
        /// The file offset of each `references` entry's type (its box's four type bytes), in the same order.
        package var referenceTypeOffsets: [Int] = []
        /// Each item's data: construction method (0 in the file, 1 in `idat`) and extents.
        package var locations: [Int: (method: Int, extents: [Range<Int>])] = [:]
        /// The `idat` box's payload.
        package var idat: Range<Int>?
        /// The property boxes of `ipco`, 1-based in `ipma`.
        package var propertyBoxes: [(type: String, payload: Range<Int>)] = []
        /// Each item's property indices (`ipma`), in order.
        package var associations: [Int: [Int]] = [:]
        /// Whether the file has `iprp` with `ipco` and `ipma` (without them, no item has properties).
        package var hasProperties = false

        /// Reads `meta`; nil when it or its `pitm` is missing or a box runs past its parent.
        package init?(_ bytes: [UInt8]) {
            self.bytes = bytes
            guard let meta = child("meta", in: 0..<bytes.count, of: bytes), meta.count >= 4 else { return nil }
            let children = meta.lowerBound + 4..<meta.upperBound  // meta is a full box
            guard let pitm = child("pitm", in: children, of: bytes), pitm.count >= 6 else { return nil }
            primary = bytes[pitm.lowerBound] == 0 ? Int(u16(bytes, pitm.lowerBound + 4)) : Int(u32(bytes, pitm.lowerBound + 4))
            if let iinf = child("iinf", in: children, of: bytes) { readItemTypes(iinf) }
            if let iref = child("iref", in: children, of: bytes) { readReferences(iref) }
            // An iloc that cannot be read leaves no locations (the transformations still read).
            if let iloc = child("iloc", in: children, of: bytes), !readLocations(iloc) { locations = [:] }
            idat = child("idat", in: children, of: bytes)
            if let iprp = child("iprp", in: children, of: bytes),
               let ipco = child("ipco", in: iprp, of: bytes),
               let ipma = child("ipma", in: iprp, of: bytes) {
                hasProperties = true
                var offset = ipco.lowerBound
                while let box = box(at: offset, limit: ipco.upperBound, of: bytes) {
                    propertyBoxes.append((box.type, box.payload))
                    offset = box.end
                }
                guard readAssociations(ipma) else { return nil }
            }
        }

        /// An item's properties, in its `ipma` entry's order; empty when there are none, nil
        /// when an index points past `ipco`.
        package func properties(of item: Int) -> [(type: String, payload: Range<Int>)]? {
            guard hasProperties else { return [] }
            var found: [(type: String, payload: Range<Int>)] = []
            for index in associations[item] ?? [] {
                guard index >= 1, index <= propertyBoxes.count else { continue }  // 0 means none
                found.append(propertyBoxes[index - 1])
            }
            return found
        }

        /// An item's `ispe` (a full box: width and height, 32 bits each).
        package func imageSize(of item: Int) -> Size? {
            guard let ispe = properties(of: item)?.first(where: { $0.type == "ispe" && $0.payload.count >= 12 }) else { return nil }
            return Size(width: Int(u32(bytes, ispe.payload.lowerBound + 4)), height: Int(u32(bytes, ispe.payload.lowerBound + 8)))
        }

        /// An item's data, its extents joined, from the file or from `idat`.
        package func data(of item: Int) -> ArraySlice<UInt8>? {
            guard let location = locations[item] else { return nil }
            let base: Range<Int>
            switch location.method {
            case 0: base = 0..<bytes.count
            case 1: guard let idat else { return nil }; base = idat
            default: return nil
            }
            var joined: [UInt8] = []
            for extent in location.extents {
                let range = base.lowerBound + extent.lowerBound..<base.lowerBound + extent.upperBound
                guard range.upperBound <= base.upperBound else { return nil }
                joined += bytes[range]
            }
            return joined[...]
        }

        private mutating func readItemTypes(_ iinf: Range<Int>) {
            guard iinf.count >= 6 else { return }
            var offset = iinf.lowerBound + (bytes[iinf.lowerBound] == 0 ? 6 : 8)
            while let box = box(at: offset, limit: iinf.upperBound, of: bytes) {
                offset = box.end
                // infe version 2 (16-bit ID) or 3 (32-bit ID): ID, protection index, type.
                let payload = box.payload, version = payload.isEmpty ? 0 : bytes[payload.lowerBound]
                guard box.type == "infe", version == 2 || version == 3 else { continue }
                let idBytes = version == 2 ? 2 : 4
                guard payload.count >= 4 + idBytes + 2 + 4 else { continue }
                let id = idBytes == 2 ? Int(u16(bytes, payload.lowerBound + 4)) : Int(u32(bytes, payload.lowerBound + 4))
                let type = payload.lowerBound + 4 + idBytes + 2
                itemTypes[id] = String(decoding: bytes[type..<type + 4], as: UTF8.self)
                // A mime item: its name, then its content type, each ending in NUL.
                if itemTypes[id] == "mime", let name = bytes[type + 4..<payload.upperBound].firstIndex(of: 0),
                   let end = bytes[name + 1..<payload.upperBound].firstIndex(of: 0) {
                    contentTypes[id] = String(decoding: bytes[name + 1..<end], as: UTF8.self)
                }
            }
        }

        private mutating func readReferences(_ iref: Range<Int>) {
            guard iref.count >= 4 else { return }
            let idBytes = bytes[iref.lowerBound] == 0 ? 2 : 4
            var offset = iref.lowerBound + 4
            while let box = box(at: offset, limit: iref.upperBound, of: bytes) {
                let typeOffset = offset + 4
                offset = box.end
                var cursor = box.payload.lowerBound
                func id() -> Int? {
                    guard cursor + idBytes <= box.payload.upperBound else { return nil }
                    defer { cursor += idBytes }
                    return idBytes == 2 ? Int(u16(bytes, cursor)) : Int(u32(bytes, cursor))
                }
                guard let from = id(), cursor + 2 <= box.payload.upperBound else { continue }
                let count = Int(u16(bytes, cursor))
                cursor += 2
                var to: [Int] = []
                for _ in 0..<count {
                    guard let next = id() else { break }
                    to.append(next)
                }
                guard to.count == count else { continue }
                references.append((box.type, from, to))
                referenceTypeOffsets.append(typeOffset)
                if box.type == "dimg" { tiles[from] = to }
                if box.type == "cdsc" { describes[from, default: []] += to }
            }
        }

        /// Reads `iloc` (versions 0 to 2); false when it runs past its box.
        private mutating func readLocations(_ iloc: Range<Int>) -> Bool {
            var cursor = iloc.lowerBound
            let end = iloc.upperBound
            func read(_ size: Int) -> Int? {
                guard size == 0 || size == 2 || size == 4 || size == 8, cursor + size <= end else { return nil }
                defer { cursor += size }
                switch size {
                case 0: return 0
                case 2: return Int(u16(bytes, cursor))
                case 4: return Int(u32(bytes, cursor))
                default:
                    guard u32(bytes, cursor) < 1 << 30 else { return nil }
                    return Int(u32(bytes, cursor)) << 32 | Int(u32(bytes, cursor + 4))
                }
            }
            guard iloc.count >= 6 else { return false }
            let version = Int(bytes[cursor])
            cursor += 4
            guard version <= 2 else { return true }  // a version not known: no locations
            let offsetSize = Int(bytes[cursor] >> 4), lengthSize = Int(bytes[cursor] & 15)
            let baseOffsetSize = Int(bytes[cursor + 1] >> 4), indexSize = version >= 1 ? Int(bytes[cursor + 1] & 15) : 0
            cursor += 2
            guard let count = read(version < 2 ? 2 : 4) else { return false }
            for _ in 0..<count {
                guard let id = read(version < 2 ? 2 : 4),
                      let method = version >= 1 ? read(2).map({ $0 & 15 }) : 0,
                      let reference = read(2), let base = read(baseOffsetSize), let extentCount = read(2)
                else { return false }
                var extents: [Range<Int>] = []
                for _ in 0..<extentCount {
                    guard read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize) else { return false }
                    // A length of 0 ("to the end") and data in other files are not taken here.
                    guard length > 0, base <= Int.max / 4, offset <= Int.max / 4, length <= Int.max / 4 else { continue }
                    extents.append(base + offset..<base + offset + length)
                }
                guard reference == 0, !extents.isEmpty, extents.count == extentCount else { continue }
                if method == 0, extents.contains(where: { $0.upperBound > bytes.count }) { continue }
                locations[id] = (method, extents)
            }
            return true
        }

        /// Reads `ipma`; false when it runs past its box.
        private mutating func readAssociations(_ ipma: Range<Int>) -> Bool {
            guard ipma.count >= 8 else { return false }
            let version = bytes[ipma.lowerBound]
            let flags = bytes[ipma.lowerBound + 3]
            var cursor = ipma.lowerBound + 4
            let entryCount = Int(u32(bytes, cursor))
            cursor += 4
            for _ in 0..<entryCount {
                let idBytes = version < 1 ? 2 : 4
                guard cursor + idBytes + 1 <= ipma.upperBound else { return false }
                let item = idBytes == 2 ? Int(u16(bytes, cursor)) : Int(u32(bytes, cursor))
                cursor += idBytes
                let count = Int(bytes[cursor])
                cursor += 1
                let indexBytes = flags & 1 != 0 ? 2 : 1
                guard cursor + count * indexBytes <= ipma.upperBound else { return false }
                for _ in 0..<count {
                    let index = indexBytes == 2 ? Int(u16(bytes, cursor)) & 0x7FFF : Int(bytes[cursor]) & 0x7F
                    cursor += indexBytes
                    associations[item, default: []].append(index)
                }
            }
            return true
        }
    }

    /// A grid item's data (ISO/IEC 23008-12 6.6.2.3.2): its rows, columns and output size.
    package static func grid(_ data: ArraySlice<UInt8>) -> (rows: Int, columns: Int, size: Size)? {
        guard data.count >= 8, data[data.startIndex] == 0 else { return nil }
        let wide = data[data.startIndex + 1] & 1 != 0
        guard data.count >= (wide ? 12 : 8) else { return nil }
        let at = data.startIndex + 4
        let size = wide ? Size(width: Int(u32(data, at)), height: Int(u32(data, at + 4)))
                        : Size(width: Int(u16(data, at)), height: Int(u16(data, at + 2)))
        return (Int(data[data.startIndex + 2]) + 1, Int(data[data.startIndex + 3]) + 1, size)
    }

    package static func u16<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ at: Bytes.Index) -> UInt16 where Bytes.Index == Int {
        UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    package static func u32<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ at: Bytes.Index) -> UInt32 where Bytes.Index == Int {
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
