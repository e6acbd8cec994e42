/// Where a clip's bytes are: a whole file, or a byte range inside one (a motion photo's
/// embedded video, read in place).
public struct ClipSource: Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The part of the file that is the video; nil for the whole file.
    public var byteRange: Range<Int64>?

    public init(path: String, byteRange: Range<Int64>? = nil) {
        self.path = path
        self.byteRange = byteRange
    }

    public var description: String {
        guard let byteRange else { return path }
        return "\(path) [bytes \(byteRange.lowerBound)..<\(byteRange.upperBound)]"
    }
}
