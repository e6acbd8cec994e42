internal import CFFmpeg

/// How a picture's YCbCr turns into RGB: its matrix coefficients and range (ITU-T H.273), and
/// where its chroma samples sit.
struct YCbCrEncoding: Equatable {
    /// H.273 `MatrixCoefficients`: 1 BT.709, 5/6 BT.601, 9/10 BT.2020, 2 unspecified …
    var coefficients: Int
    /// Full range (0–255), or limited (16–235 luma, 16–240 chroma).
    var fullRange: Bool
    /// H.273 `ChromaSampleLocType` (0 when the bitstream does not say: left of the pair of luma
    /// samples, midway between the rows, HEVC's default).
    var chromaLocation = 0

    /// The chroma samples' position within their 2x2 luma samples, in 1/256 of a luma sample
    /// from the top-left one: what libswscale's `src_h_chr_pos` and `src_v_chr_pos` take.
    var chromaPosition: (horizontal: Int, vertical: Int) {
        let location = (0...5).contains(chromaLocation) ? chromaLocation : 0
        return ((location & 1) == 0 ? 0 : 128, [128, 128, 0, 0, 256, 256][location])
    }

    /// libswscale's table for the matrix (`SWS_CS_*`), following libheif 1.15's choice for
    /// each value so that both paths agree: the matrices it knows by their constants, BT.601
    /// (its default) for unspecified and unknown ones.
    ///
    /// nil for identity (0), YCgCo (8) and the chromaticity-derived matrices (12, 13), which
    /// libheif converts its own way, and for limited range: libswscale 5.1's RGB output
    /// overflows on samples past the nominal range there (Y ≥ 238 with Cb = 255 turns blue
    /// from 255 to 0), where libheif clips. Phone HEICs are full range.
    var swscaleColorspace: Int32? {
        guard fullRange else { return nil }
        return switch coefficients {
        case 0, 8, 12, 13: nil
        case 1: SWS_CS_ITU709
        case 4: SWS_CS_FCC
        case 7: SWS_CS_SMPTE240M
        case 9, 10: SWS_CS_BT2020
        default: SWS_CS_ITU601
        }
    }
}
