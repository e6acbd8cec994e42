import Foundation
import Testing
import TestSupport

/// The built `slideshow` tool, from the products folder of this test run, or why it is not there.
let builtSlideshow = TestEnvironment.builtTool("slideshow")

/// The built `slideshow` tool's path (checked by ``toolIsBuilt``).
let slideshowTool = (try? builtSlideshow.get()) ?? TestEnvironment.productsDirectory.appendingPathComponent("slideshow").path


/// Runs `slideshow` with arguments; with a timeout, it is killed (status 137) should it hang.
@discardableResult
func slideshow(_ arguments: [String], stdin: Data? = nil, timeout: Double? = nil) throws -> ProcessResult {
    try run(slideshowTool, arguments, stdin: stdin, timeout: timeout)
}

/// The project's three sample photos.
let samplePhotos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map(TestEnvironment.sample)


/// Bytes of one plane row range, for checking bars.
func rows(_ frame: Data, width: Int, from: Int, to: Int) -> Data {
    frame.subdata(in: (frame.startIndex + from * width)..<(frame.startIndex + to * width))
}

/// Where a decoded Y plane's letterbox bars are not black: every pixel outside `content` must
/// be Y 16 exactly when its 16x16 macroblock lies wholly in the bars, and within `ringing`
/// levels of 16 when the photo's edge crosses its macroblock (lossy coding rings there).
/// - Returns: descriptions of the pixels that fail, empty when the bars are right.
func barFaults(luma: Data, width: Int, height: Int, content: (x: Int, y: Int, width: Int, height: Int), ringing: Int = 10) -> [String] {
    var faults: [String] = []
    let bytes = Array(luma.prefix(width * height))
    func inContent(_ x: Int, _ y: Int) -> Bool {
        x >= content.x && x < content.x + content.width && y >= content.y && y < content.y + content.height
    }
    func blockTouchesContent(_ x: Int, _ y: Int) -> Bool {
        let bx = x / 16 * 16, by = y / 16 * 16
        return content.x < bx + 16 && content.x + content.width > bx && content.y < by + 16 && content.y + content.height > by
    }
    for y in 0..<height {
        for x in 0..<width where !inContent(x, y) {
            let value = Int(bytes[y * width + x])
            let allowed = blockTouchesContent(x, y) ? ringing : 0
            if abs(value - 16) > allowed, faults.count < 10 { faults.append("(\(x), \(y)) is Y \(value)") }
        }
    }
    return faults
}
