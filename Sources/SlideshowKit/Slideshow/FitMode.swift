import SlideshowFraming

/// Letterbox, fill or blur: how photos of another shape fill the frame, by the names the
/// command line and manifests use.
public enum FitMode: String, Sendable, Hashable, CaseIterable {
    /// The whole photo, between bars (`ContentMode/aspectFit`).
    case letterbox
    /// Cropped to fill the frame (`ContentMode/aspectFill`).
    case fill
    /// The whole photo over a blurred, darkened copy of itself that fills the frame
    /// (`ContentMode/aspectFit` with ``Backdrop/blur``): no bars.
    case blur

    /// The library's content mode.
    public var contentMode: ContentMode {
        switch self {
        case .letterbox: .aspectFit
        case .fill: .aspectFill
        case .blur: .aspectFit
        }
    }
}
