import SlideshowFormats
import SlideshowPixels

/// What a photo's metadata says, read from its EXIF block (and, for a later caption reader,
/// its XMP packet) whatever the container: the one reader every format goes through.
///
/// To read more (a caption from EXIF `ImageDescription` or XMP `dc:title`/`dc:description`),
/// add a field here and fill it in ``init(_:)`` from ``MetadataBlocks/exif`` (see ``EXIFTag``)
/// and ``MetadataBlocks/xmp``; every format then has it.
package struct PhotoMetadata: Sendable, Hashable {
    /// The EXIF orientation, nil when there is none or it is garbled. HEIF files carry one for
    /// information only (see ``HEIFPicture``); their callers ignore it.
    package var orientation: Orientation?
    /// The capture date as the file states it (`DateTimeOriginal` with `OffsetTimeOriginal`),
    /// nil when there is none; not yet checked for plausibility (``CaptureDate/plausible(_:photo:now:)``).
    package var captureDate: CaptureDate?
    /// The photo's own caption as raw bytes (``CaptionText``), nil when it has none.
    package var caption: [UInt8]?

    /// Nothing known.
    package init() {}

    /// What the blocks say.
    package init(_ blocks: MetadataBlocks) {
        orientation = blocks.exif?.orientation
        captureDate = blocks.exif?.captureDate
        caption = CaptionText.read(blocks)
    }

    /// Reads the metadata of a file of the given format.
    ///
    /// A JPEG's marker segments are walked up to its image data, a PNG's chunks by
    /// ``PNGHeader`` (nothing when its header is broken), a HEIF's or AVIF's `meta` box items,
    /// a WebP's RIFF chunks.
    /// - Parameters:
    ///   - bytes: the file's bytes: a prefix holding the header is enough for JPEG and PNG;
    ///     HEIF, AVIF and WebP may keep their metadata after the image data, so the whole file.
    ///   - format: the format the file's content was recognised as.
    package init(reading bytes: [UInt8], format: ImageFormat) {
        switch format {
        case .jpeg: self.init(MetadataBlocks.jpeg(bytes))
        case .png: self = (try? PNGHeader(parsing: bytes, complete: false))?.metadata ?? PhotoMetadata()
        case .heif, .avif: self.init(MetadataBlocks.heif(bytes))
        case .webp: self.init(MetadataBlocks.webp(bytes))
        case .video: self.init()
        }
    }
}
