/// The metadata PNG writers keep in text chunks: XMP in `iTXt` (compressed or not), and the
/// "raw profiles" ImageMagick and ExifTool write into `zTXt` (or `tEXt`).
///
/// | Keyword | Written by | Holds |
/// |---------|------------|-------|
/// | `XML:com.adobe.xmp` (`iTXt`) | the XMP specification, ExifTool, Pillow, libheif | the XMP packet |
/// | `Raw profile type iptc` | ImageMagick, ExifTool (where it puts new IPTC) | a Photoshop IRB (`8BIM` resources) or bare IPTC-IIM records |
/// | `Raw profile type 8bim` | ImageMagick | a Photoshop IRB |
/// | `Raw profile type xmp` | ImageMagick | the XMP packet |
/// | `Raw profile type APP1` | ExifTool, older ImageMagick | a JPEG APP1 payload: `Exif\0\0` + TIFF, or the XMP header + packet |
/// | `Raw profile type exif` | ImageMagick | a TIFF block, `Exif\0\0` first or not |
///
/// A raw profile's text is `\n<type>\n<spaces><length>\n` and then the bytes in hexadecimal,
/// in lines of 72 digits (ExifTool's `PNG.pm` reads it the same way: the length is checked
/// against the digits). What ExifTool documents of these chunks: exiftool.org/TagNames/PNG.html.
package enum PNGTextChunks {
    /// The most a compressed chunk may inflate to: 16 MB (a metadata block, not an image).
    package static let inflateLimit = 16 << 20

    /// A text chunk's keyword and text, the text decompressed; nil when the chunk is damaged,
    /// compressed with an unknown method, or not a text chunk.
    /// - Parameters:
    ///   - type: `tEXt`, `zTXt` or `iTXt`.
    ///   - payload: the chunk's data.
    package static func text(type: String, payload: ArraySlice<UInt8>) -> (keyword: String, text: [UInt8])? {
        guard let nul = payload.firstIndex(of: 0), nul > payload.startIndex else { return nil }
        let keyword = String(decoding: payload[payload.startIndex..<nul], as: UTF8.self)
        var cursor = nul + 1
        switch type {
        case "tEXt":
            return (keyword, Array(payload[cursor...]))
        case "zTXt":
            // Compression method 0 (zlib), then the stream.
            guard cursor < payload.endIndex, payload[cursor] == 0,
                  let text = Inflater.inflate(payload[(cursor + 1)...], limit: inflateLimit) else { return nil }
            return (keyword, text)
        case "iTXt":
            // Compression flag, method, language tag NUL, translated keyword NUL, text.
            guard cursor + 2 <= payload.endIndex else { return nil }
            let compressed = payload[cursor] == 1, method = payload[cursor + 1]
            cursor += 2
            for _ in 0..<2 {
                guard let end = payload[cursor...].firstIndex(of: 0) else { return nil }
                cursor = end + 1
            }
            guard compressed else { return (keyword, Array(payload[cursor...])) }
            guard method == 0, let text = Inflater.inflate(payload[cursor...], limit: inflateLimit) else { return nil }
            return (keyword, text)
        default:
            return nil
        }
    }

    /// The bytes of a raw profile's text (`\n<type>\n   <length>\n<hex>`), nil when it is
    /// not one, its digits are not hexadecimal, or their count is not the length stated.
    package static func rawProfile(_ text: [UInt8]) -> [UInt8]? {
        guard text.first == 0x0A, let typeEnd = text.dropFirst().firstIndex(of: 0x0A),
              let lengthEnd = text[(typeEnd + 1)...].firstIndex(of: 0x0A) else { return nil }
        let digits = text[(typeEnd + 1)..<lengthEnd].filter { $0 != 0x20 && $0 != 0x09 }
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }), digits.count <= 9,
              let length = Int(String(decoding: digits, as: UTF8.self)) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        for character in text[(lengthEnd + 1)...] {
            let nibble: UInt8
            switch character {
            case 0x30...0x39: nibble = character - 0x30
            case 0x61...0x66: nibble = character - 0x61 + 10
            case 0x41...0x46: nibble = character - 0x41 + 10
            case 0x20, 0x09, 0x0A, 0x0D, 0x00: continue
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes.count == length && high == nil ? bytes : nil
    }
}

extension MetadataBlocks {
    private static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let xmpPrefix: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// Takes a PNG text chunk (`tEXt`, `zTXt`, `iTXt`) before the image data: XMP, or a raw
    /// profile holding IPTC, a Photoshop IRB, XMP or EXIF (``PNGTextChunks``). The first of
    /// each kind is kept; an `eXIf` chunk or an uncompressed XMP `iTXt` taken before stays.
    package mutating func take(pngText type: String, payload: ArraySlice<UInt8>) {
        // The keyword decides before anything is inflated: other text (a comment, software) is not decompressed.
        guard let nul = payload.prefix(80).firstIndex(of: 0) else { return }
        let keyword = String(decoding: payload[payload.startIndex..<nul], as: UTF8.self)
        guard keyword == "XML:com.adobe.xmp" || keyword.hasPrefix("Raw profile type ") else { return }
        // Nor is a chunk whose block is already taken (the first of each kind is kept): 200 XMP
        // chunks of 16 MB each inflate one, not 200 (issue 31).
        let kind = keyword == "XML:com.adobe.xmp" ? "xml" : keyword.dropFirst("Raw profile type ".count).lowercased()
        let wanted = switch kind {
        case "xml", "xmp": xmp == nil && !exifOnly
        case "iptc", "8bim": (photoshop == nil || iptc == nil) && !exifOnly
        case "app1": (xmp == nil && !exifOnly) || exif == nil
        case "exif": exif == nil
        default: false
        }
        guard wanted, let (_, text) = PNGTextChunks.text(type: type, payload: payload) else { return }
        if keyword == "XML:com.adobe.xmp" {
            if xmp == nil { xmp = text[...] }
            return
        }
        guard let profile = PNGTextChunks.rawProfile(text) else { return }
        switch keyword.dropFirst("Raw profile type ".count).lowercased() {
        case "iptc", "8bim":
            // A Photoshop IRB (8BIM resources), or bare IPTC-IIM records (ExifTool reads both).
            if profile.starts(with: Array("8BIM".utf8)) {
                if photoshop == nil { photoshop = (IPTCCaption.photoshopHeader + profile)[...] }
            } else if profile.first == 0x1C, iptc == nil {
                iptc = profile[...]
            }
        case "xmp":
            if xmp == nil { xmp = profile[...] }
        case "app1":
            if profile.starts(with: Self.xmpPrefix) {
                if xmp == nil, !exifOnly { xmp = profile[Self.xmpPrefix.count...] }
            } else if profile.starts(with: Self.exifPrefix), exif == nil {
                exif = TIFFBlock(profile, Self.exifPrefix.count..<profile.count)
            }
        case "exif":
            if exif == nil {
                let skip = profile.starts(with: Self.exifPrefix) ? Self.exifPrefix.count : 0
                exif = TIFFBlock(profile, skip..<profile.count)
            }
        default:
            break
        }
    }
}
