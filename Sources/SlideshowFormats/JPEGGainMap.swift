/// Where an Ultra HDR JPEG's gain map lies, and its curve.
///
/// An Ultra HDR JPEG (Android 14's `JPEG_R`, Adobe's JPEG with a gain map) is two JPEGs in one
/// file: the SDR primary image, then the gain map, itself a JPEG (grey or three-channel). The
/// primary's APP2 `MPF\0` segment (CIPA DC-007 Multi-Picture Format: a TIFF header, an IFD whose
/// `MPEntry` tag 0xB002 lists each image's size and offset from that TIFF header) says where
/// the gain map starts; without MPF, the primary's XMP `Container:Directory` gives the gain
/// map's `Item:Length`, the secondary items following the primary back to back.
///
/// The curve is the gain map JPEG's own: an APP2 `urn:iso:std:iso:ts:21496:-1\0` segment with
/// ISO 21496-1's binary metadata (preferred), else its XMP `hdrgm` properties (Adobe's gain map
/// namespace `http://ns.adobe.com/hdr-gain-map/1.0/`, values in stops, scalar or one per
/// channel as an `rdf:Seq`), read by ``GainMapMetadata/init(hdrgm:)``.
///
/// An iPhone's HDR JPEG (an "HDR" export of an iPhone photo) has the same layout, its gain map
/// Apple's auxiliary gain map (``Source/apple``): its XMP has Apple's `HDRGainMap` namespace
/// (`http://ns.apple.com/HDRGainMap/1.0/`, `HDRGainMapVersion`), its curve is Apple's, the
/// headroom in `HDRGainMapHeadroom` (newer iPhones) or else in the primary's EXIF MakerNote, as a
/// HEIC's.
///
/// Android's "Ultra HDR Image Format" v1.1; Adobe's "Gain Map Specification" 1.0; libavif's
/// `avifjpeg.c` for Apple's.
package struct JPEGGainMap: Sendable, Equatable {
    /// Where the metadata came from.
    package enum Source: Sendable, Equatable {
        /// ISO 21496-1's binary metadata in the gain map's APP2.
        case iso
        /// The `hdrgm` XMP properties of the gain map.
        case xmp
        /// Apple's gain map (`HDRGainMap` XMP): ``metadata`` has no channels; the curve is
        /// Apple's, with ``appleHeadroom`` or the MakerNote's headroom.
        case apple
    }

    /// The gain map JPEG's bytes in the file (SOI through its end).
    package var range: Range<Int>
    /// The gain map's curve.
    package var metadata: GainMapMetadata
    /// Where the metadata came from.
    package var source: Source
    /// Apple's gain map's headroom (linear, `HDRGainMap:HDRGainMapHeadroom`), nil when its XMP
    /// has none (older iPhones: the EXIF MakerNote has it) or the gain map is not Apple's.
    package var appleHeadroom: Double? = nil

    /// Apple's gain map namespace.
    package static let appleNamespace = "http://ns.apple.com/HDRGainMap/1.0/"

    /// The namespace (URN) of ISO 21496-1's APP2 segment, with its terminating NUL.
    package static let isoNamespace: [UInt8] = Array("urn:iso:std:iso:ts:21496:-1".utf8) + [0]
    /// The Multi-Picture Format APP2 segment's identifier.
    package static let mpfIdentifier: [UInt8] = Array("MPF".utf8) + [0]
    /// The XMP APP1 segment's identifier.
    package static let xmpIdentifier: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// The gain map of a JPEG; nil when the file is no JPEG, names no second image, the second
    /// image is not a JPEG inside the file, or its metadata cannot be read. Its base may be the
    /// HDR rendition (``GainMapMetadata/isBaseHDR``).
    package static func find(in bytes: [UInt8]) -> JPEGGainMap? {
        guard let primary = segments(bytes, in: 0..<bytes.count) else { return nil }
        var candidates: [Range<Int>] = []
        if let mpf = primary.first(where: { $0.marker == 0xE2 && bytes[$0.payload].starts(with: mpfIdentifier) }),
           let second = secondImage(bytes, mpf: mpf.payload) {
            candidates.append(second)
        }
        if let xmp = primary.first(where: { $0.marker == 0xE1 && bytes[$0.payload].starts(with: xmpIdentifier) }),
           let item = containerGainMap(bytes[xmp.payload.dropFirst(xmpIdentifier.count)]),
           item.length < bytes.count, item.after < bytes.count - item.length {
            let start = bytes.count - item.after - item.length
            candidates.append(start..<start + item.length)
        }
        for range in candidates where range.lowerBound > 2 && range.count >= 4 && bytes[range.lowerBound] == 0xFF && bytes[range.lowerBound + 1] == 0xD8 {
            guard let gain = segments(bytes, in: range) else { continue }
            let iso = gain.first { $0.marker == 0xE2 && bytes[$0.payload].starts(with: isoNamespace) }
            if let iso, let metadata = GainMapMetadata(isoJPEG: bytes[iso.payload.dropFirst(isoNamespace.count)]) {
                return JPEGGainMap(range: range, metadata: metadata, source: .iso)
            }
            let xmp = gain.first { $0.marker == 0xE1 && bytes[$0.payload].starts(with: xmpIdentifier) }
            if let xmp, let metadata = GainMapMetadata(hdrgm: bytes[xmp.payload.dropFirst(xmpIdentifier.count)]) {
                return JPEGGainMap(range: range, metadata: metadata, source: .xmp)
            }
            if let xmp {
                let text = Substring(String(decoding: bytes[xmp.payload.dropFirst(xmpIdentifier.count)], as: UTF8.self))
                if let prefix = XMPText.prefix(of: appleNamespace, in: text), XMPText.values(prefix + ":HDRGainMapVersion", in: text) != nil {
                    let headroom = XMPText.values(prefix + ":HDRGainMapHeadroom", in: text)?.first.flatMap(Double.init)
                    return JPEGGainMap(range: range, metadata: GainMapMetadata(baseHeadroom: 0, alternateHeadroom: 0, channels: [], useBaseColorSpace: true),
                                       source: .apple, appleHeadroom: headroom.flatMap { $0.isFinite && $0 > 0 ? $0 : nil })
                }
            }
        }
        return nil
    }

    /// The primary image's EXIF (its APP1 `Exif\0\0` segment) in the form of a HEIF `Exif` item,
    /// which Apple's MakerNote reader takes: a 4-byte offset (0), then the TIFF block; nil without one.
    package static func exif(in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let identifier = Array("Exif".utf8) + [0, 0]
        guard let primary = segments(bytes, in: 0..<bytes.count),
              let app1 = primary.first(where: { $0.marker == 0xE1 && bytes[$0.payload].starts(with: identifier) }) else { return nil }
        return ArraySlice([0, 0, 0, 0] + bytes[app1.payload.dropFirst(identifier.count)])
    }

    /// The marker segments of the JPEG in `range`, up to its SOS, as ranges of `bytes`; nil when
    /// it is not a well-formed JPEG header.
    private static func segments(_ bytes: [UInt8], in range: Range<Int>) -> [(marker: UInt8, payload: Range<Int>)]? {
        var found: [(marker: UInt8, payload: Range<Int>)] = []
        let start = range.lowerBound
        let end = JPEGMarkers.scan(range == 0..<bytes.count ? bytes : Array(bytes[range])) { marker, payload in
            found.append((marker, payload.lowerBound + start..<payload.upperBound + start))
            return true
        }
        return end == .startOfScan ? found : nil
    }

    /// Where in the file the second image an MPF segment lists lies (its `MPEntry` 1: size, and
    /// offset counted from the MPF's TIFF header); nil when the IFD, the tag or the entry is
    /// missing or points outside the file.
    package static func secondImage(_ bytes: [UInt8], mpf payload: Range<Int>) -> Range<Int>? {
        let tiff = payload.lowerBound + mpfIdentifier.count
        guard payload.upperBound - tiff >= 8 else { return nil }
        let little: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= tiff, at + 2 <= payload.upperBound else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return little ? first | second << 16 : first << 16 | second
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4), let count = u16(tiff + ifd) else { return nil }
        for index in 0..<count {
            let entry = tiff + ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == 0xB002 else { continue }
            // MPEntry: UNDEFINED, 16 bytes an image: attributes, size, offset, two dependents.
            guard u16(entry + 2) == 7, let length = u32(entry + 4), length >= 32, let values = u32(entry + 8),
                  let size = u32(tiff + values + 16 + 4), let offset = u32(tiff + values + 16 + 8), offset > 0 else { return nil }
            let start = tiff + offset
            return size > 0 && start + size <= bytes.count ? start..<start + size : nil
        }
        return nil
    }

    /// The `Item:Length` of the `GainMap` item of an XMP `Container:Directory` (the primary's
    /// XMP in Android's format), and the bytes of the items after it (a motion photo's video):
    /// the secondary items follow the primary back to back, to the end of the file. nil when
    /// there is no such item, or a length after it does not read.
    package static func containerGainMap(_ xmp: ArraySlice<UInt8>) -> (length: Int, after: Int)? {
        let text = String(decoding: xmp, as: UTF8.self)
        var rest = Substring(text)
        var items: [(semantic: String?, length: Int?)] = []
        while let item = rest.firstRange(of: "<Container:Item") {
            let tail = rest[item.upperBound...]
            let end = tail.firstRange(of: ">")?.upperBound ?? tail.endIndex
            let element = tail[..<end]
            items.append((XMPText.attribute("Item:Semantic", in: element),
                          XMPText.attribute("Item:Length", in: element).flatMap { Int($0) }))
            rest = tail[end...]
        }
        guard let index = items.firstIndex(where: { $0.semantic == "GainMap" }), let length = items[index].length, length > 0 else { return nil }
        var after = 0
        for item in items[(index + 1)...] {
            // Lengths are the file's word: summed without overflow.
            guard let length = item.length, length >= 0 else { return nil }
            let (sum, overflow) = after.addingReportingOverflow(length)
            guard !overflow else { return nil }
            after = sum
        }
        return (length, after)
    }
}

