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

/// How a photo fills a frame whose shape differs from its own.
///
/// Neither mode ever stretches a photo: both keep its aspect ratio.
public enum ContentMode: Sendable, Hashable {
    /// Letterbox: the whole photo is visible, centred, with bars of the background colour
    /// on the sides that it does not reach.
    case aspectFit
    /// Crop to fill: the photo covers the whole frame, centred, and what overhangs is cut off.
    case aspectFill
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

/// How a photo's stored pixels must be turned to display upright: the EXIF orientation tag.
///
/// The raw values are the EXIF (TIFF tag 0x0112) values 1 to 8, and the names follow
/// Apple's `CGImagePropertyOrientation`: the name says where the stored image's top row
/// ends up, or how the stored image is turned to display upright.
public enum Orientation: Int, Sendable, Hashable, CaseIterable {
    /// 1: stored upright; nothing to do.
    case up = 1
    /// 2: mirror horizontally (left and right swap).
    case upMirrored = 2
    /// 3: rotate 180°.
    case down = 3
    /// 4: mirror vertically (top and bottom swap).
    case downMirrored = 4
    /// 5: transpose (mirror across the top-left to bottom-right diagonal); width and height swap.
    case leftMirrored = 5
    /// 6: rotate 90° clockwise to display (the usual portrait phone photo); width and height swap.
    case right = 6
    /// 7: transverse (mirror across the top-right to bottom-left diagonal); width and height swap.
    case rightMirrored = 7
    /// 8: rotate 90° counter-clockwise to display; width and height swap.
    case left = 8

    /// Whether displaying the photo swaps its width and height (orientations 5 to 8).
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The size a stored image of `size` has once displayed in this orientation.
    /// - Parameters:
    ///   - size: the stored (decoded) size.
    public func displayedSize(of size: Size) -> Size {
        swapsWidthAndHeight ? Size(width: size.height, height: size.width) : size
    }
}

/// What a photo's header says: enough to validate a photo and lay out a slide without decoding it.
public struct PhotoInfo: Sendable, Hashable {
    /// The format, recognised from the file's content.
    public var format: ImageFormat
    /// The size of the pixels as stored in the file, before orientation.
    public var storedSize: Size
    /// The EXIF orientation (``Orientation/up`` when the file has none).
    public var orientation: Orientation
    /// The size the photo displays at: ``storedSize`` with width and height swapped for
    /// orientations 5 to 8.
    public var displayedSize: Size
    /// When the photo was taken (its EXIF `DateTimeOriginal`, in any format), nil when it does
    /// not say or says something implausible (see ``CaptureDate/read(_:)``).
    public var captureDate: CaptureDate?
    /// The photo's own caption (XMP `dc:description` or `dc:title`, EXIF `ImageDescription`),
    /// repaired and sanitised; nil when it has none (see ``CaptionText``).
    public var caption: Caption? = nil
    /// Set when the caption's bytes were not valid UTF-8 and were repaired with U+FFFD.
    public var captionWarning: TextWarning? = nil
    /// For an item that is a video clip (``format`` ``ImageFormat/video``): what its probe found.
    public var clip: ClipInfo? = nil
    /// For a motion photo whose video plays (``Slideshow/motionPhotos``): the embedded or
    /// paired video, checked; nil otherwise.
    public var motionClip: ClipInfo? = nil

    /// Creates a photo description.
    ///
    /// - Parameters:
    ///   - format: the image format.
    ///   - storedSize: the stored pixel size.
    ///   - orientation: the EXIF orientation.
    ///   - displayedSize: the displayed size; by default `storedSize` turned by `orientation`.
    ///   - captureDate: when the photo was taken; nil by default.
    public init(format: ImageFormat, storedSize: Size, orientation: Orientation, displayedSize: Size? = nil,
                captureDate: CaptureDate? = nil) {
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
        self.displayedSize = displayedSize ?? orientation.displayedSize(of: storedSize)
        self.captureDate = captureDate
    }
}
