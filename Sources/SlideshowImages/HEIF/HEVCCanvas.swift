import SlideshowPixels
import SlideshowFormats

/// A HEIC's 8-bit 4:2:0 picture, whole: the tiles pasted into three planes, which libswscale
/// then resamples and converts to RGB in one pass.
///
/// Owns its planes (one 64-byte-aligned allocation), which are as wide and tall as the tiles
/// together; the image is their top-left ``size``.
package final class HEVCCanvas {
    /// The image's size as stored.
    package let size: Size
    /// How its YCbCr turns into RGB.
    package let matrix: YCbCrEncoding
    /// The luma plane's row length in bytes; the chroma planes' is half.
    package let lumaStride: Int
    private let storage: UnsafeMutableRawPointer
    private let lumaBytes: Int

    package init(size: Size, covered: Size, matrix: YCbCrEncoding) {
        self.size = size
        self.matrix = matrix
        lumaStride = (covered.width + 127) / 128 * 128
        lumaBytes = lumaStride * covered.height
        storage = .allocate(byteCount: lumaBytes + lumaBytes / 2 + 64, alignment: 64)
    }

    deinit { storage.deallocate() }

    /// The Y, Cb and Cr planes and their strides.
    package var planes: (pointers: [UnsafeMutablePointer<UInt8>], strides: [Int]) {
        let base = storage.assumingMemoryBound(to: UInt8.self)
        return ([base, base + lumaBytes, base + lumaBytes + lumaBytes / 4], [lumaStride, lumaStride / 2, lumaStride / 2])
    }
}
