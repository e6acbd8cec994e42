internal import CPangoCairo
import Foundation

/// The outline and the soft shadow, made from the letters' own coverage with cairo's
/// compositing (pixman's SIMD paths), so they cost little more than the letters.
///
/// The outline is the coverage grown by its width: the letters stamped (saturating `ADD`) at
/// offsets that fill a disk. The shadow is the outline moved down and right, shrunk to half
/// size, blurred (two box blurs each way, close to a Gaussian) and stretched back. Growing
/// the coverage rather than stroking the glyphs' outlines gives colour emoji (bitmaps, with no
/// outline to stroke) the same rim as letters.
package enum TextEffects {
    /// Whole-pixel offsets whose stamps fill a disk of `radius`: rings at the radius and every
    /// 2 pixels inside it, each with a stamp every 1.5 pixels or closer, and the centre (so a
    /// 3-pixel stem stamped at them leaves no hole).
    package static func diskOffsets(radius: Int) -> [(x: Int, y: Int)] {
        var offsets: [(x: Int, y: Int)] = [(0, 0)]
        for ring in stride(from: radius, to: 0, by: -2) {
            let count = max(8, Int((2 * Double.pi * Double(ring) / 1.5).rounded(.up)))
            for step in 0..<count {
                let angle = 2 * Double.pi * Double(step) / Double(count)
                let offset = (x: Int((Double(ring) * cos(angle)).rounded()), y: Int((Double(ring) * sin(angle)).rounded()))
                if !offsets.contains(where: { $0 == offset }) { offsets.append(offset) }
            }
        }
        return offsets
    }

    /// The letters' coverage (alpha only) grown by `radius` pixels.
    package static func outline(of glyphs: OwnedSurface, width: Int, height: Int, radius: Int) throws(TextError) -> OwnedSurface {
        let coverage = try OwnedSurface(format: CAIRO_FORMAT_A8, width: width, height: height)
        do {
            let cairo = try OwnedCairo(surface: coverage)
            cairo_set_source_surface(cairo.pointer, glyphs.pointer, 0, 0)
            cairo_paint(cairo.pointer)
            try check(cairo_status(cairo.pointer), "cairo_paint(coverage)")
        }
        let grown = try OwnedSurface(format: CAIRO_FORMAT_A8, width: width, height: height)
        let cairo = try OwnedCairo(surface: grown)
        cairo_set_operator(cairo.pointer, CAIRO_OPERATOR_ADD)
        for offset in diskOffsets(radius: radius) {
            cairo_set_source_surface(cairo.pointer, coverage.pointer, Double(offset.x), Double(offset.y))
            cairo_paint(cairo.pointer)
        }
        try check(cairo_status(cairo.pointer), "cairo_paint(outline)")
        cairo_surface_flush(grown.pointer)
        return grown
    }

    /// The outline's coverage moved by `offset` and blurred by about `radius`: shrunk to half
    /// size (2x2 means), blurred there by `radius / 2`, and stretched back (bilinear).
    package static func shadow(of outline: OwnedSurface, width: Int, height: Int, offset: Int, radius: Int) throws(TextError) -> OwnedSurface {
        let shadow = try OwnedSurface(format: CAIRO_FORMAT_A8, width: width, height: height)
        cairo_surface_flush(outline.pointer)
        guard let source = cairo_image_surface_get_data(outline.pointer),
              let target = cairo_image_surface_get_data(shadow.pointer) else { return shadow }
        let sourceStride = Int(cairo_image_surface_get_stride(outline.pointer))
        let targetStride = Int(cairo_image_surface_get_stride(shadow.pointer))
        let smallWidth = (width + 1) / 2, smallHeight = (height + 1) / 2
        var small = [UInt8](repeating: 0, count: smallWidth * smallHeight)
        var wide = [UInt16](repeating: 0, count: smallHeight * width)
        small.withUnsafeMutableBufferPointer { small in
            // Half size, moved: each small pixel is the mean of the 2x2 full pixels `offset` up and left.
            func at(_ x: Int, _ y: Int) -> Int {
                x >= 0 && y >= 0 && x < width && y < height ? Int(source[y * sourceStride + x]) : 0
            }
            for sy in 0..<smallHeight {
                let y = 2 * sy - offset
                for sx in 0..<smallWidth {
                    let x = 2 * sx - offset
                    small[sy * smallWidth + sx] = UInt8((at(x, y) + at(x + 1, y) + at(x, y + 1) + at(x + 1, y + 1) + 2) / 4)
                }
            }
            blur(small.baseAddress!, width: smallWidth, height: smallHeight, stride: smallWidth, radius: max(1, (radius + 1) / 2))
            // Back to full size: across (weights 1:3 and 3:1, ×4), then down (the same, ×16 in all).
            wide.withUnsafeMutableBufferPointer { wide in
                for sy in 0..<smallHeight {
                    let row = small.baseAddress! + sy * smallWidth, out = wide.baseAddress! + sy * width
                    for x in 0..<width {
                        let k = x / 2
                        let near = Int(row[k]), far = Int(row[x % 2 == 0 ? max(k - 1, 0) : min(k + 1, smallWidth - 1)])
                        out[x] = UInt16(3 * near + far)
                    }
                }
                for y in 0..<height {
                    let k = y / 2
                    let near = wide.baseAddress! + k * width
                    let far = wide.baseAddress! + (y % 2 == 0 ? max(k - 1, 0) : min(k + 1, smallHeight - 1)) * width
                    let out = target + y * targetStride
                    for x in 0..<width { out[x] = UInt8(truncatingIfNeeded: (3 * Int(near[x]) + Int(far[x]) + 8) >> 4) }
                }
            }
        }
        cairo_surface_mark_dirty(shadow.pointer)
        return shadow
    }

    /// Blurs a one-channel mask in place: two box blurs across, then two down, edges as zero.
    /// Each pass is a running sum over the rows (or down whole rows at once), O(1) a pixel.
    package static func blur(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Int) {
        guard radius > 0, width > 0, height > 0 else { return }
        let window = 2 * radius + 1
        // sum / window, rounded, as a multiply and a shift: exact to well under one step for 8-bit sums.
        let multiplier = (1 << 24 + window / 2) / window
        var source = [UInt8](repeating: 0, count: stride * height)
        var sums = [Int32](repeating: 0, count: width)
        source.withUnsafeMutableBufferPointer { source in
            sums.withUnsafeMutableBufferPointer { sums in
                for _ in 0..<2 {
                    for y in 0..<height {
                        let row = data + y * stride
                        source.baseAddress!.update(from: row, count: width)
                        var sum = 0
                        for x in 0..<min(radius, width) { sum += Int(source[x]) }
                        for x in 0..<width {
                            if x + radius < width { sum += Int(source[x + radius]) }
                            if x > radius { sum -= Int(source[x - radius - 1]) }
                            row[x] = UInt8(truncatingIfNeeded: (sum * multiplier + 1 << 23) >> 24)
                        }
                    }
                }
                for _ in 0..<2 {
                    source.baseAddress!.update(from: data, count: stride * height)
                    for x in 0..<width { sums[x] = 0 }
                    for y in 0..<min(radius, height) {
                        for x in 0..<width { sums[x] += Int32(source[y * stride + x]) }
                    }
                    for y in 0..<height {
                        if y + radius < height {
                            let entering = (y + radius) * stride
                            for x in 0..<width { sums[x] += Int32(source[entering + x]) }
                        }
                        if y > radius {
                            let leaving = (y - radius - 1) * stride
                            for x in 0..<width { sums[x] -= Int32(source[leaving + x]) }
                        }
                        let row = data + y * stride
                        for x in 0..<width { row[x] = UInt8(truncatingIfNeeded: (Int(sums[x]) * multiplier + 1 << 23) >> 24) }
                    }
                }
            }
        }
    }
}
