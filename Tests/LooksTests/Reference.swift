import Foundation
import Testing
@testable import SlideshowKit
import SlideshowLooks
import SlideshowPixels

/// A film look computed the slow, obvious way: per pixel, in `Double`, with `pow`, exactly as
/// FILTERS.md writes it. The fast tables in `FilmLookTables` are checked against this.
struct ReferenceFilm: Sendable, CustomTestStringConvertible {
    var label: String
    var exposure: Double
    var contrast: Double
    var gamma: Double
    var monochrome: Bool
    var violetShadows: Bool
    var maskBrightness: Double
    var maskContrast: Double
    var maskSaturation: Double

    var testDescription: String { label }

    /// FILTERS.md's minimal-life.
    static let minimalLife = ReferenceFilm(
        label: "minimal-life", exposure: 0.03, contrast: 0.75, gamma: 2.0, monochrome: true, violetShadows: false,
        maskBrightness: 0.6, maskContrast: 0.9, maskSaturation: 1.8)

    /// FILTERS.md's tumble-down, with the kernel parameters the project chose.
    static let tumbleDown = ReferenceFilm(
        label: "tumble-down", exposure: 0.02, contrast: 0.85, gamma: 1.1, monochrome: false, violetShadows: true,
        maskBrightness: 0.65, maskContrast: 1.13, maskSaturation: 1.27)

    /// Looks a user might make, to reach the paths the built-ins do not: a monochrome look with
    /// violet shadows, a contrast above 1 (negative values before the `pow`) and a gamma below 1,
    /// and a colour look without violet.
    static let custom: [ReferenceFilm] = [
        ReferenceFilm(
            label: "custom mono violet", exposure: -0.05, contrast: 1.3, gamma: 0.6, monochrome: true, violetShadows: true,
            maskBrightness: 0.2, maskContrast: 1.5, maskSaturation: 0.5),
        ReferenceFilm(
            label: "custom colour", exposure: 0.1, contrast: 1.2, gamma: 0.8, monochrome: false, violetShadows: false,
            maskBrightness: 0.0, maskContrast: 1.0, maskSaturation: 1.0),
    ]

    /// The fast look with the same parameters.
    var look: FilmLook {
        FilmLook(
            name: label, exposure: exposure, contrast: contrast, gamma: gamma,
            monochrome: monochrome, violetShadows: violetShadows,
            grain: FilmLook.GrainMask(brightness: maskBrightness, contrast: maskContrast, saturation: maskSaturation))
    }

    /// The kernel result K of a pixel, each channel in [0, 1] units.
    func kernel(_ color: RGBColor) -> (r: Double, g: Double, b: Double) {
        func lift(_ c: UInt8) -> Double { min(max(Double(c) / 255 + exposure, 0), 1) }
        func tone(_ v: Double) -> Double { pow(max((v - 0.5) * contrast + 0.5, 0), gamma) }
        let r = lift(color.red), g = lift(color.green), b = lift(color.blue)
        var k: (r: Double, g: Double, b: Double)
        if monochrome {
            let grey = tone(0.299 * r + 0.587 * g + 0.114 * b)
            k = (grey, grey, grey)
        } else {
            k = (tone(r), tone(g), tone(b))
        }
        if violetShadows, Self.luma(k) < 0.3 {
            k = (k.r + 0.0077, k.g + 0.00268, k.b + 0.03215)
        }
        return k
    }

    static func luma(_ c: (r: Double, g: Double, b: Double)) -> Double {
        0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b
    }

    /// The grain mask's value m at a pixel position.
    func mask(slideIndex: Int, x: Int, y: Int) -> Double {
        let u = FilmGrain.uniforms(slideIndex: slideIndex, x: x, y: y)
        let l = Self.luma((u.red, u.green, u.blue))
        var green = l + (u.green - l) * maskSaturation   // saturation
        green += maskBrightness                           // brightness
        green = (green - 0.5) * maskContrast + 0.5        // contrast
        return min(max(green, 0), 1)
    }

