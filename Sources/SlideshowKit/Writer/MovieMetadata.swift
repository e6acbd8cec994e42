/// What the MP4 says about itself besides its pictures: a creation time and a title.
///
/// Nothing else is written: no encoder name, no random identifiers, and nothing from the
/// photos' EXIF beyond the capture time (no GPS position, no camera serial numbers, no maker
/// notes), so a video can be shared without what its photos would give away.
public struct MovieMetadata: Sendable, Hashable {
    /// The `creation_time` of the movie and its track (`mvhd`, `tkhd`, `mdhd`), nil for none
    /// (the boxes then hold 0, which readers show as no date).
    public var creationTime: CaptureDate?
    /// The title (`©nam` in the `udta` box), nil for none.
    public var title: String?

    /// Creates metadata; empty by default.
    public init(creationTime: CaptureDate? = nil, title: String? = nil) {
        self.creationTime = creationTime
        self.title = title
    }

    /// The libavformat metadata keys and values.
    var entries: [(key: String, value: String)] {
        var entries: [(String, String)] = []
        if let creationTime { entries.append(("creation_time", creationTime.iso8601UTC)) }
        if let title, !title.isEmpty { entries.append(("title", title)) }
        return entries
    }
}
