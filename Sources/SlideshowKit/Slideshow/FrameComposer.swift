import Dispatch
import Foundation
import Synchronization
import SlideshowCompositor
import SlideshowImages
import SlideshowPixels
import SlideshowPlan
import SlideshowVideo
import SlideshowFormats

/// Produces the pictures of a plan with composed frames, in order, on a thread of its own:
/// a held still once per hold, and every frame of a transition, a motion or a fade.
///
/// Photos are prepared once each, one ahead of the one composing (a still slide, or a moving
/// photo's source at its magnified size), and dropped when their time on screen is over.
/// At most ``depth`` composed pictures wait for the writer, so memory stays flat however long
/// the show, and composing the next frame overlaps the encoding of the one before. A composed
/// frame's pixels go back to ``pool`` once the writer has consumed it (``release()``), and a
/// later frame is written over them.
final class FrameComposer: FrameFeed {
    /// One picture to append.
    struct Step: Sendable, Hashable {
        /// The frame it is shown from.
        var frame: Int
        /// For a hold, the photo held; nil for a composed frame.
        var hold: Int?
    }

    /// Pictures composed ahead of the writer.
    static let depth = Compositor.picturesInFlight

    /// The composed frames' arrays: as many spare as can be in flight (queued, converting,
    /// composing) besides the ones in use.
    let pool: FramePool<UInt8>

    let steps: [Step]
    private let builder: SlideBuilder
    private var slideshow: Slideshow { builder.slideshow }
    private let plan: FramePlan
    private let compositor: Compositor
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    /// Room for composed pictures ahead of the writer: made at 0 and signalled ``depth`` times,
    /// because libdispatch traps (an illegal instruction) when a semaphore is released below
    /// the value it was made with, which a render stopped with pictures in flight (cancelled,
    /// or failed) would do.
    private let space: DispatchSemaphore = {
        let space = DispatchSemaphore(value: 0)
        for _ in 0..<FrameComposer.depth { space.signal() }
        return space
    }()
    private let photoReady: [DispatchSemaphore]
    private let clipWarnings = Mutex<[ClipWarning]>([])

    private struct State {
        var queue: [Result<PixelBuffer, RenderError>] = []
        var photos: [Int: Result<ComposedPhoto, RenderError>] = [:]
        var requested = Set<Int>()
        var cancelled = false
        /// The pictures taken and not yet released, oldest first: a composed frame, or nil for a hold.
        var taken: [PixelBuffer?] = []
    }

    init(builder: SlideBuilder, plan: FramePlan) {
        self.builder = builder
        let slideshow = builder.slideshow
        self.plan = plan
        pool = FramePool(size: slideshow.video.size, capacity: FrameComposer.depth + 2)
        compositor = Compositor(size: slideshow.video.size, background: slideshow.background, pool: pool)
        photoReady = slideshow.photos.map { _ in DispatchSemaphore(value: 0) }
        steps = plan.segments.flatMap { segment -> [Step] in
            switch segment {
            case .hold(let photo, let frames): [Step(frame: frames.lowerBound, hold: photo)]
            case .single(_, let frames), .transition(_, let frames): frames.map { Step(frame: $0, hold: nil) }
            }
        }
    }

    func start() {
        let thread = Thread { [self] in produce() }
        thread.name = "slideshow.compose"
        thread.start()
    }

    func take(_ index: Int) -> Result<AppendedPicture, RenderError> {
        available.wait()
        let result = state.withLock { state -> Result<PixelBuffer, RenderError> in
            let result = state.queue.isEmpty ? .failure(.cancelled) : state.queue.removeFirst()
            if case .success(let picture) = result {
                state.taken.append(index < steps.count && steps[index].hold == nil ? picture : nil)
            }
            return result
        }
        space.signal()
        return result.map { .sdr($0) }
    }

    /// The writer has converted the oldest picture taken: a composed frame's pixels go back to ``pool``.
    func release() {
        let released = state.withLock { state -> PixelBuffer? in
            state.taken.isEmpty ? nil : state.taken.removeFirst()
        }
        if let released { pool.recycle(released) }
    }

