/// The blur fill behind a letterboxed photo (`--fit blur`): the photo itself, scaled to fill
/// the frame, blurred and darkened, where the bars would be.
///
/// Phone apps and editly do this for portraits in a landscape video. It is made from the
/// picture as it stands in the slide (after its look, before the date imprint), at an eighth
/// of the frame's size, so it costs a few milliseconds:
///
/// 1. **Shrink**: the picture is centre-cropped to the frame's aspect ratio and box-averaged
///    onto a grid of `ceil(W / 8) × ceil(H / 8)` cells (every picture pixel counts once).
/// 2. **Blur**: three passes of a box blur of radius ``radius`` cells, horizontally then
///    vertically (edges repeat), which approximates a Gaussian of σ ≈ 6.5 cells, about 52
///    frame pixels, whatever the frame size.
/// 3. **Darken**: each value times ``brightness`` (0.6).
/// 4. **Enlarge**: bilinear interpolation between cell centres, for the pixels outside the
///    picture only (the picture is not touched).
///
/// Every step is integer arithmetic with rounding to nearest, so the bytes are the same on
/// every run and every machine. The result has no bars, and no blocks or seams: after the blur
/// neighbouring cells differ little, and bilinear interpolation joins them without steps.
public enum BlurredBackdrop {
    /// The grid's cell size in frame pixels.
    public static let cell = 8
    /// The box blur's radius in cells; three passes.
    public static let radius = 6
    /// The factor the blurred copy is darkened by: 0.6, as `brightnessNumerator / 10`.
    public static let brightness = 0.6
    static let brightnessNumerator = 6

    /// Paints the backdrop around the buffer's content rectangle.
    /// - Parameters:
    ///   - buffer: a slide whose `contentRect` holds the letterboxed picture; the pixels outside
    ///     it are replaced. Nothing happens when the picture fills the frame.
    public static func fill(_ buffer: inout PixelBuffer) {
        let content = buffer.contentRect
        let frame = buffer.size
        guard content != Rect(frame), content.width > 0, content.height > 0 else { return }
        var small = shrink(buffer, content: content)
        blur(&small)
        for index in small.values.indices {
            small.values[index] = (small.values[index] * brightnessNumerator * 2 + 10) / 20
        }
        enlarge(small, into: &buffer, except: content)
    }

    /// A small RGB image of `Int` values, rows unpadded.
    struct Grid {
        var width: Int
        var height: Int
        var values: [Int]
    }

    /// The picture, centre-cropped to the frame's aspect, box-averaged onto the grid.
    static func shrink(_ buffer: PixelBuffer, content: Rect) -> Grid {
        let gw = (buffer.width + cell - 1) / cell, gh = (buffer.height + cell - 1) / cell
        let crop = FitGeometry.centreCrop(of: FitGeometry.size(of: content), aspect: buffer.size)
        let left = content.x + crop.x, top = content.y + crop.y
        // The grid column of each crop column, and the first crop row of each grid row.
        let columnOf = (0..<crop.width).map { $0 * gw / crop.width }
        var columnCounts = [Int](repeating: 0, count: gw)
        for column in columnOf { columnCounts[column] += 1 }
        var values = [Int](repeating: 0, count: gw * gh * 3)
        var sums = [Int](repeating: 0, count: gw * 3)
        buffer.pixels.withUnsafeBufferPointer { pixels in
            var row = 0
            for gy in 0..<gh {
                let end = (gy + 1) * crop.height / gh
                let rows = max(end - row, 0)
                for index in sums.indices { sums[index] = 0 }
                sums.withUnsafeMutableBufferPointer { sums in
                    columnOf.withUnsafeBufferPointer { columnOf in
                        for y in row..<max(end, row) {
                            var pixel = pixels.baseAddress! + ((top + y) * buffer.width + left) * 3
                            for x in 0..<crop.width {
                                let at = columnOf[x] &* 3
                                sums[at] &+= Int(pixel[0])
                                sums[at &+ 1] &+= Int(pixel[1])
                                sums[at &+ 2] &+= Int(pixel[2])
                                pixel += 3
                            }
                        }
                    }
                }
                // A grid row with no crop row (a picture shorter than the grid) repeats the one above.
                for gx in 0..<gw {
                    let count = rows * columnCounts[gx]
                    for c in 0..<3 {
                        let at = (gy * gw + gx) * 3 + c
                        if count > 0 {
                            values[at] = (sums[gx * 3 + c] * 2 + count) / (2 * count)
                        } else if gx > 0 && columnCounts[gx] == 0 {
                            values[at] = values[at - 3]
                        } else if gy > 0 {
                            values[at] = values[at - gw * 3]
                        }
                    }
                }
                row = max(end, row)
            }
        }
        // Columns with no crop column (a picture narrower than the grid) repeat the one to the left.
        for gy in 0..<gh {
            for gx in 1..<max(gw, 1) where columnCounts[gx] == 0 {
                for c in 0..<3 { values[(gy * gw + gx) * 3 + c] = values[(gy * gw + gx - 1) * 3 + c] }
            }
        }
        return Grid(width: gw, height: gh, values: values)
    }

