import SlideshowPixels

/// A film look: a change to the pixels of a slide's photo.
///
/// Looks work on gamma-encoded sRGB values in [0, 1] (see ``PixelBuffer``), not linear
/// light as Core Image does; the source app's pictures are a guide, not a golden file.
/// A look changes only the pixels inside the buffer's `contentRect`: letterbox bars keep
/// the background colour.
public protocol Look: Sendable {
    /// The name the command line uses, e.g. `minimal-life`.
    var name: String { get }

    /// Applies the look in place.
    /// - Parameters:
    ///   - buffer: the slide, at its final output size.
    ///   - slideIndex: the slide's position in the show; it seeds the grain, so each slide has
    ///     its own grain, the same on every run.
    func apply(to buffer: inout PixelBuffer, slideIndex: Int)
}

/// A look that changes each pixel by its own values alone: not by where it lies, its
/// neighbours, the slide's index or the rest of the picture. A row of a picture (or any part of
/// it) gets from such a look the pixels the whole picture gets there, so an HDR clip's frame
/// can take it a row at a time (the HDR clip look).
package protocol PixelwiseLook: Look {}

extension Look {
    /// Whether the look changes each pixel by its own values alone (``PixelwiseLook``; a chain
    /// of such looks is one).
    package var isPixelwise: Bool {
        if let chain = self as? LookChain { return chain.looks.allSatisfy { $0.isPixelwise } }
        return self is any PixelwiseLook
    }
}
