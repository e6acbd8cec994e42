/// Resamples a rectangle of a source with fractional position and size into a rectangle of a
/// frame: separable bilinear interpolation in fixed point.
///
/// Every output pixel centre maps back to a source position `left + (i + ½)·w/W − ½` (and the
/// same down), so the picture moves by fractions of a pixel from frame to frame, never in
/// whole-pixel steps. Weights have 14 bits (1/16384 of a pixel); the horizontal pass keeps 8
/// bits of fraction, the vertical pass rounds once. Source rows are filtered horizontally once
/// each and kept two at a time, as the output rows walk down.
enum MotionResampler {
    /// Weight bits.
    static let shift = 14
    static let unit = 1 << shift

    /// Resamples.
    /// - Parameters:
    ///   - source: the source picture (RGB, whole buffer).
    ///   - view: the source rectangle, in source pixels (may be fractional).
    ///   - frame: the frame's pixels, `frameWidth × 3` bytes a row.
    ///   - frameWidth: the frame's width.
    ///   - content: where in the frame to write.
    static func resample(_ source: PixelBuffer, view: (x: Double, y: Double, width: Double, height: Double),
                         into frame: UnsafeMutablePointer<UInt8>, frameWidth: Int, content: Rect) {
        let (columns, columnWeights) = taps(count: content.width, start: view.x, step: view.width / Double(content.width), limit: source.width)
        let (rows, rowWeights) = taps(count: content.height, start: view.y, step: view.height / Double(content.height), limit: source.height)
        let width = content.width
        var lines = [UInt16](repeating: 0, count: width * 3 * 2)
        var lineRows = (-1, -1)
        let sourceRowBytes = source.width * 3
        source.pixels.withUnsafeBufferPointer { pixels in
            lines.withUnsafeMutableBufferPointer { lineBuffer in
                columns.withUnsafeBufferPointer { columns in
                    columnWeights.withUnsafeBufferPointer { columnWeights in
                        let s = pixels.baseAddress!, l = lineBuffer.baseAddress!
                        func filter(row: Int, into line: UnsafeMutablePointer<UInt16>) {
                            let from = s + row * sourceRowBytes
                            for i in 0..<width {
                                let x = columns[i] &* 3
                                let w = Int32(columnWeights[i]), v = Int32(unit) &- w
                                let o = i &* 3
                                line[o] = UInt16(truncatingIfNeeded: (Int32(from[x]) &* v &+ Int32(from[x &+ 3]) &* w &+ 32) >> 6)
                                line[o &+ 1] = UInt16(truncatingIfNeeded: (Int32(from[x &+ 1]) &* v &+ Int32(from[x &+ 4]) &* w &+ 32) >> 6)
                                line[o &+ 2] = UInt16(truncatingIfNeeded: (Int32(from[x &+ 2]) &* v &+ Int32(from[x &+ 5]) &* w &+ 32) >> 6)
                            }
                        }
                        let lineA = l, lineB = l + width * 3
                        for j in 0..<content.height {
                            let top = rows[j]
                            // Keep the two filtered rows this output row needs: top in A, top + 1 in B.
                            if lineRows.0 != top {
                                if lineRows.1 == top {
                                    lineA.update(from: lineB, count: width * 3)
                                } else {
                                    filter(row: top, into: lineA)
                                }
                                lineRows.0 = top
                                lineRows.1 = -1
                            }
                            if lineRows.1 != top + 1 {
                                filter(row: top + 1, into: lineB)
                                lineRows.1 = top + 1
                            }
                            let w = Int32(rowWeights[j]), v = Int32(unit) &- w
                            let out = frame + ((content.y + j) * frameWidth + content.x) * 3
                            let round = Int32(1) << (Int32(shift) + 7)
                            for o in 0..<(width * 3) {
                                let value = (Int32(lineA[o]) &* v &+ Int32(lineB[o]) &* w &+ round) >> (Int32(shift) + 8)
                                out[o] = UInt8(truncatingIfNeeded: min(value, 255))
                            }
                        }
                    }
                }
            }
        }
    }

    /// For each output position, the first of the two source taps and the second's weight.
    static func taps(count: Int, start: Double, step: Double, limit: Int) -> ([Int], [Int]) {
        var indices = [Int](repeating: 0, count: count)
        var weights = [Int](repeating: 0, count: count)
        let last = Double(limit - 1)
        for i in 0..<count {
            let position = min(max(start + (Double(i) + 0.5) * step - 0.5, 0), last)
            var index = Int(position)
            if index >= limit - 1 { index = max(limit - 2, 0) }
            indices[i] = index
            weights[i] = limit < 2 ? 0 : Int(((position - Double(index)) * Double(unit)).rounded())
        }
        return (indices, weights)
    }
}
