import SlideshowFormats
import SlideshowMetadata
import SlideshowPixels
import SlideshowText
import SlideshowVideo

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

extension PhotoInfo {
    /// This description with the caption the metadata carries, repaired (with a warning
    /// naming `path` when its bytes were not UTF-8) and sanitised.
    package func withCaption(_ metadata: PhotoMetadata, path: String) -> PhotoInfo {
        guard let bytes = metadata.caption else { return self }
        var info = self
        let (caption, warnings) = Caption.decoding(utf8: bytes, source: path)
        info.caption = caption
        info.captionWarning = warnings.first
        return info
    }
}
