import Dispatch
import Synchronization

/// The ready-for-more-data block of a writer input, scheduled by one implementation for the
/// video and the audio input: the block runs on its queue whenever the input is ready, never
/// twice at once, and again at once if it returns while the input is still ready.
///
/// The input says what "ready" means (a closure over its own state, called outside this
/// type's lock) and calls ``scheduleIfReady()`` whenever that may have changed; this type
/// owns only the block and whether it is scheduled.
package final class ReadinessScheduler: Sendable {
    private struct Request {
        var queue: DispatchQueue
        var block: @Sendable () -> Void
        var isReady: @Sendable () -> Bool
    }
    private struct State {
        var request: Request?
        var scheduled = false
    }
    private let state = Mutex(State())

    package init() {}

    /// Sets the block and runs it if the input is ready.
    /// - Parameters:
    ///   - queue: where the block runs.
    ///   - isReady: whether the input takes more data now (false once it is finished).
    ///   - block: appends while the input is ready.
    package func request(on queue: DispatchQueue, isReady: @escaping @Sendable () -> Bool, block: @escaping @Sendable () -> Void) {
        state.withLock { $0.request = Request(queue: queue, block: block, isReady: isReady) }
        scheduleIfReady()
    }

    /// Drops the block: it is not run again.
    package func cancel() {
        state.withLock { $0.request = nil }
    }

    /// Runs the block on its queue if the input is ready, unless it is already scheduled or running.
    package func scheduleIfReady() {
        guard let isReady = state.withLock({ $0.request?.isReady }), isReady() else { return }
        let request = state.withLock { state -> Request? in
            guard let request = state.request, !state.scheduled else { return nil }
            state.scheduled = true
            return request
        }
        guard let request else { return }
        request.queue.async { [self] in
            request.block()
            state.withLock { $0.scheduled = false }
            scheduleIfReady()
        }
    }
}
