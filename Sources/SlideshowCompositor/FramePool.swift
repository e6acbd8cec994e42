import Synchronization
import SlideshowPixels

/// Frame-size sample arrays reused from composed frame to composed frame: bytes for SDR frames
/// (`FramePool<UInt8>`), 16-bit code values for HDR ones (`FramePool<UInt16>`).
///
/// A 1080p frame is 6 MB (12 MB in HDR). Allocated afresh for every frame (glibc maps blocks
/// that large on their own, ``ProcessTuning/mmapThreshold``), each one faults in 1,500 new
/// pages (3,000) and is unmapped again once the writer has converted it: about a tenth of a
/// moving SDR show's CPU, and 6% of a moving HDR show's, went to the kernel that way. The
/// composer gives each frame the writer has consumed back here (``recycle(_:)``) and the next
/// frame is written over it (``take()``).
///
/// Arrays are values, so sharing is impossible by construction: a recycled array that some
/// holder still references (the feed loop's last copy, a caller's test) is copied by Swift
/// the moment the next frame writes to it, never changed under that holder. Only arrays this
/// pool handed out are kept (a still slide passed through a frame unchanged is not), and at
/// most ``capacity`` of them, so memory stays flat however long the show.
package final class FramePool<Sample: BitwiseCopyable & Sendable>: Sendable {
    /// Samples of one frame, `width × height × 3`.
    package let count: Int
    /// The most spare arrays kept.
    package let capacity: Int

    private struct State {
        var spare: [[Sample]] = []
        /// Base addresses of the arrays handed out and not yet back.
        var issued: Set<UInt> = []
        /// Arrays made because none was spare (for tests and the report).
        var made = 0
    }
    private let state = Mutex(State())

    /// A pool of frames of `size`, keeping at most `capacity` spare.
    package init(size: Size, capacity: Int) {
        count = size.width * size.height * 3
        self.capacity = capacity
    }

    /// An array of ``count`` samples whose contents are left over from an earlier frame (or
    /// uninitialised): the caller writes every sample.
    package func take() -> [Sample] {
        let count = count
        let samples = state.withLock { $0.spare.popLast() } ?? {
            state.withLock { $0.made += 1 }
            return [Sample](unsafeUninitializedCapacity: count) { _, initialised in initialised = count }
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
    package func recycle(_ samples: [Sample]) {
        guard samples.count == count else { return }
        let address = Self.address(of: samples)
        state.withLock { state in
            guard state.issued.remove(address) != nil, state.spare.count < capacity else { return }
            state.spare.append(samples)
        }
    }

    /// Lets the spare arrays go (before a photo's slide is made, whose decoding is a show's
    /// peak of memory: the spares would add to it).
    package func drain() {
        // Taken out under the lock, freed outside it.
        let spare = state.withLock { state -> [[Sample]] in
            defer { state.spare = [] }
            return state.spare
        }
        _ = spare
    }

    /// How many arrays the pool has made, and how many are spare now.
    package var counts: (made: Int, spare: Int) { state.withLock { ($0.made, $0.spare.count) } }

    private static func address(of samples: [Sample]) -> UInt {
        samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }
}

extension FramePool where Sample == UInt8 {
    /// Takes back a composed frame's pixels once the writer is done with it.
    package func recycle(_ frame: PixelBuffer) { recycle(frame.pixels) }
}
