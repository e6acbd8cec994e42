/// A photo on disk, named by its path.
///
/// The path is kept exactly as the user gave it (relative or absolute), and every
/// ``PhotoError`` about the photo carries it unchanged, so messages point at what the user typed.
public struct Photo: Sendable, Hashable {
    /// The file's path, as given.
    public var path: String

    /// Creates a photo from a path.
    ///
    /// Nothing is read until ``ImageManager/inspect(_:)`` or
    /// ``ImageManager/requestImage(for:targetSize:contentMode:background:)`` is called.
    /// - Parameters:
    ///   - path: the file's path, relative to the working folder or absolute.
    public init(path: String) {
        self.path = path
    }
}

/// The image formats a photo may be in, recognised from the file's first bytes (never its name).
public enum ImageFormat: Sendable, Hashable {
    /// JPEG (baseline, extended, progressive or arithmetic-coded; 8-bit; greyscale, YCbCr, CMYK or YCCK).
    case jpeg
    /// PNG (any bit depth and colour type; alpha is composited over the background).
    case png
    /// HEIF or HEIC (HEVC-coded, as iPhones and most Android phones save; grids, 8 to 12 bits, alpha) through libheif.
    case heif
    /// AVIF (AV1-coded HEIF; 8 to 12 bits, alpha) through libheif.
    case avif
    /// WebP (lossy, lossless, alpha; still images) through libwebp.
    case webp
    /// Not a photo: a video clip, recognised by its content (``PhotoInfo/clip`` says what it is).
    case video
}
