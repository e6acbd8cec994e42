import SlideshowColor
import SlideshowFormats
import SlideshowFraming
import SlideshowPixels

extension ImageManager {
    /// Decodes a photo for motion: upright, its picture area (``PictureArea``) resampled with
    /// Lanczos to `magnification` times its place in a frame of `frameSize`.
    ///
    /// The JPEG decodes at the smallest DCT scale that covers that size.
    /// - Parameters:
    ///   - photo: the photo.
    ///   - frameSize: the video's frame size.
    ///   - contentMode: letterbox or fill.
    ///   - background: under transparent PNG pixels.
    ///   - magnification: the path's ``MotionPath/magnification``, 1 or more.
    ///   - framing: with fill, the crop rule (``Framing/crop(of:aspect:faces:)``): the centre, or
    ///     around the faces (and, without faces, the upper third of a photo whose height is cut).
    ///   - area: told the picture area as fractions of the upright photo (what an HDR show
    ///     crops its gain map to).
    ///   - gamut: when given, a wide-gamut photo keeps its own code values (an HDR show's
    ///     source, ``WideGamut``), and `gamut` is told their space; nil converts to sRGB.
    ///   - hdr: whether the source is an HDR show's (a JPEG's HDR base rendition is kept).
    /// - Returns: the source, where it goes in the frame, and the faces to keep in view (the
    ///   ones the still slide's crop keeps, ``FaceFraming/kept(faces:imageSize:cropSize:)``, in
    ///   units of the source: 0…1 each way), nil when none were found.
    /// - Throws: ``PhotoError``, as ``requestImage(for:targetSize:contentMode:background:)``.
    package func requestMovingSource(for photo: Photo, frameSize: Size, contentMode: ContentMode, background: RGBColor,
                             magnification: Double, framing: Framing = .center,
                             area: ((x: Double, y: Double, width: Double, height: Double)) -> Void = { _ in },
                             gamut: ((WideGamut) -> Void)? = nil, hdr: Bool = false) throws(PhotoError)
        -> (source: PixelBuffer, content: Rect, focus: (x: ClosedRange<Double>, y: ClosedRange<Double>)?) {
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            // Lay the photo out in a frame `magnification` times larger: its fitted size there
            // is what the decode must cover.
            let large = Size(width: Int((Double(frameSize.width) * magnification).rounded(.up)),
                             height: Int((Double(frameSize.height) * magnification).rounded(.up)))
            let (image, _) = try decodeOriented(bytes, target: large, mode: contentMode, background: background, gamut: gamut, hdr: hdr)
            let content = FitGeometry(source: image.size, target: frameSize, mode: contentMode).content
            let faces = try contentMode == .aspectFill && framing == .faces ? Self.faces(in: image) : []
            let region = PictureArea.region(of: image.size, frame: frameSize, mode: contentMode, framing: framing, faces: faces)
            let size = PictureArea.sourceSize(content: content, magnification: magnification)
            let (width, height) = (Double(image.width), Double(image.height))
            area((Double(region.x) / width, Double(region.y) / height, Double(region.width) / width, Double(region.height) / height))
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
            let focus = FaceFraming.kept(faces: faces, imageSize: image.size, cropSize: FitGeometry.size(of: region))
                .map { PictureArea.focus(of: $0, in: region) }
            return (PixelBuffer(size: size, pixels: pixels), content, focus)
        } catch {
            throw error.error(for: photo.path)
        }
    }
}
