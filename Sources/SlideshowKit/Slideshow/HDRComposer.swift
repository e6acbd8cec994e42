import Synchronization
import SlideshowColor
import SlideshowCompositor
import SlideshowPixels
import SlideshowPlan
import SlideshowVideo
import SlideshowWriter

/// The pictures of an HDR show with composed frames: a held still once per hold, and every
/// frame of a dissolve (`fade`, `fadeblack`, `fadewhite`) or a fade in or out, mixed in linear
/// light from the photos' HDR slides (``SlideBuilder/hdrStill(_:transfer:)``).
///
/// The HDR counterpart of ``FrameComposer`` for what an HDR show may hold: clips in their own
/// light (``ClipPlayer/hdrPicture(at:)``), wipes, slides and circles drawn as the SDR
/// compositor draws them (``HDRTransitions``), photos moving along their motion paths
/// (``HDRMovingPhoto``, resampled each frame from one lifted source). Light mixes as light does: PQ's display light, HLG's
/// scene light (``HDRSignal/mixingLight``). Pictures are made when the writer asks for them,
/// on its feed queue; each photo's slide is made once and dropped when the show has moved past it.
/// The frames it composes (moving photos' views, dissolves' mixes) are written into arrays from
/// ``pool``, which the writer gives back once it has converted them (``release()``).
final class HDRComposer: FrameFeed {
    let steps: [FrameComposer.Step]
    private let builder: SlideBuilder
    private let plan: FramePlan
    private let signal: HDRSignal
    private let state = Mutex(State())
    /// Where composed frames get their samples: two arrays, as many as are ever in flight (a
    /// frame is composed only when the writer asks for it: the frame and a dissolve's incoming
    /// one); drained before a photo's slide is made, so the peak stays what it was without it.
    let pool: FramePool<UInt16>

    /// A photo's picture: a lifted slide, or a moving photo's lifted source and path.
    private enum Slide {
        case still(HDRPixelBuffer)
        case moving(HDRMovingPhoto)
    }

    private struct State {
        var slides: [Int: Slide] = [:]
        /// The clips on screen, opened at their first frame.
        var clips: [Int: ClipPlayer] = [:]
        /// What the clips' readers noticed, once they are dropped.
        var warnings: [ClipWarning] = []
        var cancelled = false
        /// The samples of the pictures taken and not yet released, oldest first (nil for a hold
        /// or a picture the composer did not make, which ``pool`` would not take back anyway).
        var taken: [[UInt16]?] = []
    }

    init(builder: SlideBuilder, plan: FramePlan, transfer: HDRTransfer) {
        self.builder = builder
        self.plan = plan
        signal = HDRSignal(transfer)
        pool = FramePool(size: builder.slideshow.video.size, capacity: 2)
        steps = plan.segments.flatMap { segment -> [FrameComposer.Step] in
            switch segment {
            case .hold(let photo, let frames): [FrameComposer.Step(frame: frames.lowerBound, hold: photo)]
            case .single(_, let frames), .transition(_, let frames): frames.map { FrameComposer.Step(frame: $0, hold: nil) }
            }
        }
    }

    func start() {}

    func take(_ index: Int) -> Result<AppendedPicture, RenderError> {
        let result = make(index)
        state.withLock { state in
            switch result {
            case .success(.hdr(let picture)): state.taken.append(index < steps.count && steps[index].hold == nil ? picture.samples : nil)
            case .success(.hdrPlaced): state.taken.append(nil)
            default: break
            }
        }
        return result
    }

