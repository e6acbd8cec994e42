import SlideshowFraming
import SlideshowPixels

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
    package static let brightnessNumerator = 6

    /// Paints the backdrop around the buffer's content rectangle.
    /// - Parameters:
    ///   - buffer: a slide whose `contentRect` holds the letterboxed picture; the pixels outside
    ///     it are replaced. Nothing happens when the picture fills the frame.
    public static func fill(_ buffer: inout PixelBuffer) {
        let content = buffer.contentRect
        let frame = buffer.size
        guard content != Rect(frame), content.width > 0, content.height > 0 else { return }
        let (width, height) = (buffer.width, buffer.height)
        // One borrow of the pixels for the whole job, so that they are never copied.
        buffer.withUnsafeMutableBufferPointer { pixels in
            var small = shrink(UnsafeBufferPointer(pixels), width: width, height: height, content: content)
            blur(&small)
            for index in small.values.indices {
                small.values[index] = (small.values[index] * brightnessNumerator * 2 + 10) / 20
            }
            enlarge(small, into: pixels, width: width, height: height, except: content)
        }
    }

    /// A small RGB image of `Int` values, rows unpadded.
    package struct Grid {
        package var width: Int
        package var height: Int
        package var values: [Int]
    }

    /// The picture, centre-cropped to the frame's aspect, box-averaged onto the grid.
    ///
    /// Grid cell (gx, gy) averages crop columns `gx·cw/gw ..< (gx+1)·cw/gw` and the rows
    /// likewise (at least one of each, so a picture smaller than the grid repeats its pixels),
    /// every other row and column when a cell spans four or more (the blur that follows makes
    /// the difference invisible, and a large picture costs a quarter as much).
    package static func shrink(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, content: Rect) -> Grid {
        let gw = (width + cell - 1) / cell, gh = (height + cell - 1) / cell
        let crop = FitGeometry.centreCrop(of: FitGeometry.size(of: content), aspect: Size(width: width, height: height))
        let left = content.x + crop.x, top = content.y + crop.y
        func span(_ index: Int, _ count: Int, _ cells: Int) -> Range<Int> {
            let start = min(index * count / cells, count - 1)
            return start..<max(start + 1, (index + 1) * count / cells)
        }
        let columns = (0..<gw).map { span($0, crop.width, gw) }
        let columnStep = crop.width / gw >= 4 ? 2 : 1, rowStep = crop.height / gh >= 4 ? 2 : 1
        let columnCounts = columns.map { ($0.count + columnStep - 1) / columnStep }
        var values = [Int](repeating: 0, count: gw * gh * 3)
        var sums = [Int](repeating: 0, count: gw * 3)
        do {
            for gy in 0..<gh {
                let rows = span(gy, crop.height, gh)
                for index in sums.indices { sums[index] = 0 }
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in stride(from: rows.lowerBound, to: rows.upperBound, by: rowStep) {
                        let line = pixels.baseAddress! + ((top + y) * width + left) * 3
                        for (gx, range) in columns.enumerated() {
                            var r = 0, g = 0, b = 0
                            var pixel = line + range.lowerBound * 3
                            for _ in 0..<columnCounts[gx] {
                                r &+= Int(pixel[0]); g &+= Int(pixel[1]); b &+= Int(pixel[2])
                                pixel += 3 * columnStep
                            }
                            sums[gx &* 3] &+= r
                            sums[gx &* 3 &+ 1] &+= g
                            sums[gx &* 3 &+ 2] &+= b
                        }
                    }
                }
                for gx in 0..<gw {
                    let count = ((rows.count + rowStep - 1) / rowStep) * columnCounts[gx]
                    for c in 0..<3 {
                        values[(gy * gw + gx) * 3 + c] = (sums[gx * 3 + c] * 2 + count) / (2 * count)
                    }
                }
            }
        }
        return Grid(width: gw, height: gh, values: values)
    }

    /// Three box-blur passes each way, edges repeated, rounded to nearest.
    package static func blur(_ grid: inout Grid) {
        let (w, h) = (grid.width, grid.height)
        var scratch = [Int](repeating: 0, count: max(w, h))
        grid.values.withUnsafeMutableBufferPointer { values in
            scratch.withUnsafeMutableBufferPointer { scratch in
                let v = values.baseAddress!, line = scratch.baseAddress!
                for _ in 0..<3 {
                    for y in 0..<h {
                        for c in 0..<3 { boxBlur(v + y * w * 3 + c, count: w, stride: 3, line: line) }
                    }
                }
                for _ in 0..<3 {
                    for x in 0..<w {
                        for c in 0..<3 { boxBlur(v + x * 3 + c, count: h, stride: w * 3, line: line) }
                    }
                }
            }
        }
    }

    /// One box-blur pass over `count` values `stride` apart, through a copy in `line`:
    /// each value becomes the rounded mean of the `2·radius + 1` around it, edges repeated.
    @inline(__always)
    private static func boxBlur(_ values: UnsafeMutablePointer<Int>, count: Int, stride: Int, line: UnsafeMutablePointer<Int>) {
        let size = 2 * radius + 1
        for i in 0..<count { line[i] = values[i &* stride] }
        let last = count - 1
        var sum = 0
        for k in -radius...radius { sum &+= line[min(max(k, 0), last)] }
        for i in 0..<count {
            values[i &* stride] = (sum &* 2 &+ size) / (2 &* size)
            sum &+= line[min(i &+ radius &+ 1, last)] &- line[max(i &- radius, 0)]
        }
    }

    /// Bilinear interpolation of the grid at every frame pixel outside `content`.
    ///
    /// Frame pixel x samples the grid at `(x + ½) · gw / W − ½`, clamped to the grid, with
    /// 8-bit fixed-point weights. Each grid row is first interpolated horizontally to the
    /// frame's width, exactly (values ×256 fit 16 bits); each frame row is then the weighted
    /// sum of two of those rows, rounded once: a loop over contiguous values that the compiler
    /// vectorises.
    package static func enlarge(_ grid: Grid, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, except content: Rect) {
        func taps(_ count: Int, _ cells: Int) -> [(Int, Int, Int)] {
            (0..<count).map { x in
                // Position in 1/256 cell: ((2x + 1) · cells · 256 / (2 · count)) − 128.
                let position = max(((2 * x + 1) * cells * 256) / (2 * count) - 128, 0)
                let i0 = min(position >> 8, cells - 1)
                return (i0, min(i0 + 1, cells - 1), position & 255)
            }
        }
        let columns = taps(width, grid.width), rows = taps(height, grid.height)
        let rowValues = width * 3
        // Two grid rows widened to the frame's width, recomputed as the frame rows move down
        // the grid (small, so no page of fresh memory is touched per slide).
        var wide = [UInt16](repeating: 0, count: 2 * rowValues)
        var widened = (-1, -1)
        func widen(_ gy: Int, into slot: Int) {
            let source = gy * grid.width * 3, target = slot * rowValues
            for x in 0..<width {
                let (c0, c1, wx) = columns[x]
                for c in 0..<3 {
                    wide[target + x * 3 + c] = UInt16(grid.values[source + c0 * 3 + c] * (256 - wx) + grid.values[source + c1 * 3 + c] * wx)
                }
            }
        }
        for y in 0..<height {
            let inside = y >= content.y && y < content.maxY
            if inside && content.x <= 0 && content.maxX >= width { continue }
            let (r0, r1, wy) = rows[y]
            if widened != (r0, r1) {
                if widened.1 == r0 {
                    // Moving down by one grid row: the old bottom row becomes the top one.
                    wide.withUnsafeMutableBufferPointer { w in
                        w.baseAddress!.update(from: w.baseAddress! + rowValues, count: rowValues)
                    }
                } else {
                    widen(r0, into: 0)
                }
                widen(r1, into: 1)
                widened = (r0, r1)
            }
            wide.withUnsafeBufferPointer { wide in
                let top = wide.baseAddress!, bottom = wide.baseAddress! + rowValues
                let out = pixels.baseAddress! + y * rowValues
                let a = UInt32(256 - wy), b = UInt32(wy)
                func span(_ from: Int, _ to: Int) {
                    var i = from * 3
                    while i < to * 3 {
                        out[i] = UInt8(truncatingIfNeeded: (UInt32(top[i]) &* a &+ UInt32(bottom[i]) &* b &+ 32768) >> 16)
                        i &+= 1
                    }
                }
                if inside {
                    span(0, max(min(content.x, width), 0))
                    span(min(max(content.maxX, 0), width), width)
                } else {
                    span(0, width)
                }
            }
        }
    }
}
