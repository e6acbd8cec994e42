package import CFFmpeg
import SlideshowFFmpeg
import SlideshowPixels

/// Scales an 8-bit 4:2:0 clip frame in two libswscale passes: bicubic YUV to YUV at the target
/// size (what ffmpeg's `scale` filter does to a clip), then YUV to full-range RGB at that size,
/// unscaled, with the frame's matrix and range.
///
/// Both passes run libswscale's vectorised code; the one-pass conversion (scale and convert to
/// RGB at once) runs its packed-RGB output in plain C and took five times as long
/// (720p to 1080p: 8 ms against 1.8 ms a frame). The intermediate frame is allocated once.
package final class YUVScaler {
    /// The frames it is built for, and the size it makes.
    package let key: ClipFrameConverter.FrameKey
    package let size: Size
    private let resize: OwnedScaleContext
    private let toRGB: OwnedScaleContext
    private let middle: OwnedFrame
    /// RGB rows for a width that is not a multiple of 16, padded: libswscale's vectorised
    /// converter works on 16 pixels at a time, writing up to 15 past the width when the stride
    /// has room (past the end of the last row: 360 wide wrote 24 bytes past a 360x288 buffer)
    /// and leaving the last ones out when it has not.
    private var padded: [UInt8] = []
    private var paddedStride: Int { (size.width + 15) / 16 * 16 * 3 }

    /// Whether frames of `format` going to `size` take this way: 8-bit 4:2:0 planar, and an even
    /// size (the unscaled converter works on 2×2 blocks).
    package static func accepts(format: Int32, to size: Size) -> Bool {
        (format == AV_PIX_FMT_YUV420P.rawValue || format == AV_PIX_FMT_YUVJ420P.rawValue)
            && size.width % 2 == 0 && size.height % 2 == 0
    }

    /// - Parameters:
    ///   - key: the frames to scale (size and format).
    ///   - size: the size to make.
    ///   - matrix: libswscale's name for the frames' matrix (``ClipFrameConverter/swsColorspace(_:)``).
    ///   - fullRange: whether the frames are full range.
    /// - Throws: ``FFmpegError`` when libswscale refuses, or the intermediate frame cannot be allocated.
    package init(key: ClipFrameConverter.FrameKey, to size: Size, matrix: Int32, fullRange: Bool) throws(FFmpegError) {
        self.key = key
        self.size = size
        let format = AVPixelFormat(rawValue: key.format)
        resize = try OwnedScaleContext(from: Size(width: Int(key.width), height: Int(key.height)), format: format,
                                       to: size, format: format, flags: SWS_BICUBIC)
        toRGB = try OwnedScaleContext(from: size, format: format, to: size, format: AV_PIX_FMT_RGB24, flags: SWS_BICUBIC)
        let coefficients = sws_getCoefficients(matrix)
        let range: Int32 = fullRange ? 1 : 0
        // The scale keeps the range and matrix; the conversion reads them and writes full-range RGB.
        try check(sws_setColorspaceDetails(resize.pointer, coefficients, range, coefficients, range, 0, 1 << 16, 1 << 16),
                  "sws_setColorspaceDetails")
        try check(sws_setColorspaceDetails(toRGB.pointer, coefficients, range, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0,
                                           1 << 16, 1 << 16), "sws_setColorspaceDetails")
        middle = try OwnedFrame()
        middle.pointer.pointee.format = key.format
        middle.pointer.pointee.width = Int32(size.width)
        middle.pointer.pointee.height = Int32(size.height)
        try check(av_frame_get_buffer(middle.pointer, 0), "av_frame_get_buffer")
    }

    /// Scales `frame` and writes its RGB rows at `target`, `stride` bytes apart.
    /// - Throws: ``FFmpegError`` when libswscale fails.
    package func scale(_ frame: UnsafeMutablePointer<AVFrame>, into target: UnsafeMutablePointer<UInt8>, stride: Int) throws(FFmpegError) {
        let middle = self.middle.pointer
        var outPlanes: [UnsafeMutablePointer<UInt8>?] = [middle.pointee.data.0, middle.pointee.data.1, middle.pointee.data.2, nil]
        var outLines: [Int32] = [middle.pointee.linesize.0, middle.pointee.linesize.1, middle.pointee.linesize.2, 0]
        let rows = withPlanes(of: frame) { planes, lines in
            sws_scale(resize.pointer, planes, lines, 0, frame.pointee.height, &outPlanes, &outLines)
        }
        try check(rows, "sws_scale")
        if size.width % 16 == 0 {
            try convert(into: target, stride: stride)
            return
        }
        let rowStride = paddedStride, rowBytes = size.width * 3
        if padded.isEmpty { padded = [UInt8](repeating: 0, count: rowStride * size.height) }
        try padded.withUnsafeMutableBufferPointer { (rows: inout UnsafeMutableBufferPointer<UInt8>) throws(FFmpegError) in
            try convert(into: rows.baseAddress!, stride: rowStride)
            for row in 0..<size.height {
                (target + row * stride).update(from: rows.baseAddress! + row * rowStride, count: rowBytes)
            }
        }
    }

    /// The second pass: the scaled YUV frame to RGB rows at `target`.
    private func convert(into target: UnsafeMutablePointer<UInt8>, stride: Int) throws(FFmpegError) {
        var destination: [UnsafeMutablePointer<UInt8>?] = [target, nil, nil, nil]
        var strides: [Int32] = [Int32(stride), 0, 0, 0]
        let converted = withPlanes(of: middle.pointer) { planes, lines in
            sws_scale(toRGB.pointer, planes, lines, 0, Int32(size.height), &destination, &strides)
        }
        try check(converted, "sws_scale")
    }

    /// The frame's plane pointers and line sizes, as libswscale takes them.
    private func withPlanes<R>(of frame: UnsafeMutablePointer<AVFrame>,
                               _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
        withUnsafePointer(to: &frame.pointee.data) { data in
            withUnsafePointer(to: &frame.pointee.linesize) { lines in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    lines.withMemoryRebound(to: Int32.self, capacity: 8) { body(planes, $0) }
                }
            }
        }
    }
}
