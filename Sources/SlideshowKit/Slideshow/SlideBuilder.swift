import SlideshowColor
import SlideshowCompositor
import SlideshowImages
import SlideshowLooks
import SlideshowMetadata
import SlideshowPixels
import SlideshowPlan
import SlideshowText
import SlideshowFormats
import SlideshowSupport

/// Builds one photo of a render into what the writer or the compositor takes: the one slide
/// chain that the held-frame path (``SlidePreparer``) and the composer (``FrameComposer``)
/// both call.
///
/// Each picture goes decode (oriented, fitted or at a moving source's size) → look →
/// backdrop and date imprint → caption. A still gets its backdrop before its imprint, so the date sits
/// sharp on the blurred bars; a moving photo gets its imprint first, since the date is printed
/// on the picture as a camera prints it on the film and moves with it, and its backdrop is
/// blurred from that picture. The order decides the bytes, so it is written here once.
struct SlideBuilder: Sendable {
    let slideshow: Slideshow
    /// Each photo's capture date (from its header, read once during validation), for the imprint.
    let captureDates: [CaptureDate?]
    /// The captions, nil when the show has none.
    var captions: CaptionPainter? = nil
    /// Each item's header from validation (a clip's probe, a motion photo's video); empty
    /// when the show has no clips.
    var items: [PhotoInfo] = []
    /// The render's photo warnings, bound on whichever thread decodes a photo.
    var photoWarnings: PhotoWarningLog? = nil
    /// The render's ``ReadProbe`` (tests), bound there too.
    var probe: ReadProbe? = ReadProbe.current

    /// Photo `index` as a still slide at the frame's size: decoded, fitted, the look, the
    /// backdrop and the date imprint.
    /// - Throws: ``PhotoError`` for a photo that cannot be decoded.
    func still(_ index: Int) throws(PhotoError) -> PixelBuffer {
        try onDecodingThread { () throws(PhotoError) in try makeStill(index) }
    }

    private func makeStill(_ index: Int) throws(PhotoError) -> PixelBuffer {
        var buffer = try ImageManager().requestImage(
            for: slideshow.photos[index], targetSize: slideshow.video.size,
            contentMode: slideshow.contentMode, background: slideshow.background, framing: slideshow.framing)
        look(&buffer, index)
        if slideshow.backdrop == .blur { BlurredBackdrop.fill(&buffer) }
        imprint(&buffer, index)
        // Last: the caption sits on the picture and its bars, untinted by the look.
        if let caption = try caption(index) { buffer.composite(caption) }
        return buffer
    }

    /// Photo `index` as an HDR show's still slide: the SDR slide's chain (decode and fit, look,
    /// backdrop), then lifted by the photo's gain map when it has one, in the show's HDR light
    /// (``HDRSlide``), and the caption laid over in linear light at SDR light (its white at
    /// reference white). The look tints the SDR base, which the gain map then lifts; the
    /// blurred bars, the background and the date imprint stay at SDR light. Without a look, a
    /// wide-gamut photo keeps its gamut (``WideGamut``); a look works on sRGB values, so with
    /// one the photo is converted to sRGB first, as in an SDR show.
    /// - Throws: ``PhotoError`` for a photo that cannot be decoded.
    func hdrStill(_ index: Int, transfer: HDRTransfer) throws(PhotoError) -> HDRPixelBuffer {
        try onDecodingThread { () throws(PhotoError) in
            let manager = ImageManager()
            var gamut = WideGamut.sRGB
            var (buffer, crop) = try manager.requestImageAndCrop(for: slideshow.photos[index], targetSize: slideshow.video.size,
                                                                 contentMode: slideshow.contentMode, background: slideshow.background,
                                                                 framing: slideshow.framing, gamut: keepsGamut ? { gamut = $0 } : nil,
                                                                 hdr: true)
            let gain = try manager.fittedGainMap(for: slideshow.photos[index], like: buffer, contentMode: slideshow.contentMode, crop: crop)
            look(&buffer, index)
            if slideshow.backdrop == .blur { BlurredBackdrop.fill(&buffer) }
            // The date imprint stays at SDR light: the pixels it drew are not lifted by the gain map.
            var unimprinted: PixelBuffer? = nil
            if slideshow.dateImprint != nil {
                unimprinted = buffer
                imprint(&buffer, index)
            }
            return HDRSlide.make(buffer, gain: gain?.buffer, curve: gain?.curve, signal: HDRSignal(transfer),
                                 overlay: try caption(index), unlifted: unimprinted, gamut: gamut,
                                 barsInGamut: slideshow.backdrop == .blur)
        }
    }

