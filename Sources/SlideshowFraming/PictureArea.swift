import SlideshowPixels

/// Which part of a photo a moving picture plays over, and how fine its source must be.
///
/// Kept in one place so that other framing (faces, a subject) can plug in here: the rest of
/// the motion code only sees the rectangle this returns.
package enum PictureArea {
    /// The part of an upright image (in its pixels) that the moving picture shows at its
    /// widest view.
    ///
    /// Letterbox: the whole image. Fill: the crop a still slide of the same photo shows
    /// (``Framing/crop(of:aspect:faces:)``, the one crop rule), so that a photo frames the
    /// same whether it moves or not.
    /// - Parameters:
    ///   - image: the image's size.
    ///   - frame: the frame's size (its aspect is what fill keeps).
    ///   - mode: fit (letterbox, and blur over its backdrop) or fill.
    ///   - framing: with fill, the centre or around the faces.
    ///   - faces: faces found in the image (in its pixels), if any were looked for.
    package static func region(of image: Size, frame: Size, mode: ContentMode, framing: Framing, faces: [Rect] = []) -> Rect {
        guard mode == .aspectFill else { return Rect(image) }
        return framing.crop(of: image, aspect: frame, faces: faces)
    }

    /// A rectangle of the image (the faces to keep) in the units of a motion path's views over
    /// `region`: 0…1 each way, clamped to the region.
    package static func focus(of keep: Rect, in region: Rect) -> (x: ClosedRange<Double>, y: ClosedRange<Double>) {
        func unit(_ from: Int, _ length: Int, _ origin: Int, _ extent: Int) -> ClosedRange<Double> {
            let low = min(max(Double(from - origin) / Double(extent), 0), 1)
            return low...min(max(Double(from + length - origin) / Double(extent), low), 1)
        }
        return (x: unit(keep.x, keep.width, region.x, region.width), y: unit(keep.y, keep.height, region.y, region.height))
    }

    /// The size of a moving photo's source: its place on screen times the path's
    /// magnification, rounded up, so that the most zoomed-in frame never enlarges it.
    package static func sourceSize(content: Rect, magnification: Double) -> Size {
        Size(width: Int((Double(content.width) * magnification).rounded(.up)),
             height: Int((Double(content.height) * magnification).rounded(.up)))
    }
}
