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
