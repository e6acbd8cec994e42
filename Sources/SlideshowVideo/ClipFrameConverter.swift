package import CFFmpeg
import SlideshowColor
import SlideshowFFmpeg
import SlideshowPixels

/// Turns decoded clip frames into upright 8-bit RGB at one size: libswscale for SDR BT.601/BT.709
/// clips, zimg in linear light for HDR (tone-mapped) and wide-gamut ones.
///
/// A turned SDR clip (a portrait phone clip) has its decoded planes turned first
/// (``PlanarFrameTurner``), as ffmpeg turns them before its scale; libswscale then writes the
/// upright picture straight into the caller's buffer, at the caller's place, with no picture in
/// between. HDR clips, and formats the turner does not take, are converted at the coded
/// orientation and turned in RGB (``ClipOrientation/apply(to:)``).
package final class ClipFrameConverter {
    /// The upright size of the pictures made.
    private let size: Size
    private let color: ClipColor
    private let orientation: ClipOrientation
    private var scaler: (key: FrameKey, size: Size, context: OwnedScaleContext)?
    /// The two-step way for 8-bit 4:2:0 frames: the scale in YUV, then the conversion to RGB.
    private var yuvScaler: YUVScaler?
    private var linear: LinearLightConverter?
    private var linearKey: FrameKey?
    /// An HDR show's converter, which keeps the clip's own light.
    private var hdrLinear: (key: FrameKey, transfer: HDRTransfer, converter: LinearLightConverter)?
    private var turner: PlanarFrameTurner?
    /// RGB rows padded to a multiple of 16 pixels, for the one-pass scale to a width that is not.
    private var padded: [UInt8] = []

    /// The parts of a frame a converter is built for; a change rebuilds it.
    package struct FrameKey: Equatable {
        package var width: Int32, height: Int32, format: Int32, matrix: UInt32, range: UInt32, transfer: UInt32, primaries: UInt32
    }

    /// - Parameters:
    ///   - size: the upright size of the pictures to make.
    ///   - color: the stream's tags, used where a frame carries none.
    ///   - orientation: how the clip's pictures are turned upright.
    package init(size: Size, color: ClipColor, orientation: ClipOrientation = .upright) {
        self.size = size
        self.color = color
        self.orientation = orientation
    }

    /// The frame's colour tags, the stream's where the frame has none.
    package func effectiveColor(of frame: UnsafeMutablePointer<AVFrame>) -> ClipColor {
        var result = color
        if frame.pointee.colorspace != AVCOL_SPC_UNSPECIFIED { result.matrix = Int(frame.pointee.colorspace.rawValue) }
        if frame.pointee.color_trc != AVCOL_TRC_UNSPECIFIED { result.transfer = Int(frame.pointee.color_trc.rawValue) }
        if frame.pointee.color_primaries != AVCOL_PRI_UNSPECIFIED { result.primaries = Int(frame.pointee.color_primaries.rawValue) }
        if frame.pointee.color_range != AVCOL_RANGE_UNSPECIFIED { result.fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG }
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        if format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ422P || format == AV_PIX_FMT_YUVJ444P { result.fullRange = true }
        return result
    }

    /// Converts one frame into a new upright picture.
    /// - Throws: ``FFmpegError`` when libswscale or zimg refuse the frame's format.
    package func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> PixelBuffer {
        var picture = PixelBuffer(size: size)
        try convert(frame, into: &picture, at: Rect(size))
        return picture
    }

    /// Converts one frame, upright, into the part `place` of `buffer` (the rest is left as it is).
    /// - Precondition: `place` has the converter's size and lies inside `buffer`.
    /// - Throws: ``FFmpegError`` when libswscale or zimg refuse the frame's format.
    package func convert(_ frame: UnsafeMutablePointer<AVFrame>, into buffer: inout PixelBuffer, at place: Rect) throws(FFmpegError) {
        precondition(place.width == size.width && place.height == size.height && place.x >= 0 && place.y >= 0
                     && place.maxX <= buffer.width && place.maxY <= buffer.height, "the place is not of the converter's size")
        let tags = effectiveColor(of: frame)
        let key = FrameKey(width: frame.pointee.width, height: frame.pointee.height, format: frame.pointee.format,
                           matrix: UInt32(tags.matrix), range: tags.fullRange ? 2 : 1, transfer: UInt32(tags.transfer),
                           primaries: UInt32(tags.primaries))
        let coded = orientation.upright(size)
        if tags.isHDR || tags.needsPrimariesConversion, LinearLightConverter.accepts(frame) {
            if linearKey != key {
                linear = try LinearLightConverter(frame: frame, color: tags, size: coded)
                linearKey = key
            }
            Self.copy(orientation.apply(to: try linear!.convert(frame)), into: &buffer, at: place)
            return
        }
        if orientation == .upright {
            return try scale(frame, key: key, tags: tags, into: &buffer, at: place)
        }
        if PlanarFrameTurner.accepts(frame, orientation: orientation) {
            if turner == nil { turner = try PlanarFrameTurner(orientation: orientation) }
            let upright = try turner!.turn(frame)
            var turnedKey = key
            (turnedKey.width, turnedKey.height) = (upright.pointee.width, upright.pointee.height)
            return try scale(upright, key: turnedKey, tags: tags, into: &buffer, at: place)
        }
        var picture = PixelBuffer(size: coded)
        try scale(frame, key: key, tags: tags, into: &picture, at: Rect(coded))
        Self.copy(orientation.apply(to: picture), into: &buffer, at: place)
    }

    /// Converts one frame in its own light to an HDR show's (``LinearLightConverter``, zimg:
    /// linear BT.2020, not tone-mapped, then PQ or HLG), upright, into the part `place` of `buffer`.
    /// - Precondition: `place` has the converter's size and lies inside `buffer`.
    /// - Throws: ``FFmpegError`` when zimg refuses the frame's format.
    package func convertHDR(_ frame: UnsafeMutablePointer<AVFrame>, into buffer: inout HDRPixelBuffer, at place: Rect,
                            transfer: HDRTransfer) throws(FFmpegError) {
        guard LinearLightConverter.accepts(frame) else {
            throw FFmpegError(call: "HDR conversion of pixel format \(frame.pointee.format)", code: -EINVAL)
        }
        let tags = effectiveColor(of: frame)
        let key = FrameKey(width: frame.pointee.width, height: frame.pointee.height, format: frame.pointee.format,
                           matrix: UInt32(tags.matrix), range: tags.fullRange ? 2 : 1, transfer: UInt32(tags.transfer),
                           primaries: UInt32(tags.primaries))
        if hdrLinear?.key != key || hdrLinear?.transfer != transfer {
            hdrLinear = (key, transfer, try LinearLightConverter(frame: frame, color: tags, size: orientation.upright(size),
                                                                 hdr: HDRSignal(transfer)))
        }
        try hdrLinear!.converter.convertHDR(frame, into: &buffer, at: place, orientation: orientation)
    }

    /// Copies a whole picture into the part `place` of `buffer`.
    private static func copy(_ picture: PixelBuffer, into buffer: inout PixelBuffer, at place: Rect) {
        if place == Rect(buffer.size) {
            buffer = picture
            return
        }
        let (rowBytes, stride) = (picture.bytesPerRow, buffer.bytesPerRow)
        picture.withUnsafeBytes { source in
            buffer.withUnsafeMutableBufferPointer { target in
                for row in 0..<picture.height {
                    (target.baseAddress! + (place.y + row) * stride + place.x * 3)
                        .update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * rowBytes, count: rowBytes)
                }
            }
        }
    }

    /// libswscale: the frame's matrix and range, to full-range RGB, bicubic (the flags ffmpeg's
    /// own `scale` uses, so frames match its decode), written straight into `buffer` at `place`.
    ///
    /// An 8-bit 4:2:0 frame (what nearly every clip decodes to) going to an even size is scaled
    /// as ffmpeg scales it, YUV to YUV (libswscale's vectorised scalers), then converted to RGB
    /// at its final size (libswscale's vectorised unscaled converter): a fifth of the time of
    /// one bicubic pass that scales and converts at once, whose RGB output is not vectorised.
    private func scale(_ frame: UnsafeMutablePointer<AVFrame>, key: FrameKey, tags: ClipColor,
                       into buffer: inout PixelBuffer, at place: Rect) throws(FFmpegError) {
        let target = Size(width: place.width, height: place.height)
        if YUVScaler.accepts(format: key.format, to: target) {
            if yuvScaler?.key != key || yuvScaler?.size != target {
                yuvScaler = try YUVScaler(key: key, to: target, matrix: Self.swsColorspace(tags.matrix), fullRange: tags.fullRange)
            }
            let stride = buffer.bytesPerRow
            let done = buffer.withUnsafeMutableBufferPointer { pixels -> FFmpegError? in
                do throws(FFmpegError) {
                    try yuvScaler!.scale(frame, into: pixels.baseAddress! + place.y * stride + place.x * 3, stride: stride)
                    return nil
                } catch {
                    return error
                }
            }
            if let done { throw done }
            return
        }
        if scaler?.key != key || scaler?.size != target {
            let context = try OwnedScaleContext(from: Size(width: Int(key.width), height: Int(key.height)),
                                                format: AVPixelFormat(rawValue: key.format), to: target, format: AV_PIX_FMT_RGB24,
                                                flags: SWS_BICUBIC)
            let coefficients = sws_getCoefficients(Self.swsColorspace(tags.matrix))
            let rgb = sws_getCoefficients(SWS_CS_DEFAULT)
            try check(sws_setColorspaceDetails(context.pointer, coefficients, tags.fullRange ? 1 : 0, rgb, 1, 0, 1 << 16, 1 << 16),
                      "sws_setColorspaceDetails")
            scaler = (key, target, context)
        }
        let context = scaler!.context.pointer
        let height = Int32(frame.pointee.height)
        func run(into pixels: UnsafeMutablePointer<UInt8>, stride: Int) -> Int32 {
            var destination: [UnsafeMutablePointer<UInt8>?] = [pixels, nil, nil, nil]
            var strides: [Int32] = [Int32(stride), 0, 0, 0]
            return withUnsafePointer(to: &frame.pointee.data) { data in
                withUnsafePointer(to: &frame.pointee.linesize) { lines in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { lines in
                            sws_scale(context, planes, lines, 0, height, &destination, &strides)
                        }
                    }
                }
            }
        }
        let stride = buffer.bytesPerRow
        if target.width % 16 == 0 {
            let scaled = buffer.withUnsafeMutableBufferPointer { pixels in
                run(into: pixels.baseAddress! + place.y * stride + place.x * 3, stride: stride)
            }
            try check(scaled, "sws_scale")
            return
        }
        // libswscale's unscaled YUV-to-RGB converters (4:2:0 and 4:2:2, a frame already at the
        // size asked) write whole 16-pixel groups: past the place's right edge into the bars, and
        // past the end of the last row. Rows padded to 16 pixels take that, then are copied.
        let rowBytes = target.width * 3, paddedStride = (target.width + 15) / 16 * 16 * 3
        if padded.count < paddedStride * target.height { padded = [UInt8](repeating: 0, count: paddedStride * target.height) }
        let scaled = padded.withUnsafeMutableBufferPointer { rows in run(into: rows.baseAddress!, stride: paddedStride) }
        try check(scaled, "sws_scale")
        padded.withUnsafeBufferPointer { rows in
            buffer.withUnsafeMutableBufferPointer { pixels in
                for row in 0..<target.height {
                    (pixels.baseAddress! + (place.y + row) * stride + place.x * 3)
                        .update(from: rows.baseAddress! + row * paddedStride, count: rowBytes)
                }
            }
        }
    }

    /// libswscale's name for an H.273 matrix; unspecified is BT.601, as ffmpeg's own scale filter takes it.
    package static func swsColorspace(_ matrix: Int) -> Int32 {
        switch matrix {
        case 1: SWS_CS_ITU709
        case 4: SWS_CS_FCC
        case 7: SWS_CS_SMPTE240M
        case 9, 10: SWS_CS_BT2020
        default: SWS_CS_ITU601
        }
    }
}
