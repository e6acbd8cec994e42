internal import CFFmpeg
import SlideshowFormats

extension YCbCrEncoding {
    /// libswscale's table for the matrix (`SWS_CS_*`), following libheif 1.15's choice for
    /// each value so that both paths agree: the matrices it knows by their constants, BT.601
    /// (its default) for unspecified and unknown ones.
    ///
    /// nil for identity (0), YCgCo (8) and the chromaticity-derived matrices (12, 13), which
    /// libheif converts its own way, and for limited range: libswscale 5.1's RGB output
    /// overflows on samples past the nominal range there (Y ≥ 238 with Cb = 255 turns blue
    /// from 255 to 0), where libheif clips. Phone HEICs are full range.
    package var swscaleColorspace: Int32? {
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
