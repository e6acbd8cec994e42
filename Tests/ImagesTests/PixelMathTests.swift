import Testing
@testable import SlideshowKit
import SlideshowPixels

@Suite("Pixel maths: orientation transforms, CMYK, alpha")
struct PixelMathTests {
    /// An image whose every pixel is distinct: (x, y, x ^ y) in its three bytes.
    static func numbered(_ width: Int, _ height: Int) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { pixels += [UInt8(x & 0xFF), UInt8(y & 0xFF), UInt8((x * 7 + y * 13) & 0xFF)] }
        }
        return RGBImage(width: width, height: height, channels: 3, pixels: pixels + [UInt8](repeating: 0, count: 64))
    }

    /// Where the EXIF specification sends a stored pixel (x, y) of a W x H image, written
    /// independently of the implementation (which maps the other way).
    static func displayed(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ orientation: Orientation) -> (Int, Int) {
        switch orientation {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)              // mirror horizontally
        case .down: return (w - 1 - x, h - 1 - y)            // rotate 180°
        case .downMirrored: return (x, h - 1 - y)            // mirror vertically
        case .leftMirrored: return (y, x)                    // transpose
        case .right: return (h - 1 - y, x)                   // rotate 90° clockwise
        case .rightMirrored: return (h - 1 - y, w - 1 - x)   // transverse
        case .left: return (y, w - 1 - x)                    // rotate 90° counter-clockwise
        }
    }

    // Sizes below, at and across the 32-pixel tile, odd and even.
    @Test("orientation transforms match the EXIF definitions", arguments: Orientation.allCases,
          [Size(width: 1, height: 1), Size(width: 2, height: 1), Size(width: 5, height: 3), Size(width: 32, height: 32),
           Size(width: 33, height: 70), Size(width: 97, height: 41)])
    func orientationTransform(_ orientation: Orientation, _ size: Size) {
        let source = Self.numbered(size.width, size.height)
        let result = source.oriented(orientation)
        let expectedSize = orientation.displayedSize(of: size)
        #expect(result.width == expectedSize.width && result.height == expectedSize.height)
        var mismatches = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let (dx, dy) = Self.displayed(x, y, size.width, size.height, orientation)
                let from = (y * size.width + x) * 3, to = (dy * result.width + dx) * 3
                if result.pixels[to..<to + 3] != source.pixels[from..<from + 3] { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) pixels misplaced")
        #expect(result.pixels.count >= result.width * result.height * 3 + ImageLimits.rowPadding)
    }

    @Test("turning and turning back is the identity")
    func inverses() {
        let source = Self.numbered(37, 19)
        let pairs: [(Orientation, Orientation)] = [(.right, .left), (.left, .right), (.down, .down), (.upMirrored, .upMirrored),
                                                   (.downMirrored, .downMirrored), (.leftMirrored, .leftMirrored),
                                                   (.rightMirrored, .rightMirrored)]
        for (first, second) in pairs {
            let back = source.oriented(first).oriented(second)
            #expect(back.width == 37 && back.height == 19)
            #expect(back.pixels[0..<37 * 19 * 3] == source.pixels[0..<37 * 19 * 3], "\(first) then \(second)")
        }
    }

    @Test("division by 255 rounds exactly, for every product of two bytes")
    func divideBy255() {
        for value in 0...(255 * 255) {
            let expected = UInt8((Double(value) / 255).rounded())
            if RGBImage.divideBy255(UInt32(value)) != expected {
                Issue.record("\(value) / 255 gave \(RGBImage.divideBy255(UInt32(value))), not \(expected)")
                return
            }
        }
    }

    @Test("alpha compositing against a floating-point reference, every value and alpha", arguments: [UInt8(0), 77, 255])
    func alphaCompositing(_ background: UInt8) {
        // All 65536 (value, alpha) pairs as one 256x256 RGBA image; the value in all three channels.
        var pixels: [UInt8] = []
        pixels.reserveCapacity(65536 * 4 + 64)
        for alpha in 0...255 { for value in 0...255 { pixels += [UInt8(value), UInt8(value), UInt8(value), UInt8(alpha)] } }
        let image = RGBImage(width: 256, height: 256, channels: 4, pixels: pixels + [UInt8](repeating: 0, count: 64))
        let result = image.compositedOver(RGBColor(red: background, green: background, blue: background))
        #expect(result.channels == 3)
        var wrong = 0
        for alpha in 0...255 {
            for value in 0...255 {
                let a = Double(alpha) / 255
                let expected = (Double(value) * a + Double(background) * (1 - a)).rounded()
                let got = result.pixels[(alpha * 256 + value) * 3]
                if abs(Double(got) - expected) > 0.5 { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test("CMYK to RGB against a floating-point reference", arguments: [true, false])
    func cmyk(_ inverted: Bool) {
        // Every (C, K) pair in the first channel, with M and Y fixed, as one 256x256 CMYK image.
        var pixels: [UInt8] = []
        for k in 0...255 { for c in 0...255 { pixels += [UInt8(c), 40, 200, UInt8(k)] } }
        let image = RGBImage(width: 256, height: 256, channels: 4, pixels: pixels + [UInt8](repeating: 0, count: 64))
        let result = image.rgbFromCMYK(inverted: inverted)
        var wrong = 0
        for k in 0...255 {
            for c in 0...255 {
                func reference(_ ink: Int) -> UInt8 {
                    let (i, kk) = inverted ? (Double(ink), Double(k)) : (255 - Double(ink), 255 - Double(k))
                    return UInt8((i * kk / 255).rounded())
                }
                let offset = (k * 256 + c) * 3
                if result.pixels[offset] != reference(c) || result.pixels[offset + 1] != reference(40)
                    || result.pixels[offset + 2] != reference(200) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }
}
