package import CFFmpeg
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowFormats

/// Owns one libswscale context (`sws_getContext` … `sws_freeContext`).
///
/// Used for two jobs: resampling RGB24 to RGB24 with Lanczos (the slide), and converting a
/// decoded PNG frame of any pixel format to RGB24 or RGBA at its own size. Not `Sendable`:
/// each one lives inside a single call of ``ImageManager``.
package final class PhotoResampler {
    /// The flags for slides: Lanczos, accurate rounding, full chroma on input and internally
    /// (swscale works in YUV internally; without these it halves the chroma resolution of
    /// RGB input and output).
    package static let slideFlags = SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP | SWS_FULL_CHR_H_INT

    private let owner: OwnedScaleContext
    private let sourceHeight: Int32
    private let destinationHeight: Int32

    /// The largest enlargement one libswscale pass is given, per axis: 64.
    ///
    /// libswscale refuses to enlarge by more than a few thousand times in one pass (a 1x1
    /// photo into 8192 pixels fails to set up), so ``resample(_:size:stride:into:size:stride:)``
    /// enlarges in steps of at most this factor.
    package static let maximumStep = 64

    /// Creates a context for one pair of sizes and formats.
    /// - Parameters:
    ///   - source: the input size.
    ///   - sourceFormat: the input pixel format; RGB24 by default.
    ///   - destination: the output size.
    ///   - destinationFormat: the output pixel format; RGB24 by default.
    ///   - flags: libswscale flags; ``slideFlags`` by default.
    /// - Throws: `.unsupported` when libswscale refuses the sizes or formats.
    package init(from source: Size, format sourceFormat: AVPixelFormat = AV_PIX_FMT_RGB24,
         to destination: Size, format destinationFormat: AVPixelFormat = AV_PIX_FMT_RGB24,
         flags: Int32 = PhotoResampler.slideFlags) throws(ImageProblem) {
        do {
            owner = try OwnedScaleContext(from: source, format: sourceFormat, to: destination, format: destinationFormat, flags: flags)
        } catch {
            throw ImageProblem(.unsupported, "cannot resample \(source) to \(destination) (libswscale refused)")
        }
        sourceHeight = Int32(source.height)
        destinationHeight = Int32(destination.height)
    }

    /// Resamples a packed RGB image into another of any size with Lanczos, enlarging in
    /// steps of at most ``maximumStep`` per axis, so that any source reaches any slide size.
    /// - Parameters:
    ///   - source: the first source pixel; rows must be readable a few bytes past their end.
    ///   - size: the source's size.
    ///   - stride: bytes from one source row to the next.
    ///   - destination: the first destination pixel.
    ///   - target: the destination's size.
    ///   - destinationStride: bytes from one destination row to the next.
    /// - Throws: `.unsupported` when libswscale refuses a step.
    package static func resample(_ source: UnsafePointer<UInt8>, size: Size, stride: Int,
                         into destination: UnsafeMutablePointer<UInt8>, size target: Size, stride destinationStride: Int) throws(ImageProblem) {
        let step = Size(width: min(target.width, size.width * maximumStep), height: min(target.height, size.height * maximumStep))
        if step == target {
            try PhotoResampler(from: size, to: target).scale(source, stride: stride, into: destination, stride: destinationStride)
            return
        }
        // One step up into an intermediate image (padded like every intermediate), then on from there.
        let rowBytes = step.width * 3
        var intermediate = [UInt8](repeating: 0, count: rowBytes * step.height + ImageLimits.rowPadding)
        let outcome = intermediate.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(ImageProblem) in
                let pixels = buffer.baseAddress!
                try PhotoResampler(from: size, to: step).scale(source, stride: stride, into: pixels, stride: rowBytes)
                try resample(pixels, size: step, stride: rowBytes, into: destination, size: target, stride: destinationStride)
            }
        }
        try outcome.get()
    }

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
    package func scale(_ source: UnsafePointer<UInt8>, stride sourceStride: Int,
               into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) throws(ImageProblem) {
        try scale(planes: [source, nil, nil, nil], strides: [Int32(sourceStride), 0, 0, 0],
                  into: destination, stride: destinationStride)
    }

    /// Scales a planar or packed source (an `AVFrame`'s `data` and `linesize`) into a packed image.
    package func scale(planes: [UnsafePointer<UInt8>?], strides: [Int32],
               into destination: UnsafeMutablePointer<UInt8>, stride destinationStride: Int) throws(ImageProblem) {
        precondition(planes.count >= 4 && strides.count >= 4, "sws_scale reads four planes")
        let destinations: [UnsafeMutablePointer<UInt8>?] = [destination, nil, nil, nil]
        let destinationStrides: [Int32] = [Int32(destinationStride), 0, 0, 0]
        let rows = sws_scale(owner.pointer, planes, strides, 0, sourceHeight, destinations, destinationStrides)
        guard rows >= 0 else {
            throw ImageProblem(.unsupported, "libswscale failed (\(FFmpegError(call: "sws_scale", code: rows).message))")
        }
        guard rows == destinationHeight else {
            throw ImageProblem(.unsupported, "libswscale wrote \(rows) of \(destinationHeight) rows")
        }
    }
}
