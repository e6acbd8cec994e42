import Foundation
import Synchronization

/// Threads of its own for work that blocks: reading headers, decoding a whole song for its
/// beat or its loudness, opening files and the encoder. An async caller hands a closure over
/// with ``run(_:)`` and is resumed when it is done, so the cooperative threads that Swift
/// concurrency runs tasks on (one per core) are never held by a read or a decode: a batch of N
/// jobs validating at once holds N of this pool's threads, not N of those.
///
/// A closure gets a thread at once: an idle one, or a new one up to ``maximumThreads`` (then it
/// waits its turn, in order); a thread idle for ``idleSeconds`` ends. So a short job (one
/// photo's header) never waits behind long ones (songs being analysed) while there is room, as
/// it would in a small fixed pool, and a process that stops rendering keeps no threads.
/// Closures must not wait for one another (none does: the queue cannot deadlock).
/// Cancelling the task that awaits ``run(_:)`` marks the closure's ``Cancellation`` (see
/// ``Cancellation/isCancelled``), which long loops check to stop early.
package final class BlockingPool: @unchecked Sendable {
    // @unchecked: `jobs`, `head`, `started` and `idle` are touched only under `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var started = 0
    private var idle = 0
    /// The most threads at once.
    package let maximumThreads: Int
    /// How long a thread waits for work before it ends.
    package let idleSeconds: Double

    /// The pool the library's blocking work runs on: up to 64 threads. Blocking work is bounded
    /// by what runs it (a batch's concurrency, a validation's one reader per core), not here.
    package static let shared = BlockingPool(maximumThreads: 64)

    package init(maximumThreads: Int, idleSeconds: Double = 10) {
        precondition(maximumThreads > 0)
        self.maximumThreads = maximumThreads
        self.idleSeconds = idleSeconds
    }

    /// Threads running now (working or idle), for tests.
    package var threads: Int { condition.withLock { started } }

    /// Queues a closure; a thread runs it at once when one is idle or can be started.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let startThread = jobs.count - head > idle && started < maximumThreads
        if startThread { started += 1 }
        condition.signal()
        condition.unlock()
        if startThread {
            let thread = Thread { [self] in work() }
            thread.name = "slideshow.blocking"
            // A header parser or a decoder may want more than a secondary thread's default.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func work() {
        condition.lock()
        while true {
            while head == jobs.count {
                idle += 1
                let woken = condition.wait(until: Date(timeIntervalSinceNow: idleSeconds))
                idle -= 1
                if !woken && head == jobs.count {
                    started -= 1
                    condition.unlock()
                    return
                }
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job()
            condition.lock()
        }
    }

    /// Runs `body` on one of the pool's threads and returns what it returned (or throws what
    /// it threw), without holding the caller's thread meanwhile. Cancelling the calling task
    /// sets the body's ``Cancellation/current``; the body decides when to look.
    package func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let token = Cancellation()
        let result: Result<T, E> = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
                submit {
                    let result = Cancellation.$current.withValue(token) { () -> Result<T, E> in
                        do throws(E) {
                            return .success(try body())
                        } catch {
                            return .failure(error)
                        }
                    }
                    continuation.resume(returning: result)
                }
            }
        } onCancel: {
            token.cancel()
        }
        return try result.get()
    }
}

/// Whether the work under way was cancelled: the task's own flag in a task, or, on a
/// ``BlockingPool`` thread (where there is no task), the flag of the task that handed the work
/// over. Long loops (a song's beat analysis, its loudness, a batch's headers) look at
/// ``isCancelled`` between chunks and stop early; the stage that ran them then throws its
/// `.cancelled`, so what a stopped loop made is never used.
package final class Cancellation: Sendable {
    /// The flag of the work running on this thread, bound by ``BlockingPool/run(_:)``.
    @TaskLocal package static var current: Cancellation?

    private let flag = Atomic<Bool>(false)

    package init() {}

    /// Marks the work cancelled.
    package func cancel() {
        flag.store(true, ordering: .relaxed)
    }

    /// Whether ``cancel()`` was called.
    package var cancelled: Bool { flag.load(ordering: .relaxed) }

    /// Whether the current work should stop: its task is cancelled, or the task that handed it
    /// to a pool thread is.
    package static var isCancelled: Bool {
        Task.isCancelled || (current?.cancelled ?? false)
    }
}
