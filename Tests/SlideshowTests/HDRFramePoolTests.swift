import Testing
@testable import SlideshowKit
import SlideshowColor
import SlideshowPixels

/// The moving HDR show's speed (issue 35): composed HDR frames reuse their arrays, and a
/// dissolve's mix, in passes that vectorise, gives the codes the one-sample formula gives.
@Suite("HDR frames: pooled arrays, and the dissolve's mix code for code")
struct HDRFramePoolTests {
    static let size = Size(width: 40, height: 24)

    static func address(_ samples: [UInt16]) -> UInt {
        samples.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("a recycled frame's array is the next frame's; arrays it did not make are not kept; drain lets the spares go")
    func reused() {
        let pool = HDRFramePool(size: Self.size)
        var first: UInt?
        for k in 0..<10 {
            var samples = pool.samples()
            samples.withUnsafeMutableBufferPointer { $0.update(repeating: UInt16(k)) }
            if let first { #expect(Self.address(samples) == first) } else { first = Self.address(samples) }
            pool.recycle(samples)
        }
        #expect(pool.counts.made == 1 && pool.counts.spare == 1)
        pool.recycle([UInt16](repeating: 0, count: pool.count))
        #expect(pool.counts.spare == 1)
        pool.drain()
        #expect(pool.counts.spare == 0)
    }

    @Test("a frame recycled while still held is never written under its holder")
    func neverShared() {
        let pool = HDRFramePool(size: Self.size)
        var samples = pool.samples()
        samples.withUnsafeMutableBufferPointer { $0.update(repeating: 7) }
        let held = samples
        pool.recycle(samples)
        samples = []
        var next = pool.samples()
        next.withUnsafeMutableBufferPointer { $0.update(repeating: 9) }
        #expect(held.allSatisfy { $0 == 7 } && next.allSatisfy { $0 == 9 })
    }

    @Test("the mix gives the one-sample formula's code for every code value, PQ and HLG, across, through black and white, faded",
          arguments: HDRTransfer.allCases)
    func mixExact(_ transfer: HDRTransfer) {
        let signal = HDRSignal(transfer)
        // Every code against every code in reverse order (and so a spread of pairs), an odd count (a partial last pass).
        let outgoing = (0...65535).map { UInt16($0) }, incoming = outgoing.reversed().map { $0 }
        let white = signal.mixingWhite
        for (a, b, c): (Float, Float, Float) in [(0.7, 0.3, 0), (1 / 3, 2 / 3, 0), (0.4, 0, 0.6 * white), (0, 0.9, 0.1 * white),
                                                  (0.25, 0.5, 0), (1, 0, 0), (0.999, 0.001, 0)] {
            var mixed = [UInt16](repeating: 0, count: 65535)
            mixed.withUnsafeMutableBufferPointer { into in
                signal.mix(outgoing, incoming, count: 65535, a: a, b: b, c: c, into: into.baseAddress!)
            }
            let differing = (0..<65535).filter { mixed[$0] != signal.mixedCode(outgoing[$0], incoming[$0], a: a, b: b, c: c) }
            #expect(differing.isEmpty, "\(transfer) a \(a) b \(b) c \(c): \(differing.count) codes differ, first at \(differing.first ?? -1)")
        }
    }
}
