/// What a photo says about the colours of its pixels, as read from its file.
///
/// Every decoder reports one: JPEG's APP2 `ICC_PROFILE` segments, PNG's `iCCP` (or its
/// `sRGB`, `gAMA` and `cHRM` chunks), HEIF's `colr` box (`prof` ICC or `nclx` code points)
/// and WebP's `ICCP` chunk. ``ColorManagement`` turns it into sRGB pixels.
package enum EmbeddedColor: Sendable, Hashable {
    /// sRGB, said or assumed (an untagged photo): nothing to do.
    case sRGB
    /// An ICC profile, the bytes of the file's own copy.
    case icc([UInt8])
    /// Chromaticities and a transfer curve (PNG `cHRM`/`gAMA`, HEIF `nclx`).
    case parametric(Chromaticities, Transfer)

    /// CIE xy chromaticities of the white point and the three primaries.
    package struct Chromaticities: Sendable, Hashable {
        package var white: (x: Double, y: Double)
        package var red: (x: Double, y: Double)
        package var green: (x: Double, y: Double)
        package var blue: (x: Double, y: Double)

        package init(white: (x: Double, y: Double), red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double)) {
            (self.white, self.red, self.green, self.blue) = (white, red, green, blue)
        }

        /// ITU-R BT.709 / sRGB primaries with a D65 white.
        package static let bt709 = Chromaticities(white: (0.3127, 0.3290), red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060))
        /// SMPTE EG 432-1 (Display P3) primaries with a D65 white.
        package static let displayP3 = Chromaticities(white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
        /// ITU-R BT.2020 primaries with a D65 white.
        package static let bt2020 = Chromaticities(white: (0.3127, 0.3290), red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))

        /// Whether every coordinate is within `tolerance` of another set's.
        package func isClose(to other: Chromaticities, tolerance: Double = 0.001) -> Bool {
            let mine = [white.x, white.y, red.x, red.y, green.x, green.y, blue.x, blue.y]
            let theirs = [other.white.x, other.white.y, other.red.x, other.red.y, other.green.x, other.green.y, other.blue.x, other.blue.y]
            return zip(mine, theirs).allSatisfy { abs($0 - $1) <= tolerance }
        }

        package static func == (a: Chromaticities, b: Chromaticities) -> Bool {
            a.white == b.white && a.red == b.red && a.green == b.green && a.blue == b.blue
        }

        package func hash(into hasher: inout Hasher) {
            for value in [white.x, white.y, red.x, red.y, green.x, green.y, blue.x, blue.y] { hasher.combine(value) }
        }
    }

    /// How stored values map to linear light.
    package enum Transfer: Sendable, Hashable {
        /// IEC 61966-2-1 (sRGB).
        case sRGB
        /// A pure power law: linear = stored ^ exponent (PNG `gAMA` g gives exponent 1/g).
        case power(Double)
    }

    /// The colour of a HEIF `nclx` box, or nil with the reason when it is one this stage does
    /// not convert (PQ or HLG high dynamic range, unknown primaries).
    ///
    /// BT.709, unspecified and BT.601 primaries with the BT.709, BT.601, sRGB or unspecified
    /// transfer are sRGB, as every HEIF and AVIF reader treats them (the BT.709 and sRGB
    /// curves are both displayed as sRGB). Display P3 (12), DCI-P3 (11, D65 white assumed as
    /// on phones) and BT.2020 (9) primaries convert through a profile built from the primaries
    /// with the sRGB curve.
    /// - Parameters:
    ///   - primaries: `colour_primaries` (ISO/IEC 23091-2).
    ///   - transfer: `transfer_characteristics`.
    package static func nclx(primaries: Int, transfer: Int) -> Result<EmbeddedColor, ColorProblem> {
        let curve: Transfer
        switch transfer {
        case 1, 2, 6, 13, 14, 15: curve = .sRGB
        case 4: curve = .power(2.2)
        case 5: curve = .power(2.8)
        case 8: curve = .power(1.0)
        case 16: return .failure(ColorProblem("a PQ (HDR) colour description is not supported"))
        case 18: return .failure(ColorProblem("an HLG (HDR) colour description is not supported"))
        default: return .failure(ColorProblem("transfer characteristics \(transfer) are not supported"))
        }
        let chromaticities: Chromaticities
        switch primaries {
        case 1, 2, 5, 6: chromaticities = .bt709
        case 11, 12: chromaticities = .displayP3
        case 9: chromaticities = .bt2020
        default: return .failure(ColorProblem("colour primaries \(primaries) are not supported"))
        }
        if chromaticities == .bt709 && curve == .sRGB { return .success(.sRGB) }
        return .success(.parametric(chromaticities, curve))
    }

    /// The colour of a PNG without an `iCCP` chunk, from its `sRGB`, `gAMA` and `cHRM` chunks.
    ///
    /// `sRGB` (or nothing) is sRGB; a `gAMA` within 1% of 1/2.2 with no `cHRM` (or sRGB's) is
    /// sRGB too, as browsers treat it; otherwise the stated gamma (and primaries, sRGB's when
    /// `cHRM` is absent) become a profile.
    /// - Parameters:
    ///   - hasSRGBChunk: whether an `sRGB` chunk is present.
    ///   - gamma: the `gAMA` value divided by 100000, nil without the chunk.
    ///   - chromaticities: the `cHRM` values, nil without the chunk.
    package static func png(hasSRGBChunk: Bool, gamma: Double?, chromaticities: Chromaticities?) -> EmbeddedColor {
        if hasSRGBChunk { return .sRGB }
        if gamma == nil && chromaticities == nil { return .sRGB }
        let primaries = chromaticities ?? .bt709
        let sRGBPrimaries = primaries.isClose(to: .bt709, tolerance: 0.002)
        guard let gamma, gamma > 0 else {
            // cHRM alone: sRGB's curve with the stated primaries.
            return sRGBPrimaries ? .sRGB : .parametric(primaries, .sRGB)
        }
        if sRGBPrimaries && abs(gamma - 1 / 2.2) <= 0.01 / 2.2 { return .sRGB }
        return .parametric(primaries, .power(1 / gamma))
    }
}

/// Why an embedded colour description cannot be used: the photo then shows as if it were sRGB.
package struct ColorProblem: Error, Sendable, Equatable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}
