import SlideshowPixels

/// Where a photo goes in a frame, and which part of it shows: pure integer arithmetic.
///
/// The rules, for clean 4:2:0 chroma downstream:
/// - The content rectangle's width and height are even, and so are its x and y:
///   `x = (W − w) / 2` rounded down to even, likewise `y`. When the bar total is not a
///   multiple of 4, the right (or bottom) bar is therefore 2 pixels wider than the left (or
///   top) one.
/// - aspectFit: the photo's longer side (relative to the frame) spans the frame's even width
///   or height; the other side is the photo's aspect times that, rounded to the nearest even
///   number (halves up), so the aspect error is under 1 pixel plus that rounding. Never
///   smaller than 2x2: an extreme panorama keeps a 2-pixel strip. The whole photo shows.
/// - aspectFill: the content is the whole frame (even whenever the frame is, as video frames
///   are); the source is centre-cropped to the frame's aspect (crop size rounded to the
///   nearest pixel, offset rounded down).
/// - Nothing is ever stretched beyond that rounding.
package struct FitGeometry: Sendable, Hashable {
    /// Where the photo lands in the frame.
    package var content: Rect
    /// The part of the source (in source pixels) that is scaled into `content`.
    package var crop: Rect
    /// The size the *whole* source takes at this scale (rounded up): what a scaled decode
    /// must cover so the resampler never enlarges. Equal to the content size for aspectFit.
    package var fittedSize: Size

    /// Lays a source of `source` size out in a frame of `target` size.
    /// - Parameters:
    ///   - source: the source's displayed size (after orientation); both sides at least 1.
    ///   - target: the frame's size; both sides at least 2.
    ///   - mode: letterbox or crop-to-fill.
    package init(source: Size, target: Size, mode: ContentMode) {
        precondition(source.width >= 1 && source.height >= 1, "a source needs a positive size")
        precondition(target.width >= 2 && target.height >= 2, "a frame needs at least 2x2 pixels")
        let (sw, sh) = (source.width, source.height)
        switch mode {
        case .aspectFit:
            let boxW = target.width & ~1, boxH = target.height & ~1
            var w: Int, h: Int
            if sw * boxH >= sh * boxW {
                // Relatively wider than the box: the width spans it.
                w = boxW
                h = Self.roundedToEven(sh * boxW, sw)
            } else {
                h = boxH
                w = Self.roundedToEven(sw * boxH, sh)
            }
            w = min(max(w, 2), boxW)
            h = min(max(h, 2), boxH)
            let x = ((target.width - w) / 2) & ~1
            let y = ((target.height - h) / 2) & ~1
            content = Rect(x: x, y: y, width: w, height: h)
            crop = Rect(source)
            fittedSize = Size(width: w, height: h)
        case .aspectFill:
            content = Rect(target)
            crop = Self.centreCrop(of: source, aspect: target)
            fittedSize = Size(width: Self.ceilingDivision(sw * target.width, crop.width),
                              height: Self.ceilingDivision(sh * target.height, crop.height))
        }
    }

    /// The largest centred rectangle of `source` with the aspect ratio of `aspect`.
    ///
    /// Used again on the decoded buffer, whose size differs a little from the header's
    /// after DCT scaling, so that the crop is exact in the pixels actually at hand.
    /// - Parameters:
    ///   - source: the size to crop.
    ///   - aspect: the size whose aspect ratio the crop takes.
    package static func centreCrop(of source: Size, aspect: Size) -> Rect {
        let (sw, sh) = (source.width, source.height)
        if sw * aspect.height > sh * aspect.width {
            // Relatively wider than the frame: keep the full height, cut the sides.
            let w = min(max(roundedDivision(sh * aspect.width, aspect.height), 1), sw)
            return Rect(x: (sw - w) / 2, y: 0, width: w, height: sh)
        } else {
            let h = min(max(roundedDivision(sw * aspect.height, aspect.width), 1), sh)
            return Rect(x: 0, y: (sh - h) / 2, width: sw, height: h)
        }
    }

    /// A rectangle's size (here rather than on the shared `Rect`, which other stages own).
    package static func size(of rect: Rect) -> Size {
        Size(width: rect.width, height: rect.height)
    }

    /// `numerator / denominator` rounded to the nearest even integer (halves up).
    package static func roundedToEven(_ numerator: Int, _ denominator: Int) -> Int {
        2 * ((numerator + denominator) / (2 * denominator))
    }

    /// `numerator / denominator` rounded to the nearest integer (halves up).
    package static func roundedDivision(_ numerator: Int, _ denominator: Int) -> Int {
        (2 * numerator + denominator) / (2 * denominator)
    }

    /// `numerator / denominator` rounded up.
    package static func ceilingDivision(_ numerator: Int, _ denominator: Int) -> Int {
        (numerator + denominator - 1) / denominator
    }
}
