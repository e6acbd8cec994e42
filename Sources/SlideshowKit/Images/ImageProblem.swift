/// A failure inside the image stage, before it is tied to a photo's path.
///
/// Parsers, decoders and the resampler throw this; ``ImageManager`` turns it into a
/// ``PhotoError`` carrying the path exactly as the user gave it.
struct ImageProblem: Error, Sendable, Equatable {
    /// The kind of failure, as the user sees it.
    var kind: PhotoError.Kind
    /// A short, lower-case reason, e.g. `truncated JPEG data (Premature end of JPEG file)`.
    var reason: String

    init(_ kind: PhotoError.Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The same failure, naming a photo.
    func error(for path: String) -> PhotoError {
        PhotoError(path: path, kind: kind, reason: reason)
    }
}

/// Limits on what one photo may cost, beyond ``ImageManager/maximumPixels``.
enum ImageLimits {
    /// The most bytes a decoder may hold at full resolution for one photo: 1 GiB.
    ///
    /// Baseline JPEGs decode scaled and row by row, so they never come near it. It binds
    /// progressive and multi-scan JPEGs, which need every DCT coefficient of the image in
    /// memory (2 bytes a coefficient: about 3 bytes a pixel at 4:2:0, 6 at 4:4:4), and PNGs,
    /// which decode at full size (frame plus RGB copy).
    static let maximumIntermediateBytes = 1 << 30

    /// The most scans a progressive JPEG may have: 500, TurboJPEG's own cap (`TJFLAG_LIMITSCANS`).
    ///
    /// A progressive scan is a pass over every coefficient of the image, and a scan can be a
    /// few bytes long, so without a cap a small file could keep the decoder busy for minutes.
    /// Real encoders write about 10 scans (libjpeg's default script); past the cap a photo
    /// fails with ``PhotoError/Kind/tooLarge`` when it is decoded.
    static let maximumProgressiveScans = 500

    /// Extra bytes after every intermediate RGB image, for SIMD readers (libswscale's input
    /// converters) that load a few bytes past the end of a row.
    static let rowPadding = 64
}

extension ImageProblem {
    /// `withUnsafeBytes` for code that throws ``ImageProblem``: the standard library's
    /// version rethrows `any Error`, which would lose the typed error.
    static func withBytes<Result>(_ bytes: [UInt8],
                                  _ body: (UnsafeRawBufferPointer) throws(ImageProblem) -> Result) throws(ImageProblem) -> Result {
        let outcome = bytes.withUnsafeBytes { raw in
            Swift.Result { () throws(ImageProblem) -> Result in try body(raw) }
        }
        return try outcome.get()
    }
}
