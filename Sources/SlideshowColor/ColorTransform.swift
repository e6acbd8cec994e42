package import CLCMS
import Dispatch
import SlideshowPixels

/// Owns one Little CMS profile handle (`cmsOpenProfileFromMem` … `cmsCloseProfile`).
package final class ColorProfileHandle {
    package let handle: cmsHPROFILE

    /// Parses an ICC profile.
    /// - Throws: ``ColorProblem`` when Little CMS cannot read it.
    package init(icc: [UInt8]) throws(ColorProblem) {
        let opened = icc.withUnsafeBytes { raw in
            cmsOpenProfileFromMem(raw.baseAddress, cmsUInt32Number(raw.count))
        }
        guard let opened else { throw ColorProblem("its colour profile cannot be read") }
        handle = opened
    }

    /// Little CMS's own sRGB profile (the one Pillow's `ImageCms.createProfile("sRGB")` makes).
    package init() {
        handle = cmsCreate_sRGBProfile()
    }

    /// An RGB profile from chromaticities and a transfer curve.
    /// - Throws: ``ColorProblem`` when the primaries do not make a valid matrix.
    package init(_ chromaticities: EmbeddedColor.Chromaticities, _ transfer: EmbeddedColor.Transfer) throws(ColorProblem) {
        var white = cmsCIExyY(x: chromaticities.white.x, y: chromaticities.white.y, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: chromaticities.red.x, y: chromaticities.red.y, Y: 1),
            Green: cmsCIExyY(x: chromaticities.green.x, y: chromaticities.green.y, Y: 1),
            Blue: cmsCIExyY(x: chromaticities.blue.x, y: chromaticities.blue.y, Y: 1))
        let curve: OpaquePointer?
        switch transfer {
        case .sRGB:
            // IEC 61966-2-1, as lcms's own sRGB: type 4, Y = ((aX + b)^g) for X >= d, else cX.
            var parameters: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
        case .power(let exponent):
            curve = cmsBuildGamma(nil, exponent)
        }
        guard let curve else { throw ColorProblem("its transfer curve cannot be built") }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else {
            throw ColorProblem("its primaries do not make a colour space")
        }
        handle = profile
    }

    deinit { cmsCloseProfile(handle) }

    /// The profile's colour space signature (RGB, CMYK, grey, …).
    package var colorSpace: cmsColorSpaceSignature { cmsGetColorSpace(handle) }

    /// Whether the profile is sRGB in all but name: a matrix/TRC RGB profile whose colorants
    /// are within 0.0015 of sRGB's and whose three curves stay within 0.4 of a level (8-bit)
    /// of the sRGB curve. Such photos skip the transform, at no cost and no loss.
    package func isSRGB(comparedWith reference: ColorProfileHandle) -> Bool {
        guard colorSpace == cmsSigRgbData, cmsIsMatrixShaper(handle) != 0 else { return false }
        let colorants = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
        for tag in colorants {
            guard let mine = cmsReadTag(handle, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee,
                  let theirs = cmsReadTag(reference.handle, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
            else { return false }
            if abs(mine.X - theirs.X) > 0.0015 || abs(mine.Y - theirs.Y) > 0.0015 || abs(mine.Z - theirs.Z) > 0.0015 { return false }
        }
        let curves = [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag]
        for tag in curves {
            guard let mine = cmsReadTag(handle, tag), let theirs = cmsReadTag(reference.handle, tag) else { return false }
            let a = OpaquePointer(mine), b = OpaquePointer(theirs)
            for step in 0...64 {
                let x = Float(step) / 64
                if abs(cmsEvalToneCurveFloat(a, x) - cmsEvalToneCurveFloat(b, x)) * 255 > 0.4 { return false }
            }
        }
        return true
    }
}

/// Owns one Little CMS transform (`cmsCreateTransform` … `cmsDeleteTransform`) from a photo's
/// profile to sRGB, relative colorimetric with black-point compensation.
///
/// `@unchecked Sendable`: the transform is made with `cmsFLAGS_NOCACHE`, so Little CMS keeps
/// no per-call state in it and `cmsDoTransform` may run on several threads at once (lcms2's
/// documented rule); after `init` nothing in the object changes. That is what lets one
/// transform serve every photo with the same profile, across the renders of a batch.
package final class ColorTransform: @unchecked Sendable {
    /// The pixel layouts a transform reads.
    package enum Input: Sendable, Hashable {
        /// Packed 8-bit RGB.
        case rgb
        /// Packed 8-bit RGBA, straight alpha (kept as it is).
        case rgba
        /// Packed 8-bit RGB whose channels are equal, read through a grey profile.
        case greyInRGB
        /// Packed 8-bit CMYK, ink amounts.
        case cmyk
        /// Packed 8-bit CMYK stored inverted (Adobe's CMYK JPEGs).
        case invertedCMYK

        package var channels: Int { self == .rgb || self == .greyInRGB ? 3 : 4 }

        /// Whether the transform writes over its input (RGB and RGBA) rather than into a new RGB image (CMYK).
        package var inPlace: Bool { self != .cmyk && self != .invertedCMYK }

        fileprivate var format: cmsUInt32Number {
            switch self {
            case .rgb: shim_type_rgb_8()
            case .rgba: shim_type_rgba_8()
            case .greyInRGB: shim_type_gray_8_in_rgb()
            case .cmyk: shim_type_cmyk_8()
            case .invertedCMYK: shim_type_cmyk_8_rev()
            }
        }
    }

    private let handle: cmsHTRANSFORM
    package let input: Input

    /// Builds the transform from a profile to sRGB.
    /// - Throws: ``ColorProblem`` when Little CMS cannot link the two profiles.
    package init(from source: ColorProfileHandle, input: Input, to sRGB: ColorProfileHandle) throws(ColorProblem) {
        self.input = input
        var flags = cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE)
        if input == .rgba { flags |= cmsUInt32Number(cmsFLAGS_COPY_ALPHA) }
        let output = input == .rgba ? shim_type_rgba_8() : shim_type_rgb_8()
        guard let transform = cmsCreateTransform(source.handle, input.format, sRGB.handle, output,
                                                 cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags) else {
            throw ColorProblem("its colour profile cannot be converted to sRGB")
        }
        handle = transform
    }

    deinit { cmsDeleteTransform(handle) }

    /// The sRGB image of an image in the transform's input layout.
    ///
    /// RGB and RGBA convert in place (the image is consumed, so a caller that passes its last
    /// use does not pay for a copy of the pixels); CMYK into a new 3-channel image. Large images convert in bands
    /// on every core (the transform is shared read-only).
    package func apply(to image: consuming RGBImage) -> RGBImage {
        precondition(image.channels == input.channels, "the image's layout must match the transform's")
        let pixelCount = image.width * image.height
        let bands = pixelCount >= 1 << 20 ? 8 : 1
        let perBand = (image.height + bands - 1) / bands
        let width = image.width, height = image.height
        let transform = UncheckedTransform(handle: handle)
        if input.inPlace {
            let pixelBytes = input.channels
            var result = image
            result.pixels.withUnsafeMutableBytes { raw in
                let base = UncheckedPointer(base: raw.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let first = band * perBand, last = min(height, first + perBand)
                    guard first < last else { return }
                    let start = base.base + first * width * pixelBytes
                    cmsDoTransform(transform.handle, start, start, cmsUInt32Number((last - first) * width))
                }
            }
            return result
        }
        let output = [UInt8](unsafeUninitializedCapacity: pixelCount * 3 + ImageLimits.rowPadding) { buffer, count in
            let to = UncheckedPointer(base: UnsafeMutableRawPointer(buffer.baseAddress!))
            image.pixels.withUnsafeBytes { source in
                let from = UncheckedPointer(base: UnsafeMutableRawPointer(mutating: source.baseAddress!))
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let first = band * perBand, last = min(height, first + perBand)
                    guard first < last else { return }
                    cmsDoTransform(transform.handle, from.base + first * width * 4, to.base + first * width * 3,
                                   cmsUInt32Number((last - first) * width))
                }
            }
            (buffer.baseAddress! + pixelCount * 3).initialize(repeating: 0, count: ImageLimits.rowPadding)
            count = buffer.count
        }
        return RGBImage(width: width, height: height, channels: 3, pixels: output)
    }
}

/// A raw pointer handed to `concurrentPerform`'s bands, each of which touches its own rows.
private struct UncheckedPointer: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
}

/// The transform handle handed to `concurrentPerform`: safe, as ``ColorTransform`` explains.
private struct UncheckedTransform: @unchecked Sendable {
    let handle: cmsHTRANSFORM
}