    private func make(_ index: Int) -> Result<AppendedPicture, RenderError> {
        guard !state.withLock({ $0.cancelled }), index < steps.count else { return .failure(.cancelled) }
        let step = steps[index]
        do throws(RenderError) {
            if let photo = step.hold {
                // A hold composes nothing: the spare frames of the motion before it go.
                pool.drain()
                let picture = try self.picture(photo, at: step.frame, time: 0)
                forget(before: photo)
                return .success(.hdr(picture))
            }
            let recipe = plan.recipe(at: step.frame)
            forget(before: recipe.photo)
            // A clip's frame alone, at full light, with nothing drawn on it: its picture alone,
            // the writer makes the bars (no 16-bit frame of the show's size).
            if recipe.incoming == nil, recipe.visibility >= 1, builder.video(recipe.photo) != nil {
                let player = try self.player(recipe.photo)
                if player.placesPictures {
                    do throws(ClipError) {
                        return .success(.hdrPlaced(try player.hdrPlacedPicture(at: step.frame)))
                    } catch {
                        throw .clip(error)
                    }
                }
            }
            // The incoming photo's slide first, while no frame of ours is alive: decoding it is
            // the show's peak of memory (with the outgoing frame it was 12 MB over 300 MB at 1080p).
            if let incoming = recipe.incoming, builder.video(incoming.photo) == nil {
                do throws(PhotoError) { _ = try slide(incoming.photo) } catch { throw .photo(error) }
            }
            var base = try picture(recipe.photo, at: step.frame, time: recipe.time)
            let incoming = try recipe.incoming.map { incoming throws(RenderError) in
                (try picture(incoming.photo, at: step.frame, time: incoming.time), incoming)
            }
            // A clip's frame alone, at full light, is its own picture.
            if incoming == nil && recipe.visibility >= 1 { return .success(.hdr(base)) }
            // Wipes, slides and circles: drawn, then faded when the show fades.
            if let (other, step) = incoming, HDRTransitions.draws(step.effect) {
                let drawn = HDRTransitions.frame(from: base, to: other, effect: step.effect, progress: step.progress, signal: signal)
                // Moving photos' frames are spent once drawn from (the pool takes back only those it made).
                if isMoving(recipe.photo) { pool.recycle(base.samples) }
                if isMoving(step.photo) { pool.recycle(other.samples) }
                guard recipe.visibility < 1 else { return .success(.hdr(drawn)) }
                let faded = compose(drawn.samples, incoming: nil, visibility: Float(recipe.visibility))
                return .success(.hdr(HDRPixelBuffer(size: base.size, samples: faded, contentRect: base.contentRect)))
            }
            let mixing = incoming.map { ($0.0.samples, $0.1.effect, Float($0.1.progress)) }
            if isMoving(recipe.photo) {
                // A moving photo's frame is made for this frame alone: mixed in place (no second 12 MB frame to fault in).
                let weights = self.weights(incoming: mixing.map { ($0.1, $0.2) }, visibility: Float(recipe.visibility))
                let other = mixing?.0 ?? []
                let bars = recipe.incoming.flatMap { sharedBars(recipe.photo, $0.photo) }
                let (width, height) = (base.width, base.height)
                base.withUnsafeMutableBufferPointer { frame in
                    other.withUnsafeBufferPointer { to in
                        // Without an incoming picture (a fade in or out) its weight is 0 and the frame stands in
                        // for it: an empty array's base address is not nil, and reading past it could fault.
                        let incoming = other.isEmpty ? UnsafePointer(frame.baseAddress!) : to.baseAddress!
                        if let bars {
                            mixInside(bars, frame.baseAddress!, incoming, width: width, height: height, weights: weights)
                        } else {
                            signal.mix(frame.baseAddress!, incoming, count: frame.count,
                                       a: weights.a, b: weights.b, c: weights.c, into: frame.baseAddress!)
                        }
                    }
                }
                // The incoming frame, mixed, is spent (the pool takes back only a moving photo's, which it made).
                pool.recycle(other)
                return .success(.hdr(base))
            }
            let samples = compose(base.samples, incoming: mixing, visibility: Float(recipe.visibility))
            if let mixing, isMoving(recipe.incoming!.photo) { pool.recycle(mixing.0) }
            return .success(.hdr(HDRPixelBuffer(size: base.size, samples: samples, contentRect: base.contentRect)))
        } catch {
            return .failure(error)
        }
    }

