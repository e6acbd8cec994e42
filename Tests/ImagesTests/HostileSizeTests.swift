import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowPixels

/// A 512x512 RGB test picture as a PNG file.
private func testPNG(in folder: TemporaryFolder) throws -> String {
    let path = folder.path("in.png")
    let rows = (0..<512).map { y in (0..<512 * 3).map { UInt8(truncatingIfNeeded: $0 / 3 * 2 + y + $0 % 3 * 80) } }
    try Data(SyntheticPNG.file(width: 512, height: 512, bitDepth: 8, colorType: 2, rows: rows)).write(to: URL(fileURLWithPath: path))
    return path
}

/// `cwebp` of the test picture (lossless with `-lossless`), with its frame header rewritten
/// to say 16383x16383: a simple-format file (`RIFF`, `WEBP`, one `VP8 ` or `VP8L` chunk at byte 12).
private func lyingWebP(lossless: Bool, in folder: TemporaryFolder) throws -> String {
    let out = folder.path(lossless ? "lossless.webp" : "lossy.webp")
    let encoded = try run(which("cwebp")!, ["-quiet"] + (lossless ? ["-lossless"] : ["-q", "30"]) + [try testPNG(in: folder), "-o", out])
    #expect(encoded.status == 0, "\(encoded.stderr)")
    var bytes = try PhotoFile.read(out).bytes
    let payload = 20
    if lossless {
        // VP8L: signature 0x2F, then width − 1 and height − 1 in 14 bits each, least significant first.
        #expect(Array(bytes[12..<16]) == Array("VP8L".utf8) && bytes[payload] == 0x2F)
        var bits = UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
        bits = bits & ~UInt32(0x0FFF_FFFF) | 16382 | 16382 << 14
        for index in 0..<4 { bytes[21 + index] = UInt8(bits >> (8 * UInt32(index)) & 0xFF) }
    } else {
        // VP8: a 3-byte frame tag, the start code 9D 01 2A, then width and height in 14 bits each.
        #expect(Array(bytes[12..<16]) == Array("VP8 ".utf8) && Array(bytes[payload + 3..<payload + 6]) == [0x9D, 0x01, 0x2A])
        bytes.replaceSubrange(payload + 6..<payload + 10, with: [0xFF, 0x3F, 0xFF, 0x3F])
    }
    let path = folder.path(lossless ? "lying-lossless.webp" : "lying-lossy.webp")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// A 64x64 PNG (stored deflate, 12 KB of image data) whose IHDR says `width` x `height`.
private func lyingPNG(width: Int, height: Int, in folder: TemporaryFolder) throws -> String {
    let rows = (0..<64).map { y in (0..<64 * 3).map { UInt8(truncatingIfNeeded: $0 + y) } }
    var bytes = SyntheticPNG.file(width: 64, height: 64, bitDepth: 8, colorType: 2, rows: rows)
    let ihdr = SyntheticPNG.chunk("IHDR", SyntheticPNG.bigEndian(UInt32(width)) + SyntheticPNG.bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
    bytes.replaceSubrange(8..<8 + 25, with: ihdr)
    let path = folder.path("lying-\(width)x\(height).png")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// What rendering a photo file throws, in process.
private func refusal(_ path: String) -> PhotoError? {
    do {
        _ = try ImageManager().requestImage(for: Photo(path: path), targetSize: Size(width: 320, height: 240),
                                            contentMode: .aspectFit, background: .black)
        return nil
    } catch {
        return error
    }
}

/// The built tool's peak resident memory refusing a photo, and its one error line.
private func toolRefusal(_ path: String, in folder: TemporaryFolder) throws -> (peak: Int, stderr: String) {
    let tool = try TestEnvironment.builtTool("slideshow").get()
    let run = try runMeasuringMemory(tool, ["make", path, "--size", "320x240", "--quiet", "-o", folder.path("out.mp4")])
    #expect(run.status == 1, "\(run.stderr)")
    return (run.peakResidentBytes, run.stderr)
}

@Suite("Hostile sizes: WebP and PNG headers that claim more than their data holds")
struct HostileSizeTests {
    @Test("a lossy WebP whose VP8 header says 16383x16383 over 512x512 of data is refused as corrupt from its size, in under 200 MB",
          .enabled(if: which("cwebp") != nil, "skipped: cwebp (the webp package) is not installed"))
    func lossyWebP() throws {
        let folder = try TemporaryFolder()
        let path = try lyingWebP(lossless: false, in: folder)
        let error = try #require(refusal(path))
        #expect(error.kind == .corrupt && error.path == path)
        #expect(error.reason.hasPrefix("corrupt WebP data (its VP8 header says 16383x16383, but its "), "\(error.reason)")
        #expect(error.reason.hasSuffix("-byte first partition cannot hold 1048576 macroblocks)"), "\(error.reason)")
        // It held an 805 MB image (851 MB peak) before.
        let measured = try toolRefusal(path, in: folder)
        #expect(measured.peak < 200 << 20, "peak \(measured.peak >> 20) MiB")
        #expect(measured.stderr == "slideshow: \(path): \(error.reason)\n")
    }

    @Test("a lossless WebP whose header says 16383x16383 is refused without touching the image it would have filled",
          .enabled(if: which("cwebp") != nil, "skipped: cwebp (the webp package) is not installed"))
    func losslessWebP() throws {
        let folder = try TemporaryFolder()
        let path = try lyingWebP(lossless: true, in: folder)
        let error = try #require(refusal(path))
        #expect(error.kind == .corrupt || error.kind == .truncated, "\(error)")
        let measured = try toolRefusal(path, in: folder)
        #expect(measured.peak < 200 << 20, "peak \(measured.peak >> 20) MiB")
    }

    @Test("an honest lossy frame passes the size check: a solid grey 4096x4096 takes 3.4 bits a macroblock",
          .enabled(if: which("cwebp") != nil, "skipped: cwebp (the webp package) is not installed"))
    func honestWebP() throws {
        let folder = try TemporaryFolder()
        let rows = Array(repeating: [UInt8](repeating: 128, count: 4096), count: 4096)
        try Data(SyntheticPNG.file(width: 4096, height: 4096, bitDepth: 8, colorType: 0, rows: rows))
            .write(to: URL(fileURLWithPath: folder.path("grey.png")))
        let encoded = try run(which("cwebp")!, ["-quiet", "-q", "0", folder.path("grey.png"), "-o", folder.path("grey.webp")])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        try WebPHeader.checkLossyFrame(try PhotoFile.read(folder.path("grey.webp")).bytes)
        #expect(refusal(folder.path("grey.webp")) == nil)
    }

    @Test("a PNG whose IHDR says 11000x11000 over 12 KB of image data is refused as corrupt before its frame is allocated")
    func lyingPNGHeader() throws {
        let folder = try TemporaryFolder()
        let path = try lyingPNG(width: 11000, height: 11000, in: folder)
        let error = try #require(refusal(path))
        #expect(error.kind == .corrupt && error.path == path)
        #expect(error.reason == "corrupt PNG data (its IHDR says 11000x11000, 363000000 bytes of pixels, more than its 12363 bytes of image data can hold)")
        // Its 363 MB frame was allocated (420 MB peak) before libavcodec found the data short.
        let measured = try toolRefusal(path, in: folder)
        #expect(measured.peak < 200 << 20, "peak \(measured.peak >> 20) MiB")
        // Data that could hold the pixels (a 64x64 picture under a 100x100 header) is left to the decoder.
        #expect(!(refusal(try lyingPNG(width: 100, height: 100, in: folder))?.reason ?? "").hasPrefix("corrupt PNG data (its IHDR"))
    }

    /// The hostile photos of the fuzz corpus (Tests/Fuzz/seeds/photos, see Tests/Fuzz/run.sh).
    static let fuzzSeeds = ["self-grid.heic", "lying-ispe.heic", "lying-ispe.avif", "lying-vp8.webp", "lying-ihdr.png"]

    @Test("every hostile seed of the fuzz corpus is refused as corrupt, naming the reason", arguments: fuzzSeeds)
    func fuzzSeed(_ name: String) throws {
        let path = TestEnvironment.packageRoot.appendingPathComponent("Tests/Fuzz/seeds/photos").appendingPathComponent(name).path
        let error = try #require(refusal(path))
        let reasons = [
            "self-grid.heic": "corrupt HEIF data (its grid item 49 lists itself among its tiles)",
            "lying-ispe.heic": "corrupt HEIF data (item 1 holds a picture of 256x256 but its ispe says 16x16)",
            "lying-ispe.avif": "corrupt AVIF data (item 1 holds a picture of up to 256x256 but its ispe says 16x16)",
            "lying-vp8.webp": "corrupt WebP data (its VP8 header says 16383x16383, but its 460-byte first partition cannot hold 1048576 macroblocks)",
            "lying-ihdr.png": "corrupt PNG data (its IHDR says 11000x11000, 363000000 bytes of pixels, more than its 111 bytes of image data can hold)",
        ]
        #expect(error.kind == .corrupt)
        #expect(error.reason == reasons[name])
    }
}
