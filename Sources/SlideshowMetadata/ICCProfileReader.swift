import SlideshowColor
import SlideshowFormats

/// Reads embedded ICC profiles where the decoders do not: JPEG's APP2 segments.
///
/// TurboJPEG 2.1.5 has no ICC call (`tj3GetICCProfile` arrived in 3.0), so the markers are
/// walked here (with ``JPEGMarkers``, as ``MetadataBlocks`` takes APP1), over untrusted bytes.
package enum ICCProfileReader {
    /// The ICC profile of a JPEG file: the payloads of its `ICC_PROFILE\0` APP2 segments
    /// (each `ICC_PROFILE\0`, a 1-based sequence number, the chunk count, then data) joined in
    /// sequence order, as ICC.1 Annex B.4 says.
    /// - Parameters:
    ///   - jpeg: the file's bytes (at least through SOS).
    /// - Returns: nil when there is no profile; the profile; or the problem when the chunks
    ///   are inconsistent (missing, repeated, or disagreeing on the count).
    package static func jpeg(_ jpeg: [UInt8]) -> Result<[UInt8], ColorProblem>? {
        let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [Int: Range<Int>] = [:]
        var declaredCount: Int?
        var problem: ColorProblem?
        _ = JPEGMarkers.scan(jpeg) { marker, payload in
            guard marker == 0xE2, payload.count >= signature.count + 2,
                  jpeg[payload.lowerBound..<payload.lowerBound + signature.count].elementsEqual(signature)
            else { return true }
            let sequence = Int(jpeg[payload.lowerBound + signature.count])
            let count = Int(jpeg[payload.lowerBound + signature.count + 1])
            if declaredCount == nil { declaredCount = count }
            guard count == declaredCount, sequence >= 1, sequence <= count, chunks[sequence] == nil else {
                problem = ColorProblem("its ICC profile segments are inconsistent")
                return false
            }
            chunks[sequence] = payload.lowerBound + signature.count + 2..<payload.upperBound
            return true
        }
        if let problem { return .failure(problem) }
        guard let declaredCount else { return nil }
        guard chunks.count == declaredCount else {
            return .failure(ColorProblem("its ICC profile is incomplete (\(chunks.count) of \(declaredCount) segments)"))
        }
        var profile: [UInt8] = []
        profile.reserveCapacity(chunks.values.reduce(0) { $0 + $1.count })
        for sequence in 1...declaredCount { profile += jpeg[chunks[sequence]!] }
        return .success(profile)
    }
}
