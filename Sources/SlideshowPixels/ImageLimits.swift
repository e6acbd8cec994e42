/// Limits on what one photo may cost, beyond ``ImageManager/maximumPixels``.
package enum ImageLimits {
    /// The most bytes a decoder may hold at full resolution for one photo: 1 GiB.
    ///
    /// Baseline JPEGs decode scaled and row by row, so they never come near it. It binds
    /// progressive and multi-scan JPEGs, which need every DCT coefficient of the image in
    /// memory (2 bytes a coefficient: about 3 bytes a pixel at 4:2:0, 6 at 4:4:4), and PNGs,
    /// which decode at full size (frame plus RGB copy).
    package static let maximumIntermediateBytes = 1 << 30

    /// The most scans a progressive JPEG may have: 500, TurboJPEG's own cap (`TJFLAG_LIMITSCANS`).
    ///
    /// A progressive scan is a pass over every coefficient of the image, and a scan can be a
    /// few bytes long, so without a cap a small file could keep the decoder busy for minutes.
    /// Real encoders write about 10 scans (libjpeg's default script); past the cap a photo
    /// fails with ``PhotoError/Kind/tooLarge`` when it is decoded.
    package static let maximumProgressiveScans = 500

    /// Extra bytes after every intermediate RGB image, for SIMD readers (libswscale's input
    /// converters) that load a few bytes past the end of a row.
    package static let rowPadding = 64
}
