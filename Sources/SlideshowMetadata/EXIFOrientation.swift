import SlideshowPixels

/// Reads the EXIF orientation tag (0x0112) from JPEG bytes or a bare TIFF block: the one
/// reader (``MetadataBlocks``, ``TIFFBlock``) asked for the orientation alone.
///
/// Over untrusted bytes: any damage (offsets past the end, zero-length segments, a wrong tag
/// type, a value outside 1...8) gives `nil`, which callers treat as ``Orientation/up``. It never traps.
package enum EXIFOrientation {
    /// The orientation of a JPEG file: the first APP1 segment that starts with `Exif\0\0`
    /// before the image data (SOS), its IFD0's SHORT tag 0x0112 when it is 1 to 8.
    /// - Parameters:
    ///   - jpeg: the file's bytes (a prefix holding the header is enough).
    /// - Returns: the orientation, or nil when absent or garbled.
    package static func parse(jpeg: [UInt8]) -> Orientation? {
        MetadataBlocks.jpeg(jpeg).exif?.orientation
    }

    /// The orientation in a TIFF block: an EXIF APP1 payload after `Exif\0\0`, or a PNG `eXIf` chunk.
    /// - Parameters:
    ///   - bytes: the bytes holding the block.
    ///   - range: where the block lies in `bytes`; nothing outside it is read. Offsets in the
    ///     block count from its start.
    /// - Returns: the orientation, or nil when absent or garbled.
    package static func parse(tiff bytes: [UInt8], in range: Range<Int>) -> Orientation? {
        TIFFBlock(bytes, range)?.orientation
    }
}