    /// Three box-blur passes each way, edges repeated, rounded to nearest.
    static func blur(_ grid: inout Grid) {
        let size = 2 * radius + 1
        var line = [Int]()
        func pass(count: Int, lines: Int, index: (Int, Int) -> Int) {
            for l in 0..<lines {
                for _ in 0..<3 {
                    for c in 0..<3 {
                        line = (0..<count).map { grid.values[index(l, $0) * 3 + c] }
                        var sum = 0
                        for k in -radius...radius { sum += line[min(max(k, 0), count - 1)] }
                        for i in 0..<count {
                            grid.values[index(l, i) * 3 + c] = (sum * 2 + size) / (2 * size)
                            sum += line[min(i + radius + 1, count - 1)] - line[max(i - radius, 0)]
                        }
                    }
                }
            }
        }
        let (w, h) = (grid.width, grid.height)
        pass(count: w, lines: h) { row, x in row * w + x }
        pass(count: h, lines: w) { column, y in y * w + column }
    }

    /// Bilinear interpolation of the grid at every frame pixel outside `content`.
    ///
    /// Frame pixel x samples the grid at `(x + ½) · gw / W − ½`, clamped to the grid, in
    /// 8-bit fixed-point weights; a row is first interpolated vertically into a line of the
    /// grid's width (×256), then each pixel horizontally.
    static func enlarge(_ grid: Grid, into buffer: inout PixelBuffer, except content: Rect) {
        let (width, height) = (buffer.width, buffer.height)
        func taps(_ count: Int, _ cells: Int) -> [(Int, Int, Int)] {
            (0..<count).map { x in
                // Position in 1/256 cell: ((2x + 1) · cells · 256 / (2 · count)) − 128.
                let position = max(((2 * x + 1) * cells * 256) / (2 * count) - 128, 0)
                let i0 = min(position >> 8, cells - 1)
                return (i0, min(i0 + 1, cells - 1), position & 255)
            }
        }
        let columns = taps(width, grid.width), rows = taps(height, grid.height)
        var line = [Int](repeating: 0, count: grid.width * 3)
        buffer.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let inside = y >= content.y && y < content.maxY
                let spans = inside ? [0..<max(content.x, 0), min(content.maxX, width)..<width] : [0..<width]
                guard spans.contains(where: { !$0.isEmpty }) else { continue }
                let (r0, r1, wy) = rows[y]
                for i in 0..<line.count {
                    line[i] = grid.values[r0 * grid.width * 3 + i] * (256 - wy) + grid.values[r1 * grid.width * 3 + i] * wy
                }
                line.withUnsafeBufferPointer { line in
                    columns.withUnsafeBufferPointer { columns in
                        for span in spans {
                            var pixel = pixels.baseAddress! + (y * width + span.lowerBound) * 3
                            for x in span {
                                let (c0, c1, wx) = columns[x]
                                let a = c0 &* 3, b = c1 &* 3, ia = 256 &- wx
                                pixel[0] = UInt8(truncatingIfNeeded: (line[a] &* ia &+ line[b] &* wx &+ 32768) >> 16)
                                pixel[1] = UInt8(truncatingIfNeeded: (line[a &+ 1] &* ia &+ line[b &+ 1] &* wx &+ 32768) >> 16)
                                pixel[2] = UInt8(truncatingIfNeeded: (line[a &+ 2] &* ia &+ line[b &+ 2] &* wx &+ 32768) >> 16)
                                pixel += 3
                            }
                        }
                    }
                }
            }
        }
    }
}
