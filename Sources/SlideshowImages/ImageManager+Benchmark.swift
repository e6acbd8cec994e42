import SlideshowColor
import SlideshowFormats
import SlideshowFraming
import SlideshowMetadata
import SlideshowPixels

extension ImageManager {
    /// Reads and decodes a JPEG at the DCT scale a render into `targetSize` would choose, and
    /// does nothing else (no orientation, no resampling): the decoding half of the benchmark's floor.
    /// - Returns: the decoded size.
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does.
    package func decodeAtChosenScale(_ photo: Photo, targetSize: Size) throws(PhotoError) -> Size {
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            let header = try JPEGHeader(parsing: bytes)
            return try TurboJPEGDecompressor.decodeCovering(bytes, header: header, target: targetSize, mode: .aspectFit).image.size
        } catch {
            throw error.error(for: photo.path)
        }
    }
}

extension ImageManager {
    /// Decodes a photo at the scale a render into `targetSize` would (HEIF and AVIF at the
    /// fitted size, as ``HEIFDecoder/decodeScaled(to:displayed:)`` does, or with `fullSize` at their own size;
    /// JPEG at its chosen DCT scale), then times its colour transform alone: the benchmark's
    /// "profile transform per photo" figure.
    /// - Returns: the decoded size, and the seconds of the transform (0 when the photo skips it).
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does.
    package func timeColorTransform(_ photo: Photo, targetSize: Size, fullSize: Bool = false) throws(PhotoError) -> (size: Size, seconds: Double) {
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            let image: RGBImage, color: Result<EmbeddedColor, ColorProblem>
            switch FormatSniffer.sniff(bytes) {
            case .supported(.heif), .supported(.avif):
                let decoder = try HEIFDecoder(bytes, formatName: "HEIF")
                let displayed = decoder.displayedSize
                let fitted = FitGeometry(source: displayed, target: targetSize, mode: .aspectFit).fittedSize
                let smaller = !fullSize && fitted.width < displayed.width && fitted.height < displayed.height
                var scaled: HEIFPicture?
                if smaller { scaled = try decoder.decodeScaled(to: fitted, displayed: displayed) }
                let picture: HEIFPicture
                if let scaled { picture = scaled } else { picture = try decoder.decode() }
                (image, color) = (picture.image, picture.color)
            case .supported(.jpeg):
                let header = try JPEGHeader(parsing: bytes)
                image = try TurboJPEGDecompressor.decodeCovering(bytes, header: header, target: targetSize, mode: .aspectFit).image
                color = ICCProfileReader.jpeg(bytes).map { $0.map(EmbeddedColor.icc) } ?? .success(.sRGB)
            default:
                throw ImageProblem(.unsupported, "the benchmark times JPEG and HEIF photos")
            }
            let size = image.size
            guard case .success(.icc(let profile)) = color,
                  let transform = ColorManagement.cachedTransform(for: .icc(profile), input: .rgb) else { return (size, 0) }
            let start = ContinuousClock.now
            _ = transform.apply(to: consume image)
            return (size, (ContinuousClock.now - start).seconds)
        } catch {
            throw error.error(for: photo.path)
        }
    }

    /// Decodes a HEIF photo's primary image to libheif's planar RGB at its own size, with its
    /// transformations, and nothing else: the HEVC decode (by FFmpeg's decoder, or by libde265
    /// when `libde265` is set, for comparison) and libheif's grid assembly, in seconds.
    ///
    /// The libde265 run turns ``HEVCDecoderPlugin`` off for the process while it decodes: call
    /// it only when no other decode runs.
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does.
    package func timeHEIFDecode(_ photo: Photo, libde265: Bool = false) throws(PhotoError) -> Double {
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            let decoder = try HEIFDecoder(bytes, formatName: "HEIF")
            if libde265 { HEVCDecoderPlugin.isEnabled.store(false, ordering: .relaxed) }
            defer { HEVCDecoderPlugin.isEnabled.store(true, ordering: .relaxed) }
            let start = ContinuousClock.now
            try decoder.decodePlanes()
            return (ContinuousClock.now - start).seconds
        } catch {
            throw error.error(for: photo.path)
        }
    }

    /// Decodes a HEIC's HEVC tiles into the YCbCr canvas a slide is resampled from
    /// (``HEVCTileDecoder``), and nothing else: the part of a HEIC slide no other format pays, in seconds.
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does,
    ///   or `.unsupported` when the photo's pictures are not taken that way.
    package func timeHEVCTiles(_ photo: Photo) throws(PhotoError) -> Double {
        let bytes = try PhotoFile.read(photo.path).bytes
        let start = ContinuousClock.now
        guard let layout = HEIFBoxes.hevcLayout(bytes),
              HEVCTileDecoder.decode(layout, from: bytes, threads: HEIFDecoder.threads) != nil else {
            throw PhotoError(path: photo.path, kind: .unsupported, reason: "its HEVC tiles are not decoded into a canvas")
        }
        return (ContinuousClock.now - start).seconds
    }

    /// Decodes a photo as a `fill` slide of `targetSize` would (DCT scale, upright), then times
    /// face detection alone on it: the detector's cost per photo, for the benchmark.
    /// - Returns: the decoded size, the faces found and the detection's seconds.
    package func timeFaceDetection(_ photo: Photo, targetSize: Size) throws(PhotoError) -> (decoded: Size, faces: Int, seconds: Double) {
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            let (image, _) = try decodeOriented(bytes, target: targetSize, mode: .aspectFill, background: .black)
            let start = ContinuousClock.now
            let faces = try Self.faces(in: image)
            return (image.size, faces.count, (ContinuousClock.now - start).seconds)
        } catch {
            throw error.error(for: photo.path)
        }
    }
}
