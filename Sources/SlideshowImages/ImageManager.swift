import SlideshowColor
import SlideshowFormats
import SlideshowFraming
import SlideshowMetadata
import SlideshowPixels
import SlideshowSupport

/// Turns photo files into slides: decodes, orients, fits and resamples, like `PHImageManager`.
///
/// JPEGs decode with TurboJPEG at the smallest DCT scale that still covers the slide (a
/// 12-megapixel photo into 1920x1080 decodes at 1/2, never at full size), then turn upright
/// for their EXIF orientation on that small image, then resample with libswscale's Lanczos
/// straight into the slide. PNGs decode with libavcodec. The format comes from the file's
/// content, never its name.
///
/// The manager holds no state: every call allocates its own decoder and scaler and frees
/// them before it returns, so one value may be used from many tasks at once.
public struct ImageManager: Sendable {
    /// The most pixels a photo may state in its header: 300 megapixels.
    ///
    /// Checked against the *stored* size in the header, before anything is allocated; over it,
    /// a photo fails with ``PhotoError/Kind/tooLarge``. 300 MP admits every camera (the
    /// largest phone sensors are 200 MP, medium format 150 MP) and stitched panoramas up to
    /// e.g. 20000x15000. A baseline 20000x14000 JPEG (280 MP) renders into 1920x1080 in a few
    /// tens of megabytes, because it decodes at 1/8 scale, row by row.
    ///
    /// Two further caps bound memory for files that cannot decode scaled or row by row:
    /// progressive and multi-scan JPEGs need all their DCT coefficients in memory, and PNGs
    /// decode at full size; either fails with ``PhotoError/Kind/tooLarge`` when that would take
    /// more than 1 GiB (beyond about 180 MP for a 4:4:4 progressive JPEG, 130 MP for an 8-bit
    /// RGBA PNG; a 4:2:0 progressive JPEG reaches the pixel cap first). Files over 256 MiB are
    /// refused before they are read, and progressive JPEGs of more than 500 scans when they are
    /// decoded.
    public static let maximumPixels: Int = 300_000_000

    /// Creates an image manager.
    public init() {}

