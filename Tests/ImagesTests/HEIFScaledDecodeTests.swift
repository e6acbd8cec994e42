import Foundation
import Synchronization
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowColor
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowPixels

/// A slide's HEIF/AVIF is resampled from libheif's planar RGB and interleaved in one
/// libswscale pass, then colour-converted at the slide's size. These tests hold it against the
/// exact path (libheif's RGB at the photo's own size, colour-converted there, then resampled).
@Suite("HEIF decoded straight to a slide's size", .enabled(if: haveSharedMedia, noSharedMedia))
struct HEIFScaledDecodeTests {
    /// The 8-bit files without alpha, which take the scaled path, and their displayed sizes.
    static let files: [(String, Size)] = [
        ("heic_iphone8plus_grid_irot270_exif6_arrow.heic", Size(width: 3024, height: 4032)),
        ("heic_samsung_s24fe_grid_exif6_no_irot.heic", Size(width: 4000, height: 1848)),
        ("heic_iphonexr_grid_landscape.heic", Size(width: 4032, height: 3024)),
        ("avif_fox_8bit_420.avif", Size(width: 1204, height: 800)),
        ("avif_kimono_irot270.avif", Size(width: 722, height: 1024)),
    ]

    /// The exact path's pixels at `size`: full-size RGB from libheif, sRGB there, then Lanczos.
    static func reference(_ bytes: [UInt8], format: String, size: Size) throws -> RGBImage {
        let picture = try HEIFDecoder(bytes, formatName: format).decode()
        let converted = ColorManagement.convert(picture.image, from: picture.color, input: .rgb, warn: { _ in })
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3 + ImageLimits.rowPadding)
        try converted.pixels.withUnsafeBufferPointer { source in
            try pixels.withUnsafeMutableBufferPointer { destination in
                try PhotoResampler.resample(source.baseAddress!, size: converted.size, stride: converted.rowBytes,
                                            into: destination.baseAddress!, size: size, stride: size.width * 3)
            }
        }
        return RGBImage(width: size.width, height: size.height, channels: 3, pixels: pixels)
    }

    @Test("decodes at the fitted size, and matches the exact path: mean difference ≤ 0.5, 99% within 2 levels", arguments: files)
    func matchesExactPath(_ name: String, _ displayed: Size) throws {
        let bytes = try PhotoFile.read(media(name)).bytes
        try Self.matchExactPath(bytes, format: name.hasSuffix(".avif") ? "AVIF" : "HEIF", displayed: displayed, name: name)
    }

    /// Decodes `bytes` for a 320x240 slide and holds it against the exact path.
    static func matchExactPath(_ bytes: [UInt8], format: String, displayed: Size, name: String) throws {
        let target = Size(width: 320, height: 240)
        let fitted = FitGeometry(source: displayed, target: target, mode: .aspectFit).fittedSize
        let decoder = try HEIFDecoder(bytes, formatName: format)
        let scaled = try #require(try decoder.decodeScaled(to: fitted, displayed: displayed))
        #expect(scaled.image.size == fitted)
        let (image, _) = try ImageManager().decodeOriented(bytes, target: target, mode: .aspectFit, background: .black)
        #expect(image.size == fitted)

        let exact = try Self.reference(bytes, format: format, size: fitted)
        let count = fitted.width * fitted.height * 3
        var total = 0, within1 = 0, within2 = 0, largest = 0
        for index in 0..<count {
            let difference = abs(Int(image.pixels[index]) - Int(exact.pixels[index]))
            total += difference
            if difference <= 1 { within1 += 1 }
            if difference <= 2 { within2 += 1 }
            largest = max(largest, difference)
        }
        let mean = Double(total) / Double(count)
        let share1 = Double(within1) / Double(count), share2 = Double(within2) / Double(count)
        print("\(name) at \(fitted): mean \(mean), within 1: \(share1), within 2: \(share2), largest \(largest)")
        #expect(mean <= 0.5, "mean difference \(mean)")
        #expect(share2 >= 0.99, "within 2 levels: \(share2)")
    }

    @Test("an item turned by irot alone is resampled as stored and turned after; a mirrored one keeps libheif's transformations")
    func turnedAfterResampling() throws {
        let arrow = try PhotoFile.read(media("heic_iphone8plus_grid_irot270_exif6_arrow.heic")).bytes
        let kimono = try PhotoFile.read(media("avif_kimono_irot270.avif")).bytes
        #expect(HEIFBoxes.primaryTransformations(arrow) == ["irot"])
        #expect(HEIFBoxes.primaryTransformations(kimono) == ["irot"])
        // The XR's landscape has an irot of 0 (nothing to turn), the Samsung photo none at all.
        #expect(HEIFBoxes.primaryTransformations(try PhotoFile.read(media("heic_iphonexr_grid_landscape.heic")).bytes) == ["irot"])
        #expect(HEIFBoxes.primaryRotation(try PhotoFile.read(media("heic_iphonexr_grid_landscape.heic")).bytes) == 0)
        #expect(HEIFBoxes.primaryTransformations(try PhotoFile.read(media("heic_samsung_s24fe_grid_exif6_no_irot.heic")).bytes) == [])
        // The kimono with its irot box renamed imir (the payload, 3, reads as a mirror's axis 1).
        var mirrored = kimono
        let irot = try #require(firstIndex(of: Array("irot".utf8), in: mirrored))
        mirrored.replaceSubrange(irot..<irot + 4, with: Array("imir".utf8))
        #expect(HEIFBoxes.primaryTransformations(mirrored) == ["imir"])
        let decoder = try HEIFDecoder(mirrored, formatName: "AVIF")
        #expect(decoder.displayedSize == Size(width: 1024, height: 722))
        try Self.matchExactPath(mirrored, format: "AVIF", displayed: decoder.displayedSize, name: "the mirrored kimono")
    }

    @Test("the sliced resampler's output, on 1 to 3 threads, is the one-pass resampler's, byte for byte")
    func slicedResampler() throws {
        let source = Size(width: 997, height: 741), target = Size(width: 301, height: 223)
        // Three planes (G, B, R) of pseudo-random samples with some smooth structure.
        var state: UInt32 = 12345
        let planes: [[UInt8]] = (0..<3).map { plane in
            (0..<source.width * source.height + 64).map { index in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: (index % source.width) / 4 + plane * 40 + Int(state >> 28))
            }
        }
        func scaled(_ body: ([UnsafePointer<UInt8>?], [Int32], UnsafeMutablePointer<UInt8>) throws -> Void) throws -> [UInt8] {
            var output = [UInt8](repeating: 0, count: target.width * target.height * 3)
            try planes[0].withUnsafeBufferPointer { g in
                try planes[1].withUnsafeBufferPointer { b in
                    try planes[2].withUnsafeBufferPointer { r in
                        try output.withUnsafeMutableBufferPointer { out in
                            try body([g.baseAddress, b.baseAddress, r.baseAddress, nil], [Int32(source.width), Int32(source.width), Int32(source.width), 0],
                                     out.baseAddress!)
                        }
                    }
                }
            }
            return output
        }
        let onePass = try scaled { planes, strides, out in
            try PhotoResampler(from: source, format: SlicedResampler.planarRGB, to: target).scale(planes: planes, strides: strides, into: out, stride: target.width * 3)
        }
        #expect(Set(onePass).count > 100)
        for threads in 1...3 {
            let sliced = try scaled { planes, strides, out in
                try SlicedResampler(from: source, format: SlicedResampler.planarRGB, to: target, threads: threads)
                    .scale(planes: planes, strides: strides, into: out, stride: target.width * 3)
            }
            #expect(sliced == onePass, "\(threads) threads")
        }
    }

    @Test("a 10-bit file, or a slide no smaller than the photo, takes the exact path")
    func exactPathKept() throws {
        let deep = try PhotoFile.read(media("avif_hato_10bit_420.avif")).bytes
        let decoder = try HEIFDecoder(deep, formatName: "AVIF")
        #expect(try decoder.decodeScaled(to: Size(width: 300, height: 200), displayed: decoder.displayedSize) == nil)
        // At the photo's own size the pixels are libheif's RGB, converted: the exact path.
        let bytes = try PhotoFile.read(media("avif_fox_8bit_420.avif")).bytes
        let (image, _) = try ImageManager().decodeOriented(bytes, target: Size(width: 1204, height: 800), mode: .aspectFit,
                                                           background: .black)
        let picture = try HEIFDecoder(bytes, formatName: "AVIF").decode()
        let exact = ColorManagement.convert(picture.image, from: picture.color, input: .rgb, warn: { _ in })
        #expect(image.size == Size(width: 1204, height: 800))
        #expect(image.pixels[0..<1204 * 800 * 3] == exact.pixels[0..<1204 * 800 * 3])
    }
}

