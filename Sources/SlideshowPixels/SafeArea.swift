/// The part of a frame that text must stay inside: captions, title and closing cards and the
/// date imprint. Each edge's inset is a fraction of the frame's width (left, right) or height
/// (top, bottom), in basis points (1/10,000), so that one area fits every size of a shape.
///
/// ``titleSafe``, the default, is the frame's central 90% (5% on each side); a platform whose
/// app draws its buttons and labels over the video (``SlideshowKit``'s `Platform`) has its own.
public struct SafeArea: Sendable, Hashable, CustomStringConvertible {
    /// The insets in basis points of the frame's height (top, bottom) or width (left, right).
    public var top: Int, bottom: Int, left: Int, right: Int

    /// An area with these insets, in basis points (500: 5%).
    public init(top: Int, bottom: Int, left: Int, right: Int) {
        self.top = top
        self.bottom = bottom
        self.left = left
        self.right = right
    }

    /// The title-safe area: the central 90% in each direction.
    public static let titleSafe = SafeArea(top: 500, bottom: 500, left: 500, right: 500)

    /// The area in a frame of `frame`'s size, each inset rounded to the nearest pixel (halves up).
    public func rect(in frame: Size) -> Rect {
        func inset(_ side: Int, _ basisPoints: Int) -> Int { (side * basisPoints + 5000) / 10000 }
        let l = inset(frame.width, left), r = inset(frame.width, right)
        let t = inset(frame.height, top), b = inset(frame.height, bottom)
        return Rect(x: l, y: t, width: max(0, frame.width - l - r), height: max(0, frame.height - t - b))
    }

    /// `top 14%, bottom 35%, left 6%, right 6%`.
    public var description: String {
        func percent(_ bp: Int) -> String { bp % 100 == 0 ? "\(bp / 100)%" : "\(Double(bp) / 100)%" }
        return "top \(percent(top)), bottom \(percent(bottom)), left \(percent(left)), right \(percent(right))"
    }
}
