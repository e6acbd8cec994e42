/// Resamples a rectangle of a source with fractional position and size into a rectangle of a
/// frame: a separable four-tap tent filter in fixed point.
///
/// Every output pixel centre maps back to a source position `left + (i + ½)·w/W − ½` (and the
/// same down), so the picture moves by fractions of a pixel from frame to frame, never in
/// whole-pixel steps. The tent is as wide as the step between output pixels in the source
/// (at least one source pixel): plain bilinear interpolation at 1:1 and when enlarging, a
/// low-pass that keeps aliasing from crawling over the picture when reducing (up to 2:1, which
/// is all motion needs: the source is at most `1 + zoom` times its place on screen). Weights have
/// 14 bits; the horizontal pass keeps 8 bits of fraction, the vertical pass rounds once. Source
/// rows are filtered horizontally once each, as the output rows walk down.
enum MotionResampler {
    /// Weight bits.
    static let shift = 14
    static let unit = 1 << shift
    /// Taps per output pixel.
    static let taps = 4

    /// Resamples.
    /// - Parameters:
    ///   - source: the source picture (RGB, whole buffer).
    ///   - view: the source rectangle, in source pixels (may be fractional).
    ///   - frame: the frame's pixels, `frameWidth × 3` bytes a row.
    ///   - frameWidth: the frame's width.
    ///   - content: where in the frame to write.
    static func resample(_ source: PixelBuffer, view: (x: Double, y: Double, width: Double, height: Double),
                         into frame: UnsafeMutablePointer<UInt8>, frameWidth: Int, content: Rect) {
        let (columns, columnWeights) = filter(count: content.width, start: view.x, step: view.width / Double(content.width), limit: source.width)
        let (rows, rowWeights) = filter(count: content.height, start: view.y, step: view.height / Double(content.height), limit: source.height)
        let width = content.width
        let lineLength = width * 3
        // Filtered source rows, row r in slot r % 8 (the four an output row needs never collide).
        var lines = [UInt16](repeating: 0, count: lineLength * 8)
        var tags = [Int](repeating: -1, count: 8)
        let sourceRowBytes = source.width * 3
        source.pixels.withUnsafeBufferPointer { pixels in
            lines.withUnsafeMutableBufferPointer { lineBuffer in
                columns.withUnsafeBufferPointer { columns in
                    columnWeights.withUnsafeBufferPointer { weights in
                        let s = pixels.baseAddress!, l = lineBuffer.baseAddress!
                        func filterRow(_ row: Int) -> UnsafeMutablePointer<UInt16> {
                            let slot = row & 7
                            let line = l + slot * lineLength
                            if tags[slot] == row { return line }
                            tags[slot] = row
                            let from = s + row * sourceRowBytes
                            for i in 0..<width {
                                let t = i &* taps
                                let x0 = columns[t] &* 3, x1 = columns[t &+ 1] &* 3, x2 = columns[t &+ 2] &* 3, x3 = columns[t &+ 3] &* 3
                                let w0 = Int32(weights[t]), w1 = Int32(weights[t &+ 1]), w2 = Int32(weights[t &+ 2]), w3 = Int32(weights[t &+ 3])
                                let o = i &* 3
                                for c in 0..<3 {
                                    var sum = Int32(from[x0 &+ c]) &* w0
                                    sum &+= Int32(from[x1 &+ c]) &* w1
                                    sum &+= Int32(from[x2 &+ c]) &* w2
                                    sum &+= Int32(from[x3 &+ c]) &* w3
                                    line[o &+ c] = UInt16(truncatingIfNeeded: (sum &+ 32) >> 6)
                                }
                            }
                            return line
                        }
                        let round = Int32(1) << (Int32(shift) + 7)
                        for j in 0..<content.height {
                            let t = j * taps
                            let a = filterRow(rows[t]), b = filterRow(rows[t + 1]), c = filterRow(rows[t + 2]), d = filterRow(rows[t + 3])
                            let wa = Int32(rowWeights[t]), wb = Int32(rowWeights[t + 1]), wc = Int32(rowWeights[t + 2]), wd = Int32(rowWeights[t + 3])
                            let out = frame + ((content.y + j) * frameWidth + content.x) * 3
                            for o in 0..<lineLength {
                                var sum = Int32(a[o]) &* wa
                                sum &+= Int32(b[o]) &* wb
                                sum &+= Int32(c[o]) &* wc
                                sum &+= Int32(d[o]) &* wd
                                out[o] = UInt8(truncatingIfNeeded: min(max((sum &+ round) >> (Int32(shift) + 8), 0), 255))
                            }
                        }
                    }
                }
            }
        }
    }

    /// For each output position, four source indices (clamped to the source) and their
    /// weights, which sum to ``unit``.
    static func filter(count: Int, start: Double, step: Double, limit: Int) -> ([Int], [Int]) {
        var indices = [Int](repeating: 0, count: count * taps)
        var weights = [Int](repeating: 0, count: count * taps)
        let radius = max(1, step)
        for i in 0..<count {
            let position = start + (Double(i) + 0.5) * step - 0.5
            let base = Int(position.rounded(.down)) - 1
            var raw = [Double](repeating: 0, count: taps)
            for k in 0..<taps {
                raw[k] = max(0, 1 - abs(position - Double(base + k)) / radius)
            }
            let total = raw.reduce(0, +)
            var assigned = 0
            var largest = 0
            for k in 0..<taps {
                let weight = Int((raw[k] / total * Double(unit)).rounded())
                weights[i * taps + k] = weight
                assigned += weight
                if raw[k] > raw[largest] { largest = k }
                indices[i * taps + k] = min(max(base + k, 0), limit - 1)
            }
            weights[i * taps + largest] += unit - assigned
        }
        return (indices, weights)
    }
}
