// Fuzz target `header`: everything the check before a render does with a photo's first bytes.
//
// Sniffs the format; for a JPEG, walks the markers (JPEGHeader), reads the EXIF orientation,
// applies the limits and has TurboJPEG read the same header (ImageManager.info(checking:in:));
// for a PNG, walks the chunks (PNGHeader, with its eXIf orientation) both as a prefix and as a
// whole file, and checks its IDAT against its IHDR; for HEIF/AVIF, checks the item graph and the
// coded sizes against ispe, and walks the boxes for the primary image's rotation; for WebP, reads
// the RIFF chunks (size, alpha, EXIF orientation). Each container's metadata walk (MetadataBlocks)
// runs on every input. The bytes are also read as a bare TIFF block,
// as a PNG eXIf chunk is, for the orientation and the capture date, and a JPEG's ICC profile
// segments are gathered. Built into
// the SlideshowKit module by Tests/Fuzz/run.sh, so it reaches internal API; never part of the package.
// Motion photos' structure (MotionPhoto.embeddedVideo) and the PNG chunks given to libavcodec
// (PNGDecoder.decoderRanges) are walked on every input too, and gain map metadata read (ISO
// 21496-1, hdrgm XMP); a JPEG's Ultra HDR gain map is looked for (JPEGGainMap).

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    _ = EXIFOrientation.parse(jpeg: bytes)
    _ = EXIFOrientation.parse(tiff: bytes, in: 0..<bytes.count)
    _ = CaptureDate.parse(tiff: bytes, in: 0..<bytes.count)
    _ = CaptureDate.parse(photo: bytes)
    // Where a motion photo's video is (HEIF boxes, JPEG XMP offsets, Samsung's trailer): every
    // offset, length and size read from the bytes, in checked arithmetic (issue 31).
    _ = MotionPhoto.embeddedVideo(size: Int64(bytes.count)) { offset, count in
        guard offset >= 0, offset < Int64(bytes.count), count > 0 else { return Data() }
        return Data(bytes[Int(offset)..<Int(offset) + min(count, bytes.count - Int(offset))])
    }
    // The chunks of a PNG handed to libavcodec (text chunks out, a profile's inflated size capped).
    _ = PNGDecoder.decoderRanges(bytes)
    // Every container's metadata walk, whatever the content says it is.
    _ = MetadataBlocks.jpeg(bytes)
    _ = MetadataBlocks.heif(bytes)
    _ = MetadataBlocks.webp(bytes)
    // Gain map metadata read from any bytes: ISO 21496-1's binary form and hdrgm XMP.
    _ = GainMapMetadata(isoJPEG: bytes)
    _ = GainMapMetadata(hdrgm: bytes[...])
    switch FormatSniffer.sniff(bytes) {
    case .supported(.jpeg):
        if let header = try? JPEGHeader(parsing: bytes) {
            _ = header.coefficientBytes
            _ = try? ImageManager.info(checking: header, in: bytes)
        }
        _ = ICCProfileReader.jpeg(bytes)
        // An Ultra HDR JPEG's gain map: MPF's IFD, the XMP Container directory, the gain map's
        // own segments and its ISO or hdrgm metadata.
        _ = JPEGGainMap.find(in: bytes)
    case .supported(.png):
        for complete in [false, true] {
            if let header = try? PNGHeader(parsing: bytes, complete: complete) {
                try? header.checkLimits(fileBytes: bytes.count)
                try? header.checkImageData()
            }
        }
    case .supported(.heif), .supported(.avif):
        _ = try? HEIFBoxes.checkedPrimaryItem(bytes, formatName: "HEIF")
        _ = HEIFBoxes.primaryRotation(bytes)
        _ = HEIFBoxes.primaryTransformations(bytes)
        _ = HEIFBoxes.hevcLayout(bytes)
    case .supported(.webp):
        _ = try? WebPHeader(parsing: bytes)
    case .supported(.video):
        break   // never sniffed (ClipProbe finds clips)
    case .other(let description):
        _ = FormatSniffer.problem(for: description)
    }
    return 0
}
