/// A failure inside the image stage, before it is tied to a photo's path.
///
/// Parsers, decoders and the resampler throw this; ``ImageManager`` turns it into a
/// ``PhotoError`` carrying the path exactly as the user gave it.
package struct ImageProblem: Error, Sendable, Equatable {
    /// The kind of failure, as the user sees it.
    package var kind: PhotoError.Kind
    /// A short, lower-case reason, e.g. `truncated JPEG data (Premature end of JPEG file)`.
    package var reason: String

    package init(_ kind: PhotoError.Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The same failure, naming a photo.
    package func error(for path: String) -> PhotoError {
        PhotoError(path: path, kind: kind, reason: reason)
    }
}

extension ImageProblem {
    /// `withUnsafeBytes` for code that throws ``ImageProblem``: the standard library's
    /// version rethrows `any Error`, which would lose the typed error.
    package static func withBytes<Result>(_ bytes: [UInt8],
                                  _ body: (UnsafeRawBufferPointer) throws(ImageProblem) -> Result) throws(ImageProblem) -> Result {
        let outcome = bytes.withUnsafeBytes { raw in
            Swift.Result { () throws(ImageProblem) -> Result in try body(raw) }
        }
        return try outcome.get()
    }
}
