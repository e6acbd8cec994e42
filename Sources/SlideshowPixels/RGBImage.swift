/// An intermediate image inside the image stage: packed 8-bit pixels, rows unpadded.
///
/// ``pixels`` is ``ImageLimits/rowPadding`` bytes (or more) longer than the pixels
/// themselves, so SIMD readers may load a little past the last row.
package struct RGBImage: Sendable {
    package var width: Int
    package var height: Int
    /// Bytes per pixel: 3 (RGB) or 4 (CMYK or RGBA).
    package var channels: Int
    package var pixels: [UInt8]

    package var size: Size { Size(width: width, height: height) }
    package var rowBytes: Int { width * channels }

    package init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(pixels.count >= width * height * channels, "too few bytes for the image")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The image turned to display upright for an EXIF orientation.
    ///
    /// Runs on the small, DCT-scaled RGB image. Flips walk rows in order; rotations and
    /// transpositions walk 32x32-pixel tiles, so that both the rows read and the rows written
    /// stay in cache. Each destination pixel (dx, dy) copies the source pixel at
    /// `origin + dx·stepX + dy·stepY` (in pixels).
    /// - Parameters:
    ///   - orientation: the EXIF orientation to apply.
    package func oriented(_ orientation: Orientation) -> RGBImage {
        precondition(channels == 3, "orientation applies to RGB images")
        if orientation == .up { return self }
        let (sw, sh) = (width, height)
        let displayed = orientation.displayedSize(of: size)
        let (dw, dh) = (displayed.width, displayed.height)
        let origin: Int, stepX: Int, stepY: Int
        switch orientation {
        case .up: (origin, stepX, stepY) = (0, 1, sw)
        case .upMirrored: (origin, stepX, stepY) = (sw - 1, -1, sw)                  // sx = sw-1-dx, sy = dy
        case .down: (origin, stepX, stepY) = (sw * sh - 1, -1, -sw)                 // sx = sw-1-dx, sy = sh-1-dy
        case .downMirrored: (origin, stepX, stepY) = ((sh - 1) * sw, 1, -sw)        // sx = dx, sy = sh-1-dy
        case .leftMirrored: (origin, stepX, stepY) = (0, sw, 1)                     // sx = dy, sy = dx
        case .right: (origin, stepX, stepY) = ((sh - 1) * sw, -sw, 1)               // sx = dy, sy = sh-1-dx
        case .rightMirrored: (origin, stepX, stepY) = ((sh - 1) * sw + sw - 1, -sw, -1)  // sx = sw-1-dy, sy = sh-1-dx
        case .left: (origin, stepX, stepY) = (sw - 1, sw, -1)                       // sx = sw-1-dy, sy = dx
        }
        let outputBytes = dw * dh * 3
        let output = [UInt8](unsafeUninitializedCapacity: outputBytes + ImageLimits.rowPadding) { destination, count in
            pixels.withUnsafeBufferPointer { source in
                let s = source.baseAddress!, d = destination.baseAddress!
                let rowBytes = dw * 3
                if stepX == 1 {
                    // Vertical flip: whole rows.
                    for dy in 0..<dh {
                        (d + dy * rowBytes).update(from: s + (origin + dy * stepY) * 3, count: rowBytes)
                    }
                } else if stepX == -1 {
                    // Horizontal flip or 180°: rows in order, pixels reversed.
                    for dy in 0..<dh {
                        var from = (origin &+ dy &* stepY) &* 3
                        var to = dy &* rowBytes
                        for _ in 0..<dw {
                            d[to] = s[from]; d[to &+ 1] = s[from &+ 1]; d[to &+ 2] = s[from &+ 2]
                            to &+= 3
                            from &-= 3
                        }
                    }
                } else {
                    let tile = 32
                    let step = stepX &* 3
                    for tileY in stride(from: 0, to: dh, by: tile) {
                        let endY = min(tileY + tile, dh)
                        for tileX in stride(from: 0, to: dw, by: tile) {
                            let endX = min(tileX + tile, dw)
                            for dy in tileY..<endY {
                                var from = (origin &+ tileX &* stepX &+ dy &* stepY) &* 3
                                var to = (dy &* dw &+ tileX) &* 3
                                for _ in tileX..<endX {
                                    d[to] = s[from]; d[to &+ 1] = s[from &+ 1]; d[to &+ 2] = s[from &+ 2]
                                    to &+= 3
                                    from &+= step
                                }
                            }
                        }
                    }
                }
                (d + outputBytes).initialize(repeating: 0, count: destination.count - outputBytes)
            }
            count = destination.count
        }
        return RGBImage(width: dw, height: dh, channels: 3, pixels: output)
    }

    /// The RGB image of a CMYK one (4 channels, as TurboJPEG decodes CMYK and YCCK JPEGs).
    ///
    /// Adobe's CMYK JPEGs (those with an APP14 "Adobe" marker: Photoshop and nearly every
    /// other writer) store the channels inverted, so there `R = C·K/255`, `G = M·K/255`,
    /// `B = Y·K/255` on the stored values; without the marker the values are true ink
    /// amounts and `R = (255 − C)(255 − K)/255`. That is what Pillow does; FFmpeg agrees
    /// to within its YUV round trip.
    /// - Parameters:
    ///   - inverted: whether the file has the Adobe marker.
    package func rgbFromCMYK(inverted: Bool) -> RGBImage {
        precondition(channels == 4, "CMYK has 4 channels")
        let count = width * height
        let output = [UInt8](unsafeUninitializedCapacity: count * 3 + ImageLimits.rowPadding) { destination, initialized in
            pixels.withUnsafeBufferPointer { source in
                let s = source.baseAddress!, d = destination.baseAddress!
                let flip: UInt32 = inverted ? 0 : 255
                for index in 0..<count {
                    let from = index &* 4, to = index &* 3
                    let k = UInt32(s[from &+ 3]) ^ flip
                    d[to] = Self.divideBy255((UInt32(s[from]) ^ flip) &* k)
                    d[to &+ 1] = Self.divideBy255((UInt32(s[from &+ 1]) ^ flip) &* k)
                    d[to &+ 2] = Self.divideBy255((UInt32(s[from &+ 2]) ^ flip) &* k)
                }
                (d + count * 3).initialize(repeating: 0, count: destination.count - count * 3)
            }
            initialized = destination.count
        }
        return RGBImage(width: width, height: height, channels: 3, pixels: output)
    }

    /// The RGB image of an RGBA one, composited over a background colour.
    ///
    /// `out = (c·a + background·(255 − a)) / 255`, rounded: straight (not premultiplied)
    /// alpha in gamma-encoded values, as browsers composite PNGs.
    /// - Parameters:
    ///   - background: the colour under transparent pixels.
    package func compositedOver(_ background: RGBColor) -> RGBImage {
        var result = self
        result.compositeOver(background)
        return result
    }

    /// ``compositedOver(_:)`` in place: when the pixels are not shared, no copy is made (the
    /// PNG decoder's RGBA image is composited where it lies).
    package mutating func compositeOver(_ background: RGBColor) {
        precondition(channels == 4, "RGBA has 4 channels")
        let count = width * height
        let (br, bg, bb) = (UInt32(background.red), UInt32(background.green), UInt32(background.blue))
        pixels.withUnsafeMutableBufferPointer { buffer in
            let p = buffer.baseAddress!
            // Forward, 4 bytes in and 3 out: every write lands at or before the pixel just read.
            for index in 0..<count {
                let from = index &* 4, to = index &* 3
                let a = UInt32(p[from &+ 3]), ia = 255 &- a
                let r = UInt32(p[from]), g = UInt32(p[from &+ 1]), b = UInt32(p[from &+ 2])
                p[to] = Self.divideBy255(r &* a &+ br &* ia)
                p[to &+ 1] = Self.divideBy255(g &* a &+ bg &* ia)
                p[to &+ 2] = Self.divideBy255(b &* a &+ bb &* ia)
            }
        }
        channels = 3
    }

    /// `value / 255` rounded to nearest, exact for `value` in 0...65025.
    @inline(__always)
    package static func divideBy255(_ value: UInt32) -> UInt8 {
        let t = value &+ 128
        return UInt8(truncatingIfNeeded: (t &+ (t >> 8)) >> 8)
    }
}
