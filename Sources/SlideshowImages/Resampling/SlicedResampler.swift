package import CFFmpeg
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowFormats

/// Owns one libswscale context with slice threads (`sws_alloc_context` … `sws_freeContext`),
/// for the HEIF slide path: a full-size planar picture (RGB, or YCbCr with its matrix) resampled to a slide with Lanczos and
/// interleaved to RGB24, its slices scaled on several threads at once.
///
/// libswscale's slice threads only run under `sws_scale_frame`, which takes `AVFrame`s: the
/// caller's planes and output are lent to two frames through buffer references that free
/// nothing, for the length of ``scale(planes:strides:into:stride:)``. The output is the same
/// as a one-thread context's (each output row is computed from the same rows and filter).
/// Not `Sendable`: it lives inside one call of ``HEIFDecoder``.
package final class SlicedResampler {
    /// libswscale's planar RGB (planes G, B, R), what libheif's RGB 4:4:4 planes are.
    package static let planarRGB = AV_PIX_FMT_GBRP
    /// libswscale's 8-bit YCbCr 4:2:0 (planes Y, Cb, Cr), what a HEIC's tiles decode to.
    package static let yuv420 = AV_PIX_FMT_YUV420P

    private let owner: OwnedScaleContext
    private let source: Size
    private let sourceFormat: AVPixelFormat
    private let destination: Size

    /// - Parameters:
    ///   - source: the input size.
    ///   - sourceFormat: the input's planar pixel format.
    ///   - destination: the RGB24 output's size.
    ///   - threads: the slice threads.
    ///   - matrix: for a YCbCr source, how it turns into RGB and where its chroma sits
    ///     (libswscale's default is BT.601, limited range).
    /// - Throws: `.unsupported` when libswscale refuses the sizes, format, threads or matrix.
    package init(from source: Size, format sourceFormat: AVPixelFormat, to destination: Size, threads: Int,
         matrix: YCbCrEncoding? = nil) throws(ImageProblem) {
        do throws(FFmpegError) {
            let siting = matrix.map { [("src_h_chr_pos", Int64($0.chromaPosition.horizontal)), ("src_v_chr_pos", Int64($0.chromaPosition.vertical))] }
            owner = try OwnedScaleContext(from: source, format: sourceFormat, to: destination, format: AV_PIX_FMT_RGB24,
                                          flags: PhotoResampler.slideFlags, threads: threads, options: siting ?? [])
            if let matrix {
                guard let colorspace = matrix.swscaleColorspace else { throw FFmpegError(call: "sws_getCoefficients", code: -EINVAL) }
                // The output's table and range are ignored for RGB; brightness, contrast and saturation neutral.
                try check(sws_setColorspaceDetails(owner.pointer, sws_getCoefficients(colorspace), matrix.fullRange ? 1 : 0,
                                                   sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16),
                          "sws_setColorspaceDetails")
            }
        } catch {
            throw ImageProblem(.unsupported, "cannot resample \(source) to \(destination) (libswscale refused: \(error.message))")
        }
        self.source = source
        self.sourceFormat = sourceFormat
        self.destination = destination
    }

    /// Scales `planes` (up to 4, with their strides) into packed RGB24 rows at `destination`.
    /// - Throws: `.unsupported` with libswscale's message when the scale fails.
    package func scale(planes: [UnsafePointer<UInt8>?], strides: [Int32],
               into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) throws(ImageProblem) {
        do throws(FFmpegError) {
            let input = try OwnedFrame(), output = try OwnedFrame()
            let lent = { (data: UnsafeMutablePointer<UInt8>, size: Int) throws(FFmpegError) -> UnsafeMutablePointer<AVBufferRef> in
                // A reference that frees nothing: the memory stays the caller's.
                guard let buffer = av_buffer_create(data, size, { _, _ in }, nil, 0) else {
                    throw FFmpegError(call: "av_buffer_create", code: -ENOMEM)
                }
                return buffer
            }
            guard let first = planes.first, let first else { throw FFmpegError(call: "sws_scale_frame", code: -EINVAL) }
            input.pointer.pointee.format = sourceFormat.rawValue
            input.pointer.pointee.width = Int32(source.width)
            input.pointer.pointee.height = Int32(source.height)
            withUnsafeMutableBytes(of: &input.pointer.pointee.data) { data in
                for (index, plane) in planes.prefix(4).enumerated() {
                    data.storeBytes(of: UnsafeMutablePointer(mutating: plane), toByteOffset: index * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                    as: UnsafeMutablePointer<UInt8>?.self)
                }
            }
            withUnsafeMutableBytes(of: &input.pointer.pointee.linesize) { linesize in
                for (index, stride) in strides.prefix(4).enumerated() {
                    linesize.storeBytes(of: stride, toByteOffset: index * MemoryLayout<Int32>.stride, as: Int32.self)
                }
            }
            input.pointer.pointee.buf.0 = try lent(UnsafeMutablePointer(mutating: first), Int(strides[0]) * source.height)
            output.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
            output.pointer.pointee.width = Int32(self.destination.width)
            output.pointer.pointee.height = Int32(self.destination.height)
            output.pointer.pointee.data.0 = destination
            output.pointer.pointee.linesize.0 = Int32(destinationStride)
            output.pointer.pointee.buf.0 = try lent(destination, destinationStride * self.destination.height)
            try check(sws_scale_frame(owner.pointer, output.pointer, input.pointer), "sws_scale_frame")
        } catch {
            throw ImageProblem(.unsupported, "libswscale failed (\(error.message))")
        }
    }
}
