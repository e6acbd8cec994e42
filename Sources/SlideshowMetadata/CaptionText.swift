/// A photo's own caption, as its metadata writes it: the raw bytes, to be repaired and
/// sanitised into a ``Caption`` (``Caption/decoding(utf8:position:source:)``).
///
/// Read in this order, the first that is not blank winning: XMP `dc:description`, XMP
/// `dc:title` (XMP is UTF-8 by definition, and photo managers write it), the IPTC
/// `Caption-Abstract` of a JPEG or a PNG (``IPTCCaption``), then EXIF `ImageDescription` (ASCII by the
/// standard, UTF-8 in practice). A description that is only
/// white space, or a camera's placeholder (`OLYMPUS DIGITAL CAMERA`, `SONY DSC`…), is none.
package enum CaptionText {
    /// Placeholders cameras write into `ImageDescription`, upper-cased, that no one wrote.
    package static let placeholders: Set<String> = ["OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "DCIM", "DEFAULT"]

    /// The caption's bytes from a photo's metadata blocks, nil when it has none.
    package static func read(_ blocks: MetadataBlocks) -> [UInt8]? {
        if let xmp = blocks.xmp {
            for element in ["dc:description", "dc:title"] {
                if let text = xmpText(Array(xmp), element: element), !isBlank(text) { return text }
            }
        }
        if let photoshop = blocks.photoshop, let text = IPTCCaption.read(Array(photoshop)), !isBlank(text) { return text }
        if let iptc = blocks.iptc, let text = IPTCCaption.caption(inRecords: Array(iptc)), !isBlank(text) { return text }
        if let text = blocks.exif?.imageDescription, !isBlank(text),
           !placeholders.contains(String(decoding: text, as: UTF8.self).trimmingSpaces.uppercased()) {
            return text
        }
        return nil
    }

    private static func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The text of an XMP element `<dc:description>`: its `rdf:Alt`'s `x-default` item (or
    /// first item), or the element's own text; XML's character references decoded.
    package static func xmpText(_ xmp: [UInt8], element: String) -> [UInt8]? {
        guard let open = find(Array("<\(element)".utf8), in: xmp, from: 0),
              let openEnd = find([UInt8(ascii: ">")], in: xmp, from: open) else { return nil }
        // `<dc:description/>`: empty.
        if openEnd > 0, xmp[openEnd - 1] == UInt8(ascii: "/") { return nil }
        guard let close = find(Array("</\(element)>".utf8), in: xmp, from: openEnd) else { return nil }
        let body = Array(xmp[openEnd + 1..<close])
        var item: ArraySlice<UInt8>? = nil
        var cursor = 0
        while let li = find(Array("<rdf:li".utf8), in: body, from: cursor),
              let liEnd = find([UInt8(ascii: ">")], in: body, from: li) {
            let tag = body[li..<liEnd]
            guard let liClose = find(Array("</rdf:li>".utf8), in: body, from: liEnd) else { break }
            let text = body[liEnd + 1..<liClose]
            if item == nil || find(Array("x-default".utf8), in: Array(tag), from: 0) != nil {
                item = text
                if find(Array("x-default".utf8), in: Array(tag), from: 0) != nil { break }
            }
            cursor = liClose
        }
        if item == nil, find(Array("<".utf8), in: body, from: 0) == nil { item = body[...] }
        return item.map { unescape(Array($0)) }
    }

    /// XML's five named references and numeric ones decoded; anything else kept as it is.
    package static func unescape(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "&")) else { return bytes }
        var output: [UInt8] = []
        var index = 0
        let named: [String: UInt8] = ["amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27]
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), let semi = bytes[index..<min(bytes.count, index + 12)].firstIndex(of: UInt8(ascii: ";")) {
                let name = String(decoding: bytes[index + 1..<semi], as: UTF8.self)
                if let byte = named[name] {
                    output.append(byte)
                    index = semi + 1
                    continue
                }
                if name.hasPrefix("#") {
                    let digits = name.dropFirst()
                    let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                    if let value, let scalar = Unicode.Scalar(value) {
                        output.append(contentsOf: Array(String(scalar).utf8))
                        index = semi + 1
                        continue
                    }
                }
            }
            output.append(bytes[index])
            index += 1
        }
        return output
    }

    /// Where `needle` first starts in `haystack` at or after `from`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        var index = from
        let first = needle[0]
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

private extension String {
    var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}

extension TIFFBlock {
    /// IFD0's `ImageDescription` (tag 0x010E, ASCII) as raw bytes up to its first NUL, nil
    /// when there is none or the entry is damaged.
    package var imageDescription: [UInt8]? {
        guard let entry = entry(EXIFTag.imageDescription.rawValue, inIFDAt: firstIFD),
              entry.type == 2 || entry.type == 7, entry.count > 0, entry.valueOffset + entry.count <= length else { return nil }
        let start = base + entry.valueOffset
        return Array(bytes[start..<start + entry.count].prefix { $0 != 0 })
    }
}
