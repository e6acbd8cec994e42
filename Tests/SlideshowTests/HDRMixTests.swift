import Testing
@testable import SlideshowKit
import SlideshowColor
import SlideshowPixels

/// The moving HDR show's speed (issue 35): a dissolve's mix, in passes that vectorise, gives
/// the codes the one-sample formula gives. (HDR frames' arrays come from ``FramePool``, whose
/// tests are `FramePoolTests`.)
@Suite("HDR dissolves: the mix code for code")
struct HDRMixTests {
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