    /// Reads a photo's header, cheaply: the check run on every photo before a render starts.
    ///
    /// Reads the first 256 KiB of the file (all of it only when the header is longer), finds
    /// the format from the content, and for a JPEG parses the markers up to the start of the
    /// image data (frame type, size, EXIF orientation) and has TurboJPEG read the header too.
    /// The capture date comes from the same bytes, whatever the format (``PhotoMetadata``);
    /// an implausible one is dropped with a ``PhotoWarning``.
    /// It does not decode the image data, so a file damaged or cut short *inside* its image
    /// data passes here and fails in
    /// ``requestImage(for:targetSize:contentMode:background:)``.
    /// - Parameters:
    ///   - photo: the photo to inspect.
    /// - Returns: the format, stored size, orientation, displayed size and capture date.
    /// - Throws: ``PhotoError`` with kind `.notFound`, `.unreadable` (a folder, FIFO or device:
    ///   refused before opening), `.empty`, `.notAnImage` (none of the formats of
    ///   ``ImageCapabilities/decoders``; the reason names the format when it is recognisable, e.g. GIF), `.truncated` (the file ends
    ///   inside its header), `.corrupt`, `.unsupported` (12-bit, lossless or hierarchical JPEG)
    ///   or `.tooLarge` (over ``maximumPixels`` or the decode-memory cap).
    public func inspect(_ photo: Photo) throws(PhotoError) -> PhotoInfo {
        let path = photo.path
        // Opened once: the rest is read from the same opening when the format needs it.
        ReadProbe.current?.photoHeaders.add(1, ordering: .relaxed)
        let file = try PhotoFileReader(path)
        try file.read(upTo: 256 << 10)
        var bytes = file.bytes
        let fileSize = file.fileSize
        /// The whole file, as an image problem when it cannot be read.
        func readWhole() throws(ImageProblem) -> [UInt8] {
            do {
                return try file.readWhole()
            } catch {
                throw ImageProblem(error.kind, error.reason)
            }
        }
        do throws(ImageProblem) {
            let sniffed = FormatSniffer.sniff(bytes)
            switch sniffed {
            case .other(let description):
                throw FormatSniffer.problem(for: description)
            case .supported(.video): throw FormatSniffer.problem(for: nil)   // never sniffed: ClipProbe finds clips
            case .supported(.jpeg):
                let header: JPEGHeader
                do throws(ImageProblem) {
                    header = try JPEGHeader(parsing: bytes)
                } catch where error.kind == .truncated && bytes.count < fileSize {
                    // A header longer than the prefix (big ICC or maker notes): read it all.
                    bytes = try readWhole()
                    header = try JPEGHeader(parsing: bytes)
                }
                var info = try Self.info(checking: header, in: bytes)
                info.captureDate = CaptureDate.plausible(header.metadata.captureDate, photo: path)
                return info.withCaption(header.metadata, path: path)
            case .supported(.png):
                let header: PNGHeader
                do throws(ImageProblem) {
                    header = try PNGHeader(parsing: bytes, complete: false)
                } catch where error.kind == .truncated && bytes.count < fileSize {
                    bytes = try readWhole()
                    header = try PNGHeader(parsing: bytes, complete: false)
                }
                try header.checkLimits(fileBytes: fileSize)
                return PhotoInfo(format: .png, storedSize: header.size, orientation: header.orientation ?? .up,
                                 captureDate: CaptureDate.plausible(header.metadata.captureDate, photo: path))
                    .withCaption(header.metadata, path: path)
            case .supported(.heif), .supported(.avif):
                let format: ImageFormat = sniffed == .supported(.avif) ? .avif : .heif
                // libheif reads the boxes from the whole file (the image data may come first).
                if bytes.count < fileSize { bytes = try readWhole() }
                let decoder = try HEIFDecoder(&bytes, formatName: format == .avif ? "AVIF" : "HEIF")
                try decoder.checkLimits()
                // Its EXIF orientation is not applied (see HEIFPicture); its capture date is read.
                let metadata = PhotoMetadata(reading: bytes, format: format)
                return PhotoInfo(format: format, storedSize: decoder.storedSize, orientation: .up,
                                 displayedSize: decoder.displayedSize,
                                 captureDate: CaptureDate.plausible(metadata.captureDate, photo: path))
                    .withCaption(metadata, path: path)
            case .supported(.webp):
                // The EXIF chunk may follow the image data.
                if bytes.count < fileSize { bytes = try readWhole() }
                let header = try WebPHeader(parsing: copy bytes)
                try header.checkLimits()
                return PhotoInfo(format: .webp, storedSize: header.size, orientation: header.orientation,
                                 captureDate: CaptureDate.plausible(header.metadata.captureDate, photo: path))
                    .withCaption(header.metadata, path: path)
            }
        } catch {
            throw error.error(for: path)
        }
    }

