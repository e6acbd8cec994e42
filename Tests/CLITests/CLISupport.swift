import Foundation
import TestSupport

/// The built `slideshow` tool.
let slideshowTool = TestEnvironment.productsDirectory.appendingPathComponent("slideshow").path

/// Runs `slideshow` with arguments.
@discardableResult
func slideshow(_ arguments: [String], stdin: Data? = nil) throws -> ProcessResult {
    try run(slideshowTool, arguments, stdin: stdin)
}

/// The project's three sample photos.
let samplePhotos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map(TestEnvironment.sample)

/// The mean absolute difference of two equally long byte strings, optionally over a sub-rectangle of a gray frame.
func meanAbsoluteDifference(_ a: Data, _ b: Data) -> Double {
    precondition(a.count == b.count)
    var total = 0
    a.withUnsafeBytes { a in
        b.withUnsafeBytes { b in
            for index in 0..<a.count { total += abs(Int(a[index]) - Int(b[index])) }
        }
    }
    return Double(total) / Double(max(a.count, 1))
}

/// Bytes of one plane row range, for checking bars.
func rows(_ frame: Data, width: Int, from: Int, to: Int) -> Data {
    frame.subdata(in: (frame.startIndex + from * width)..<(frame.startIndex + to * width))
}
