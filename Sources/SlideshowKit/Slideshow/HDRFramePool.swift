import Synchronization
import SlideshowPixels

/// Frame-size 16-bit sample arrays reused from composed HDR frame to composed HDR frame: the
/// HDR twin of ``FramePool``.
///
/// A 1080p HDR frame is 12 MB. Allocated afresh for every moving frame (glibc maps blocks that
/// large on their own, ``ProcessTuning/mmapThreshold``), each one faulted in 3,000 new pages and
/// was unmapped again once the writer had converted it: 6% of the CPU of the moving HDR show in
/// docs/usage.md went to the kernel that way. ``HDRComposer`` gives each frame the writer has
/// consumed back here (``recycle(_:)``), and so does a dissolve's incoming frame once mixed; the
/// next frame is written over it (``samples()``).
///
/// Arrays are values, so sharing is impossible by construction: a recycled array that some
/// holder still references is copied by Swift the moment the next frame writes to it, never
/// changed under that holder. Only arrays this pool handed out are kept, and at most
/// ``capacity`` of them (an HDR show composes a frame only when the writer asks for it, so
/// two are as many as are ever in flight: the frame and a dissolve's incoming one), and none
/// while a photo's slide is made (``drain()``), so the peak memory stays what it was without
/// the pool.
final class HDRFramePool: Sendable {
    /// Samples of one frame, `width × height × 3`.
    let count: Int
    /// The most spare arrays kept.
    let capacity: Int

    private struct State {
        var spare: [[UInt16]] = []
        /// Base addresses of the arrays handed out and not yet back.
        var issued: Set<UInt> = []
        /// Arrays made because none was spare.
        var made = 0
    }
    private let state = Mutex(State())

    init(size: Size, capacity: Int = 2) {
        count = size.width * size.height * 3
        self.capacity = capacity
    }

    /// An array of ``count`` samples whose contents are left over from an earlier frame (or
    /// uninitialised): the caller writes every sample.
    func samples() -> [UInt16] {
        let count = count
        let samples = state.withLock { $0.spare.popLast() } ?? {
            state.withLock { $0.made += 1 }
            return [UInt16](unsafeUninitializedCapacity: count) { _, initialised in initialised = count }
        }()
        let address = Self.address(of: samples)
        state.withLock { state in
            // Arrays dropped without coming back leave their address; forget them now and then.
            if state.issued.count > 4 * capacity { state.issued.removeAll() }
            state.issued.insert(address)
        }
        return samples
    }

    /// Takes back a frame's samples once nothing needs them; ignored unless this pool handed
    /// them out (and they are still its size), or when ``capacity`` are spare already.
    func recycle(_ samples: [UInt16]) {
        guard samples.count == count else { return }
        let address = Self.address(of: samples)
        state.withLock { state in
            guard state.issued.remove(address) != nil, state.spare.count < capacity else { return }
            state.spare.append(samples)
        }
    }

    /// Lets the spare arrays go (``HDRComposer`` does before it makes a photo's slide, whose
    /// decoding is the show's peak of memory: the spares would add to it).
    func drain() {
        // Taken out under the lock, freed outside it.
        let spare = state.withLock { state -> [[UInt16]] in
            defer { state.spare = [] }
            return state.spare
        }
        _ = spare
    }

    /// How many arrays the pool has made, and how many are spare now.
    var counts: (made: Int, spare: Int) { state.withLock { ($0.made, $0.spare.count) } }

    private static func address(of samples: [UInt16]) -> UInt {
        samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }
}
