import Foundation
@testable import SlideshowKit
import Testing
import TestSupport
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels
import SlideshowSupport

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

    // MARK: issue 31: PNG text chunks

    @Test("libavcodec is given the PNG without its text chunks, nor an iCCP profile that inflates past 16 MiB; the pixels are the same")
    func textChunksNeverReachLibavcodec() throws {
        let plain = rowPNG([red, blue])
        let text = SyntheticPNG.chunk("tEXt", Array("Comment".utf8) + [0] + Array("hello".utf8))
        let compressed = SyntheticPNG.chunk("zTXt", Array("Comment".utf8) + [0, 0] + SyntheticPNG.zlibZeros(runs: 100))
        let international = SyntheticPNG.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0] + SyntheticPNG.zlibZeros(runs: 10))
        // A profile of 17 MB of zeros (over the cap) and a small one (not a real profile: libavcodec passes its bytes on).
        let bomb = SyntheticPNG.chunk("iCCP", Array("ICC".utf8) + [0, 0] + SyntheticPNG.zlibZeros(runs: 17 << 20 / 258))
        let small = SyntheticPNG.chunk("iCCP", Array("ICC".utf8) + [0, 0] + SyntheticPNG.zlibStored([1, 2, 3]))
        let hostile = SyntheticPNG.inserting(text + compressed + international + bomb, into: plain)
        let kept = PNGDecoder.decoderRanges(hostile).flatMap { hostile[$0] }
        #expect(kept == plain)
        let withProfile = SyntheticPNG.inserting(small + text, into: plain)
        #expect(PNGDecoder.decoderRanges(withProfile).flatMap { withProfile[$0] } == SyntheticPNG.inserting(small, into: plain))
        // Text after the image data goes too; a damaged tail is left for libavcodec to refuse.
        let trailing = Array(plain.dropLast(12)) + text + Array(plain.suffix(12))
        #expect(PNGDecoder.decoderRanges(trailing).flatMap { trailing[$0] } == plain)
        let cut = Array(hostile.prefix(40))
        #expect(PNGDecoder.decoderRanges(cut).flatMap { cut[$0] } == cut)
        // The same pixels, through the whole decode.
        let size = Size(width: 2, height: 2)
        let a = try ImageManager().image(from: plain, targetSize: size, contentMode: .aspectFill, background: .black)
        let b = try ImageManager().image(from: hostile, targetSize: size, contentMode: .aspectFill, background: .black)
        #expect(a.pixels == b.pixels)
    }

    @Test("a PNG whose zTXt chunk inflates to 258 MB renders at the peak of the same PNG without it (it was 2.2 GB for 1 GB)",
          .timeLimit(.minutes(2)))
    func zTXtBomb() throws {
        let folder = try TemporaryFolder()
        let tool = try TestEnvironment.builtTool("slideshow").get()
        let plain = rowPNG([red, blue])
        let bomb = SyntheticPNG.inserting(SyntheticPNG.bigChunk("zTXt", Array("Comment".utf8) + [0, 0] + SyntheticPNG.zlibZeros(runs: 1 << 20)), into: plain)
        #expect(bomb.count < 2 << 20)
        try Data(plain).write(to: URL(fileURLWithPath: folder.path("plain.png")))
        try Data(bomb).write(to: URL(fileURLWithPath: folder.path("bomb.png")))
        func peak(_ photo: String) throws -> Int {
            let measured = try runMeasuringMemory(tool, ["make", folder.path(photo), "--size", "64x48", "--preset", "ultrafast",
                                                         "-o", folder.path(UUID().uuidString + ".mp4"), "--quiet"])
            #expect(measured.status == 0, "\(measured.stderr)")
            return measured.peakResidentBytes
        }
        let baseline = try peak("plain.png")
        let bombed = try peak("bomb.png")
        // The file is read (and held twice: the bytes and the packet) but never inflated.
        #expect(bombed - baseline < 24 << 20, "peak \(bombed >> 20) MiB against \(baseline >> 20) MiB")
    }

    @Test("of many compressed XMP chunks, only the first (the one kept) is inflated, once: by the header check, not by the decode")
    func manyXMPChunksInflateOnce() throws {
        let packet = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>".utf8)
        func xmpChunk(_ text: [UInt8]) -> [UInt8] {
            SyntheticPNG.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0] + SyntheticPNG.zlibStored(text))
        }
        let png = SyntheticPNG.inserting((0..<20).flatMap { _ in xmpChunk(packet) }, into: rowPNG([red, blue]))
        let folder = try TemporaryFolder()
        let path = folder.path("xmp.png")
        try Data(png).write(to: URL(fileURLWithPath: path))
        let probe = ReadProbe()
        try ReadProbe.$current.withValue(probe) {
            _ = try ImageManager().inspect(Photo(path: path))
            #expect(probe.inflations.load(ordering: .relaxed) == 1)
            _ = try ImageManager().image(from: png, targetSize: Size(width: 2, height: 2), contentMode: .aspectFill, background: .black)
            #expect(probe.inflations.load(ordering: .relaxed) == 1)
        }
        let header = try PNGHeader(parsing: png, complete: true)
        #expect(header.size == Size(width: 2, height: 1))
    }
}
