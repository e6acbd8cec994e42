internal import CFFmpeg

/// Owns one libswscale context (`sws_getContext` … `sws_freeContext`).
///
/// Used for two jobs: resampling RGB24 to RGB24 with Lanczos (the slide), and converting a
/// decoded PNG frame of any pixel format to RGB24 or RGBA at its own size. Not `Sendable`:
/// each one lives inside a single call of ``ImageManager``.
final class PhotoResampler {
    /// The flags for slides: Lanczos, accurate rounding, full chroma on input and internally
    /// (swscale works in YUV internally; without these it halves the chroma resolution of
    /// RGB input and output).
    static let slideFlags = SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP | SWS_FULL_CHR_H_INT

    private let context: OpaquePointer
    private let sourceHeight: Int32
    private let destinationHeight: Int32

    /// Creates a context for one pair of sizes and formats.
    /// - Parameters:
    ///   - source: the input size.
    ///   - sourceFormat: the input pixel format; RGB24 by default.
    ///   - destination: the output size.
    ///   - destinationFormat: the output pixel format; RGB24 by default.
    ///   - flags: libswscale flags; ``slideFlags`` by default.
    /// - Throws: `.unsupported` when libswscale refuses the sizes or formats.
    init(from source: Size, format sourceFormat: AVPixelFormat = AV_PIX_FMT_RGB24,
         to destination: Size, format destinationFormat: AVPixelFormat = AV_PIX_FMT_RGB24,
         flags: Int32 = PhotoResampler.slideFlags) throws(ImageProblem) {
        guard let context = sws_getContext(Int32(source.width), Int32(source.height), sourceFormat,
                                           Int32(destination.width), Int32(destination.height), destinationFormat,
                                           flags, nil, nil, nil)
        else {
            throw ImageProblem(.unsupported, "cannot resample \(source) to \(destination) (libswscale refused)")
        }
        self.context = context
        sourceHeight = Int32(source.height)
        destinationHeight = Int32(destination.height)
    }

    deinit { sws_freeContext(context) }

    /// Scales one packed image into another, with `sws_scale`.
    ///
    /// To crop, pass a source pointer offset to the crop's top-left pixel with the full
    /// image's stride; to letterbox, a destination pointer offset to the content rectangle
    /// with the whole frame's stride.
    /// - Parameters:
    ///   - source: the first source pixel; rows must be readable a few bytes past their end.
    ///   - sourceStride: bytes from one source row to the next.
    ///   - destination: the first destination pixel.
    ///   - destinationStride: bytes from one destination row to the next.
    /// - Throws: `.unsupported` when libswscale produces fewer rows than asked for.
    func scale(_ source: UnsafePointer<UInt8>, stride sourceStride: Int,
               into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) throws(ImageProblem) {
        try scale(planes: [source, nil, nil, nil], strides: [Int32(sourceStride), 0, 0, 0],
                  into: destination, stride: destinationStride)
    }

    /// Scales a planar or packed source (an `AVFrame`'s `data` and `linesize`) into a packed image.
    func scale(planes: [UnsafePointer<UInt8>?], strides: [Int32],
               into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) throws(ImageProblem) {
        precondition(planes.count >= 4 && strides.count >= 4, "sws_scale reads four planes")
        let destinations: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
        let destinationStrides: [Int32] = [Int32(destinationStride), 0, 0, 0]
        let rows = sws_scale(context, planes, strides, 0, sourceHeight, destinations, destinationStrides)
        guard rows == destinationHeight else {
            throw ImageProblem(.unsupported, "libswscale wrote \(rows) of \(destinationHeight) rows")
        }
    }
}
