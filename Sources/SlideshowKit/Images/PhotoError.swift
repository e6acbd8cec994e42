/// Why a photo cannot become a slide. It names the photo and says why, in one line.
public struct PhotoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure, for code that acts on them (and tests that assert them).
    public enum Kind: Sendable, Equatable {
        /// No file at the path.
        case notFound
        /// The file exists but cannot be read: permissions, a folder, a FIFO or device.
        case unreadable
        /// The file has no bytes.
        case empty
        /// The bytes are not a JPEG or PNG image (e.g. a HEIC file named `.jpg`).
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

    /// The photo's path as the user gave it.
    public var path: String
    /// The kind of failure.
    public var kind: Kind
    /// A short, lower-case reason for the user, e.g. `truncated JPEG data (Premature end of JPEG file)`.
    public var reason: String

    /// Creates an error.
    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// `<path>: <reason>`.
    public var description: String { "\(path): \(reason)" }
}
