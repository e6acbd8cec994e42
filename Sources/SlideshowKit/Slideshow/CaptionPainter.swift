import Synchronization
import SlideshowPixels
import SlideshowText

/// Draws the show's captions for the slide chain (``SlideBuilder``): one renderer for the
/// render, shared by the threads that prepare slides (drawing a caption takes a few
/// milliseconds, once per photo, so they take turns).
final class CaptionPainter: Sendable {
    /// Each photo's caption (``PreparedSlideshow/captions``).
    let captions: [Caption?]
    private let renderer: Mutex<TextRenderer>

    /// A painter for a render; nil when no photo has a caption.
    /// - Throws: ``TextError`` when the style's font cannot be loaded (checked before, in
    ///   ``Slideshow/validate()``) or Pango cannot start.
    init?(captions: [Caption?], style: TextStyle) throws(TextError) {
        guard captions.contains(where: { $0 != nil }) else { return nil }
        self.captions = captions
        renderer = Mutex(try TextRenderer(style: style))
    }

    /// Photo `index`'s caption drawn for a frame of `size`; nil when it has none.
    /// - Throws: ``TextError`` when cairo cannot draw (no memory).
    func overlay(_ index: Int, frame size: Size) throws(TextError) -> TextOverlay? {
        guard index < captions.count, let caption = captions[index] else { return nil }
        return try renderer.withLock { renderer throws(TextError) in try renderer.overlay(for: caption, frame: size) }
    }
}
