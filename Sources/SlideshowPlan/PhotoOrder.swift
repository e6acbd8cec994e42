import SlideshowMetadata

/// The order a show's photos play in (`--order given|name|date`).
///
/// ```swift
/// let result = PhotoOrder.date.arrange([("img10.jpg", dateA), ("img2.jpg", nil), ("img1.jpg", dateB)])
/// // result.order: indices into the input, in play order; result.undated: ["img2.jpg"] for a warning
/// ```
///
/// A pure function of each photo's name and capture date: reading the dates (EXIF
/// `DateTimeOriginal` with `OffsetTimeOriginal`, XMP, PNG, a clip's `creation_time`) is the
/// caller's job, through ``CaptureDate``.
public enum PhotoOrder: String, Sendable, Hashable, CaseIterable {
    /// As given on the command line or in the manifest: the default.
    case given
    /// Natural name order: digits compare as numbers, so `img2` comes before `img10`.
    case name
    /// By capture instant, earliest first; ties and undated photos by natural name order,
    /// undated photos after every dated one.
    case date

    /// A photo as the order sees it.
    public struct Item: Sendable, Hashable {
        /// The name compared by natural order: the file name (or the path, to keep folders together).
        public var name: String
        /// When it was taken; nil when the photo does not say.
        public var date: CaptureDate?

        /// Creates an item.
        public init(name: String, date: CaptureDate?) {
            self.name = name
            self.date = date
        }
    }

    /// The photos in play order.
    public struct Arrangement: Sendable, Hashable {
        /// Indices into the items given, in play order.
        public var order: [Int]
        /// The names of the photos without a capture date, in play order; only ``PhotoOrder/date``
        /// fills it (they go last, and the caller warns about them).
        public var undated: [String]

        /// Creates an arrangement.
        public init(order: [Int], undated: [String]) {
            self.order = order
            self.undated = undated
        }
    }

    /// Puts `items` in this order.
    ///
    /// `date` compares ``CaptureDate/secondsSince1970``: the instant in UTC when the photo
    /// gives its offset from UTC, else its wall-clock time read as UTC (a camera without an
    /// offset says nothing better). Equal keys keep the order given, so the result is total
    /// and repeatable.
    public func arrange(_ items: [Item]) -> Arrangement {
        let indices = Array(items.indices)
        switch self {
        case .given:
            return Arrangement(order: indices, undated: [])
        case .name:
            return Arrangement(order: indices.sorted { Self.byName(items, $0, $1) }, undated: [])
        case .date:
            let order = indices.sorted { a, b in
                switch (items[a].date, items[b].date) {
                case let (x?, y?) where x.secondsSince1970 != y.secondsSince1970: return x.secondsSince1970 < y.secondsSince1970
                case (.some, .none): return true
                case (.none, .some): return false
                default: return Self.byName(items, a, b)
                }
            }
            return Arrangement(order: order, undated: order.filter { items[$0].date == nil }.map { items[$0].name })
        }
    }

    /// Natural name order, then the order given.
    private static func byName(_ items: [Item], _ a: Int, _ b: Int) -> Bool {
        switch naturalCompare(items[a].name, items[b].name) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: a < b
        }
    }

    /// Natural order of two names: runs of ASCII digits compare as numbers (`img2` < `img10`,
    /// `007` = `7`, then the shorter spelling first), other text by Unicode scalar values with
    /// letters' case ignored; names equal that way fall back to a plain comparison, so two
    /// different names never compare equal.
    package static func naturalCompare(_ a: String, _ b: String) -> NaturalOrder {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var i = 0, j = 0
        var zeros = NaturalOrder.orderedSame
        func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                let si = i, sj = j
                while i < x.count && isDigit(x[i]) { i += 1 }
                while j < y.count && isDigit(y[j]) { j += 1 }
                let p = x[si..<i].drop { $0 == "0" }, q = y[sj..<j].drop { $0 == "0" }
                if p.count != q.count { return p.count < q.count ? .orderedAscending : .orderedDescending }
                for (u, v) in zip(p, q) where u != v { return u.value < v.value ? .orderedAscending : .orderedDescending }
                if zeros == .orderedSame && (i - si) != (j - sj) { zeros = (i - si) < (j - sj) ? .orderedAscending : .orderedDescending }
                continue
            }
            let u = lower(x[i]), v = lower(y[j])
            if u != v { return u < v ? .orderedAscending : .orderedDescending }
            i += 1
            j += 1
        }
        if i < x.count || j < y.count { return i < x.count ? .orderedDescending : .orderedAscending }
        if zeros != .orderedSame { return zeros }
        return a == b ? .orderedSame : (Array(a.unicodeScalars.map(\.value)).lexicographicallyPrecedes(b.unicodeScalars.map(\.value)) ? .orderedAscending : .orderedDescending)
    }

    /// The result of ``naturalCompare(_:_:)``.
    package enum NaturalOrder: Sendable, Hashable {
        case orderedAscending, orderedSame, orderedDescending
    }

    private static func lower(_ s: Unicode.Scalar) -> UInt32 {
        s.value >= 0x41 && s.value <= 0x5A ? s.value + 0x20 : s.properties.lowercaseMapping.unicodeScalars.first?.value ?? s.value
    }
}
