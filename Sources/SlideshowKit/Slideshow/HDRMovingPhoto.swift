import SlideshowColor
import SlideshowCompositor
import SlideshowImages
import SlideshowPixels
import SlideshowPlan
import SlideshowText

/// A photo that moves in an HDR show: its picture area made once, finer than its place on
/// screen, in the show's HDR light (its SDR source, look and date imprint, lifted by its gain
/// map: ``HDRSlide``), and the path its view takes; the HDR twin of ``MovingPhoto``.
///
/// Every frame is resampled from that one source by the SDR path's filter (zimg's bilinear,
/// widened when reducing: ``MotionResampler``) on its 16-bit PQ or HLG code values, as the SDR
/// path resamples sRGB's: the weights are never negative, so no sample overshoots the ones
/// under it (a highlight's edge does not ring), and a highlight keeps its light while it moves
/// (the samples inside it are its own). Resampling the code values rather than linear light
/// mixes a highlight's one-pixel edge a little darker than light would (as sRGB's does in
/// SDR), and costs no conversion per frame.
struct HDRMovingPhoto: Sendable {
    /// The lifted picture area at ``PictureArea/sourceSize(content:magnification:)``.
    let source: DeepPlanarPicture
    /// Where the picture goes in the frame: its fitted rectangle (letterbox) or the whole frame (fill).
    let content: Rect
    /// How the view moves.
    let path: MotionPath
    /// The frame outside ``content``: the background's code values, or, with blur fill, a
    /// whole frame of the blurred picture at SDR light (still while the picture moves).
    let bars: Bars
    /// The photo's caption, laid over each frame in linear light (it does not move).
    let caption: TextOverlay?
    let signal: HDRSignal

    enum Bars: Sendable {
        case color(UInt16, UInt16, UInt16)
        case backdrop(HDRPixelBuffer)
    }

    /// The frame at motion time `time`.
    /// - Parameter pool: where the frame's array comes from (every sample is written), or nil for a new one.
    /// - Throws: ``ImageProblem`` when the picture cannot be resampled (``MotionResampler``).
    func picture(at time: Double, frameSize size: Size, pool: FramePool<UInt16>? = nil) throws(ImageProblem) -> HDRPixelBuffer {
        let count = size.width * size.height * 3
        var samples = pool.flatMap { $0.count == count ? $0.take() : nil }
            ?? [UInt16](unsafeUninitializedCapacity: count) { _, initialised in initialised = count }
        samples.withUnsafeMutableBufferPointer { buffer in
            switch bars {
            case .backdrop(let backdrop):
                backdrop.samples.withUnsafeBufferPointer { buffer.baseAddress!.update(from: $0.baseAddress!, count: count) }
            case .color(let r, let g, let b):
                // Only the bars: the content rectangle is written by the resample. One row of
                // the colour, copied (a sample at a time, the bars were a tenth of our own time).
                let rowSamples = size.width * 3
                let frame = buffer.baseAddress!
                for x in 0..<size.width {
                    frame[3 * x] = r; frame[3 * x + 1] = g; frame[3 * x + 2] = b
                }
                func paint(_ y: Int, _ columns: Range<Int>) {
                    guard y > 0, !columns.isEmpty else { return }
                    (frame + y * rowSamples + columns.lowerBound * 3).update(from: frame + columns.lowerBound * 3, count: columns.count * 3)
                }
                // Row 0 is all colour now (the resample writes its content, if any, after); the others copy from it.
                for y in 0..<size.height {
                    if y >= content.y && y < content.maxY {
                        paint(y, 0..<content.x)
                        paint(y, content.maxX..<size.width)
                    } else {
                        paint(y, 0..<size.width)
                    }
                }
            }
        }
        var problem: ImageProblem?
        samples.withUnsafeMutableBufferPointer { buffer in
            do throws(ImageProblem) {
                try MotionResampler.resample(source, view: viewRect(at: time), into: buffer.baseAddress!, frameWidth: size.width,
                                             content: content)
            } catch {
                problem = error
            }
        }
        if let problem { throw problem }
        var picture = HDRPixelBuffer(size: size, samples: samples, contentRect: content)
        if let caption { HDRSlide.overlay(caption, on: &picture, signal: signal) }
        return picture
    }

    /// The view at `time` in source pixels: left, top, width, height (as ``MovingPhoto/viewRect(at:)``).
    func viewRect(at time: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let view = path.view(at: time)
        let width = view.scale * Double(source.width), height = view.scale * Double(source.height)
        return (view.centerX * Double(source.width) - width / 2, view.centerY * Double(source.height) - height / 2, width, height)
    }
}