@Suite("Decode memory budget")
struct DecodeMemoryBudgetTests {
    /// Runs two bodies on two threads, each holding `cost`, and reports whether they overlapped.
    static func overlapped(budget: Int, cost: Int) -> Bool {
        let budget = DecodeMemoryBudget(bytes: budget)
        let peak = Mutex(0), running = Mutex(0)
        // Two threads of their own (a dispatch pool may run both bodies on one).
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            Thread {
                budget.withBudget(cost) {
                    let now = running.withLock { $0 += 1; return $0 }
                    peak.withLock { $0 = max($0, now) }
                    Thread.sleep(forTimeInterval: 0.2)
                    running.withLock { $0 -= 1 }
                }
                done.signal()
            }.start()
        }
        done.wait()
        done.wait()
        #expect(budget.inFlight == 0)
        return peak.withLock { $0 } == 2
    }

    @Test("two decodes that fit together run together; two that do not run one after the other; one over the budget still runs")
    func limits() {
        #expect(Self.overlapped(budget: 100, cost: 50))
        #expect(!Self.overlapped(budget: 100, cost: 60))
        #expect(!Self.overlapped(budget: 100, cost: 500))
    }

    @Test("a 12 MP 8-bit photo takes the whole shared budget's share: a second waits")
    func sharedBudget() {
        let cost = DecodeMemoryBudget.estimate(pixels: 4032 * 3024, deep: false)
        #expect(cost <= DecodeMemoryBudget.shared.bytes)
        #expect(2 * cost > DecodeMemoryBudget.shared.bytes)
    }
}
