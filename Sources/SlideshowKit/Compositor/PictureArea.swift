/// Which part of a photo a moving picture plays over, and how fine its source must be.
///
/// Kept in one place so that other framing (faces, a subject) can plug in here: the rest of
/// the motion code only sees the rectangle this returns.
enum PictureArea {
    /// The part of an upright image (in its pixels) that the moving picture shows at its
    /// widest view.
    ///
    /// Letterbox: the whole image. Fill: the largest rectangle of the frame's aspect; around
    /// the faces when there are any (``FaceFraming/crop(of:aspect:faces:)``), otherwise centred
    /// across, and down: centred for landscape images, centred on the upper third for
    /// portrait ones (taller than wide), so that heads stay in view.
    /// - Parameters:
    ///   - image: the image's size.
    ///   - frame: the frame's size (its aspect is what fill keeps).
    ///   - mode: fit (letterbox, and blur over its backdrop) or fill.
    ///   - faces: faces found in the image (in its pixels), if any were looked for.
    static func region(of image: Size, frame: Size, mode: ContentMode, faces: [Rect] = []) -> Rect {
        guard mode == .aspectFill else { return Rect(image) }
        if !faces.isEmpty { return FaceFraming.crop(of: image, aspect: frame, faces: faces) }
        let centred = FitGeometry.centreCrop(of: image, aspect: frame)
        guard image.height > image.width, centred.height < image.height else { return centred }
        let y = min(max(image.height / 3 - centred.height / 2, 0), image.height - centred.height)
        return Rect(x: centred.x, y: y, width: centred.width, height: centred.height)
    }

    /// The size of a moving photo's source: its place on screen times the path's
    /// magnification, rounded up, so that the most zoomed-in frame never enlarges it.
    static func sourceSize(content: Rect, magnification: Double) -> Size {
        Size(width: Int((Double(content.width) * magnification).rounded(.up)),
             height: Int((Double(content.height) * magnification).rounded(.up)))
    }
}
