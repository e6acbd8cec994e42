/// How one photo gives way to the next at a cut.
///
/// Every effect but ``none`` runs over a window centred on the cut (half before, half after);
/// its progress goes from 0 (all the outgoing photo) to 1 (all the incoming one).
public enum TransitionEffect: String, Sendable, Hashable, CaseIterable {
    /// A hard cut: the default.
    case none
    /// A film dissolve, mixed in linear light.
    case fade
    /// Through black: the outgoing photo fades to black, the incoming one from it.
    case fadeblack
    /// Through white.
    case fadewhite
    /// The incoming photo is uncovered by an edge moving to the left (a wipe to the left).
    case wipeleft
    /// An edge moving to the right.
    case wiperight
    /// An edge moving up.
    case wipeup
    /// An edge moving down.
    case wipedown
    /// Both photos slide to the left, the incoming one pushing the outgoing one out.
    case slideleft
    /// Both photos slide to the right.
    case slideright
    /// Both photos slide up.
    case slideup
    /// Both photos slide down.
    case slidedown
    /// The incoming photo appears in a circle growing from the centre.
    case circleopen
    /// The outgoing photo shrinks into a circle closing on the centre.
    case circleclose
    /// One of the others (not `none`) per cut, chosen from the cut's index: the same show
    /// always gets the same effects.
    case random

    /// The effects ``random`` picks from: all but `none` and `random`.
    public static let concrete: [TransitionEffect] = allCases.filter { $0 != .none && $0 != .random }

    /// The effect used at cut `index` (0 for the cut between the first and the second photo):
    /// itself, or for ``random`` one of ``concrete`` picked by a hash of the index.
    public func resolved(cut index: Int) -> TransitionEffect {
        guard self == .random else { return self }
        return Self.concrete[Int(PlanHash.mix(UInt64(index) &+ 0x7472_616E) % UInt64(Self.concrete.count))]
    }
}

/// A small, fixed hash for the plan's deterministic choices (SplitMix64's finaliser).
package enum PlanHash {
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
