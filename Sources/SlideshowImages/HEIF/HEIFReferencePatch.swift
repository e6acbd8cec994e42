import SlideshowFormats

/// Lets Debian's libheif 1.15 read the HEICs of iOS 18, whose item references it refuses.
///
/// iOS 18 stores an HDR gain map with its photos: a hidden grid of HEVC tiles (an `auxl` of
/// the primary image) and a `tmap` derived item, the tone map, made from the primary image and
/// that grid (`dimg`). Its `Exif` item then describes both the primary image and the tone map:
/// the iPhone 15 Pro Live Photo in `../shared/clips` has `cdsc 67 → [49, 66]`, item 49 the
/// primary grid and 66 the `tmap`.
///
/// libheif 1.15 (`HeifContext::interpret_heif_file`) takes a `cdsc` that names exactly one
/// item, an image of a type it knows (`hvc1`, `grid`, `iden`, `iovl`, `av01`, `vvc1`), and
/// refuses the whole file otherwise: "Metadata not correctly assigned to image", or "Metadata
/// assigned to non-existing image". It holds an image's `auxl` to the same rule ("Too many
/// auxiliary image references", "Non-existing aux image referenced"). libheif 1.18 attaches
/// the metadata to each image a `cdsc` names and passes over other items that exist
/// (strukturag/libheif#1190).
///
/// Here such an entry's reference type is made one libheif does not know, by turning its first
/// letter to upper case (`cdsc` → `Cdsc`, `auxl` → `Auxl`): four bytes change, no size does,
/// and libheif passes over the entry. What is lost is libheif's own link from the metadata to
/// the image, which nothing here uses: the EXIF and XMP are read from the unchanged file
/// (``HEIFBoxes/metadataItems(_:)``). A reference that names an item the file does not have
/// stays, and libheif refuses it as before.
extension HEIFBoxes {
    /// The item types libheif 1.15 reads as images (its `item_type_is_image`).
    package static let libheifImageTypes: Set<String> = ["hvc1", "grid", "iden", "iovl", "av01", "vvc1"]

    /// The bit that turns a lower-case ASCII letter upper case, and back.
    private static let caseBit: UInt8 = 0x20

    /// Runs `body` on the file with the reference types at `offsets` changed to ones libheif
    /// ignores, then changes them back.
    ///
    /// The bytes are patched in place (nothing is copied when the caller's array is its own)
    /// and only for the duration of `body`, which must not keep the pointer; with no offsets
    /// they are lent unchanged.
    /// - Parameters:
    ///   - offsets: where the types lie, ``PrimaryItem/refusedReferenceTypes``.
    ///   - bytes: the whole file; the same bytes again when this returns.
    ///   - body: reads the patched file (libheif's `heif_context_read_from_memory`, which copies it).
    package static func withReferences<Result>(neutralisedAt offsets: [Int], in bytes: inout [UInt8],
                                       _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard !offsets.isEmpty else { return bytes.withUnsafeBytes(body) }
        return bytes.withUnsafeMutableBytes { raw in
            for offset in offsets { raw[offset] ^= caseBit }
            defer { for offset in offsets { raw[offset] ^= caseBit } }
            return body(UnsafeRawBufferPointer(raw))
        }
    }
}

extension HEIFBoxes.Meta {
    /// The file offsets of the types of the `iref` entries libheif 1.15 refuses and 1.18 reads.
    ///
    /// A `cdsc` (from any item) or an `auxl` (from an image, the only ones 1.15 follows), each
    /// of whose targets exists, that names more than one item or an item that is not an image
    /// to libheif 1.15. Empty when the items cannot be read (`iinf`).
    package var refusedReferenceTypes: [Int] {
        guard !itemTypes.isEmpty else { return [] }
        let images = HEIFBoxes.libheifImageTypes
        var offsets: [Int] = []
        for (index, reference) in references.enumerated() {
            switch reference.type {
            case "cdsc": break
            case "auxl" where images.contains(itemTypes[reference.from] ?? ""): break
            default: continue
            }
            guard !reference.to.isEmpty, reference.to.allSatisfy({ itemTypes[$0] != nil }) else { continue }
            if reference.to.count != 1 || !images.contains(itemTypes[reference.to[0]] ?? "") {
                offsets.append(referenceTypeOffsets[index])
            }
        }
        return offsets
    }
}