    /// Decodes a photo, turns it upright, fits it into a frame and resamples it.
    ///
    /// The result is exactly `targetSize`. With ``ContentMode/aspectFit`` the photo keeps its
    /// aspect ratio and sits centred on bars of exactly `background`; with
    /// ``ContentMode/aspectFill`` it covers the frame and is centre-cropped. The content
    /// rectangle has even width, height, x and y (for clean 4:2:0 chroma), so when the bars
    /// cannot split evenly the right or bottom bar is 2 pixels wider than the left or top one.
    /// It is at least 2x2. The buffer's ``PixelBuffer/contentRect`` says where the photo is
    /// (for aspectFill, the whole buffer).
    ///
    /// Transparent pixels (PNG, HEIF, AVIF, WebP) are composited over `background`, after the
    /// photo's colours are converted to sRGB. A warning from the JPEG decoder counts as an error,
    /// except stray bytes between markers, which hide nothing (libjpeg's "extraneous bytes
    /// before marker" when they sit between header segments or before the end of the image).
    /// - Parameters:
    ///   - photo: the photo to render.
    ///   - targetSize: the slide's size; at least 2x2 (a precondition).
    ///   - contentMode: letterbox or crop-to-fill.
    ///   - background: the colour of the bars and under transparency; black by default.
    /// - Returns: a buffer of exactly `targetSize`.
    /// - Throws: ``PhotoError`` with kind `.notFound`, `.unreadable`, `.empty`, `.notAnImage`,
    ///   `.truncated` (e.g. "Premature end of JPEG file"), `.corrupt` (e.g. "Bogus Huffman table
    ///   definition", "Corrupt JPEG data: …", a bad PNG CRC), `.unsupported` (e.g. "12-bit JPEG
    ///   is not supported") or `.tooLarge`.
    public func requestImage(for photo: Photo, targetSize: Size, contentMode: ContentMode,
                             background: RGBColor = .black) throws(PhotoError) -> PixelBuffer {
        precondition(targetSize.width >= 2 && targetSize.height >= 2, "a slide needs at least 2x2 pixels")
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            return try image(from: bytes, targetSize: targetSize, contentMode: contentMode, background: background) { reason in
                PhotoWarnings.report(PhotoWarning(path: photo.path, reason: reason))
            }
        } catch {
            throw error.error(for: photo.path)
        }
    }

    /// ``requestImage(for:targetSize:contentMode:background:)`` choosing the crop of
    /// ``ContentMode/aspectFill`` by `framing`: with ``Framing/faces`` the crop keeps the faces
    /// in view (see ``FaceFraming/crop(of:aspect:faces:)``). Letterboxing shows the whole photo
    /// whatever the framing.
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does.
    public func requestImage(for photo: Photo, targetSize: Size, contentMode: ContentMode,
                             background: RGBColor = .black, framing: Framing) throws(PhotoError) -> PixelBuffer {
        precondition(targetSize.width >= 2 && targetSize.height >= 2, "a slide needs at least 2x2 pixels")
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            return try image(from: bytes, targetSize: targetSize, contentMode: contentMode, background: background,
                             framing: framing) { reason in
                PhotoWarnings.report(PhotoWarning(path: photo.path, reason: reason))
            }
        } catch {
            throw error.error(for: photo.path)
        }
    }

    /// The region of a photo to keep in view, in its displayed (upright) pixels: its faces, all
    /// of them as one padded rectangle (``FaceFraming/regionToKeep(faces:imageSize:)``); nil when
    /// none are found or no detector is available. For pans: both end points should contain it.
    ///
    /// Decodes the photo small (at the DCT scale that covers 800x800), so it costs a fraction of a slide.
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does.
    public func focusRegion(for photo: Photo) throws(PhotoError) -> Rect? {
        let info = try inspect(photo)
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            let (image, _) = try decodeOriented(bytes, target: Size(width: 800, height: 800), mode: .aspectFit, background: .black)
            let faces = try Self.faces(in: image)
            // From the decoded pixels to the displayed size.
            let sx = Double(info.displayedSize.width) / Double(image.width), sy = Double(info.displayedSize.height) / Double(image.height)
            let scaled = faces.map { Rect(x: Int(Double($0.x) * sx), y: Int(Double($0.y) * sy),
                                          width: Int((Double($0.width) * sx).rounded(.up)), height: Int((Double($0.height) * sy).rounded(.up))) }
            return FaceFraming.regionToKeep(faces: scaled, imageSize: info.displayedSize)
        } catch {
            throw error.error(for: photo.path)
        }
    }

    /// ``requestImage(for:targetSize:contentMode:background:)`` on a file's bytes already read:
    /// the whole path from bytes to slide, with no file system (the decode fuzz target calls it).
    /// - Parameters:
    ///   - bytes: the whole file; consumed, so that it is released before the slide is allocated.
    ///   - targetSize: the slide's size; at least 2x2 (a precondition).
    ///   - contentMode: letterbox or crop-to-fill.
    ///   - background: the colour of the bars and under transparency.
    ///   - warn: called with the reason when the photo renders but the user should know
    ///     something (a colour profile that could not be used).
    /// - Throws: ``ImageProblem`` of the kinds ``requestImage(for:targetSize:contentMode:background:)`` lists.
    ///   - gamut: when given, a photo whose profile an HDR show keeps (``WideGamut``) is not
    ///     converted to sRGB: the slide holds its own code values, and `gamut` is told their space.
    ///   - hdr: whether the slide is an HDR show's: a JPEG whose base is the HDR rendition keeps
    ///     it (its gain map applies later) instead of becoming its SDR rendition.
    package func image(from bytes: consuming [UInt8], targetSize: Size, contentMode: ContentMode,
               background: RGBColor, framing: Framing = .center,
               warn: (String) -> Void = { _ in }, crop: ((Rect, Size) -> Void)? = nil,
               gamut: ((WideGamut) -> Void)? = nil, hdr: Bool = false) throws(ImageProblem) -> PixelBuffer {
        precondition(targetSize.width >= 2 && targetSize.height >= 2, "a slide needs at least 2x2 pixels")
        let (image, geometry) = try decodeOriented(consume bytes, target: targetSize, mode: contentMode,
                                                   background: background, warn: warn, gamut: gamut, hdr: hdr)
        return try Self.compose(image, geometry: geometry, target: targetSize, mode: contentMode, background: background,
                                framing: framing, crop: crop)
    }

    /// ``requestImage(for:targetSize:contentMode:background:framing:)``, also giving the part of
    /// the upright photo it shows, as fractions of its width and height (x, y, width, height):
    /// what a gain map of the same photo must be cropped to.
    /// - Parameters:
    ///   - gamut: when given, a wide-gamut photo keeps its own code values (an HDR show's slide,
    ///     ``WideGamut``), and `gamut` is told their space; nil converts to sRGB.
    ///   - hdr: whether the slide is an HDR show's (a JPEG's HDR base rendition is kept).
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does.
    package func requestImageAndCrop(for photo: Photo, targetSize: Size, contentMode: ContentMode, background: RGBColor,
                                     framing: Framing, gamut: ((WideGamut) -> Void)? = nil, hdr: Bool = false)
        throws(PhotoError) -> (slide: PixelBuffer, crop: (x: Double, y: Double, width: Double, height: Double)) {
        precondition(targetSize.width >= 2 && targetSize.height >= 2, "a slide needs at least 2x2 pixels")
        let bytes = try PhotoFile.read(photo.path).bytes
        var used = (x: 0.0, y: 0.0, width: 1.0, height: 1.0)
        do throws(ImageProblem) {
            let slide = try image(from: bytes, targetSize: targetSize, contentMode: contentMode, background: background, framing: framing,
                                  warn: { reason in PhotoWarnings.report(PhotoWarning(path: photo.path, reason: reason)) },
                                  crop: { rect, size in
                                      used = (Double(rect.x) / Double(size.width), Double(rect.y) / Double(size.height),
                                              Double(rect.width) / Double(size.width), Double(rect.height) / Double(size.height))
                                  }, gamut: gamut, hdr: hdr)
            return (slide, used)
        } catch {
            throw error.error(for: photo.path)
        }
    }

    // MARK: - Stages

    /// Decodes (scaled, for JPEG), converts to sRGB and orients; returns the upright image and
    /// the layout computed from the header's displayed size.
    /// The file's bytes are consumed: a PNG's go to the decoder, which frees them before the
    /// decoded frame is converted (see ``PNGHeader/decodeMemory(fileBytes:)``).
    /// - Parameters:
    ///   - gamut: when given, RGB pixels whose profile an HDR show keeps
    ///     (``ColorManagement/wideGamut(for:input:)``) are left in it, and `gamut` is told so.
    ///   - hdr: whether the image is for an HDR show. Otherwise a JPEG whose base is the HDR
    ///     rendition (``GainMapMetadata/isBaseHDR``) becomes the SDR rendition its gain map
    ///     gives (``HDRSlide/sdrRendition(of:bytes:)``).
    package func decodeOriented(_ bytes: consuming [UInt8], target: Size, mode: ContentMode, background: RGBColor,
                        warn: (String) -> Void = { _ in }, gamut: ((WideGamut) -> Void)? = nil,
                        hdr: Bool = false) throws(ImageProblem) -> (RGBImage, FitGeometry) {
        let sniffed = FormatSniffer.sniff(bytes)
        switch sniffed {
        case .other(let description):
            throw FormatSniffer.problem(for: description)
        case .supported(.video): throw FormatSniffer.problem(for: nil)   // never sniffed: ClipProbe finds clips
        case .supported(.jpeg):
            let header = try JPEGHeader(parsing: copy bytes)
            try header.checkLimits()
            let orientation = header.orientation ?? .up
            let decoded = try TurboJPEGDecompressor.decodeCovering(copy bytes, header: header, target: target, mode: mode)
            var image = decoded.image
            let geometry = decoded.geometry
            let color: Result<EmbeddedColor, ColorProblem> = switch ICCProfileReader.jpeg(bytes) {
            case nil: .success(.sRGB)
            case .success(let profile): .success(.icc(profile))
            case .failure(let problem): .failure(problem)
            }
            let input: ColorTransform.Input = image.channels == 4
                ? (header.adobeTransform != nil ? .invertedCMYK : .cmyk)
                : (header.components.count == 1 ? .greyInRGB : .rgb)
            image = Self.manage(consume image, color, input: input, warn: warn, gamut: gamut)
            let upright = image.oriented(orientation)
            if !hdr, let sdr = HDRSlide.sdrRendition(of: upright, bytes: bytes) { return (sdr, geometry) }
            return (upright, geometry)
        case .supported(.png):
            let header = try PNGHeader(parsing: copy bytes, complete: true, exifOnly: true)
            try header.checkLimits(fileBytes: bytes.count)
            let orientation = header.orientation ?? .up
            let geometry = FitGeometry(source: orientation.displayedSize(of: header.size), target: target, mode: mode)
            func manage(_ image: consuming RGBImage, _ icc: [UInt8]?) -> RGBImage {
                let color: Result<EmbeddedColor, ColorProblem> = if let icc { .success(.icc(icc)) }
                    else if header.hasICCProfile { .failure(ColorProblem("its iCCP colour profile cannot be read")) }
                    else { .success(header.colorChunks) }
                // Grey PNGs decode to equal R, G and B; a grey profile reads one of them.
                let input: ColorTransform.Input = image.channels == 4 ? .rgba : (header.colorType == 0 ? .greyInRGB : .rgb)
                return Self.manage(image, color, input: input, warn: warn, gamut: gamut)
            }
            let file = consume bytes
            let image = try PNGDecoder().decode(consume file, header: header, background: background, manage: manage)
            return (image.oriented(orientation), geometry)
        case .supported(.heif), .supported(.avif):
            let decoder = try HEIFDecoder(&bytes, formatName: sniffed == .supported(.avif) ? "AVIF" : "HEIF")
            try decoder.checkLimits()
            // Upright once libheif has applied irot/imir/clap; EXIF orientation is not applied (see HEIFPicture).
            // A photo larger than the slide needs is resampled to the fitted size straight
            // from its decoded planes (a HEIC's YCbCr tiles, else libheif's planar RGB; see
            // decodeScaled); the colour transform then runs at that size.
            let displayed = decoder.displayedSize
            let planned = FitGeometry(source: displayed, target: target, mode: mode)
            let fitted = planned.fittedSize
            // Decodes in flight share DecodeMemoryBudget: a second 12 MP photo waits for the first.
            let stored = decoder.storedSize
            let cost = DecodeMemoryBudget.estimate(pixels: stored.width * stored.height, deep: decoder.bitDepth > 8)
            let decoded = try DecodeMemoryBudget.shared.withBudget(cost) { () throws(ImageProblem) -> HEIFPicture in
                if fitted.width < displayed.width && fitted.height < displayed.height,
                   let scaled = try decoder.decodeScaled(to: fitted, displayed: displayed) {
                    return scaled
                }
                return try decoder.decode()
            }
            if decoded.image.size == fitted && fitted != displayed {
                let color = decoded.color
                return (Self.sRGB((consume decoded).image, color, background: background, warn: warn, gamut: gamut), planned)
            }
            let picture = consume decoded
            let geometry = FitGeometry(source: picture.image.size, target: target, mode: mode)
            let color = picture.color
            return (Self.sRGB((consume picture).image, color, background: background, warn: warn, gamut: gamut), geometry)
        case .supported(.webp):
            let header = try WebPHeader(parsing: copy bytes)
            try header.checkLimits()
            let geometry = FitGeometry(source: header.orientation.displayedSize(of: header.size), target: target, mode: mode)
            let picture = try WebPDecoder.decode(bytes, header: header)
            let (color, orientation) = (picture.color, picture.orientation)
            return (Self.sRGB((consume picture).image, color, background: background, warn: warn, gamut: gamut).oriented(orientation), geometry)
        }
    }

    /// Converts decoded RGB or RGBA pixels to sRGB (or keeps a wide gamut, ``manage(_:_:input:warn:gamut:)``),
    /// then composites any alpha over the background.
    private static func sRGB(_ image: consuming RGBImage, _ color: Result<EmbeddedColor, ColorProblem>, background: RGBColor,
                             warn: (String) -> Void, gamut: ((WideGamut) -> Void)? = nil) -> RGBImage {
        let input: ColorTransform.Input = image.channels == 4 ? .rgba : .rgb
        let converted = manage(image, color, input: input, warn: warn, gamut: gamut)
        return converted.channels == 4 ? converted.compositedOver(background) : converted
    }

    /// The image converted to sRGB (``ColorManagement/convert(_:from:input:warn:)``); or, when
    /// `gamut` is given (an HDR show) and the photo's profile is one the show keeps
    /// (``ColorManagement/wideGamut(for:input:)``: RGB matrix/TRC, not sRGB, and RGBA only when
    /// every pixel is opaque: a transparent one is composited over an sRGB background), the
    /// image as decoded, `gamut` told its space.
    private static func manage(_ image: consuming RGBImage, _ color: Result<EmbeddedColor, ColorProblem>, input: ColorTransform.Input,
                               warn: (String) -> Void, gamut: ((WideGamut) -> Void)?) -> RGBImage {
        if let gamut, case .success(let described) = color, input != .rgba || image.isOpaque,
           let space = ColorManagement.wideGamut(for: described, input: input) {
            gamut(space)
            return image
        }
        return ColorManagement.convert(image, from: color, input: input, warn: warn)
    }

    /// The faces in an upright image (``FaceFraming/detectFaces(in:)``): empty without the cascade file.
    /// - Throws: ``ImageProblem`` (`unsupported`, the loader's reason) when the face detection
    ///   library cannot be loaded: the photo cannot be framed on its faces here.
    package static func faces(in image: RGBImage) throws(ImageProblem) -> [Rect] {
        do throws(FaceDetectionError) {
            return try FaceFraming.detectFaces(in: image)
        } catch {
            throw ImageProblem(.unsupported, error.message)
        }
    }

    /// Fills the bars, then resamples the (cropped) image into the content rectangle.
    /// - Parameters:
    ///   - crop: told the part of `image` that was scaled into the content rectangle, and `image`'s size.
    ///   - fixedCrop: that part given instead of found (a gain map cropped as its photo was).
    package static func compose(_ image: RGBImage, geometry: FitGeometry, target: Size, mode: ContentMode,
                        background: RGBColor, framing: Framing = .center, crop report: ((Rect, Size) -> Void)? = nil,
                        fixedCrop: Rect? = nil) throws(ImageProblem) -> PixelBuffer {
        precondition(image.channels == 3, "slides are RGB")
        let content = geometry.content
        // The crop is recomputed on the pixels at hand: a DCT-scaled size rounds up.
        let detected = try mode == .aspectFill && fixedCrop == nil && framing == .faces ? Self.faces(in: image) : []
        let found = switch mode {
        case .aspectFit: Rect(image.size)
        case .aspectFill:
            fixedCrop ?? framing.crop(of: image.size, aspect: FitGeometry.size(of: content), faces: detected)
        }
        let crop = fixedCrop ?? found
        report?(crop, image.size)
        let rowBytes = target.width * 3
        var problem: ImageProblem?
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * target.height) { buffer, count in
            let frame = buffer.baseAddress!
            fillBackground(frame, size: target, except: content, with: background)
            image.pixels.withUnsafeBufferPointer { source in
                let from = source.baseAddress! + (crop.y * image.width + crop.x) * 3
                let to = frame + content.y * rowBytes + content.x * 3
                if crop.width == content.width && crop.height == content.height {
                    for row in 0..<content.height {
                        (to + row * rowBytes).update(from: from + row * image.rowBytes, count: content.width * 3)
                    }
                } else {
                    do throws(ImageProblem) {
                        try PhotoResampler.resample(from, size: FitGeometry.size(of: crop), stride: image.rowBytes,
                                                    into: to, size: FitGeometry.size(of: content), stride: rowBytes)
                    } catch {
                        problem = error
                    }
                }
            }
            count = buffer.count
        }
        if let problem { throw problem }
        return PixelBuffer(size: target, pixels: pixels, contentRect: content)
    }

    /// Paints every pixel outside `content` with `color`: whole rows above and below, and the
    /// left and right bars of the rows between, copied from one pattern row with `memcpy`.
    package static func fillBackground(_ frame: UnsafeMutablePointer<UInt8>, size: Size, except content: Rect,
                               with color: RGBColor) {
        let rowBytes = size.width * 3
        if content == Rect(size) { return }
        let pattern = [UInt8](unsafeUninitializedCapacity: rowBytes) { row, count in
            if color == .black {
                row.initialize(repeating: 0)
            } else {
                for offset in stride(from: 0, to: rowBytes, by: 3) {
                    row[offset] = color.red
                    row[offset + 1] = color.green
                    row[offset + 2] = color.blue
                }
            }
            count = rowBytes
        }
        pattern.withUnsafeBufferPointer { source in
            let row = source.baseAddress!
            for y in 0..<size.height {
                let line = frame + y * rowBytes
                if y < content.y || y >= content.maxY {
                    line.update(from: row, count: rowBytes)
                } else {
                    line.update(from: row, count: content.x * 3)
                    let right = content.maxX * 3
                    (line + right).update(from: row, count: rowBytes - right)
                }
            }
        }
    }

    /// Checks a pixel count against ``maximumPixels``.
    package static func checkPixelCount(_ size: Size, format: String) throws(ImageProblem) {
        let pixels = size.width * size.height
        if pixels > maximumPixels {
            // Rounded up, so that a size just over the cap never reads as the cap itself.
            let megapixels = (pixels + 999_999) / 1_000_000
            throw ImageProblem(.tooLarge,
                               "the \(format) is \(size) (\(megapixels) megapixels), over the \(maximumPixels / 1_000_000)-megapixel cap")
        }
    }

    /// What ``inspect(_:)`` says of a parsed JPEG header, once its limits pass and TurboJPEG
    /// has read the same header (the header fuzz target calls it too).
    /// - Parameters:
    ///   - header: the parsed header.
    ///   - bytes: the bytes it was parsed from (at least through its SOS segment).
    /// - Throws: `.tooLarge`, or TurboJPEG's `.corrupt`, `.truncated` or `.unsupported`.
    package static func info(checking header: JPEGHeader, in bytes: [UInt8]) throws(ImageProblem) -> PhotoInfo {
        try header.checkLimits()
        let decoder = try TurboJPEGDecompressor()
        // Without the stray bytes between segments, the header is shorter by their count.
        let cleaned = JPEGMarkers.withoutExtraneousBytes(bytes)
        let length = cleaned.map { header.headerLength - (bytes.count - $0.count) } ?? header.headerLength
        let checked = try ImageProblem.withBytes(cleaned ?? bytes) { (raw) throws(ImageProblem) in
            try decoder.readHeader(UnsafeRawBufferPointer(rebasing: raw[..<length]))
        }
        try header.checkAgrees(with: checked)
        return PhotoInfo(format: .jpeg, storedSize: header.size, orientation: header.orientation ?? .up)
    }
}

private extension RGBImage {
    /// Whether an RGBA image's every alpha is 255 (an RGB image's always is).
    var isOpaque: Bool {
        guard channels == 4 else { return true }
        return pixels.withUnsafeBufferPointer { bytes in
            var all: UInt8 = 255
            for index in stride(from: 3, to: width * height * 4, by: 4) { all &= bytes[index] }
            return all == 255
        }
    }
}