    /// Photo `index` as an HDR show's moving photo (``HDRMovingPhoto``): its moving source at the
    /// path's magnification (``ImageManager/requestMovingSource(for:frameSize:contentMode:background:magnification:framing:area:)``),
    /// the look and the date imprint applied as an SDR moving photo's are, then lifted as
    /// ``hdrStill(_:transfer:)`` lifts a slide: by the photo's gain map fitted to the same
    /// picture area (the imprint's pixels not lifted); the blurred bars made as the SDR
    /// moving photo's, at SDR light; the faces kept in view along the path.
    /// - Throws: ``PhotoError`` for a photo that cannot be decoded or resampled.
    func hdrMoving(_ index: Int, motion path: MotionPath, transfer: HDRTransfer) throws(PhotoError) -> HDRMovingPhoto {
        try onDecodingThread { () throws(PhotoError) in
            let photo = slideshow.photos[index]
            let manager = ImageManager()
            var area = (x: 0.0, y: 0.0, width: 1.0, height: 1.0)
            var gamut = WideGamut.sRGB
            var (source, content, focus) = try manager.requestMovingSource(
                for: photo, frameSize: slideshow.video.size, contentMode: slideshow.contentMode,
                background: slideshow.background, magnification: path.magnification, framing: slideshow.framing,
                area: { area = $0 }, gamut: keepsGamut ? { gamut = $0 } : nil, hdr: true)
            // The source is the picture area filling its own size: the gain map is cropped to the same area and fills it too.
            let gain = try manager.fittedGainMap(for: photo, like: source, contentMode: .aspectFill, crop: area)
            look(&source, index)
            var unimprinted: PixelBuffer? = nil
            if slideshow.dateImprint != nil {
                unimprinted = source
                imprint(&source, index)
            }
            let signal = HDRSignal(transfer)
            // The source is all picture: every pixel but the imprint's in the photo's gamut.
            let lifted = HDRSlide.make(source, gain: gain?.buffer, curve: gain?.curve, signal: signal, unlifted: unimprinted,
                                       gamut: gamut, barsInGamut: true)
            let path = focus.map(path.keeping) ?? path
            let background = HDRSlide.codes(of: slideshow.background, signal: signal)
            var bars = HDRMovingPhoto.Bars.color(background.0, background.1, background.2)
            if slideshow.backdrop == .blur {
                var sdr = MovingPhoto(source: source, content: content, path: path)
                do throws(ImageProblem) {
                    try sdr.makeBlurredBackdrop(frameSize: slideshow.video.size, background: slideshow.background)
                } catch {
                    throw error.error(for: photo.path)
                }
                if let backdrop = sdr.backdrop {
                    bars = .backdrop(HDRSlide.make(backdrop, gain: nil, curve: nil, signal: signal, gamut: gamut, barsInGamut: true))
                }
            }
            return HDRMovingPhoto(source: DeepPlanarPicture(lifted), content: content, path: path, bars: bars,
                                  caption: try caption(index), signal: signal)
        }
    }

    /// Photo `index` as the compositor takes it: a still slide, or, with a motion path, its
    /// moving source at the path's magnification with the look and the imprint, the faces kept
    /// in view along the path, and its backdrop.
    /// - Throws: ``PhotoError`` for a photo that cannot be decoded.
    func photo(_ index: Int, motion path: MotionPath?) throws(PhotoError) -> ComposedPhoto {
        try onDecodingThread { () throws(PhotoError) in try makePhoto(index, motion: path) }
    }

    /// `body` with the render's photo warnings and probe bound: a slide is made on a
    /// preparer's or the composer's thread, where the render's task-locals are not.
    private func onDecodingThread<T>(_ body: () throws(PhotoError) -> T) throws(PhotoError) -> T {
        try ReadProbe.$current.withValue(probe) { () -> Result<T, PhotoError> in
            do throws(PhotoError) {
                return .success(try PhotoWarnings.collecting(into: photoWarnings, body))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    private func makePhoto(_ index: Int, motion path: MotionPath?) throws(PhotoError) -> ComposedPhoto {
        guard let path else { return .still(try makeStill(index)) }
        let photo = slideshow.photos[index]
        var (source, content, focus) = try ImageManager().requestMovingSource(
            for: photo, frameSize: slideshow.video.size, contentMode: slideshow.contentMode,
            background: slideshow.background, magnification: path.magnification, framing: slideshow.framing)
        look(&source, index)
        imprint(&source, index)
        // Faces found in fill stay in view all the way along the path.
        var moving = MovingPhoto(source: source, content: content, path: focus.map(path.keeping) ?? path)
        // Laid over each frame after the picture moves (``Compositor/picture(_:time:)``): the words stay put.
        moving.caption = try caption(index)
        if slideshow.backdrop == .blur {
            do throws(ImageProblem) {
                try moving.makeBlurredBackdrop(frameSize: slideshow.video.size, background: slideshow.background)
            } catch {
                throw error.error(for: photo.path)
            }
        }
        return .moving(moving)
    }

    /// Photo `index`'s caption drawn for the frame, nil without one.
    func caption(_ index: Int) throws(PhotoError) -> TextOverlay? {
        do throws(TextError) {
            return try captions?.overlay(index, frame: slideshow.video.size)
        } catch {
            throw PhotoError(path: slideshow.photos[index].path, kind: .tooLarge, reason: "its caption cannot be drawn (\(error))")
        }
    }

    /// Whether an HDR show's photos keep a wide gamut (``WideGamut``): only without a look,
    /// since looks work on sRGB values (``Look``).
    var keepsGamut: Bool { slideshow.look.name == Looks.original.name }

    func look(_ buffer: inout PixelBuffer, _ index: Int) {
        slideshow.look.apply(to: &buffer, slideIndex: index)
    }

    func imprint(_ buffer: inout PixelBuffer, _ index: Int) {
        if let imprint = slideshow.dateImprint, index < captureDates.count, let date = captureDates[index] {
            imprint.draw(date, on: &buffer)
        }
    }
}
