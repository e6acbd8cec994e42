import SlideshowPixels

/// Several looks applied one after another, itself a look.
///
/// Looks compose: the app this tool's looks come from chained stock filters the same way.
/// Write a chain as a list or with the ``LookBuilder`` syntax:
///
/// ```swift
/// let chain = LookChain {
///     Looks.tumbleDown
///     if blackAndWhite { Looks.minimalLife }
/// }
/// ```
///
/// Each look sees the previous one's result, with the same slide index.
public struct LookChain: Look {
    /// The looks, in the order they are applied.
    public let looks: [any Look]

    /// The looks' names joined with `+`, e.g. `tumble-down+minimal-life`; `original` for an
    /// empty chain, which changes nothing.
    public var name: String {
        looks.isEmpty ? Looks.original.name : looks.map(\.name).joined(separator: "+")
    }

    /// Creates a chain from a list of looks.
    ///
    /// - Parameters:
    ///   - looks: the looks, in the order they are to be applied; may be empty.
    public init(_ looks: [any Look]) {
        self.looks = looks
    }

    /// Creates a chain from looks written one per line, with `if`, `if let`, `switch` and
    /// `for` as needed.
    ///
    /// - Parameters:
    ///   - build: the looks, in the order they are to be applied.
    public init(@LookBuilder _ build: () -> [any Look]) {
        self.init(build())
    }

    /// Applies each look in turn.
    ///
    /// - Parameters:
    ///   - buffer: the slide, at its final output size.
    ///   - slideIndex: the slide's position in the show, passed to every look.
    public func apply(to buffer: inout PixelBuffer, slideIndex: Int) {
        for look in looks {
            look.apply(to: &buffer, slideIndex: slideIndex)
        }
    }
}

/// The result builder behind ``LookChain``'s block initialiser: one look per line.
///
/// A line may be a look, an optional look (nil adds nothing) or an array of looks; `if`,
/// `if`–`else`, `switch`, `if let` and `for` loops work as in ordinary code.
@resultBuilder
public enum LookBuilder {
    /// A single look.
    ///
    /// - Parameters:
    ///   - look: the look.
    public static func buildExpression(_ look: any Look) -> [any Look] {
        [look]
    }

    /// An optional look: nothing when nil, e.g. `Looks.named(name)`.
    ///
    /// - Parameters:
    ///   - look: the look, or nil.
    public static func buildExpression(_ look: (any Look)?) -> [any Look] {
        look.map { [$0] } ?? []
    }

    /// A list of looks, in order.
    ///
    /// - Parameters:
    ///   - looks: the looks.
    public static func buildExpression(_ looks: [any Look]) -> [any Look] {
        looks
    }

    /// The lines of a block, in order.
    ///
    /// - Parameters:
    ///   - components: each line's looks.
    public static func buildBlock(_ components: [any Look]...) -> [any Look] {
        components.flatMap { $0 }
    }

    /// An `if` without `else`: nothing when the condition is false.
    ///
    /// - Parameters:
    ///   - component: the block's looks, or nil when it did not run.
    public static func buildOptional(_ component: [any Look]?) -> [any Look] {
        component ?? []
    }

    /// The first branch of an `if`–`else` or `switch`.
    ///
    /// - Parameters:
    ///   - component: the branch's looks.
    public static func buildEither(first component: [any Look]) -> [any Look] {
        component
    }

    /// The second branch of an `if`–`else` or `switch`.
    ///
    /// - Parameters:
    ///   - component: the branch's looks.
    public static func buildEither(second component: [any Look]) -> [any Look] {
        component
    }

    /// A `for` loop: every iteration's looks, in order.
    ///
    /// - Parameters:
    ///   - components: each iteration's looks.
    public static func buildArray(_ components: [[any Look]]) -> [any Look] {
        components.flatMap { $0 }
    }

    /// An `if #available` block.
    ///
    /// - Parameters:
    ///   - component: the block's looks.
    public static func buildLimitedAvailability(_ component: [any Look]) -> [any Look] {
        component
    }
}
