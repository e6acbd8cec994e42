import Testing
@testable import SlideshowKit
import SlideshowFraming
import SlideshowImages
import SlideshowPixels

@Suite("Resampling into the slide")
struct ResamplingTests {
    static let colours: [RGBColor] = [
        RGBColor(red: 255, green: 0, blue: 0), RGBColor(red: 0, green: 255, blue: 0), RGBColor(red: 0, green: 0, blue: 255),
        RGBColor(red: 255, green: 255, blue: 255), RGBColor(red: 0, green: 0, blue: 0), RGBColor(red: 255, green: 255, blue: 0),
    ]

    /// Vertical stripes of `colours`, each `stripe` pixels wide.
    static func stripes(_ colours: [RGBColor], stripe: Int, height: Int) -> RGBImage {
        let width = colours.count * stripe
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width {
                let colour = colours[x / stripe]
                pixels += [colour.red, colour.green, colour.blue]
            }
        }
        return RGBImage(width: width, height: height, channels: 3, pixels: pixels + [UInt8](repeating: 0, count: 64))
    }

    static func compose(_ image: RGBImage, _ target: Size, _ mode: ContentMode, background: RGBColor = .black) throws -> PixelBuffer {
        let geometry = FitGeometry(source: image.size, target: target, mode: mode)
        return try ImageManager.compose(image, geometry: geometry, target: target, mode: mode, background: background)
    }

    @Test("saturated colours survive Lanczos scaling up and down", arguments: [Size(width: 48, height: 16), Size(width: 288, height: 96)])
    func saturatedColours(_ target: Size) throws {
        let image = Self.stripes(Self.colours, stripe: 16, height: 32)  // 96x32
        let buffer = try Self.compose(image, target, .aspectFit)
        #expect(buffer.contentRect == Rect(target))
        let stripe = target.width / Self.colours.count
        for (index, colour) in Self.colours.enumerated() {
            let got = buffer[index * stripe + stripe / 2, target.height / 2]
            let error = max(abs(Int(got.red) - Int(colour.red)), abs(Int(got.green) - Int(colour.green)), abs(Int(got.blue) - Int(colour.blue)))
            #expect(error <= 2, "\(colour) came out \(got)")
        }
    }

    @Test("aspectFill crops the centre by offsetting the source; same size copies exactly")
    func fillCrop() throws {
        // 120x60: red 0..<40, green 40..<80, blue 80..<120. The 60x60 centre is x 30..<90.
        let image = Self.stripes(Array(Self.colours[0..<3]), stripe: 40, height: 60)
        let buffer = try Self.compose(image, Size(width: 60, height: 60), .aspectFill)
        #expect(buffer.contentRect == Rect(x: 0, y: 0, width: 60, height: 60))
        for y in [0, 30, 59] {
            for x in 0..<60 {
                let expected = x < 10 ? Self.colours[0] : x < 50 ? Self.colours[1] : Self.colours[2]
                #expect(buffer[x, y] == expected, "(\(x), \(y))")
            }
        }
        // Same size, fit: a plain copy, bit for bit.
        let copy = try Self.compose(image, Size(width: 120, height: 60), .aspectFit)
        #expect(copy.pixels == Array(image.pixels[0..<(120 * 60 * 3)]))
    }

    @Test("scaling into the content rectangle leaves the bars alone")
    func barsUntouched() throws {
        let image = Self.stripes(Self.colours, stripe: 10, height: 20)  // 60x20, 3:1
        let grey = RGBColor(red: 128, green: 128, blue: 128)
        for target in [Size(width: 100, height: 100), Size(width: 101, height: 99), Size(width: 30, height: 200)] {
            let buffer = try Self.compose(image, target, .aspectFit, background: grey)
            #expect(barsAre(grey, in: buffer, outside: buffer.contentRect), "\(target)")
            #expect(buffer.size == target)
        }
    }
}
