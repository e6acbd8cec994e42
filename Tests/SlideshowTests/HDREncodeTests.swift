import Testing
import SlideshowColor
import SlideshowPixels

/// An HDR slide's rows are encoded in bulk (issue 35's speed): ``HDRSignal/encode(_:pixels:into:)``
/// must give ``HDRSignal/encode(_:_:_:)``'s codes, code for code, and its rounding `roundf`'s.
@Suite("HDR slide encoding: rows in bulk, code for code")
struct HDREncodeTests {
    @Test("the bulk encoder gives the one-pixel encoder's codes over black to far above the peak, PQ and HLG",
          arguments: [HDRTransfer.pq, .hlg])
    func bulkExact(_ transfer: HDRTransfer) {
        let signal = HDRSignal(transfer)
        // Light in reference whites: fine near black, up to 6 (above the 4.93 peak), and a few out of range.
        var light: [Float] = [-1, 0, 1e-9, Float.leastNonzeroMagnitude, 4.926_108, 5, 1_000]
        for step in 0..<3_000 { let t = Float(step) / 2_999; light.append(6 * t * t * t) }
        var pixels: [Float] = []
        for (k, value) in light.enumerated() {
            // Grey, and coloured (HLG's luminance factor sees different channels).
            let (other, third): (Float, Float) = (light[(k * 7) % light.count], light[(k * 13) % light.count])
            pixels += [value, value, value, value, other, third]
        }
        let count = pixels.count / 3
        var codes = [UInt16](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { source in
            codes.withUnsafeMutableBufferPointer { signal.encode(source.baseAddress!, pixels: count, into: $0.baseAddress!) }
        }
        var mismatches = 0
        for pixel in 0..<count {
            let o = pixel * 3
            let one: (UInt16, UInt16, UInt16) = signal.encode(pixels[o], pixels[o + 1], pixels[o + 2])
            if one.0 != codes[o] || one.1 != codes[o + 1] || one.2 != codes[o + 2] { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test("the rounding without roundf is roundf's, on and beside every half code and at the ends")
    func rounding() {
        func reference(_ signal: Float) -> UInt16 { UInt16(max(0, min(65535, (signal * 65535).rounded()))) }
        var signals: [Float] = [-1, -0.0, 0, 1, 1.5, .infinity, -.infinity, 0.5 / 65535, Float(0.5).nextDown / 65535]
        for k in stride(from: 0, through: 65535, by: 7) {
            let half = (Float(k) + 0.5) / 65535
            signals += [half.nextDown.nextDown, half.nextDown, half, half.nextUp, half.nextUp.nextUp, Float(k) / 65535]
        }
        #expect(signals.filter { HDRSignal.roundedCode($0) != reference($0) }.isEmpty)
    }
}
