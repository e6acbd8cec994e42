import SlideshowPixels

/// Where a clip's pictures go in the frame, fitted as a photo is: pure integer geometry.
///
/// The reader scales each upright picture once, to ``readerSize``; the part ``crop`` of it
/// lands at ``content`` in the frame. Letterbox (``ContentMode/aspectFit``) is
/// ``FitGeometry``'s rule for stills, so a clip's bars are a photo's bars; crop to fill
/// (``ContentMode/aspectFill``) takes the one crop rule (``Framing/crop(of:aspect:faces:)``)
/// in the clip's upright pixels, with the faces found in its first picture, and keeps that
/// crop for the whole clip (a crop that followed the faces frame by frame would jitter).
package struct ClipFit: Sendable, Hashable {
    /// The size the reader gives the whole upright picture at.
    package var readerSize: Size
    /// The part of the reader's picture that shows, in its pixels.
    package var crop: Rect
    /// Where that part goes in the frame.
    package var content: Rect

    /// Fits a clip whose upright pictures are `display` into a frame of `frame`.
    /// - Parameters:
    ///   - display: the clip's upright size (``ClipInfo/displaySize``).
    ///   - frame: the show's frame size.
    ///   - mode: letterbox or crop to fill.
    ///   - framing: which part fill keeps.
    ///   - faces: faces in the upright picture, in `display`'s pixels (fill with ``Framing/faces`` only).
    package init(display: Size, frame: Size, mode: ContentMode, framing: Framing, faces: [Rect] = []) {
        switch mode {
        case .aspectFit:
            let geometry = FitGeometry(source: display, target: frame, mode: .aspectFit)
            readerSize = Size(width: geometry.content.width, height: geometry.content.height)
            crop = Rect(readerSize)
            content = geometry.content
        case .aspectFill:
            let part = framing.crop(of: display, aspect: frame, faces: faces)
            let scale = Double(frame.width) / Double(part.width)
            let width = max(frame.width, Int((Double(display.width) * scale).rounded()))
            let height = max(frame.height, Int((Double(display.height) * scale).rounded()))
            readerSize = Size(width: width, height: height)
            let x = min(max(0, Int((Double(part.x) * scale).rounded())), width - frame.width)
            let y = min(max(0, Int((Double(part.y) * scale).rounded())), height - frame.height)
            crop = Rect(x: x, y: y, width: frame.width, height: frame.height)
            content = Rect(frame)
        }
    }

    /// Whether fill cuts part of the picture away (only then do faces matter).
    package static func cropsAway(display: Size, frame: Size) -> Bool {
        display.width * frame.height != display.height * frame.width
    }

    /// The size faces are looked for at: the upright picture with its longer side
    /// ``FaceFraming/detectionSide`` (or smaller when the picture is).
    package static func detectionSize(display: Size) -> Size {
        let longer = max(display.width, display.height)
        guard longer > FaceFraming.detectionSide else { return display }
        let scale = Double(FaceFraming.detectionSide) / Double(longer)
        return Size(width: max(2, Int((Double(display.width) * scale).rounded())),
                    height: max(2, Int((Double(display.height) * scale).rounded())))
    }
}