    func cancel() {
        state.withLock { $0.cancelled = true }
        available.signal()
        space.signal()
        for semaphore in photoReady { semaphore.signal() }
    }

    private var cancelled: Bool { state.withLock { $0.cancelled } }

    private func produce() {
        for step in steps {
            space.wait()
            if cancelled { return }
            let result = picture(for: step)
            state.withLock { state in
                // Photos that no frame from here on shows go.
                let current = step.hold ?? plan.recipe(at: step.frame).photo
                for photo in state.photos.keys where photo < current {
                    collectWarnings(state.photos[photo])
                    state.photos[photo] = nil
                }
                state.queue.append(result)
            }
            available.signal()
            if case .failure = result { return }
        }
        state.withLock { state in
            for photo in state.photos.keys.sorted() { collectWarnings(state.photos[photo]) }
        }
    }

    /// What a clip's reader noticed, for the render's warnings.
    private func collectWarnings(_ photo: Result<ComposedPhoto, RenderError>?) {
        guard case .success(.clip(let player))? = photo else { return }
        let found = player.warnings
        if !found.isEmpty { clipWarnings.withLock { $0 += found } }
    }

    /// Problems the clips' readers worked around (a clip that stopped early).
    var warnings: [ClipWarning] { clipWarnings.withLock { $0 } }

    private func picture(for step: Step) -> Result<PixelBuffer, RenderError> {
        if let photo = step.hold {
            return photoResult(photo).flatMap { composed in
                if case .clip(let player) = composed {
                    do throws(ClipError) {
                        return .success(try player.picture(at: step.frame))
                    } catch {
                        return .failure(.clip(error))
                    }
                }
                do throws(ImageProblem) {
                    return .success(try compositor.picture(composed, time: 0.5))
                } catch {
                    return .failure(.photo(error.error(for: slideshow.photos[photo].path)))
                }
            }
        }
        let recipe = plan.recipe(at: step.frame)
        var photos: [Int: ComposedPhoto] = [:]
        for index in [recipe.photo] + (recipe.incoming.map { [$0.photo] } ?? []) {
            switch photoResult(index) {
            case .success(let photo): photos[index] = photo
            case .failure(let error): return .failure(error)
            }
        }
        do throws(Compositor.Failure) {
            return .success(try compositor.frame(recipe) { photos[$0]! })
        } catch {
            return .failure(error.error(path: slideshow.photos[error.photo].path))
        }
    }

    /// Photo `index`, waiting for it if need be; asks for the next one too.
    private func photoResult(_ index: Int) -> Result<ComposedPhoto, RenderError> {
        request(index)
        if index + 1 < slideshow.photos.count { request(index + 1) }
        if let ready = state.withLock({ $0.photos[index] }) { return ready }
        photoReady[index].wait()
        return state.withLock { $0.photos[index] } ?? .failure(.cancelled)
    }

    private func request(_ index: Int) {
        let first = state.withLock { state in state.requested.insert(index).inserted }
        guard first else { return }
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = prepare(index)
            state.withLock { state in
                if !state.cancelled { state.photos[index] = result }
            }
            photoReady[index].signal()
        }
    }

    private func prepare(_ index: Int) -> Result<ComposedPhoto, RenderError> {
        if builder.video(index) != nil {
            do throws(RenderError) {
                return .success(.clip(try builder.clipPlayer(index, plan: plan)))
            } catch {
                return .failure(error)
            }
        }
        do throws(PhotoError) {
            return .success(try builder.photo(index, motion: plan.motions[index]))
        } catch {
            return .failure(.photo(error))
        }
    }
}

extension Compositor.Failure {
    /// The render's error, naming the item by its path.
    func error(path: String) -> RenderError {
        if let clip { return .clip(clip) }
        return .photo((problem ?? ImageProblem(.corrupt, "cannot be composed")).error(for: path))
    }
}
