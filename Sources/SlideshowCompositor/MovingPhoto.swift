import SlideshowImages
import SlideshowPixels
import SlideshowPlan
import SlideshowText
import SlideshowFormats

/// A photo that moves: its picture area decoded once, finer than its place on screen, and the
/// path its view takes.
///
/// Every frame is resampled from this one source (``MotionResampler``), never re-decoded and
/// never enlarged from a frame-size picture. The look and the date imprint are applied to the
/// source, so that grain and date move with the picture instead of swimming over it.
package struct MovingPhoto: Sendable {
    /// The picture area at ``PictureArea/sourceSize(content:magnification:)``, in planes.
    package var source: PlanarPicture
    /// Where the picture goes in the frame: its fitted rectangle (letterbox) or the whole frame (fill).
    package var content: Rect
    /// How the view moves.
    package var path: MotionPath
    /// With blur fill in letterbox: a whole frame whose outside of ``content`` is the blurred,
    /// darkened picture, still while the picture moves; nil for plain bars.
    package var backdrop: PixelBuffer? = nil
    /// The photo's caption, laid over each frame where the frame shows (it does not move).
    package var caption: TextOverlay? = nil

    /// A moving photo whose source is `source` (the packed picture, look and imprint applied).
    package init(source: PixelBuffer, content: Rect, path: MotionPath) {
        self.source = PlanarPicture(source)
        self.content = content
        self.path = path
    }

    /// Paints the frame outside ``content``: the backdrop when there is one, else the colour.
    package func paintBars(_ frame: UnsafeMutablePointer<UInt8>, size: Size, background: RGBColor) {
        guard let backdrop else {
            ImageManager.fillBackground(frame, size: size, except: content, with: background)
            return
        }
        backdrop.withUnsafeBytes { bytes in frame.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: size.width * size.height * 3) }
    }

    /// Makes ``backdrop`` from the picture at its first view, as a still slide's blur fill is made.
    /// - Throws: ``ImageProblem`` when the picture cannot be resampled (``MotionResampler``).
    package mutating func makeBlurredBackdrop(frameSize size: Size, background: RGBColor) throws(ImageProblem) {
        guard content != Rect(size) else { return }
        var still = try picture(at: 0, frameSize: size, background: background)
        BlurredBackdrop.fill(&still)
        backdrop = still
    }

    /// The frame at motion time `time`: the bars (or backdrop) and the view resampled into ``content``.
    /// - Parameter pool: where the frame's array comes from (every byte is written), or nil for a new one.
    /// - Throws: ``ImageProblem`` when the picture cannot be resampled (``MotionResampler``).
    package func picture(at time: Double, frameSize size: Size, background: RGBColor, pool: FramePool<UInt8>? = nil) throws(ImageProblem) -> PixelBuffer {
        var problem: ImageProblem?
        let count = size.width * size.height * 3
        var pixels = pool.flatMap { $0.count == count ? $0.take() : nil }
            ?? [UInt8](unsafeUninitializedCapacity: count) { _, initialised in initialised = count }
        pixels.withUnsafeMutableBufferPointer { buffer in
            let frame = buffer.baseAddress!
            paintBars(frame, size: size, background: background)
            do throws(ImageProblem) {
                try MotionResampler.resample(source, view: viewRect(at: time), into: frame, frameWidth: size.width, content: content)
            } catch {
                problem = error
            }
        }
        if let problem { throw problem }
        return PixelBuffer(size: size, pixels: pixels, contentRect: content)
    }

    /// The view at `time` in source pixels: left, top, width, height.
    package func viewRect(at time: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let view = path.view(at: time)
        let width = view.scale * Double(source.width), height = view.scale * Double(source.height)
        return (view.centerX * Double(source.width) - width / 2, view.centerY * Double(source.height) - height / 2, width, height)
    }
}
