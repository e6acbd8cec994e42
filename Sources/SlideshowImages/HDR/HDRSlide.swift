internal import CFFmpeg
import Foundation
import SlideshowColor
import SlideshowFormats
import SlideshowFraming
import SlideshowPixels
import SlideshowText

/// A photo in an HDR show's light: its SDR slide, lifted by its gain map when it has one, in
/// linear BT.2020 light and encoded PQ or HLG (``HDRSignal``).
///
/// The slide is made exactly as an SDR show's (decoded, colour-managed to sRGB, oriented,
/// fitted); a HEIC's ISO 21496-1 gain map (``HEIFGainMap``) or an Ultra HDR JPEG's
/// (``JPEGGainMap``) is decoded, turned and fitted the same way, to the same content
/// rectangle, and applied pixel by pixel in linear light
/// for the output's headroom (``HDRSignal/headroom``: 1,000 over 203 cd/m², 2.3 stops). A
/// photo without a gain map keeps its SDR light, white at reference white (203 cd/m²).
///
/// A wide-gamut photo (a Display P3 iPhone or Pixel photo) keeps its own code values
/// (``WideGamut``): the gain applies in linear light in the base's own primaries, as ISO 21496-1
/// says when `use_base_colour_space` is set (as the phones write it), as Ultra HDR and Apple
/// apply theirs, and the result goes to BT.2020 by the base's matrix, so a saturated P3 red stays
/// P3 red. What is drawn on the slide in sRGB keeps sRGB's primaries: the date imprint's
/// pixels, the bars (unless they are blurred from the picture) and captions. A fill crop that
/// follows the photo's faces is taken over by its gain map, in proportion
/// (``ImageManager/requestImageAndCrop(for:targetSize:contentMode:background:framing:gamut:)``).
package enum HDRSlide {
    /// The HDR slide of an SDR slide and, when the photo has one, its gain map fitted to the same frame.
    /// - Parameters:
    ///   - sdr: the slide as an SDR show makes it.
    ///   - gain: the gain map fitted to the same size and content rectangle (its red channel is read).
    ///   - curve: the gain map's curve; ignored without `gain`.
    ///   - overlay: a caption laid over the lifted picture in linear light, its colours at SDR
    ///     light (its white at reference white, not lifted by the gain map).
    ///   - unlifted: the slide before something was drawn on it at SDR light (the date imprint):
    ///     the pixels of `sdr` that differ from it are not lifted by the gain map (and are sRGB's).
    ///   - gamut: the space of the photo's code values (``WideGamut``): inside the content
    ///     rectangle, and outside it too with `barsInGamut`; sRGB elsewhere.
    ///   - barsInGamut: whether the bars are made from the picture (blurred fill) rather than
    ///     drawn in an sRGB colour.
    package static func make(_ sdr: PixelBuffer, gain: PixelBuffer?, curve: GainCurve?, signal: HDRSignal,
                             overlay: TextOverlay? = nil, unlifted: PixelBuffer? = nil,
                             gamut: WideGamut = .sRGB, barsInGamut: Bool = false) -> HDRPixelBuffer {
        let width = sdr.width, height = sdr.height
        let content = sdr.contentRect
        // The photo's own space (sRGB for most photos: then every pixel is computed as before).
        let wide = !gamut.isSRGB
        let (wideRed, wideGreen, wideBlue) = (gamut.linear[0], gamut.linear[1], gamut.linear[2])
        let w = gamut.toBT2020
        let textToWide = wide ? gamut.fromBT709 : []
        // Per channel: gain map sample → linear factor, and the offsets.
        var factors: [[Float]] = []
        var baseOffsets: [Float] = [0, 0, 0], alternateOffsets: [Float] = [0, 0, 0]
        var scale: Float = 1
        if gain != nil, let curve {
            (factors, baseOffsets, alternateOffsets) = curve.tables()
            scale = curve.baseScale
        }
        let linear = HDRSignal.sRGBLinear
        let m = HDRSignal.bt709ToBT2020
        // Each row's BT.2020 light, encoded a row at a time (``HDRSignal/encode(_:pixels:into:)``:
        // the codes ``HDRSignal/encode(_:_:_:)`` gives, without a call per pixel).
        var rowLight = [Float](repeating: 0, count: width * 3)
        // Every sample is written below, so the 12 MB are not cleared first.
        let samples = [UInt16](unsafeUninitializedCapacity: width * height * 3) { out, count in
            sdr.withUnsafeBytes { source in
                let pixels = source.bindMemory(to: UInt8.self)
                let gainPixels = gain?.pixels ?? []
                let before = unlifted?.pixels
                rowLight.withUnsafeMutableBufferPointer { row in
                    for y in 0..<height {
                        for x in 0..<width {
                            let offset = (y * width + x) * 3
                            let inside = content.contains(x: x, y: y)
                            // Drawn at SDR light (the imprint), looked at only when it matters.
                            let drawn = (wide || (inside && !factors.isEmpty))
                                && (before.map({ $0[offset] != pixels[offset] || $0[offset + 1] != pixels[offset + 1]
                                                  || $0[offset + 2] != pixels[offset + 2] }) ?? false)
                            // Whether this pixel's codes are the photo's wide gamut's rather than sRGB's.
                            let inGamut = wide && !drawn && (inside || barsInGamut)
                            var r: Float, g: Float, b: Float
                            if inGamut {
                                (r, g, b) = (wideRed[Int(pixels[offset])], wideGreen[Int(pixels[offset + 1])], wideBlue[Int(pixels[offset + 2])])
                            } else {
                                (r, g, b) = (linear[Int(pixels[offset])], linear[Int(pixels[offset + 1])], linear[Int(pixels[offset + 2])])
                            }
                            if !factors.isEmpty, inside, !drawn {
                                if scale != 1 { (r, g, b) = (r * scale, g * scale, b * scale) }
                                r = (r + baseOffsets[0]) * factors[0][Int(gainPixels[offset])] - alternateOffsets[0]
                                g = (g + baseOffsets[1]) * factors[1][Int(gainPixels[offset + 1])] - alternateOffsets[1]
                                b = (b + baseOffsets[2]) * factors[2][Int(gainPixels[offset + 2])] - alternateOffsets[2]
                            }
                            if let overlay, overlay.rect.contains(x: x, y: y) {
                                // source-over in linear light: the text's own colour, unpremultiplied, at SDR light.
                                let text = overlay[x - overlay.rect.x, y - overlay.rect.y]
                                if text.alpha > 0 {
                                    let a = Float(text.alpha) / 255
                                    func unpremultiplied(_ value: UInt8) -> Float {
                                        linear[min(255, (Int(value) * 255 + Int(text.alpha) / 2) / Int(text.alpha))]
                                    }
                                    var (tr, tg, tb) = (unpremultiplied(text.red), unpremultiplied(text.green), unpremultiplied(text.blue))
                                    if inGamut {
                                        // The text's sRGB light in the photo's primaries, mixed there.
                                        let t = textToWide
                                        (tr, tg, tb) = (t[0] * tr + t[1] * tg + t[2] * tb, t[3] * tr + t[4] * tg + t[5] * tb,
                                                        t[6] * tr + t[7] * tg + t[8] * tb)
                                    }
                                    r = tr * a + r * (1 - a)
                                    g = tg * a + g * (1 - a)
                                    b = tb * a + b * (1 - a)
                                }
                            }
                            let at = x * 3
                            if inGamut {
                                (row[at], row[at + 1], row[at + 2]) = (w[0] * r + w[1] * g + w[2] * b, w[3] * r + w[4] * g + w[5] * b,
                                                                       w[6] * r + w[7] * g + w[8] * b)
                            } else {
                                (row[at], row[at + 1], row[at + 2]) = (m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b,
                                                                       m[6] * r + m[7] * g + m[8] * b)
                            }
                        }
                        signal.encode(row.baseAddress!, pixels: width, into: out.baseAddress! + y * width * 3)
                    }
                }
            }
            count = width * height * 3
        }
        return HDRPixelBuffer(size: sdr.size, samples: samples, contentRect: content)
    }

    /// A caption laid over an HDR picture in linear light, its colours at SDR light (its white
    /// at reference white, 203 cd/m²), as ``make(_:gain:curve:signal:overlay:)`` lays it: each
    /// covered pixel's code values taken back to display light (PQ's EOTF; HLG's inverse OETF
    /// and BT.2100's OOTF of a 1,000 cd/m² display), mixed, and encoded again.
    package static func overlay(_ overlay: TextOverlay, on buffer: inout HDRPixelBuffer, signal: HDRSignal) {
        let light = signal.mixingLight
        let linear = HDRSignal.sRGBLinear
        let m = HDRSignal.bt709ToBT2020
        let width = buffer.width
        let rect = overlay.rect
        let (x0, x1) = (max(0, rect.x), min(buffer.width, rect.maxX))
        let (y0, y1) = (max(0, rect.y), min(buffer.height, rect.maxY))
        guard x0 < x1, y0 < y1 else { return }
        let hlgScale = Float(HDRSignal.peak / HDRSignal.referenceWhite)
        let exponent = Float((HDRSignal.hlgGamma - 1))
        buffer.withUnsafeMutableBufferPointer { out in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let text = overlay[x - rect.x, y - rect.y]
                    guard text.alpha > 0 else { continue }
                    let offset = (y * width + x) * 3
                    var r = light[Int(out[offset])], g = light[Int(out[offset + 1])], b = light[Int(out[offset + 2])]
                    if signal.transfer == .hlg {
                        // Scene light to display light in reference whites: Yd = 1000·Ys^γ.
                        let ys = 0.2627 * r + 0.6780 * g + 0.0593 * b
                        let factor = ys > 0 ? pow(ys, exponent) * hlgScale : 0
                        (r, g, b) = (r * factor, g * factor, b * factor)
                    }
                    let a = Float(text.alpha) / 255
                    func unpremultiplied(_ value: UInt8) -> Float {
                        linear[min(255, (Int(value) * 255 + Int(text.alpha) / 2) / Int(text.alpha))]
                    }
                    let (tr, tg, tb) = (unpremultiplied(text.red), unpremultiplied(text.green), unpremultiplied(text.blue))
                    r = (m[0] * tr + m[1] * tg + m[2] * tb) * a + r * (1 - a)
                    g = (m[3] * tr + m[4] * tg + m[5] * tb) * a + g * (1 - a)
                    b = (m[6] * tr + m[7] * tg + m[8] * tb) * a + b * (1 - a)
                    (out[offset], out[offset + 1], out[offset + 2]) = signal.encode(r, g, b)
                }
            }
        }
    }

    /// The code values of an sRGB colour at SDR light (white at reference white): the bars
    /// around an HDR clip.
    package static func codes(of color: RGBColor, signal: HDRSignal) -> (UInt16, UInt16, UInt16) {
        let linear = HDRSignal.sRGBLinear
        let m = HDRSignal.bt709ToBT2020
        let (r, g, b) = (linear[Int(color.red)], linear[Int(color.green)], linear[Int(color.blue)])
        return signal.encode(m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b, m[6] * r + m[7] * g + m[8] * b)
    }

    /// A HEIC's gain map image decoded whole, turned upright by its `irot`, as grey RGB (each
    /// sample its gain, full range); nil when a tile does not decode as 8-bit grey or 4:2:0,
    /// or the image has transformations other than `irot`.
    package static func decodeGainMap(_ gainMap: HEIFGainMap, from bytes: [UInt8]) -> RGBImage? {
        let layout = gainMap.layout
        guard gainMap.otherTransformations.isEmpty, let codec = try? HEVCPictureCodec() else { return nil }
        let size = layout.size, tile = layout.tileSize
        var grey = [UInt8](repeating: 0, count: size.width * size.height)
        var fullRange = layout.matrix?.fullRange
        for index in layout.tiles.indices {
            var stream = layout.configuration.parameterSets
            do throws(AnnexB.Failure) {
                try AnnexB.append(layout.tiles[index].flatMap { bytes[$0] }, lengthSize: layout.configuration.lengthSize, to: &stream)
            } catch {
                return nil
            }
            let column = index % layout.columns, row = index / layout.columns
            let pasted = try? codec.decode(stream) { frame -> Bool in
                let picture = frame.pointee
                guard [AV_PIX_FMT_GRAY8, AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P].map(\.rawValue).contains(picture.format),
                      Int(picture.width) == tile.width, Int(picture.height) == tile.height,
                      picture.flags & AV_FRAME_FLAG_CORRUPT == 0, let luma = picture.data.0 else { return false }
                if fullRange == nil { fullRange = picture.color_range == AVCOL_RANGE_JPEG || picture.format == AV_PIX_FMT_YUVJ420P.rawValue }
                let x0 = column * tile.width, y0 = row * tile.height
                let columns = min(tile.width, size.width - x0)
                guard columns > 0 else { return true }
                for line in 0..<min(tile.height, size.height - y0) {
                    let from = luma + line * Int(picture.linesize.0)
                    grey.withUnsafeMutableBufferPointer { to in
                        (to.baseAddress! + (y0 + line) * size.width + x0).update(from: from, count: columns)
                    }
                }
                return true
            }
            guard pasted == true else { return nil }
        }
        // Limited-range samples (16…235) stretched to 0…255.
        let table: [UInt8] = (0..<256).map { value in
            fullRange == false ? UInt8(max(0, min(255, ((Double(value) - 16) * 255 / 219).rounded()))) : UInt8(value)
        }
        var rgb = [UInt8](repeating: 0, count: size.width * size.height * 3 + ImageLimits.rowPadding)
        for index in 0..<grey.count {
            let value = table[Int(grey[index])]
            rgb[index * 3] = value
            rgb[index * 3 + 1] = value
            rgb[index * 3 + 2] = value
        }
        let image = RGBImage(width: size.width, height: size.height, channels: 3, pixels: rgb)
        let turn: Orientation = switch gainMap.rotation {
        case 1: .left
        case 2: .down
        case 3: .right
        default: .up
        }
        return image.oriented(turn)
    }
}

