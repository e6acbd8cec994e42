import Foundation

/// How a photo moves while it is on screen (the Ken Burns effect).
public enum MotionStyle: String, Sendable, Hashable, CaseIterable {
    /// Still: the default.
    case none
    /// Zoom in or out and drift towards or from a corner or an edge, varied per photo and
    /// chosen from its index: the same show always moves the same way.
    case kenburns
    /// From the whole picture in to its centre.
    case zoomIn = "zoom-in"
    /// From the centre out to the whole picture.
    case zoomOut = "zoom-out"
    /// The view travels leftwards over the zoomed picture (the picture drifts right).
    case panLeft = "pan-left"
    /// The view travels rightwards (the picture drifts left).
    case panRight = "pan-right"
    /// The view travels up (the picture drifts down).
    case panUp = "pan-up"
    /// The view travels down (the picture drifts up).
    case panDown = "pan-down"

    /// The path of photo `index` for a zoom of `zoom` (0 to 1: the view changes by that
    /// fraction), or nil for ``none`` or a zoom of 0.
    public func path(photo index: Int, zoom: Double) -> MotionPath? {
        guard self != .none, zoom > 0 else { return nil }
        let near = 1 / (1 + zoom)           // the visible fraction when zoomed in
        let low = near / 2, high = 1 - near / 2
        let whole = MotionPath.View(centerX: 0.5, centerY: 0.5, scale: 1)
        switch self {
        case .none:
            return nil
        case .zoomIn:
            return MotionPath(start: whole, end: .init(centerX: 0.5, centerY: 0.5, scale: near))
        case .zoomOut:
            return MotionPath(start: .init(centerX: 0.5, centerY: 0.5, scale: near), end: whole)
        case .panLeft:
            return MotionPath(start: .init(centerX: high, centerY: 0.5, scale: near), end: .init(centerX: low, centerY: 0.5, scale: near))
        case .panRight:
            return MotionPath(start: .init(centerX: low, centerY: 0.5, scale: near), end: .init(centerX: high, centerY: 0.5, scale: near))
        case .panUp:
            return MotionPath(start: .init(centerX: 0.5, centerY: high, scale: near), end: .init(centerX: 0.5, centerY: low, scale: near))
        case .panDown:
            return MotionPath(start: .init(centerX: 0.5, centerY: low, scale: near), end: .init(centerX: 0.5, centerY: high, scale: near))
        case .kenburns:
            // Eight directions (corners and edges) times in or out, from a hash of the index.
            let bits = PlanHash.mix(UInt64(index) &+ 0x6B62_7572)
            let xs: [Double] = [-1, 0, 1, 1, 1, 0, -1, -1]
            let ys: [Double] = [-1, -1, -1, 0, 1, 1, 1, 0]
            let direction = Int(bits % 8)
            let reach: Double = 0.5 - low
            let zoomed = MotionPath.View(centerX: 0.5 + xs[direction] * reach, centerY: 0.5 + ys[direction] * reach, scale: near)
            return (bits >> 8) & 1 == 0 ? MotionPath(start: whole, end: zoomed) : MotionPath(start: zoomed, end: whole)
        }
    }
}

/// Where the view is over a photo from the start of its time on screen to the end.
///
/// Views are in units of the photo's picture area (its fitted rectangle in letterbox, the
/// part that fills the frame in fill mode): a centre in 0…1 and the visible fraction of the
/// width and height. The speed is constant as the eye sees it: the visible size changes by the
/// same ratio every frame (geometric), the centre by the same step (linear). With these, the
/// view never leaves the picture between two views that lie inside it (its left and top
/// edges are concave in time, its right and bottom edges convex).
public struct MotionPath: Sendable, Hashable {
    /// A view: the visible part of the picture.
    public struct View: Sendable, Hashable {
        /// The centre, 0 (left) to 1 (right).
        public var centerX: Double
        /// The centre, 0 (top) to 1 (bottom).
        public var centerY: Double
        /// The visible fraction of the width (and of the height), up to 1.
        public var scale: Double

        /// Creates a view.
        public init(centerX: Double, centerY: Double, scale: Double) {
            self.centerX = centerX
            self.centerY = centerY
            self.scale = scale
        }
    }

    /// The view when the photo appears.
    public var start: View
    /// The view when it has gone.
    public var end: View

    /// Creates a path.
    public init(start: View, end: View) {
        self.start = start
        self.end = end
    }

    /// The view at `time`, 0 (the photo appears) to 1 (it has gone).
    public func view(at time: Double) -> View {
        View(centerX: start.centerX + (end.centerX - start.centerX) * time,
             centerY: start.centerY + (end.centerY - start.centerY) * time,
             scale: start.scale * pow(end.scale / start.scale, time))
    }

    /// The largest zoom along the path: how much finer than its place on screen the photo's
    /// source must be so that no frame enlarges it.
    public var magnification: Double { 1 / min(start.scale, end.scale) }

    /// The same path with both views moved (not zoomed) the least that keeps `focus` in view,
    /// or centred on it where it is larger than the view; the views stay inside the picture.
    ///
    /// Used to keep faces in view while panning: between two views that both hold the focus,
    /// every view of the path holds it too, to within the bend of the geometric zoom (under
    /// 0.005 of the picture for a zoom of 0.3, less than the faces' padding).
    /// - Parameter focus: the part to keep in view, in the units of the views (0…1 each way).
    public func keeping(_ focus: (x: ClosedRange<Double>, y: ClosedRange<Double>)) -> MotionPath {
        func place(_ centre: Double, _ scale: Double, _ keep: ClosedRange<Double>) -> Double {
            let half = scale / 2
            let placed = keep.upperBound - keep.lowerBound <= scale
                ? min(max(centre, keep.upperBound - half), keep.lowerBound + half)
                : (keep.lowerBound + keep.upperBound) / 2
            return min(max(placed, half), 1 - half)
        }
        func moved(_ view: View) -> View {
            View(centerX: place(view.centerX, view.scale, focus.x), centerY: place(view.centerY, view.scale, focus.y), scale: view.scale)
        }
        return MotionPath(start: moved(start), end: moved(end))
    }
}

