import Foundation
@testable import SlideshowKit
import Testing
import TestSupport

/// A PNG of 8-bit RGB pixels, one row.
private func rowPNG(_ colors: [RGBColor]) -> [UInt8] {
    SyntheticPNG.file(width: colors.count, height: 1, bitDepth: 8, colorType: 2,
                      rows: [colors.flatMap { [$0.red, $0.green, $0.blue] }])
}

private let red = RGBColor(red: 255, green: 0, blue: 0)
private let blue = RGBColor(red: 0, green: 0, blue: 255)

/// Whether two colours differ by at most `tolerance` in every channel.
private func near(_ a: RGBColor, _ b: RGBColor, _ tolerance: Int = 2) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}

@Suite("Images hardening: tiny photos at the largest sizes, the PNG decode-memory cap against a measured peak")
struct ImageHardeningTests {
    @Test("a 1x1 photo fills the largest frames, letterboxed or cropped (libswscale alone refuses the enlargement)",
          arguments: [(Size(width: 8192, height: 4320), ContentMode.aspectFill), (Size(width: 8192, height: 16), .aspectFill),
                      (Size(width: 16, height: 8192), .aspectFill), (Size(width: 8192, height: 16), .aspectFit)])
    func onePixel(size: Size, mode: ContentMode) throws {
        let buffer = try ImageManager().image(from: rowPNG([red]), targetSize: size, contentMode: mode, background: .black)
        #expect(buffer.size == size)
        let content = buffer.contentRect
        var wrong = 0
        for y in stride(from: 0, to: size.height, by: 7) {
            for x in stride(from: 0, to: size.width, by: 13) {
                let expected = content.contains(x: x, y: y) ? red : .black
                if !near(buffer[x, y], expected) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test("a pixel buffer's storage cannot be resized: its views are always width × height × 3 bytes, and writes through them show")
    func pixelViews() {
        var buffer = PixelBuffer(size: Size(width: 5, height: 3), filledWith: red)
        let count = buffer.withUnsafeMutableBufferPointer { pixels -> Int in
            pixels[(2 * 5 + 4) * 3 + 2] = 77
            return pixels.count
        }
        #expect(count == 5 * 3 * 3)
        #expect(buffer.withUnsafeBytes { $0.count } == 45 && buffer.pixels.count == 45)
        #expect(buffer[4, 2] == RGBColor(red: 255, green: 0, blue: 77))
        #expect(buffer[3, 2] == red)
    }

    @Test("a 2x1 photo letterboxed into 8192x4320: red on the left, blue on the right, black bars")
    func twoPixels() throws {
        let size = Size(width: 8192, height: 4320)
        let buffer = try ImageManager().image(from: rowPNG([red, blue]), targetSize: size, contentMode: .aspectFit, background: .black)
        let content = buffer.contentRect
        #expect(content == Rect(x: 0, y: 112, width: 8192, height: 4096))
        for y in stride(from: content.y, to: content.maxY, by: 97) {
            #expect(near(buffer[0, y], red, 8) && near(buffer[8191, y], blue, 8), "row \(y): \(buffer[0, y]) … \(buffer[8191, y])")
            let middle = buffer[4096, y]
            #expect(middle.red > 40 && middle.blue > 40 && middle.green < 8, "row \(y): \(middle)")
        }
        #expect(buffer[0, 0] == .black && buffer[8191, 4319] == .black)
        let filled = try ImageManager().image(from: rowPNG([red, blue]), targetSize: size, contentMode: .aspectFill, background: .black)
        #expect(filled.contentRect == Rect(size))
    }

    @Test("the PNG decode-memory estimate counts every buffer the decode holds at once: a render's measured peak stays within it",
          .timeLimit(.minutes(2)))
    func pngPeakWithinEstimate() throws {
        guard let ffmpeg = which("ffmpeg") else { throw ProbeError.noFFprobe }
        let folder = try TemporaryFolder()
        let tool = try TestEnvironment.builtTool("slideshow").get()
        // A 4000x4000 RGBA PNG (flat colour, so the file is small and its decode is all frame and copies).
        let big = folder.path("big.png"), tiny = folder.path("tiny.png")
        for (path, side) in [(big, 4000), (tiny, 16)] {
            let made = try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "color=c=0x336699@0.5:s=\(side)x\(side),format=rgba",
                                        "-frames:v", "1", "-y", path])
            #expect(made.status == 0, "\(made.stderr)")
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: big)))
        let header = try PNGHeader(parsing: bytes, complete: true)
        #expect(header.size == Size(width: 4000, height: 4000) && header.colorType == 6)
        let estimate = header.decodeMemory(fileBytes: bytes.count)
        // About 8 bytes a pixel: the decoded frame and its RGBA conversion, composited in place.
        #expect(estimate > 16_000_000 * 8 && estimate < 16_000_000 * 8 + 2_000_000)

        func peak(_ photo: String) throws -> Int {
            let output = folder.path(UUID().uuidString + ".mp4")
            let measured = try runMeasuringMemory(tool, ["make", photo, "--size", "320x240", "--preset", "ultrafast", "-o", output, "--quiet"])
            #expect(measured.status == 0, "\(measured.stderr)")
            return measured.peakResidentBytes
        }
        let baseline = try peak(tiny)
        let decode = try peak(big) - baseline
        // Before, the alpha composite copied the RGBA image (12 bytes a pixel, 1.5 times the estimate).
        #expect(decode <= estimate + 8 << 20, "decode peak \(decode >> 20) MiB over the estimate \(estimate >> 20) MiB")
        #expect(decode >= estimate / 2, "decode peak \(decode >> 20) MiB: the measurement missed the decode (estimate \(estimate >> 20) MiB)")
    }
}