extension ImageManager {
    /// A photo as an HDR show's slide: ``requestImage(for:targetSize:contentMode:background:framing:)``'s
    /// slide in HDR light, lifted by its gain map when it has one (``HDRSlide``), a wide-gamut
    /// photo in its own gamut (``WideGamut``).
    /// - Returns: the slide, and whether a gain map was applied.
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does.
    public func requestHDRImage(for photo: Photo, targetSize: Size, contentMode: ContentMode, background: RGBColor = .black,
                                framing: Framing = .center, transfer: HDRTransfer) throws(PhotoError) -> (slide: HDRPixelBuffer, gainMapped: Bool) {
        var gamut = WideGamut.sRGB
        let (sdr, crop) = try requestImageAndCrop(for: photo, targetSize: targetSize, contentMode: contentMode, background: background,
                                                  framing: framing, gamut: { gamut = $0 }, hdr: true)
        let gain = try fittedGainMap(for: photo, like: sdr, contentMode: contentMode, crop: crop)
        return (HDRSlide.make(sdr, gain: gain?.buffer, curve: gain?.curve, signal: HDRSignal(transfer), gamut: gamut), gain != nil)
    }

    /// A photo's gain map fitted to its slide (``fittedGainMap(_:like:contentMode:crop:)``), reading the file.
    /// - Throws: ``PhotoError`` when the file cannot be read.
    package func fittedGainMap(for photo: Photo, like slide: PixelBuffer, contentMode: ContentMode,
                               crop: (x: Double, y: Double, width: Double, height: Double)? = nil) throws(PhotoError)
        -> (buffer: PixelBuffer, curve: GainCurve)? {
        Self.fittedGainMap(try PhotoFile.read(photo.path).bytes, like: slide, contentMode: contentMode, crop: crop)
    }

