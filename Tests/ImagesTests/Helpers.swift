import Foundation
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowPixels

/// Whether the shared photos are present; suites that need them are disabled (and say so) otherwise.
let haveSharedPhotos = TestEnvironment.sharedPhotos != nil

/// The path of a shared photo; only called from suites enabled by ``haveSharedPhotos``.
func shared(_ name: String) -> String {
    guard let path = TestEnvironment.sharedPhoto(name) else { fatalError("\(TestEnvironment.noSharedPhotos)") }
    return path
}

/// Renders a shared photo.
func render(_ name: String, _ width: Int, _ height: Int, _ mode: ContentMode = .aspectFit,
            background: RGBColor = .black) throws -> PixelBuffer {
    try ImageManager().requestImage(for: Photo(path: shared(name)), targetSize: Size(width: width, height: height),
                                    contentMode: mode, background: background)
}

/// The mean absolute difference of two equally long byte arrays, in levels.
func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count, "sizes differ")
    var total = 0
    a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            for index in 0..<a.count { total += abs(Int(a[index]) - Int(b[index])) }
        }
    }
    return Double(total) / Double(a.count)
}

/// The largest absolute difference of two equally long byte arrays.
func maximumDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count, "sizes differ")
    var largest = 0
    for index in a.indices { largest = max(largest, abs(Int(a[index]) - Int(b[index]))) }
    return largest
}

/// The pixels of a buffer inside a rectangle, row after row.
func pixels(of buffer: PixelBuffer, in rect: Rect) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(rect.width * rect.height * 3)
    for y in rect.y..<rect.maxY {
        let start = (y * buffer.width + rect.x) * 3
        out += buffer.pixels[start..<start + rect.width * 3]
    }
    return out
}

/// Whether every pixel outside `rect` is exactly `color`.
func barsAre(_ color: RGBColor, in buffer: PixelBuffer, outside rect: Rect) -> Bool {
    for y in 0..<buffer.height {
        for x in 0..<buffer.width where !rect.contains(x: x, y: y) {
            let offset = (y * buffer.width + x) * 3
            if buffer.pixels[offset] != color.red || buffer.pixels[offset + 1] != color.green
                || buffer.pixels[offset + 2] != color.blue { return false }
        }
    }
    return true
}

/// Decodes a file with ffmpeg, the independent reader, to packed pixels at its own size.
/// - Parameters:
///   - pixelFormat: `rgb24` or `rgba`.
func ffmpegPixels(_ path: String, pixelFormat: String = "rgb24") throws -> [UInt8]? {
    guard let ffmpeg = which("ffmpeg") else { return nil }
    let result = try run(ffmpeg, ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
    guard result.status == 0 else { return nil }
    return [UInt8](result.stdout)
}

/// The kind of PhotoError a call throws, or nil when it does not throw.
func errorKind<T>(_ body: () throws(PhotoError) -> T) -> PhotoError.Kind? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.kind
    }
}

/// The PhotoError a call throws, or nil when it does not throw.
func photoError<T>(_ body: () throws(PhotoError) -> T) -> PhotoError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
