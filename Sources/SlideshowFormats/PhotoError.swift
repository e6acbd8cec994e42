import SlideshowSupport

/// Why a photo cannot become a slide. It names the photo and says why, in one line.
public typealias PhotoError = FileError<PhotoFailure>

/// The kinds of ``PhotoError``, for code that acts on them (and tests that assert them).
public enum PhotoFailure: Sendable, Hashable {
    /// No file at the path.
    case notFound
    /// The file exists but cannot be read: permissions, a folder, a FIFO or device.
    case unreadable
    /// The file has no bytes.
    case empty
    /// The bytes are in none of the formats the tool decodes (``ImageCapabilities/decoders``),
    /// e.g. a GIF or a video named `.jpg`.
    case notAnImage
    /// The image data ends before the image does.
    case truncated
    /// The image data is damaged (bad Huffman table, corrupt data, bad header).
    case corrupt
    /// A valid image of a kind the tool does not decode (e.g. a 12-bit JPEG).
    case unsupported
    /// The photo is over one of the documented caps, and is refused rather than allocated:
    /// its stated size (``ImageManager/maximumPixels``), the memory its decode needs, its
    /// file size, or its number of progressive scans (see ``ImageManager/maximumPixels``).
    case tooLarge
}
