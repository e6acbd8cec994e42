internal import CLCMS
import Synchronization
import SlideshowPixels

/// Turns a decoded photo's pixels into sRGB through Little CMS, before any resampling or look.
///
/// Relative colorimetric intent with black-point compensation, 8 bits in and out (Little CMS
/// computes in 1.15 fixed point or floating point in between): the same conversion as
/// Pillow's `ImageCms.profileToProfile(…, renderingIntent=1, flags=BLACKPOINTCOMPENSATION)`.
/// sRGB photos (said, recognised from their profile, or untagged) skip it entirely.
///
/// One transform is built per distinct profile and pixel layout, and kept for the life of
/// the process (up to ``cacheLimit`` of them), so the twenty photos of one iPhone in a
/// render, or the jobs of a batch, build it once. Broken or unsupported profiles are
/// remembered too, so each is parsed once.
package enum ColorManagement {
    /// The most transforms kept at once; past it the cache starts over (a batch of photos
    /// from hundreds of different scanners is rare, and a transform costs tens of kilobytes).
    package static let cacheLimit = 64

    /// What a cached description turns into.
    private enum Entry {
        case identity
        case transform(ColorTransform)
        case unusable(ColorProblem)
    }

    private struct Key: Hashable {
        var color: EmbeddedColor
        var input: ColorTransform.Input
    }

    /// Little CMS's sRGB profile, the destination of every transform.
    ///
    /// `@unchecked Sendable` holder: the profile is only read (by `cmsCreateTransform` and
    /// ``ColorProfileHandle/isSRGB(comparedWith:)``) and those reads happen under ``cache``'s lock.
    private final class Destination: @unchecked Sendable {
        let profile = ColorProfileHandle()
    }

    private static let cache = Mutex<[Key: Entry]>([:])
    private static let destination = Destination()

    /// The sRGB version of an image, from what its file says (or the problem reading that).
    /// - Parameters:
    ///   - image: decoded pixels in the layout `input` describes.
    ///   - color: the decoder's reading of the file's colour description.
    ///   - input: the layout of the pixels.
    ///   - warn: called once with the reason (ending "; shown as sRGB") when the description
    ///     cannot be used; the photo then shows as if it were sRGB.
    package static func convert(_ image: consuming RGBImage, from color: Result<EmbeddedColor, ColorProblem>,
                        input: ColorTransform.Input, warn: (String) -> Void) -> RGBImage {
        let (converted, problem): (RGBImage, ColorProblem?)
        switch color {
        case .success(let described):
            (converted, problem) = convert(image, from: described, input: input)
        case .failure(let unreadable):
            (converted, problem) = (fallback(image, input: input), unreadable)
        }
        if let problem { warn("\(problem.reason); shown as sRGB") }
        return converted
    }

    /// The sRGB version of an image.
    /// - Parameters:
    ///   - image: decoded pixels: 3 channels (RGB, or grey repeated in RGB) or 4 (CMYK).
    ///   - color: what the file says about them.
    ///   - input: the layout of the pixels.
    /// - Returns: the converted image (3 channels), and the problem when the description
    ///   could not be used: then the image is returned as it was (RGB), or with the plain
    ///   CMYK formula (CMYK), and the caller warns once.
    package static func convert(_ image: consuming RGBImage, from color: EmbeddedColor,
                        input: ColorTransform.Input) -> (RGBImage, ColorProblem?) {
        switch entry(for: Key(color: color, input: input)) {
        case .identity:
            return (fallback(image, input: input), nil)
        case .transform(let transform):
            return (transform.apply(to: image), nil)
        case .unusable(let problem):
            return (fallback(image, input: input), problem)
        }
    }

    /// The transform the cache holds for a description and layout (building it on first
    /// use), or nil when the photo skips conversion or its description is unusable.
    package static func cachedTransform(for color: EmbeddedColor, input: ColorTransform.Input) -> ColorTransform? {
        if case .transform(let transform) = entry(for: Key(color: color, input: input)) { return transform }
        return nil
    }

    /// The image shown as if it were sRGB: RGB as it is, CMYK through the naive formula.
    private static func fallback(_ image: consuming RGBImage, input: ColorTransform.Input) -> RGBImage {
        switch input {
        case .rgb, .rgba, .greyInRGB: image
        case .cmyk: image.rgbFromCMYK(inverted: false)
        case .invertedCMYK: image.rgbFromCMYK(inverted: true)
        }
    }

    private static func entry(for key: Key) -> Entry {
        cache.withLock { entries in
            if let entry = entries[key] { return entry }
            let entry = build(key)
            if entries.count >= cacheLimit { entries.removeAll() }
            entries[key] = entry
            return entry
        }
    }

    private static func build(_ key: Key) -> Entry {
        let source: ColorProfileHandle
        do throws(ColorProblem) {
            switch key.color {
            case .sRGB:
                // Untagged CMYK still needs converting, with the formula.
                return .identity
            case .icc(let bytes):
                source = try ColorProfileHandle(icc: bytes)
            case .parametric(let chromaticities, let transfer):
                source = try ColorProfileHandle(chromaticities, transfer)
            }
            let space = source.colorSpace
            switch key.input {
            case .rgb, .rgba:
                if space == cmsSigGrayData {
                    return .unusable(ColorProblem("its colour profile is for grey pixels, the image is in colour"))
                }
                guard space == cmsSigRgbData else {
                    return .unusable(ColorProblem("its colour profile is not an RGB profile"))
                }
                if source.isSRGB(comparedWith: destination.profile) { return .identity }
            case .greyInRGB:
                guard space == cmsSigGrayData || space == cmsSigRgbData else {
                    return .unusable(ColorProblem("its colour profile is not a grey or RGB profile"))
                }
                if space == cmsSigRgbData {
                    // A grey JPEG with an RGB profile: its pixels are RGB to TurboJPEG, fine.
                    if source.isSRGB(comparedWith: destination.profile) { return .identity }
                    return .transform(try ColorTransform(from: source, input: .rgb, to: destination.profile))
                }
            case .cmyk, .invertedCMYK:
                guard space == cmsSigCmykData else {
                    return .unusable(ColorProblem("its colour profile is not a CMYK profile"))
                }
            }
            return .transform(try ColorTransform(from: source, input: key.input, to: destination.profile))
        } catch {
            return .unusable(error)
        }
    }
}
