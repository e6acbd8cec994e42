internal import CFFmpeg

/// A picture ready for the encoder: one owned `AVFrame` in limited-range BT.709 4:2:0.
final class EncoderPicture {
    private let owner: OwnedFrame
    var frame: UnsafeMutablePointer<AVFrame> { owner.pointer }

    /// Allocates a picture of a size (planes uninitialised).
    /// - Throws: ``FFmpegError`` when the frame or its planes cannot be allocated (or the size is not positive).
    init(size: Size) throws(FFmpegError) {
        owner = try OwnedFrame()
        let frame = owner.pointer
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(size.width)
        frame.pointee.height = Int32(size.height)
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        frame.pointee.colorspace = AVCOL_SPC_BT709
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_BT709
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
    }
}

/// Converts full-range sRGB pixel buffers into limited-range BT.709 4:2:0 pictures with libswscale.
///
/// libswscale converts with BT.601 unless told otherwise; HD video is BT.709, and the
/// difference is the "video looks more yellow than the photo" users report. Pure red
/// becomes Y 63, U 102, V 240; white 235/128/128; black 16/128/128.
final class ColorConverter {
    private let owner: OwnedScaleContext
    let size: Size

    /// - Throws: ``FFmpegError`` when libswscale cannot be set up.
    init(size: Size) throws(FFmpegError) {
        self.size = size
        // SWS_AREA: each chroma sample averages exactly its 2x2 block, so bars on even edges stay pure.
        owner = try OwnedScaleContext(from: size, format: AV_PIX_FMT_RGB24, to: size, format: AV_PIX_FMT_YUV420P,
                                      flags: Int32(SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP))
        let bt709 = sws_getCoefficients(SWS_CS_ITU709)
        // src range 1 = full (JPEG), dst range 0 = limited (MPEG); brightness 0, contrast and saturation 1.0.
        try check(sws_setColorspaceDetails(owner.pointer, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16), "sws_setColorspaceDetails")
    }

    /// Converts a buffer into a new picture.
    /// - Throws: ``FFmpegError`` when the picture cannot be allocated or libswscale converts fewer rows than the picture has.
    func convert(_ buffer: PixelBuffer) throws(FFmpegError) -> EncoderPicture {
        precondition(buffer.size == size, "the buffer is not of the converter's size")
        let picture = try EncoderPicture(size: size)
        let frame = picture.frame
        let context = owner.pointer
        let rows = buffer.withUnsafeBytes { pixels in
            var source: [UnsafePointer<UInt8>?] = [pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var sourceStride: [Int32] = [Int32(buffer.bytesPerRow), 0, 0, 0]
            var destination: [UnsafeMutablePointer<UInt8>?] = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, nil]
            var destinationStride: [Int32] = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, 0]
            return sws_scale(context, &source, &sourceStride, 0, Int32(size.height), &destination, &destinationStride)
        }
        try check(rows, "sws_scale")
        guard rows == Int32(size.height) else { throw FFmpegError(call: "sws_scale: \(rows) of \(size.height) rows", code: -EINVAL) }
        return picture
    }
}
