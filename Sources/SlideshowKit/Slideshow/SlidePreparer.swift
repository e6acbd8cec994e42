import Dispatch
import Synchronization
import SlideshowImages
import SlideshowPixels
import SlideshowFormats

/// Prepares slides (decode, orient, fit, look) on background threads ahead of the writer,
/// and hands them over in order.
///
/// Two limits keep it fast and flat: at most `workers` slides are prepared at once, and at
/// most `budget` slides are alive at once, counting from the start of a slide's preparation
/// until the writer has consumed it (``release()``); once the encoder has its first picture,
/// both limits drop to one. Preparation then waits for the encoder instead of piling up
/// slides, so a long show holds no more at once than a short one.
final class SlidePreparer: FrameFeed {
    private let builder: SlideBuilder
    private let workers: Int
    private let budget: Int
    private let state: Mutex<State>
    private let ready: [DispatchSemaphore]

    private struct State {
        var results: [Int: Result<AppendedPicture, RenderError>] = [:]
        var started = 0
        var running = 0
        var released = 0
        var cancelled = false
    }

    init(builder: SlideBuilder, workers: Int, budget: Int) {
        precondition(workers > 0 && budget >= workers)
        self.builder = builder
        self.workers = workers
        self.budget = budget
        state = Mutex(State())
        ready = builder.slideshow.photos.map { _ in DispatchSemaphore(value: 0) }
    }

    /// Starts preparing the first slides.
    func start() { startMore() }

    /// Waits for slide `index` and takes it.
    func take(_ index: Int) -> Result<AppendedPicture, RenderError> {
        ready[index].wait()
        return state.withLock { state in
            state.results.removeValue(forKey: index) ?? .failure(.cancelled)
        }
    }

    /// The writer has consumed a slide: room for another.
    func release() {
        state.withLock { $0.released += 1 }
        startMore()
    }

    /// Stops starting slides; those under way finish and are dropped.
    func cancel() {
        state.withLock { $0.cancelled = true }
        // Wake any waiter.
        for semaphore in ready { semaphore.signal() }
    }

    private func startMore() {
        let indices = state.withLock { state -> Range<Int> in
            guard !state.cancelled else { return 0..<0 }
            // Until the encoder has its first picture, every core prepares. From then on the
            // encoder keeps the cores busy, and one slide at a time is prepared, once the
            // one before it has been handed to the writer.
            let (workers, budget) = state.released == 0 ? (self.workers, self.budget) : (1, 1)
            let end = min(builder.slideshow.photos.count, state.released + budget, state.started + workers - state.running)
            let range = state.started..<max(state.started, end)
            state.started = range.upperBound
            state.running += range.count
            return range
        }
        for index in indices {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                let result = prepare(index)
                state.withLock { state in
                    state.running -= 1
                    if !state.cancelled { state.results[index] = result }
                }
                ready[index].signal()
                startMore()
            }
        }
    }

    private func prepare(_ index: Int) -> Result<AppendedPicture, RenderError> {
        do throws(PhotoError) {
            if let transfer = builder.slideshow.video.hdr { return .success(.hdr(try builder.hdrStill(index, transfer: transfer))) }
            return .success(.sdr(try builder.still(index)))
        } catch {
            return .failure(.photo(error))
        }
    }
}
