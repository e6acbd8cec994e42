/// A photo that moves: its picture area decoded once, finer than its place on screen, and the
/// path its view takes.
///
/// Every frame is resampled from this one source (``MotionResampler``), never re-decoded and
/// never enlarged from a frame-size picture. The look and the date imprint are applied to the
/// source, so that grain and date move with the picture instead of swimming over it.
struct MovingPhoto: Sendable {
    /// The picture area at ``PictureArea/sourceSize(content:magnification:)``, in planes.
    var source: PlanarPicture
    /// Where the picture goes in the frame: its fitted rectangle (letterbox) or the whole frame (fill).
    var content: Rect
    /// How the view moves.
    var path: MotionPath
    /// With blur fill in letterbox: a whole frame whose outside of ``content`` is the blurred,
    /// darkened picture, still while the picture moves; nil for plain bars.
    var backdrop: PixelBuffer? = nil

    /// A moving photo whose source is `source` (the packed picture, look and imprint applied).
    init(source: PixelBuffer, content: Rect, path: MotionPath) {
        self.source = PlanarPicture(source)
        self.content = content
        self.path = path
    }

    /// Paints the frame outside ``content``: the backdrop when there is one, else the colour.
    func paintBars(_ frame: UnsafeMutablePointer<UInt8>, size: Size, background: RGBColor) {
        guard let backdrop else {
            ImageManager.fillBackground(frame, size: size, except: content, with: background)
            return
        }
        backdrop.withUnsafeBytes { bytes in frame.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: size.width * size.height * 3) }
    }

    /// Makes ``backdrop`` from the picture at its first view, as a still slide's blur fill is made.
    /// - Throws: ``ImageProblem`` when the picture cannot be resampled (``MotionResampler``).
    mutating func makeBlurredBackdrop(frameSize size: Size, background: RGBColor) throws(ImageProblem) {
        guard content != Rect(size) else { return }
        var still = try picture(at: 0, frameSize: size, background: background)
        BlurredBackdrop.fill(&still)
        backdrop = still
    }

    /// The frame at motion time `time`: the bars (or backdrop) and the view resampled into ``content``.
    /// - Throws: ``ImageProblem`` when the picture cannot be resampled (``MotionResampler``).
    func picture(at time: Double, frameSize size: Size, background: RGBColor) throws(ImageProblem) -> PixelBuffer {
        var problem: ImageProblem?
        let pixels = [UInt8](unsafeUninitializedCapacity: size.width * size.height * 3) { buffer, count in
            let frame = buffer.baseAddress!
            paintBars(frame, size: size, background: background)
            do throws(ImageProblem) {
                try MotionResampler.resample(source, view: viewRect(at: time), into: frame, frameWidth: size.width, content: content)
            } catch {
                problem = error
            }
            count = buffer.count
        }
        if let problem { throw problem }
        return PixelBuffer(size: size, pixels: pixels, contentRect: content)
    }

    /// The view at `time` in source pixels: left, top, width, height.
    func viewRect(at time: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let view = path.view(at: time)
        let width = view.scale * Double(source.width), height = view.scale * Double(source.height)
        return (view.centerX * Double(source.width) - width / 2, view.centerY * Double(source.height) - height / 2, width, height)
    }
}

extension ImageManager {
    /// Decodes a photo for motion: upright, its picture area (``PictureArea``) resampled with
    /// Lanczos to `magnification` times its place in a frame of `frameSize`.
    ///
    /// The JPEG decodes at the smallest DCT scale that covers that size.
    /// - Parameters:
    ///   - photo: the photo.
    ///   - frameSize: the video's frame size.
    ///   - contentMode: fit (letterbox, and blur over its backdrop) or fill.
    ///   - background: under transparent PNG pixels.
    ///   - magnification: the path's ``MotionPath/magnification``, 1 or more.
    ///   - framing: with fill, whether the picture area is chosen around the faces.
    /// - Returns: the source, where it goes in the frame, and the faces to keep in view (all of
    ///   them, padded, in units of the source: 0…1 each way), nil when none were found.
    /// - Throws: ``PhotoError``, as ``requestImage(for:targetSize:contentMode:background:)``.
    func requestMovingSource(for photo: Photo, frameSize: Size, contentMode: ContentMode, background: RGBColor,
                             magnification: Double, framing: Framing = .center) throws(PhotoError)
        -> (source: PixelBuffer, content: Rect, focus: (x: ClosedRange<Double>, y: ClosedRange<Double>)?) {
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            // Lay the photo out in a frame `magnification` times larger: its fitted size there
            // is what the decode must cover.
            let large = Size(width: Int((Double(frameSize.width) * magnification).rounded(.up)),
                             height: Int((Double(frameSize.height) * magnification).rounded(.up)))
            let (image, _) = try decodeOriented(bytes, target: large, mode: contentMode, background: background)
            let content = FitGeometry(source: image.size, target: frameSize, mode: contentMode).content
            let faces = contentMode == .aspectFill && framing == .faces ? FaceFraming.faces(in: image) : []
            let region = PictureArea.region(of: image.size, frame: frameSize, mode: contentMode, faces: faces)
            let size = PictureArea.sourceSize(content: content, magnification: magnification)
            let rowBytes = size.width * 3
            var problem: ImageProblem?
            let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * size.height) { buffer, count in
                image.pixels.withUnsafeBufferPointer { source in
                    let from = source.baseAddress! + (region.y * image.width + region.x) * 3
                    do throws(ImageProblem) {
                        let resampler = try PhotoResampler(from: FitGeometry.size(of: region), to: size)
                        try resampler.scale(from, stride: image.rowBytes, into: buffer.baseAddress!, stride: rowBytes)
                    } catch {
                        problem = error
                    }
                }
                count = buffer.count
            }
            if let problem { throw problem }
            let focus = FaceFraming.regionToKeep(faces: faces, imageSize: image.size).map { keep in
                func unit(_ from: Int, _ length: Int, _ origin: Int, _ extent: Int) -> ClosedRange<Double> {
                    let low = min(max(Double(from - origin) / Double(extent), 0), 1)
                    return low...min(max(Double(from + length - origin) / Double(extent), low), 1)
                }
                return (x: unit(keep.x, keep.width, region.x, region.width), y: unit(keep.y, keep.height, region.y, region.height))
            }
            return (PixelBuffer(size: size, pixels: pixels), content, focus)
        } catch {
            throw error.error(for: photo.path)
        }
    }
}