    /// The writer has converted the oldest picture taken: a composed frame's samples go back to ``pool``.
    func release() {
        let released = state.withLock { state -> [UInt16]? in
            state.taken.isEmpty ? nil : state.taken.removeFirst()
        }
        if let released { pool.recycle(released) }
    }

    /// Problems the clips' readers worked around (a clip that stopped early).
    var warnings: [ClipWarning] {
        state.withLock { state in state.warnings + state.clips.keys.sorted().flatMap { state.clips[$0]!.warnings } }
    }

    func cancel() { state.withLock { $0.cancelled = true } }

    /// The photo's HDR slide or moving source, made once.
    private func slide(_ photo: Int) throws(PhotoError) -> Slide {
        if let made = state.withLock({ $0.slides[photo] }) { return made }
        // Decoding and lifting the photo is the show's peak of memory: no spare frames kept through it.
        pool.drain()
        let made: Slide = if let path = plan.motions[photo] {
            .moving(try builder.hdrMoving(photo, motion: path, transfer: signal.transfer))
        } else {
            .still(try builder.hdrStill(photo, transfer: signal.transfer))
        }
        state.withLock { $0.slides[photo] = made }
        return made
    }

    /// Item `index`'s picture at show frame `frame`: a photo's slide, a moving photo's view at
    /// its motion time `time`, or a clip's frame in its own light (``ClipPlayer/hdrPicture(at:)``;
    /// the player made at its first frame).
    private func picture(_ index: Int, at frame: Int, time: Double) throws(RenderError) -> HDRPixelBuffer {
        guard builder.video(index) != nil else {
            do throws(PhotoError) {
                switch try slide(index) {
                case .still(let slide): return slide
                case .moving(let moving):
                    do throws(ImageProblem) {
                        return try moving.picture(at: time, frameSize: builder.slideshow.video.size, pool: pool)
                    } catch {
                        throw error.error(for: builder.slideshow.photos[index].path)
                    }
                }
            } catch {
                throw .photo(error)
            }
        }
        let player = try self.player(index)
        do throws(ClipError) {
            return try player.hdrPicture(at: frame)
        } catch {
            throw .clip(error)
        }
    }

    /// Item `index`'s clip player, made at its first frame.
    private func player(_ index: Int) throws(RenderError) -> ClipPlayer {
        if let made = state.withLock({ $0.clips[index] }) { return made }
        let player = try builder.clipPlayer(index, plan: plan, hdr: signal.transfer)
        state.withLock { $0.clips[index] = player }
        return player
    }

    private func forget(before photo: Int) {
        state.withLock { state in
            state.slides = state.slides.filter { $0.key >= photo }
            for index in state.clips.keys.sorted() where index < photo {
                state.warnings += state.clips[index]!.warnings
                state.clips[index] = nil
            }
        }
    }

    /// The bars two moving photos' frames share (the same content rectangle inside the frame, bars
    /// of the same colour, no caption over them), or nil.
    private func sharedBars(_ photo: Int, _ other: Int) -> (content: Rect, r: UInt16, g: UInt16, b: UInt16)? {
        let slides = state.withLock { ($0.slides[photo], $0.slides[other]) }
        guard case .moving(let one)? = slides.0, case .moving(let two)? = slides.1, one.content == two.content,
              one.caption == nil, two.caption == nil,
              case .color(let r, let g, let b) = one.bars, case .color(let r2, let g2, let b2) = two.bars,
              (r, g, b) == (r2, g2, b2) else { return nil }
        return (one.content, r, g, b)
    }

