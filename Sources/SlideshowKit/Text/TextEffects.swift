/// The outline and the soft shadow, made from the letters' own coverage in plain Swift: the
/// coverage grown by the outline's width (an octagonal dilation), then moved and blurred for
/// the shadow, and the three layers composed into one premultiplied RGBA image.
///
/// Growing the coverage rather than stroking the glyphs' outlines gives colour emoji (bitmaps,
/// with no outline to stroke) the same rim as letters, at a fraction of the cost.
enum TextEffects {
    /// Grows a coverage mask by `radius` pixels: 3x3 squares and crosses in turn, so the
    /// grown edge is an octagon around each pixel, close to round.
    static func dilate(_ mask: inout [UInt8], width: Int, height: Int, radius: Int) {
        guard radius > 0, width > 0, height > 0 else { return }
        var scratch = [UInt8](repeating: 0, count: mask.count)
        for step in 0..<radius {
            let square = step % 2 == 0
            mask.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    for y in 0..<height {
                        let row = y * width
                        let up = y > 0 ? row - width : row, down = y < height - 1 ? row + width : row
                        for x in 0..<width {
                            let left = x > 0 ? x - 1 : x, right = x < width - 1 ? x + 1 : x
                            var value = max(source[row + x], source[row + left], source[row + right], source[up + x], source[down + x])
                            if square {
                                value = max(value, source[up + left], source[up + right], source[down + left], source[down + right])
                            }
                            target[row + x] = value
                        }
                    }
                }
            }
            swap(&mask, &scratch)
        }
    }

    /// A copy of `mask` moved right and down by `offset` pixels and blurred: two box blurs of
    /// `radius` across, then two down (close to a Gaussian of σ ≈ 0.8·radius).
    static func shadow(of mask: [UInt8], width: Int, height: Int, offset: Int, radius: Int) -> [UInt8] {
        var shadow = [UInt8](repeating: 0, count: mask.count)
        for y in min(offset, height)..<height {
            for x in min(offset, width)..<width {
                shadow[y * width + x] = mask[(y - offset) * width + x - offset]
            }
        }
        guard radius > 0 else { return shadow }
        var line = [Int](repeating: 0, count: max(width, height))
        shadow.withUnsafeMutableBufferPointer { data in
            line.withUnsafeMutableBufferPointer { scratch in
                for _ in 0..<2 {
                    for y in 0..<height { boxPass(data.baseAddress! + y * width, step: 1, count: width, radius: radius, scratch: scratch) }
                    for x in 0..<width { boxPass(data.baseAddress! + x, step: width, count: height, radius: radius, scratch: scratch) }
                }
            }
        }
        return shadow
    }

    /// One box blur along `count` samples `step` apart, edges treated as zero, rounded to nearest.
    private static func boxPass(_ start: UnsafeMutablePointer<UInt8>, step: Int, count: Int, radius: Int,
                                scratch: UnsafeMutableBufferPointer<Int>) {
        for index in 0..<count { scratch[index] = Int(start[index * step]) }
        let window = 2 * radius + 1
        var sum = 0
        for index in 0..<min(radius, count) { sum += scratch[index] }
        for index in 0..<count {
            let entering = index + radius, leaving = index - radius - 1
            if entering < count { sum += scratch[entering] }
            if leaving >= 0 { sum -= scratch[leaving] }
            start[index * step] = UInt8((sum + window / 2) / window)
        }
    }

    /// Composes shadow, outline and letters (each over the one before) into premultiplied RGBA.
    /// - Parameters:
    ///   - glyphs: the letters drawn in their colour (and emoji in theirs), premultiplied RGBA.
    ///   - outline: the outline's coverage; nil for none.
    ///   - shadow: the shadow's coverage; nil for none.
    ///   - rim: the outline's and the shadow's colour.
    ///   - shadowOpacity: the shadow's strength, 0 to 255.
    static func compose(glyphs: [UInt8], outline: [UInt8]?, shadow: [UInt8]?, rim: RGBColor, shadowOpacity: Int) -> [UInt8] {
        guard outline != nil || shadow != nil else { return glyphs }
        let count = glyphs.count / 4
        let rimColour = [Int(rim.red), Int(rim.green), Int(rim.blue)]
        return [UInt8](unsafeUninitializedCapacity: glyphs.count) { output, initialised in
            for index in 0..<count {
                let s = shadow.map { (Int($0[index]) * shadowOpacity + 127) / 255 } ?? 0
                let o = outline.map { Int($0[index]) } ?? 0
                let g = index * 4
                let glyphAlpha = Int(glyphs[g + 3])
                let keepUnderOutline = 255 - o, keepUnderGlyph = 255 - glyphAlpha
                for c in 0..<3 {
                    let shadowColour = (rimColour[c] * s + 127) / 255
                    let rimmed = (rimColour[c] * o + 127) / 255 + (shadowColour * keepUnderOutline + 127) / 255
                    output[g + c] = UInt8(min(255, Int(glyphs[g + c]) + (rimmed * keepUnderGlyph + 127) / 255))
                }
                let rimAlpha = o + (s * keepUnderOutline + 127) / 255
                output[g + 3] = UInt8(min(255, glyphAlpha + (rimAlpha * keepUnderGlyph + 127) / 255))
            }
            initialised = glyphs.count
        }
    }
}
