import Testing
@testable import SlideshowKit
import SlideshowText

/// The outline's stamps and the shadow's blur, against their definitions.
@Suite("Text effects")
struct TextEffectsTests {
    @Test("the stamps fill the disk: a 3-pixel dot stamped at every offset covers every point within the radius",
          arguments: 1...8)
    func diskOffsets(radius: Int) {
        let offsets = TextEffects.diskOffsets(radius: radius)
        #expect(offsets.allSatisfy { Double($0.x * $0.x + $0.y * $0.y) <= (Double(radius) + 0.5) * (Double(radius) + 0.5) })
        for y in -radius...radius {
            for x in -radius...radius where x * x + y * y <= radius * radius {
                #expect(offsets.contains { abs($0.x - x) <= 1 && abs($0.y - y) <= 1 }, "(\(x), \(y)) uncovered")
            }
        }
    }

    @Test("the blur keeps a flat field flat, spreads a point symmetrically and keeps its weight")
    func blur() {
        let (width, height) = (41, 31)
        var flat = [UInt8](repeating: 200, count: width * height)
        flat.withUnsafeMutableBufferPointer { TextEffects.blur($0.baseAddress!, width: width, height: height, stride: width, radius: 3) }
        #expect(flat[15 * width + 20] == 200)
        var point = [UInt8](repeating: 0, count: width * height)
        point[15 * width + 20] = 255
        point.withUnsafeMutableBufferPointer { TextEffects.blur($0.baseAddress!, width: width, height: height, stride: width, radius: 2) }
        let centre = point[15 * width + 20]
        #expect(centre > 0 && centre == point.max())
        for d in 1...4 {
            let values = [point[15 * width + 20 + d], point[15 * width + 20 - d], point[(15 + d) * width + 20], point[(15 - d) * width + 20]]
            #expect(Set(values).count == 1 && values[0] <= centre)
        }
        // Two 5-wide boxes each way spread one pixel over 9x9 = 81 at most; rounding moves the sum little.
        let total = point.reduce(0) { $0 + Int($1) }
        #expect(abs(total - 255) <= 81 / 2 + 1)
    }
}
