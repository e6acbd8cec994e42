import Synchronization
import SlideshowPixels

/// Frame-size pixel arrays reused from composed frame to composed frame.
///
/// A 1080p frame is 6 MB. Allocated afresh for every frame (glibc maps blocks that large on
/// their own, ``ProcessTuning/mmapThreshold``), each one faults in 1,500 new pages and is
/// unmapped again once the writer has converted it: about a tenth of a moving show's CPU went
/// to the kernel that way. The composer gives each frame the writer has consumed back here
/// (``recycle(_:)``) and the next frame is written over it (``pixels()``).
///
/// Arrays are values, so sharing is impossible by construction: a recycled array that some
/// holder still references (the feed loop's last copy, a caller's test) is copied by Swift
/// the moment the next frame writes to it, never changed under that holder. Only arrays this
/// pool handed out are kept (a still slide passed through a frame unchanged is not), and at
/// most ``capacity`` of them, so memory stays flat however long the show.
package final class FramePool: Sendable {
    /// Bytes of one frame, `width × height × 3`.
    package let byteCount: Int
    /// The most spare arrays kept.
    package let capacity: Int

    private struct State {
        var spare: [[UInt8]] = []
        /// Base addresses of the arrays handed out and not yet back.
        var issued: Set<UInt> = []
        /// Arrays made because none was spare (for tests and the report).
        var made = 0
    }
    private let state = Mutex(State())

    /// A pool of frames of `size`, keeping at most `capacity` spare.
    package init(size: Size, capacity: Int) {
        byteCount = size.width * size.height * 3
        self.capacity = capacity
    }

    /// An array of ``byteCount`` bytes whose contents are left over from an earlier frame
    /// (or uninitialised): the caller writes every byte.
    package func pixels() -> [UInt8] {
        var array = state.withLock { state -> [UInt8]? in state.spare.popLast() }
        if array == nil {
            array = [UInt8](unsafeUninitializedCapacity: byteCount) { _, count in count = byteCount }
            state.withLock { $0.made += 1 }
        }
        let pixels = array!
        let address = Self.address(of: pixels)
        state.withLock { state in
            // Arrays dropped without coming back leave their address; forget them now and then.
            if state.issued.count > 4 * capacity { state.issued.removeAll() }
            state.issued.insert(address)
        }
        return pixels
    }

    /// Takes back a frame's pixels once the writer is done with it; ignored unless this pool
    /// handed them out (and they are still its size), or when ``capacity`` are spare already.
    package func recycle(_ frame: PixelBuffer) {
        let pixels = frame.pixels
        guard pixels.count == byteCount else { return }
        let address = Self.address(of: pixels)
        state.withLock { state in
            guard state.issued.remove(address) != nil, state.spare.count < capacity else { return }
            state.spare.append(pixels)
        }
    }

    /// How many arrays the pool has made, and how many are spare now.
    package var counts: (made: Int, spare: Int) { state.withLock { ($0.made, $0.spare.count) } }

    private static func address(of pixels: [UInt8]) -> UInt {
        pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }
}
