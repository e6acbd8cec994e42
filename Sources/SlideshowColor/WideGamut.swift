internal import CLCMS
import Synchronization

/// A photo's own colour space, kept for an HDR show instead of converting it to sRGB: each
/// channel's 8-bit code value → linear light, and the 3x3 matrix from its primaries to BT.2020
/// in linear light.
///
/// An SDR show converts every photo to sRGB (``ColorManagement``), which clips a Display P3
/// photo's colours outside sRGB. An HDR show's video is BT.2020, which holds them, so a photo
/// whose profile is an RGB matrix/TRC profile (Display P3, DCI-P3 D65, Adobe RGB, BT.2020,
/// ProPhoto: what phones and cameras write) keeps its decoded code values; its slide is
/// resampled in those codes as an sRGB slide is in sRGB's, and ``HDRSlide`` takes them to
/// linear light by the profile's own curves and to BT.2020 by this matrix. Both come from
/// Little CMS: the curves evaluated at the 256 codes, the matrix read off a floating-point
/// relative colorimetric transform from the profile to linear BT.2020 (the profile's
/// D50-adapted colorants against BT.2020's, as Little CMS links two matrix/TRC profiles), so
/// the light is the same as an SDR show's conversion inside sRGB and not clipped outside it.
package struct WideGamut: Sendable, Equatable {
    /// Per channel (red, green, blue): each code value's linear light, 0…1.
    package let linear: [[Float]]
    /// The photo's linear RGB to BT.2020 linear RGB, row-major.
    package let toBT2020: [Float]

    package init(linear: [[Float]], toBT2020: [Float]) {
        precondition(linear.count == 3 && linear.allSatisfy { $0.count == 256 } && toBT2020.count == 9, "three curves of 256 codes and a 3x3 matrix")
        self.linear = linear
        self.toBT2020 = toBT2020
    }

    /// sRGB: the sRGB curve and BT.709's primaries (what every SDR slide is in).
    package static let sRGB = WideGamut(linear: [HDRSignal.sRGBLinear, HDRSignal.sRGBLinear, HDRSignal.sRGBLinear],
                                        toBT2020: HDRSignal.bt709ToBT2020)

    /// Whether this is ``sRGB`` exactly (the tables and the matrix an sRGB slide uses).
    package var isSRGB: Bool { self == .sRGB }

    /// The matrix from BT.709 (sRGB) linear light to this space's (text and imprints are drawn
    /// in sRGB): this space's inverse times ``HDRSignal/bt709ToBT2020``.
    package var fromBT709: [Float] {
        let m = toBT2020.map(Double.init)
        let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
        let inverse = [m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                       m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                       m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]].map { $0 / det }
        let b = HDRSignal.bt709ToBT2020.map(Double.init)
        return (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return Float((0..<3).map { inverse[row * 3 + $0] * b[$0 * 3 + column] }.reduce(0, +))
        }
    }
}

extension ColorManagement {
    /// The space a photo's code values are kept in for an HDR show, or nil when the show
    /// converts it to sRGB as an SDR show does: an sRGB photo (said, recognised or untagged,
    /// which converts to itself), grey or CMYK pixels (RGBA ones are the caller's to judge: a
    /// transparent pixel is composited over an sRGB background), a profile that is not an RGB matrix/TRC profile (a LUT profile's
    /// colours are not one matrix), or one Little CMS cannot read. Cached per description,
    /// as the transforms are.
    package static func wideGamut(for color: EmbeddedColor, input: ColorTransform.Input) -> WideGamut? {
        guard input == .rgb || input == .rgba, color != .sRGB else { return nil }
        return gamutCache.withLock { entries in
            if let entry = entries[color] { return entry }
            let built = buildWideGamut(color)
            if entries.count >= cacheLimit { entries.removeAll() }
            entries[color] = .some(built)
            return built
        }
    }

    private static let gamutCache = Mutex<[EmbeddedColor: WideGamut?]>([:])

    private static func buildWideGamut(_ color: EmbeddedColor) -> WideGamut? {
        let source: ColorProfileHandle
        do throws(ColorProblem) {
            switch color {
            case .sRGB: return nil
            case .icc(let bytes): source = try ColorProfileHandle(icc: bytes)
            case .parametric(let chromaticities, let transfer): source = try ColorProfileHandle(chromaticities, transfer)
            }
        } catch {
            return nil
        }
        guard source.colorSpace == cmsSigRgbData, cmsIsMatrixShaper(source.handle) != 0,
              !source.isSRGB(comparedWith: ColorProfileHandle()) else { return nil }
        // The three curves at the 256 codes.
        var linear: [[Float]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let curve = cmsReadTag(source.handle, tag) else { return nil }
            linear.append((0..<256).map { max(0, cmsEvalToneCurveFloat(OpaquePointer(curve), Float($0) / 255)) })
        }
        // The matrix: each primary at full code, through the profile's curve (1 at full code)
        // and the link to linear BT.2020, in doubles.
        guard let destination = try? ColorProfileHandle(.bt2020, .power(1)),
              let transform = cmsCreateTransform(source.handle, shim_type_rgb_dbl(), destination.handle, shim_type_rgb_dbl(),
                                                 cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE))
        else { return nil }
        defer { cmsDeleteTransform(transform) }
        var unit: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var columns = [Double](repeating: 0, count: 9)
        cmsDoTransform(transform, &unit, &columns, 3)
        // columns[p * 3 + c]: channel c of primary p; the matrix's row c, column p.
        let matrix = (0..<9).map { index in Float(columns[(index % 3) * 3 + index / 3]) }
        guard matrix.allSatisfy(\.isFinite) else { return nil }
        return WideGamut(linear: linear, toBT2020: matrix)
    }
}
