import SlideshowPixels

extension Framing {
    /// The one crop rule of ``ContentMode/aspectFill``, for still and moving photos alike: the
    /// part of an upright image of size `source` that fills a frame of `aspect`'s ratio.
    ///
    /// - ``center``: the plain centre crop (``FitGeometry/centreCrop(of:aspect:)``), whatever
    ///   the photo holds.
    /// - ``faces``: ``FaceFraming/crop(of:aspect:faces:)``: around the faces when there are
    ///   any; without faces, a crop that cuts the height keeps the upper third of the photo in
    ///   view (where heads usually are, when the detector missed them), one that cuts the
    ///   width stays centred.
    /// - Parameters:
    ///   - source: the image's size.
    ///   - aspect: the frame's size (only its ratio matters).
    ///   - faces: the faces found in the image, in its pixels (ignored by ``center``).
    package func crop(of source: Size, aspect: Size, faces: [Rect]) -> Rect {
        switch self {
        case .center: FitGeometry.centreCrop(of: source, aspect: aspect)
        case .faces: FaceFraming.crop(of: source, aspect: aspect, faces: faces)
        }
    }
}