    /// The photo's gain map fitted to the slide's size and content rectangle, and its curve;
    /// nil when the photo has none this reader takes (a HEIC's `tmap`, or Apple's auxiliary
    /// gain map with its MakerNote's headroom; an Ultra HDR JPEG's gain map, ``JPEGGainMap``)
    /// or it does not fit the same way.
    ///
    /// A HEIC's gain map is fitted by its own size (it has the photo's aspect); a JPEG's is
    /// stretched over its primary image, as Ultra HDR says (a quarter-size map of 403x302 is
    /// 101x76), so it is laid out by the primary's displayed size and cropped by fractions.
    /// - Parameter crop: the part of the photo its slide shows, as fractions (``requestImageAndCrop(for:targetSize:contentMode:background:framing:)``):
    ///   the gain map is cropped to the same part (a fill crop that followed the faces); nil
    ///   finds the crop as the photo's own centred one.
    package static func fittedGainMap(_ bytes: [UInt8], like slide: PixelBuffer, contentMode: ContentMode,
                                      crop: (x: Double, y: Double, width: Double, height: Double)? = nil)
        -> (buffer: PixelBuffer, curve: GainCurve)? {
        let image: RGBImage, curve: GainCurve, geometry: FitGeometry
        var crop = crop
        switch FormatSniffer.sniff(bytes) {
        case .supported(.heif):
            guard let gainMap = HEIFGainMap.find(in: bytes) else { return nil }
            if let metadata = gainMap.metadata {
                // An HDR base in a HEIC is PQ or HLG, which is not decoded as light here.
                guard !metadata.channels.isEmpty, !metadata.isBaseHDR else { return nil }
                curve = .iso(metadata)
            } else {
                guard let exif = HEIFBoxes.metadataItems(bytes).exif, let headroom = GainCurve.appleHeadroom(exif: exif) else { return nil }
                curve = .apple(headroom: headroom)
            }
            guard let decoded = HDRSlide.decodeGainMap(gainMap, from: bytes) else { return nil }
            image = decoded
            geometry = FitGeometry(source: image.size, target: slide.size, mode: contentMode)
        case .supported(.jpeg):
            guard let gainMap = JPEGGainMap.find(in: bytes) else { return nil }
            if gainMap.source == .apple {
                // Apple's: the headroom from its XMP, else from the primary's MakerNote.
                guard let headroom = gainMap.appleHeadroom ?? JPEGGainMap.exif(in: bytes).flatMap(GainCurve.appleHeadroom(exif:))
                else { return nil }
                curve = .apple(headroom: headroom)
            } else {
                guard !gainMap.metadata.channels.isEmpty else { return nil }
                curve = .iso(gainMap.metadata)
            }
            guard let decoded = HDRSlide.decodeGainMap(gainMap, from: bytes, slide: slide.size, mode: contentMode) else { return nil }
            image = decoded.image
            geometry = FitGeometry(source: decoded.displayed, target: slide.size, mode: contentMode)
            if crop == nil, contentMode == .aspectFill {
                // The centred crop found as the slide finds it: on the primary as decoded (DCT-scaled).
                let centre = Framing.center.crop(of: decoded.decodedPrimary, aspect: FitGeometry.size(of: geometry.content), faces: [])
                let width = Double(decoded.decodedPrimary.width), height = Double(decoded.decodedPrimary.height)
                let x: Double = Double(centre.x) / width, y: Double = Double(centre.y) / height
                crop = (x: x, y: y, width: Double(centre.width) / width, height: Double(centre.height) / height)
            }
        default:
            return nil
        }
        let fixedCrop = crop.map { crop -> Rect in
            let x = Int((crop.x * Double(image.width)).rounded()), y = Int((crop.y * Double(image.height)).rounded())
            let width = max(1, min(image.width - x, Int((crop.width * Double(image.width)).rounded())))
            let height = max(1, min(image.height - y, Int((crop.height * Double(image.height)).rounded())))
            return Rect(x: x, y: y, width: width, height: height)
        }
        guard let fitted = try? compose(image, geometry: geometry, target: slide.size, mode: contentMode, background: .black,
                                        fixedCrop: fixedCrop),
              fitted.contentRect == slide.contentRect else { return nil }
        return (fitted, curve)
    }
}