    /// The output pixel.
    func apply(_ color: RGBColor, slideIndex: Int, x: Int, y: Int) -> RGBColor {
        let k = kernel(color)
        let background = Self.luma((Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255))
        let m = mask(slideIndex: slideIndex, x: x, y: y)
        func out(_ k: Double) -> UInt8 {
            UInt8((min(max(background + (k - background) * m, 0), 1) * 255).rounded())
        }
        return RGBColor(red: out(k.r), green: out(k.g), blue: out(k.b))
    }

    /// The whole buffer through the reference, inside the content rectangle only.
    func apply(to buffer: PixelBuffer, slideIndex: Int) -> PixelBuffer {
        var result = buffer
        let rect = buffer.contentRect
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                result[x, y] = apply(buffer[x, y], slideIndex: slideIndex, x: x, y: y)
            }
        }
        return result
    }
}

/// Test images, small so that the debug-built tests stay quick.
enum TestImages {
    /// Every grey level, one per column, repeated on `rows` rows (so each level meets
    /// several grain values).
    static func greyLevels(rows: Int = 4) -> PixelBuffer {
        var buffer = PixelBuffer(size: Size(width: 256, height: rows))
        for y in 0..<rows {
            for x in 0..<256 { buffer[x, y] = RGBColor(red: UInt8(x), green: UInt8(x), blue: UInt8(x)) }
        }
        return buffer
    }

    /// Every 15th level of each channel (0, 15, …, 255: 17³ = 4913 colours), each colour at
    /// `repeats` positions: 289 × (17 · repeats) pixels.
    static func colorGrid(repeats: Int = 3) -> PixelBuffer {
        var buffer = PixelBuffer(size: Size(width: 17 * 17, height: 17 * repeats))
        for y in 0..<(17 * repeats) {
            for x in 0..<(17 * 17) {
                buffer[x, y] = RGBColor(red: UInt8(15 * (y % 17)), green: UInt8(15 * (x / 17)), blue: UInt8(15 * (x % 17)))
            }
        }
        return buffer
    }

    /// A 64x48 slide: a colour gradient in a 48x40 content rectangle at (8, 4), the rest a
    /// bar colour that is not black.
    static func letterboxed(bar: RGBColor = RGBColor(red: 0x20, green: 0x40, blue: 0x60)) -> PixelBuffer {
        var buffer = PixelBuffer(size: Size(width: 64, height: 48), filledWith: bar)
        buffer.contentRect = Rect(x: 8, y: 4, width: 48, height: 40)
        for y in 4..<44 {
            for x in 8..<56 {
                buffer[x, y] = RGBColor(red: UInt8((x - 8) * 5), green: UInt8((y - 4) * 6), blue: UInt8((x + y) * 2))
            }
        }
        return buffer
    }

    /// The largest difference between two buffers' bytes, and where (x, y, channel) it is.
    static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> (difference: Int, x: Int, y: Int, channel: Int) {
        var worst = (difference: 0, x: 0, y: 0, channel: 0)
        for offset in a.pixels.indices {
            let d = abs(Int(a.pixels[offset]) - Int(b.pixels[offset]))
            if d > worst.difference {
                let pixel = offset / 3
                worst = (d, pixel % a.width, pixel / a.width, offset % 3)
            }
        }
        return worst
    }
}

extension FilmGrain {
    /// The three uniform random numbers in [0, 1] of one pixel, in the clear (for the reference
    /// code and tests; the looks' row loops use the samples directly).
    static func uniforms(slideIndex: Int, x: Int, y: Int) -> (red: Double, green: Double, blue: Double) {
        let s = samples(bits(slideIndex: slideIndex, x: x, y: y))
        let scale = Double(sampleMaximum)
        return (Double(s.red) / scale, Double(s.green) / scale, Double(s.blue) / scale)
    }
}
