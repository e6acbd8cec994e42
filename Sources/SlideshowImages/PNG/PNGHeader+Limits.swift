import SlideshowFormats
import SlideshowMetadata
import SlideshowPixels

extension PNGHeader {
    /// Refuses PNGs whose full-size decode would cost too much, before anything is allocated.
    /// - Parameter fileBytes: the file's size.
    /// - Throws: `.tooLarge` over ``ImageManager/maximumPixels``, or when the decode path
    ///   (``decodeMemory(fileBytes:)``) would pass ``ImageLimits/maximumIntermediateBytes``.
    package func checkLimits(fileBytes: Int) throws(ImageProblem) {
        try ImageManager.checkPixelCount(size, format: "PNG")
        let bytes = decodeMemory(fileBytes: fileBytes)
        if bytes > ImageLimits.maximumIntermediateBytes {
            throw ImageProblem(.tooLarge,
                               "a PNG of \(size) needs \(bytes >> 20) MiB to decode, over the \(ImageLimits.maximumIntermediateBytes >> 20) MiB cap")
        }
    }
}
