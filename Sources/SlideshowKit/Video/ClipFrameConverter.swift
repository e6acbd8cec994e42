internal import CFFmpeg

/// Turns decoded clip frames into 8-bit RGB at one size: libswscale for SDR BT.601/BT.709
/// clips, zimg in linear light for HDR (tone-mapped) and wide-gamut ones.
///
/// The size is the coded orientation's (before the display matrix turns the picture).
final class ClipFrameConverter {
    private let size: Size
    private let color: ClipColor
    private var scaler: (key: FrameKey, context: OwnedScaleContext)?
    private var linear: LinearLightConverter?
    private var linearKey: FrameKey?

    /// The parts of a frame a converter is built for; a change rebuilds it.
    struct FrameKey: Equatable {
        var width: Int32, height: Int32, format: Int32, matrix: UInt32, range: UInt32, transfer: UInt32, primaries: UInt32
    }

    /// - Parameter color: the stream's tags, used where a frame carries none.
    init(size: Size, color: ClipColor) {
        self.size = size
        self.color = color
    }

    /// The frame's colour tags, the stream's where the frame has none.
    func effectiveColor(of frame: UnsafeMutablePointer<AVFrame>) -> ClipColor {
        var result = color
        if frame.pointee.colorspace != AVCOL_SPC_UNSPECIFIED { result.matrix = Int(frame.pointee.colorspace.rawValue) }
        if frame.pointee.color_trc != AVCOL_TRC_UNSPECIFIED { result.transfer = Int(frame.pointee.color_trc.rawValue) }
        if frame.pointee.color_primaries != AVCOL_PRI_UNSPECIFIED { result.primaries = Int(frame.pointee.color_primaries.rawValue) }
        if frame.pointee.color_range != AVCOL_RANGE_UNSPECIFIED { result.fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG }
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        if format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ422P || format == AV_PIX_FMT_YUVJ444P { result.fullRange = true }
        return result
    }

    /// Converts one frame.
    /// - Throws: ``FFmpegError`` when libswscale or zimg refuse the frame's format.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> PixelBuffer {
        let tags = effectiveColor(of: frame)
        let key = FrameKey(width: frame.pointee.width, height: frame.pointee.height, format: frame.pointee.format,
                           matrix: UInt32(tags.matrix), range: tags.fullRange ? 2 : 1, transfer: UInt32(tags.transfer),
                           primaries: UInt32(tags.primaries))
        if tags.isHDR || tags.needsPrimariesConversion, LinearLightConverter.accepts(frame) {
            if linearKey != key {
                linear = try LinearLightConverter(frame: frame, color: tags, size: size)
                linearKey = key
            }
            return try linear!.convert(frame)
        }
        return try scale(frame, key: key, tags: tags)
    }

    /// libswscale: the frame's matrix and range, to full-range RGB, bicubic (the flags ffmpeg's
    /// own `scale` uses, so frames match its decode).
    private func scale(_ frame: UnsafeMutablePointer<AVFrame>, key: FrameKey, tags: ClipColor) throws(FFmpegError) -> PixelBuffer {
        if scaler?.key != key {
            let context = try OwnedScaleContext(from: Size(width: Int(key.width), height: Int(key.height)),
                                                format: AVPixelFormat(rawValue: key.format), to: size, format: AV_PIX_FMT_RGB24,
                                                flags: SWS_BICUBIC)
            let coefficients = sws_getCoefficients(Self.swsColorspace(tags.matrix))
            let rgb = sws_getCoefficients(SWS_CS_DEFAULT)
            try check(sws_setColorspaceDetails(context.pointer, coefficients, tags.fullRange ? 1 : 0, rgb, 1, 0, 1 << 16, 1 << 16),
                      "sws_setColorspaceDetails")
            scaler = (key, context)
        }
        var buffer = PixelBuffer(size: size)
        let context = scaler!.context.pointer
        let height = Int32(frame.pointee.height)
        let scaled = buffer.withUnsafeMutableBufferPointer { pixels -> Int32 in
            var destination: [UnsafeMutablePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(size.width * 3), 0, 0, 0]
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
        try check(scaled, "sws_scale")
        return buffer
    }

    /// libswscale's name for an H.273 matrix; unspecified is BT.601, as ffmpeg's own scale filter takes it.
    static func swsColorspace(_ matrix: Int) -> Int32 {
        switch matrix {
        case 1: SWS_CS_ITU709
        case 4: SWS_CS_FCC
        case 7: SWS_CS_SMPTE240M
        case 9, 10: SWS_CS_BT2020
        default: SWS_CS_ITU601
        }
    }
}
