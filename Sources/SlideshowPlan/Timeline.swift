import SlideshowPixels
import SlideshowSupport

/// How long a slideshow lasts: in total, or per slide.
public enum SlideshowLength: Sendable, Hashable, CustomStringConvertible {
    /// The whole show lasts this many seconds, shared equally among the photos.
    case total(seconds: Double)
    /// Each photo is shown this many seconds.
    case perSlide(seconds: Double)
    /// Photo i is shown `seconds[i]` seconds (one entry per photo); the cuts are the running
    /// totals rounded to frames, so the whole show is exactly `round(sum × fps)` frames.
    case perPhoto(seconds: [Double])
    /// As long as the slideshow's soundtrack, from its start offset to the music's end.
    case soundtrack

    /// The default: three seconds in all.
    public static let `default` = SlideshowLength.total(seconds: defaultSeconds)
    /// The default length in seconds, when neither a total nor a per-slide length is given.
    public static let defaultSeconds = 3.0

    /// The length in words, its seconds rounded as messages print them (``Message/seconds(_:)``).
    public var description: String {
        switch self {
        case .total(let seconds): "\(Message.seconds(seconds)) s in total"
        case .perSlide(let seconds): "\(Message.seconds(seconds)) s per slide"
        case .perPhoto(let seconds): "\(seconds.map(Message.seconds).joined(separator: " + ")) s"
        case .soundtrack: "as long as the soundtrack"
        }
    }
}

/// When each photo is on screen: the frames of a constant-rate video shared among the photos.
///
/// A show of total duration D at F frames per second has `round(D × F)` frames; photo `i`
/// of `N` covers frames `floor(i·F/N)` to `floor((i+1)·F/N) − 1`, so the photos' shares
/// differ by at most one frame and together fill the video exactly. With a duration per photo,
/// photo `i` starts at `round((d₀ + … + dᵢ₋₁) × F)`.
public struct Timeline: Sendable, Hashable {
    /// The number of photos.
    public let photoCount: Int
    /// Frames per second.
    public let framesPerSecond: Int
    /// Frames in the whole video.
    public let frameCount: Int
    /// The first frame of each photo when photos have durations of their own (``SlideshowLength/perPhoto(seconds:)``).
    private let starts: [Int]?

    /// The most frames a show may have: 24 hours at 30 fps (3 hours at 240 fps).
    ///
    /// The muxer keeps an index entry for every frame until the file is finished (about 70
    /// bytes a frame, measured), so memory grows with the frame count: at this cap, about
    /// 180 MB on top of a render's usual 60–120 MB.
    public static let maximumFrames = 2_592_000

    /// Why a length cannot make a timeline.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// One line for the user.
        public var description: String
    }

    /// Lays out `photoCount` photos over a length.
    /// - Throws: ``Problem`` when there are no photos, the length is not a positive finite
    ///   number, it gives fewer frames than photos, or more than ``maximumFrames``.
    public init(photoCount: Int, length: SlideshowLength, framesPerSecond: Int) throws(Problem) {
        guard photoCount > 0 else { throw Problem(description: "no photos given") }
        guard framesPerSecond > 0 else { throw Problem(description: "the frame rate must be positive") }
        let seconds: Double
        var starts: [Int]?
        switch length {
        case .total(let total): seconds = total
        case .perSlide(let each): seconds = each * Double(photoCount)
        case .perPhoto(let each):
            guard each.count == photoCount else {
                throw Problem(description: "\(each.count) durations for \(photoCount) photos")
            }
            if let bad = each.firstIndex(where: { !$0.isFinite || $0 <= 0 }) {
                throw Problem(description: "photo \(bad)'s duration must be a positive number of seconds, not \(Message.seconds(each[bad]))")
            }
            seconds = each.reduce(0, +)
            // Cumulative rounding: cut i is round((d0 + … + d(i−1)) × fps).
            var sum = 0.0
            var cuts = [0]
            for duration in each.dropLast() {
                sum += duration
                cuts.append(Int(min((sum * Double(framesPerSecond)).rounded(), Double(Int32.max))))
            }
            starts = cuts
        case .soundtrack: throw Problem(description: "the length follows the soundtrack: the slideshow works it out from the music")
        }
        guard seconds.isFinite, seconds > 0 else {
            throw Problem(description: "the duration must be a positive number of seconds, not \(length)")
        }
        let frames = (seconds * Double(framesPerSecond)).rounded()
        guard frames <= Double(Self.maximumFrames) else {
            throw Problem(description: "\(length) at \(framesPerSecond) fps is over \(Self.maximumFrames) frames (24 hours at 30 fps), the longest show")
        }
        guard Int(frames) >= photoCount else {
            throw Problem(description: "\(length) at \(framesPerSecond) fps gives \(Int(frames)) frames for \(photoCount) photos; each photo needs at least one frame")
        }
        if var cuts = starts {
            cuts.append(Int(frames))
            if let empty = (0..<photoCount).first(where: { cuts[$0 + 1] <= cuts[$0] }) {
                throw Problem(description: "photo \(empty) gets no frame at \(framesPerSecond) fps; each photo needs at least one frame")
            }
        }
        self.photoCount = photoCount
        self.framesPerSecond = framesPerSecond
        frameCount = Int(frames)
        self.starts = starts
    }

    /// The frames photo `index` covers.
    public func frames(ofPhoto index: Int) -> Range<Int> {
        precondition(index >= 0 && index < photoCount, "photo index out of range")
        return firstFrame(index)..<firstFrame(index + 1)
    }

    /// When photo `index` appears.
    public func presentationTime(ofPhoto index: Int) -> MediaTime {
        MediaTime(value: Int64(firstFrame(index)), timescale: Int32(framesPerSecond))
    }

    /// When the video ends: the end of the last photo's share.
    public var endTime: MediaTime {
        MediaTime(value: Int64(frameCount), timescale: Int32(framesPerSecond))
    }

    /// floor(i·F/N), in integers.
    private func firstFrame(_ index: Int) -> Int {
        if let starts { return index < photoCount ? starts[index] : frameCount }
        return index * frameCount / photoCount
    }
}
