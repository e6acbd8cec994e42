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
