import SlideshowFormats

/// Where a photo's metadata lies in its file: the EXIF block (a TIFF block) and the XMP packet,
/// found the same way for every container.
///
/// | Container | EXIF | XMP |
/// |-----------|------|-----|
/// | JPEG | the first APP1 segment starting `Exif\0\0` | the first APP1 starting `http://ns.adobe.com/xap/1.0/\0` |
/// | PNG | the `eXIf` chunk before the image data (or a raw profile, below) | an `iTXt` chunk `XML:com.adobe.xmp` before the image data, compressed or not (or a raw profile) |
/// | HEIF, AVIF | the `Exif` item (after its 4-byte TIFF-header offset) | the `mime` item of type `application/rdf+xml` |
/// | WebP | the `EXIF` chunk (an `Exif\0\0` prefix some writers add is skipped) | the `XMP ` chunk (or `XMP\0`, as some writers spell it) |
///
/// IPTC-IIM records (the `Caption-Abstract`) are found in a JPEG's Photoshop APP13 segment
/// and in a PNG's `Raw profile type iptc` text chunk (``PNGTextChunks``, with the other raw
/// profiles ImageMagick and ExifTool write). HEIF and WebP have no place for them: libheif's
/// authors and the WebP container leave IPTC to XMP, where the caption is `dc:description`.
///
/// The JPEG and PNG header parsers hand each segment or chunk they walk to
/// ``take(jpegSegment:payload:in:)`` and ``take(pngChunk:payload:in:)``, so each file's
/// structure is walked once; HEIF boxes and WebP chunks are walked here. What the blocks
/// say is read by ``PhotoMetadata``, which also picks the walk for a file's format.
package struct MetadataBlocks {
    /// The EXIF block, nil when there is none or its TIFF header is broken.
    package var exif: TIFFBlock?
    /// The XMP packet's bytes (UTF-8 XML), nil when there is none.
    package var xmp: ArraySlice<UInt8>?
    /// A JPEG's Photoshop APP13 payload (`Photoshop 3.0\0` and its 8BIM resources, the IPTC
    /// record among them), nil when there is none.
    package var photoshop: ArraySlice<UInt8>?
    /// Bare IPTC-IIM records (`0x1C`, record, dataset, length, data…), as a PNG's raw IPTC
    /// profile may hold them without a Photoshop IRB around them; nil when there are none.
    package var iptc: ArraySlice<UInt8>?

    /// Whether only the EXIF block is wanted (what a decode needs: the orientation), so that a
    /// PNG's XMP and IPTC text chunks, read once by the header check, are not inflated again.
    package var exifOnly = false

    /// No blocks.
    package init(exifOnly: Bool = false) {
        self.exifOnly = exifOnly
    }

    // MARK: - JPEG

    private static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let xmpHeader: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// Takes a JPEG marker segment: the first `Exif` APP1 as the EXIF block, the first XMP APP1 as the packet.
    /// - Parameters:
    ///   - marker: the marker's second byte.
    ///   - payload: the segment's payload (after its length), inside `bytes`.
    ///   - bytes: the file's bytes.
    package mutating func take(jpegSegment marker: UInt8, payload: Range<Int>, in bytes: [UInt8]) {
        if marker == 0xED, photoshop == nil, bytes[payload].starts(with: IPTCCaption.photoshopHeader) {
            photoshop = bytes[payload]
        }
        guard marker == 0xE1 else { return }
        if !sawJPEGExif, bytes[payload].starts(with: Self.exifHeader) {
            sawJPEGExif = true
            exif = TIFFBlock(bytes, payload.lowerBound + Self.exifHeader.count..<payload.upperBound)
        } else if xmp == nil, bytes[payload].starts(with: Self.xmpHeader) {
            xmp = bytes[payload.lowerBound + Self.xmpHeader.count..<payload.upperBound]
        }
    }

    /// Whether an `Exif` APP1 was seen (a broken first one hides any later one, as libexif does).
    private var sawJPEGExif = false

    /// The blocks of a JPEG, from its marker segments before the image data (a prefix is
    /// enough); what was found before any damage or the prefix's end.
    package static func jpeg(_ bytes: [UInt8]) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        _ = JPEGMarkers.scan(bytes) { marker, payload in
            blocks.take(jpegSegment: marker, payload: payload, in: bytes)
            return true
        }
        return blocks
    }

    // MARK: - PNG

    /// Takes a PNG chunk before the image data: `eXIf` as the EXIF block; the text chunks
    /// (`iTXt`, `zTXt`, `tEXt`) holding XMP or a raw profile (``take(pngText:payload:)``).
    /// - Parameters:
    ///   - type: the chunk's four-letter type.
    ///   - payload: its data (without length, type and CRC), inside `bytes`.
    ///   - bytes: the file's bytes.
    package mutating func take(pngChunk type: String, payload: Range<Int>, in bytes: [UInt8]) {
        switch type {
        case "eXIf" where exif == nil:
            exif = TIFFBlock(bytes, payload)
        case "iTXt", "zTXt", "tEXt":
            take(pngText: type, payload: bytes[payload])
        default:
            break
        }
    }

    // MARK: - HEIF

    /// The blocks of a HEIF or AVIF file, from the items its `meta` box lists (``HEIFBoxes/metadataItems(_:)``).
    package static func heif(_ bytes: [UInt8]) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        let items = HEIFBoxes.metadataItems(bytes)
        if let item = items.exif, item.count >= 4 {
            // A 4-byte big-endian offset from its end to the TIFF header (ISO/IEC 23008-12 A.2.1).
            let data = Array(item), skip = Int(HEIFBoxes.u32(data, 0))
            if skip <= data.count - 4 { blocks.exif = TIFFBlock(data, 4 + skip..<data.count) }
        }
        blocks.xmp = items.xmp
        return blocks
    }

    // MARK: - WebP

    /// The blocks of a WebP file: its RIFF chunks walked up to the RIFF size or the bytes' end.
    package static func webp(_ bytes: [UInt8]) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        func u32le(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else { return blocks }
        let end = min(bytes.count, 8 + u32le(4))
        var offset = 12
        while offset + 8 <= end {
            let size = u32le(offset + 4), start = offset + 8
            guard size <= end - start else { break }
            let payload = start..<start + size
            switch String(decoding: bytes[offset..<offset + 4], as: UTF8.self) {
            case "EXIF" where blocks.exif == nil:
                let skip = bytes[payload].starts(with: exifHeader) ? exifHeader.count : 0
                blocks.exif = TIFFBlock(bytes, payload.lowerBound + skip..<payload.upperBound)
            case "XMP ", "XMP\0":  // the shared iPhone X WebP's writer ends the name with NUL
                guard blocks.xmp == nil else { break }
                blocks.xmp = bytes[payload]
            default:
                break
            }
            offset = start + size + (size & 1)  // chunks are padded to an even length
        }
        return blocks
    }
}