    /// A dissolve between two moving frames with the same bars, mixed in place into `frame`: the
    /// content rectangle row by row, and the bars' colour mixed once and painted (every bar sample
    /// mixes the same two codes, and ``HDRSignal/mix(_:_:count:a:b:c:into:)`` works sample by
    /// sample, so the codes are the ones the whole frame's mix gives).
    private func mixInside(_ bars: (content: Rect, r: UInt16, g: UInt16, b: UInt16), _ frame: UnsafeMutablePointer<UInt16>,
                           _ incoming: UnsafePointer<UInt16>, width: Int, height: Int, weights: (a: Float, b: Float, c: Float)) {
        let rowSamples = width * 3
        let content = bars.content
        let (x0, x1) = (max(0, content.x), min(width, content.maxX))
        let (y0, y1) = (max(0, content.y), min(height, content.maxY))
        // One row of the bars' mixed colour, copied where the bars are.
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: rowSamples) { row in
            let colour = [bars.r, bars.g, bars.b]
            var mixed: [UInt16] = [0, 0, 0]
            colour.withUnsafeBufferPointer { c in
                mixed.withUnsafeMutableBufferPointer { signal.mix(c.baseAddress!, c.baseAddress!, count: 3, a: weights.a, b: weights.b,
                                                                  c: weights.c, into: $0.baseAddress!) }
            }
            for x in 0..<width { row[3 * x] = mixed[0]; row[3 * x + 1] = mixed[1]; row[3 * x + 2] = mixed[2] }
            let colourRow = UnsafePointer(row.baseAddress!)
            func paint(_ y: Int, _ columns: Range<Int>) {
                guard !columns.isEmpty else { return }
                (frame + y * rowSamples + columns.lowerBound * 3).update(from: colourRow, count: columns.count * 3)
            }
            for y in 0..<height {
                guard y >= y0, y < y1, x0 < x1 else { paint(y, 0..<width); continue }
                paint(y, 0..<x0)
                let at = y * rowSamples + x0 * 3
                signal.mix(frame + at, incoming + at, count: (x1 - x0) * 3, a: weights.a, b: weights.b, c: weights.c, into: frame + at)
                paint(y, x1..<width)
            }
        }
    }

    /// Whether item `index` is a moving photo, whose pictures are made afresh for each frame.
    private func isMoving(_ index: Int) -> Bool {
        plan.motions[index] != nil && builder.video(index) == nil
    }

    /// A frame's mix, `light = outgoing·a + incoming·b + c`: a dissolve at `progress` (0…1),
    /// straight across (`fade`) or through black or reference white, times `visibility`.
    private func weights(incoming: (effect: TransitionEffect, progress: Float)?, visibility: Float) -> (a: Float, b: Float, c: Float) {
        var (a, b, c): (Float, Float, Float) = (1, 0, 0)
        if let incoming {
            let p = incoming.progress
            switch incoming.effect {
            case .fadeblack, .fadewhite:
                let through: Float = incoming.effect == .fadeblack ? 0 : signal.mixingWhite
                (a, b, c) = p < 0.5 ? (1 - 2 * p, 0, through * 2 * p) : (0, 2 * p - 1, through * (2 - 2 * p))
            default:
                (a, b, c) = (1 - p, p, 0)
            }
        }
        return (a * visibility, b * visibility, c * visibility)
    }

    /// One frame's code values: the outgoing photo's light, the incoming photo's mixed in at
    /// `progress` (0…1) of a dissolve, straight across (`fade`) or through black or reference
    /// white (the outgoing photo to it in the first half, the incoming one from it in the
    /// second), times `visibility` (a fade in or out), sample by sample without a frame of
    /// floating-point light in between.
    private func compose(_ outgoing: [UInt16], incoming: (codes: [UInt16], effect: TransitionEffect, progress: Float)?,
                         visibility: Float) -> [UInt16] {
        let (a, b, c) = weights(incoming: incoming.map { ($0.effect, $0.progress) }, visibility: visibility)
        let other = incoming?.codes ?? outgoing
        var codes = outgoing.count == pool.count ? pool.take()
            : [UInt16](unsafeUninitializedCapacity: outgoing.count) { _, count in count = outgoing.count }
        codes.withUnsafeMutableBufferPointer { out in
            outgoing.withUnsafeBufferPointer { from in
                other.withUnsafeBufferPointer { to in
                    signal.mix(from.baseAddress!, to.baseAddress!, count: outgoing.count, a: a, b: b, c: c, into: out.baseAddress!)
                }
            }
        }
        return codes
    }
}