/// Just enough XMP reading for gain maps: an attribute `name="value"` or an element
/// `<name>value</name>` (or its `rdf:Seq` of `rdf:li` values), by qualified name.
package enum XMPText {
    /// An attribute's value in a piece of XML text (the first `name="…"` or `name='…'`).
    package static func attribute(_ name: String, in text: Substring) -> String? {
        var rest = text
        while let found = rest.firstRange(of: name) {
            let before = found.lowerBound == rest.startIndex ? nil : rest[rest.index(before: found.lowerBound)]
            var cursor = found.upperBound
            rest = rest[found.upperBound...]
            guard before.map({ $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) ?? true else { continue }
            while cursor < text.endIndex, text[cursor] == " " { cursor = text.index(after: cursor) }
            guard cursor < text.endIndex, text[cursor] == "=" else { continue }
            cursor = text.index(after: cursor)
            while cursor < text.endIndex, text[cursor] == " " { cursor = text.index(after: cursor) }
            guard cursor < text.endIndex, text[cursor] == "\"" || text[cursor] == "'" else { continue }
            let quote = text[cursor]
            let valueStart = text.index(after: cursor)
            guard let close = text[valueStart...].firstIndex(of: quote) else { return nil }
            return String(text[valueStart..<close])
        }
        return nil
    }

    /// A property's values: its attribute's value, or its element's text, or each `rdf:li`
    /// of the `rdf:Seq` inside its element; nil when the property is absent.
    package static func values(_ name: String, in text: Substring) -> [String]? {
        if let value = attribute(name, in: text) { return [value] }
        guard let open = text.firstRange(of: "<" + name + ">"),
              let close = text[open.upperBound...].firstRange(of: "</" + name + ">") else { return nil }
        let inner = text[open.upperBound..<close.lowerBound]
        guard inner.contains("<rdf:li") else { return [inner.trimmingXMLSpace()] }
        var values: [String] = []
        var rest = inner
        while let item = rest.firstRange(of: "<rdf:li") {
            guard let start = rest[item.upperBound...].firstIndex(of: ">"),
                  let end = rest[start...].firstRange(of: "</rdf:li>") else { return nil }
            values.append(rest[rest.index(after: start)..<end.lowerBound].trimmingXMLSpace())
            rest = rest[end.upperBound...]
        }
        return values
    }

    /// The prefix a packet binds to a namespace URI (`xmlns:PREFIX="URI"`); nil when none does.
    package static func prefix(of namespace: String, in text: Substring) -> String? {
        var rest = text
        while let found = rest.firstRange(of: "xmlns:") {
            let tail = rest[found.upperBound...]
            guard let equals = tail.firstIndex(of: "=") else { return nil }
            let prefix = String(tail[..<equals]).trimmingXMLSpace()
            if attribute("xmlns:" + prefix, in: rest[found.lowerBound...]) == namespace { return prefix }
            rest = tail
        }
        return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends.
    fileprivate func trimmingXMLSpace() -> String {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !space($0) }), let last = lastIndex(where: { !space($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension GainMapMetadata {
    /// Adobe's gain map namespace.
    package static let hdrgmNamespace = "http://ns.adobe.com/hdr-gain-map/1.0/"

    /// Reads the `hdrgm` XMP properties of a gain map (Adobe's gain map specification 1.0,
    /// Android's Ultra HDR): `Version` (required), `GainMapMax` and `HDRCapacityMax` (required),
    /// `GainMapMin` (0), `Gamma` (1), `OffsetSDR` and `OffsetHDR` (1/64), `HDRCapacityMin` (0),
    /// `BaseRenditionIsHDR` (False). Gains and capacities are in stops, as here; each of the
    /// first five is one value or three (red, green, blue) in an `rdf:Seq`. With
    /// `BaseRenditionIsHDR` True the base is the HDR rendition: its headroom is `HDRCapacityMax`,
    /// the alternate's (SDR's) `HDRCapacityMin`, the offset added to the base `OffsetHDR` and the
    /// one taken after the gain `OffsetSDR` (``GainMapMetadata/isBaseHDR``).
    /// nil when a required one is missing, a number does not read, a list has neither one nor
    /// three values, a gamma is not positive, a maximum is below its minimum, or `HDRCapacityMax`
    /// is not above `HDRCapacityMin`.
    package init?(hdrgm xmp: ArraySlice<UInt8>) {
        let text = Substring(String(decoding: xmp, as: UTF8.self))
        let prefix = XMPText.prefix(of: Self.hdrgmNamespace, in: text) ?? "hdrgm"
        /// The property's numbers; its default when absent; nil when absent without a default, or unreadable.
        func numbers(_ name: String, default value: Double?) -> [Double]? {
            guard let strings = XMPText.values(prefix + ":" + name, in: text) else { return value.map { [$0] } }
            let parsed = strings.compactMap { Double($0) }
            guard parsed.count == strings.count, parsed.count == 1 || parsed.count == 3, parsed.allSatisfy(\.isFinite) else { return nil }
            return parsed
        }
        let baseIsHDR = XMPText.values(prefix + ":BaseRenditionIsHDR", in: text)?.first?.lowercased() == "true"
        guard XMPText.values(prefix + ":Version", in: text) != nil,
              let minimum = numbers("GainMapMin", default: 0), let maximum = numbers("GainMapMax", default: nil),
              let gamma = numbers("Gamma", default: 1),
              let offsetSDR = numbers("OffsetSDR", default: 1.0 / 64), let offsetHDR = numbers("OffsetHDR", default: 1.0 / 64),
              let capacityMin = numbers("HDRCapacityMin", default: 0), capacityMin.count == 1,
              let capacityMax = numbers("HDRCapacityMax", default: nil), capacityMax.count == 1,
              capacityMax[0] > capacityMin[0] else { return nil }
        let lists = [minimum, maximum, gamma, offsetSDR, offsetHDR]
        let count = lists.contains { $0.count == 3 } ? 3 : 1
        func pick(_ list: [Double], _ channel: Int) -> Double { list[list.count == 1 ? 0 : channel] }
        var channels: [Channel] = []
        for channel in 0..<count {
            let (sdr, hdr) = (pick(offsetSDR, channel), pick(offsetHDR, channel))
            let curve = Channel(minimum: pick(minimum, channel), maximum: pick(maximum, channel), gamma: pick(gamma, channel),
                                baseOffset: baseIsHDR ? hdr : sdr, alternateOffset: baseIsHDR ? sdr : hdr)
            guard curve.gamma > 0, curve.maximum >= curve.minimum else { return nil }
            channels.append(curve)
        }
        self.init(baseHeadroom: baseIsHDR ? capacityMax[0] : capacityMin[0], alternateHeadroom: baseIsHDR ? capacityMin[0] : capacityMax[0],
                  channels: channels, useBaseColorSpace: true)
    }
}
