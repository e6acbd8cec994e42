import SlideshowPixels

/// A TurboJPEG DCT scaling factor, `numerator / denominator`, as a Swift value.
package struct DCTScale: Sendable, Hashable, CustomStringConvertible {
    package var numerator: Int
    package var denominator: Int

    package init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    package static let one = DCTScale(numerator: 1, denominator: 1)

    package var description: String { "\(numerator)/\(denominator)" }

    /// A dimension after DCT scaling: TurboJPEG's `TJSCALED`, which rounds up.
    package func scaled(_ dimension: Int) -> Int {
        (dimension * numerator + denominator - 1) / denominator
    }

    /// A size after DCT scaling.
    package func scaled(_ size: Size) -> Size {
        Size(width: scaled(size.width), height: scaled(size.height))
    }

    /// The factors this libjpeg-turbo offers (`tjGetScalingFactors`), read once.
    package static let available: [DCTScale] = TurboJPEGDecompressor.scalingFactors()

    /// Picks the smallest factor whose scaled size still covers the fitted rectangle.
    ///
    /// `tjDecompress2` itself picks the *largest* factor that fits *inside* the box it is
    /// given, which undershoots and forces an upscale (4000x3000 into 1920x1080 gives 1/4,
    /// 1000x750). Instead: turn the fitted rectangle into stored orientation (swap width and
    /// height for orientations 5 to 8), then take the smallest factor `f` with
    /// `TJSCALED(storedWidth, f) >= fittedWidth` and the same for the height. Factors above 1
    /// (DCT upscaling) are never chosen: when even 1/1 does not cover, 1/1 it is, and the
    /// resampler enlarges.
    /// - Parameters:
    ///   - stored: the JPEG's stored size (before orientation).
    ///   - orientation: its EXIF orientation.
    ///   - fitted: the size the whole displayed photo must have (``FitGeometry/fittedSize``).
    ///   - factors: the factors to choose from; TurboJPEG's by default.
    package static func choose(stored: Size, orientation: Orientation, fitted: Size,
                       from factors: [DCTScale] = DCTScale.available) -> DCTScale {
        let needed = orientation.swapsWidthAndHeight ? Size(width: fitted.height, height: fitted.width) : fitted
        var best = DCTScale.one
        for factor in factors where factor.numerator <= factor.denominator {
            let scaled = factor.scaled(stored)
            guard scaled.width >= needed.width, scaled.height >= needed.height else { continue }
            // Smaller factor: compare a/b < c/d as a·d < c·b.
            if factor.numerator * best.denominator < best.numerator * factor.denominator {
                best = factor
            }
        }
        return best
    }
}
