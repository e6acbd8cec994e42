/// A few pixel buffers of one size, handed out in turn to be written over in place, so that a
/// stream of frames (a clip's) allocates, and faults in, its memory once rather than per frame.
///
/// ``take()`` hands out the oldest buffer and ``recycle(_:)`` takes back a copy of the one just
/// made: a ``PixelBuffer`` is copy-on-write, so while the frame handed on is still held downstream
/// (waiting for the writer) the pool's copy shares its pixels, and once it is dropped there the
/// pool's copy is the only one and is written over in place. A pool larger than the number of
/// frames in flight never copies; a smaller one is still correct (writing a shared buffer copies
/// it first), only slower. Buffers keep their old pixels: the taker writes every pixel.
public struct PixelBufferPool: Sendable {
    /// The size of every buffer.
    public let size: Size
    /// How many buffers the pool holds at most.
    public let capacity: Int
    /// Buffers allocated so far (at most ``capacity`` when each one taken is recycled).
    public private(set) var allocations = 0
    private var buffers: [PixelBuffer] = []

    /// - Parameters:
    ///   - size: the buffers' size.
    ///   - capacity: how many to cycle through; more than the frames held downstream at once.
    public init(size: Size, capacity: Int) {
        precondition(capacity > 0, "a pool holds at least one buffer")
        self.size = size
        self.capacity = capacity
    }

    /// The oldest buffer once the pool is full, else a new (black) one. The pool lets go of it
    /// until it is recycled, so that writing it does not copy.
    public mutating func take() -> PixelBuffer {
        if buffers.count >= capacity { return buffers.removeFirst() }
        allocations += 1
        return PixelBuffer(size: size)
    }

    /// Keeps a copy of a buffer made from ``take()`` for a later turn.
    public mutating func recycle(_ buffer: PixelBuffer) {
        precondition(buffer.size == size, "the buffer is not of the pool's size")
        buffers.append(buffer)
        if buffers.count > capacity { buffers.removeFirst() }
    }
}
