/// How a picture's YCbCr turns into RGB: its matrix coefficients and range (ITU-T H.273), and
/// where its chroma samples sit.
package struct YCbCrEncoding: Equatable {
    /// H.273 `MatrixCoefficients`: 1 BT.709, 5/6 BT.601, 9/10 BT.2020, 2 unspecified …
    package var coefficients: Int
    /// Full range (0–255), or limited (16–235 luma, 16–240 chroma).
    package var fullRange: Bool

    package init(coefficients: Int, fullRange: Bool, chromaLocation: Int = 0) {
        self.coefficients = coefficients
        self.fullRange = fullRange
        self.chromaLocation = chromaLocation
    }
    /// H.273 `ChromaSampleLocType` (0 when the bitstream does not say: left of the pair of luma
    /// samples, midway between the rows, HEVC's default).
    package var chromaLocation = 0

    /// The chroma samples' position within their 2x2 luma samples, in 1/256 of a luma sample
    /// from the top-left one: what libswscale's `src_h_chr_pos` and `src_v_chr_pos` take.
    package var chromaPosition: (horizontal: Int, vertical: Int) {
        let location = (0...5).contains(chromaLocation) ? chromaLocation : 0
        return ((location & 1) == 0 ? 0 : 128, [128, 128, 0, 0, 256, 256][location])
    }
}
