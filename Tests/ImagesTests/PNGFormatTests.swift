import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowPixels

/// One PNG colour type and bit depth, with the RGBA (0...1) each pixel should show.
struct PNGCase: Sendable, CustomTestStringConvertible {
    var label: String
    var file: [UInt8]
    var width: Int
    var height: Int
    /// Straight RGBA per pixel, each in 0...1.
    var expected: [[Double]]
    var testDescription: String { label }
}

@Suite("PNG colour types and bit depths")
struct PNGFormatTests {
    static let width = 16, height = 4

    /// Samples that vary across the image: channel c of pixel (x, y), 16-bit.
    static func sample(_ x: Int, _ y: Int, _ c: Int) -> Int {
        (x * 4099 + y * 16411 + c * 21_845) & 0xFFFF
    }

    static let cases: [PNGCase] = {
        var cases: [PNGCase] = []
        let (w, h) = (width, height)
        func add(_ label: String, depth: Int, type: Int, channels: Int, palette: [UInt8]? = nil, transparency: [UInt8]? = nil,
                 rowBytes: (Int) -> [UInt8], expected: (Int, Int) -> [Double]) {
            let rows = (0..<h).map(rowBytes)
            var pixels: [[Double]] = []
            for y in 0..<h { for x in 0..<w { pixels.append(expected(x, y)) } }
            cases.append(PNGCase(label: label, file: SyntheticPNG.file(width: w, height: h, bitDepth: depth, colorType: type,
                                                                      rows: rows, palette: palette, transparency: transparency),
                                 width: w, height: h, expected: pixels))
        }
        func s8(_ x: Int, _ y: Int, _ c: Int) -> UInt8 { UInt8(sample(x, y, c) >> 8) }
        for (type, channels, name) in [(0, 1, "grey"), (2, 3, "RGB"), (4, 2, "grey+alpha"), (6, 4, "RGBA")] {
            add("\(name) 8-bit", depth: 8, type: type, channels: channels, rowBytes: { y in
                (0..<w).flatMap { x in (0..<channels).map { s8(x, y, $0) } }
            }, expected: { x, y in
                let v = (0..<channels).map { Double(s8(x, y, $0)) / 255 }
                switch channels {
                case 1: return [v[0], v[0], v[0], 1]
                case 2: return [v[0], v[0], v[0], v[1]]
                case 3: return v + [1]
                default: return v
                }
            })
            add("\(name) 16-bit", depth: 16, type: type, channels: channels, rowBytes: { y in
                (0..<w).flatMap { x in (0..<channels).flatMap { [UInt8(sample(x, y, $0) >> 8), UInt8(sample(x, y, $0) & 0xFF)] } }
            }, expected: { x, y in
                let v = (0..<channels).map { Double(sample(x, y, $0)) / 65535 }
                switch channels {
                case 1: return [v[0], v[0], v[0], 1]
                case 2: return [v[0], v[0], v[0], v[1]]
                case 3: return v + [1]
                default: return v
                }
            })
        }
        // Palette of 16 colours, with and without tRNS alpha.
        var palette: [UInt8] = []
        var alphas: [UInt8] = []
        for index in 0..<16 {
            let red = UInt8(index * 17), green = UInt8(255 - index * 13), blue = UInt8((index * 53) & 0xFF)
            palette += [red, green, blue]
            alphas.append(index == 15 ? 255 : UInt8(index * 16))
        }
        for withAlpha in [false, true] {
            add(withAlpha ? "palette + tRNS" : "palette", depth: 8, type: 3, channels: 1, palette: palette,
                transparency: withAlpha ? alphas : nil, rowBytes: { y in (0..<w).map { x in UInt8((x + y * 3) % 16) } },
                expected: { x, y in
                    let i = (x + y * 3) % 16
                    let alpha: Double = withAlpha ? Double(alphas[i]) / 255 : 1
                    let red = Double(palette[i * 3]) / 255, green = Double(palette[i * 3 + 1]) / 255
                    let blue = Double(palette[i * 3 + 2]) / 255
                    return [red, green, blue, alpha]
                })
        }
        // 1-bit grey: a checkerboard.
        add("grey 1-bit", depth: 1, type: 0, channels: 1, rowBytes: { y in
            [UInt8(y % 2 == 0 ? 0b1010_1010 : 0b0101_0101), UInt8(y % 2 == 0 ? 0b1010_1010 : 0b0101_0101)]
        }, expected: { x, y in
            let level: Double = (x + y) % 2 == 0 ? 1 : 0
            return [level, level, level, 1]
        })
        return cases
    }()

    @Test("decodes and composites like the PNG specification says", arguments: cases)
    func decodes(_ example: PNGCase) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("image.png")
        try Data(example.file).write(to: URL(fileURLWithPath: path))
        let background = RGBColor(red: 30, green: 144, blue: 255)
        let info = try ImageManager().inspect(Photo(path: path))
        #expect(info == PhotoInfo(format: .png, storedSize: Size(width: example.width, height: example.height), orientation: .up))
        let buffer = try ImageManager().requestImage(for: Photo(path: path), targetSize: Size(width: example.width, height: example.height),
                                                     contentMode: .aspectFit, background: background)
        let under = [background.red, background.green, background.blue].map { Double($0) / 255 }
        var worst = 0.0
        for (index, rgba) in example.expected.enumerated() {
            for channel in 0..<3 {
                let expected = (rgba[channel] * rgba[3] + under[channel] * (1 - rgba[3])) * 255
                worst = max(worst, abs(Double(buffer.pixels[index * 3 + channel]) - expected))
            }
        }
        // 8-bit data lands within rounding. 16-bit colour and alpha are each reduced to 8 bits
        // before compositing, and those errors add up: up to 2 levels.
        let tolerance = example.label.contains("16-bit") ? 2.0 : 1.0
        #expect(worst <= tolerance, "worst difference \(worst) levels")
    }
}
