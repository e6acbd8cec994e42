import Testing
@testable import SlideshowKit
import SlideshowCompositor
import SlideshowFraming
import SlideshowPixels
import SlideshowPlan

/// Issue 25: composed frames reuse their arrays (``FramePool``) instead of fresh pages every frame (HDR frames too, from a `FramePool<UInt16>`).
@Suite("Composed frames' arrays: reused, released, never shared")
struct FramePoolTests {
    static let size = Size(width: 40, height: 24)

    static func address(_ pixels: [UInt8]) -> UInt {
        pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("a recycled frame's array is the next frame's: one array made for a run of frames")
    func reused() {
        let pool = FramePool<UInt8>(size: Self.size, capacity: 2)
        var first: UInt?
        for k in 0..<10 {
            var pixels = pool.take()
            pixels.withUnsafeMutableBufferPointer { $0.update(repeating: UInt8(k)) }
            let address = Self.address(pixels)
            if let first { #expect(address == first) } else { first = address }
            pool.recycle(PixelBuffer(size: Self.size, pixels: pixels))
        }
        #expect(pool.counts.made == 1 && pool.counts.spare == 1)
    }

    @Test("a frame recycled while still held is never written under its holder")
    func neverShared() {
        let pool = FramePool<UInt8>(size: Self.size, capacity: 2)
        var pixels = pool.take()
        pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 7) }
        let held = PixelBuffer(size: Self.size, pixels: pixels)
        pixels = []
        pool.recycle(held)
        // The next frame gets the same array back, and writing it copies: `held` keeps its 7s.
        var next = pool.take()
        next.withUnsafeMutableBufferPointer { $0.update(repeating: 200) }
        #expect(held.pixels.allSatisfy { $0 == 7 })
        #expect(next.allSatisfy { $0 == 200 })
        #expect(Self.address(next) != Self.address(held.pixels))
    }

    @Test("two frames in flight have arrays of their own; only the pool's own arrays, and at most its capacity, are kept")
    func inFlightAndForeign() {
        let pool = FramePool<UInt8>(size: Self.size, capacity: 2)
        let frames = (0..<4).map { _ in PixelBuffer(size: Self.size, pixels: pool.take()) }
        #expect(Set(frames.map { Self.address($0.pixels) }).count == 4)
        #expect(pool.counts.made == 4)
        pool.recycle(PixelBuffer(size: Self.size, filledWith: .black))
        #expect(pool.counts.spare == 0)
        for frame in frames { pool.recycle(frame) }
        #expect(pool.counts.spare == 2)
        // Recycled twice, kept once.
        pool.recycle(frames[0])
        #expect(pool.counts.spare == 2)
        // Drained, it keeps none (an HDR show drains before a photo's decoding, its peak).
        pool.drain()
        #expect(pool.counts.spare == 0)
    }

    @Test("moving frames and dissolves made over recycled arrays are the same pixels as over new ones")
    func sameFrames() throws {
        let size = Size(width: 64, height: 36)
        let content = Rect(x: 8, y: 0, width: 48, height: 36)
        let path = try #require(MotionStyle.zoomIn.path(photo: 0, zoom: 0.2))
        let sourceSize = PictureArea.sourceSize(content: content, magnification: path.magnification)
        let count = sourceSize.width * sourceSize.height * 3
        let source = PixelBuffer(size: sourceSize, pixels: (0..<count).map { UInt8(truncatingIfNeeded: $0 * 13 / 5) })
        let moving = MovingPhoto(source: source, content: content, path: path)
        let background = RGBColor(red: 20, green: 40, blue: 60)
        let pool = FramePool<UInt8>(size: size, capacity: 2)
        let pooled = Compositor(size: size, background: background, pool: pool)
        let plain = Compositor(size: size, background: background)
        let other = PixelBuffer(size: size, filledWith: RGBColor(red: 250, green: 10, blue: 90))
        for k in 0..<12 {
            let time = (Double(k) + 0.5) / 12
            var frame = try pooled.picture(.moving(moving), time: time)
            var reference = try plain.picture(.moving(moving), time: time)
            #expect(frame == reference)
            if k % 2 == 1 {
                // Consumed, as the compositor's own frames are: mixed in place, in the pool's array.
                frame = pooled.transition(from: consume frame, to: other, effect: .fade, progress: time)
                reference = plain.transition(from: reference, to: other, effect: .fade, progress: time)
                #expect(frame == reference)
            }
            pool.recycle(frame)
        }
        #expect(pool.counts.made == 1)
    }
}
