import Testing
@testable import SlideshowKit
import SlideshowLooks
import SlideshowMetadata
import SlideshowPixels

/// The film-camera date imprint: its text, where it goes, how big, and what it changes.
@Suite("Date imprint")
struct DateImprintTests {
    static let date = CaptureDate(year: 2008, month: 10, day: 22, hour: 16, minute: 28, second: 39)!

    @Test(arguments: [
        (DateImprint.Format.ymd, "'08 10 22"), (.mdy, "10 22 '08"), (.dmy, "22 10 '08"), (.iso, "2008-10-22"),
    ])
    func text(format: DateImprint.Format, expected: String) {
        #expect(DateImprint(format: format).text(for: Self.date) == expected)
    }

    @Test func singleDigitsAndCenturies() {
        let date = CaptureDate(year: 2005, month: 9, day: 5)!
        #expect(DateImprint().text(for: date) == "'05 9 5")
        #expect(DateImprint(format: .iso).text(for: date) == "2005-09-05")
    }

    /// The pixels the imprint changed, as a bounding rectangle, and the brightest-orange pixel.
    static func changes(_ before: PixelBuffer, _ after: PixelBuffer) -> (box: Rect?, count: Int) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
        for y in 0..<before.height {
            for x in 0..<before.width where before[x, y] != after[x, y] {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                count += 1
            }
        }
        return (count == 0 ? nil : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1), count)
    }

    @Test("drawn in orange in the picture's lower right, inside the picture, nowhere else")
    func placement() throws {
        let grey = RGBColor(red: 60, green: 60, blue: 60)
        var buffer = PixelBuffer(size: Size(width: 640, height: 360), filledWith: RGBColor(red: 0, green: 0, blue: 255))
        buffer.contentRect = Rect(x: 160, y: 0, width: 240, height: 360)  // a portrait between bars
        for y in 0..<360 { for x in 160..<400 { buffer[x, y] = grey } }
        let before = buffer
        DateImprint().draw(Self.date, on: &buffer)
        let (box, count) = Self.changes(before, buffer)
        let changed = try #require(box)
        #expect(count > 200)
        // Inside the picture, in its lower right quarter.
        #expect(changed.x >= 160 + 120 && changed.maxX <= 400 && changed.y >= 180 && changed.maxY <= 360)
        // Digits 0.05 × 240 = 12 px tall, 0.06 × 240 = 14.4 px from the right and bottom.
        let layout = DateImprint().layout(text: "'08 10 22", in: buffer.contentRect)
        #expect(layout.digitHeight == 12)
        #expect(abs(layout.origin.x + layout.width - (400 - 14.4)) < 1e-9 && abs(layout.origin.y + 12 - (360 - 14.4)) < 1e-9)
        // The digits' cores are the imprint's orange; nothing went darker (light only adds).
        var cores = 0
        for y in changed.y..<changed.maxY {
            for x in changed.x..<changed.maxX {
                let c = buffer[x, y]
                if c == DateImprint.color { cores += 1 }
                #expect(c.red >= grey.red && c.green >= grey.green)
            }
        }
        #expect(cores > 50)
    }

    @Test("sized by the picture, not the frame: twice the picture, twice the imprint")
    func proportional() throws {
        func box(_ picture: Size, frame: Size) throws -> Rect {
            var buffer = PixelBuffer(size: frame, filledWith: RGBColor(red: 30, green: 30, blue: 30))
            buffer.contentRect = Rect(x: 0, y: 0, width: picture.width, height: picture.height)
            let before = buffer
            DateImprint().draw(Self.date, on: &buffer)
            return try #require(Self.changes(before, buffer).box)
        }
        let small = try box(Size(width: 400, height: 300), frame: Size(width: 1200, height: 600))
        let large = try box(Size(width: 800, height: 600), frame: Size(width: 1200, height: 600))
        #expect(abs(Double(large.width) / Double(small.width) - 2) < 0.1)
        #expect(abs(Double(large.height) / Double(small.height) - 2) < 0.15)
        // The same picture in a bigger frame: the same imprint.
        let sameInBigger = try box(Size(width: 400, height: 300), frame: Size(width: 1600, height: 900))
        #expect(sameInBigger.width == small.width && sameInBigger.height == small.height)
    }

    @Test("an 8 lights all seven segments, a 1 only the two on the right")
    func segments() {
        let eight = DateImprint.segments(of: "8", height: 100, at: (0, 0))
        let one = DateImprint.segments(of: "1", height: 100, at: (0, 0))
        #expect(eight.count == 7 && one.count == 2)
        #expect(one.allSatisfy { $0.left > 30 })
        #expect(DateImprint.segments(of: "'", height: 100, at: (0, 0)).count == 1)
        #expect(DateImprint.segments(of: " ", height: 100, at: (0, 0)).isEmpty)
    }

    @Test("the same date on the same slide gives the same bytes")
    func deterministic() {
        var a = PixelBuffer(size: Size(width: 320, height: 180), filledWith: RGBColor(red: 90, green: 120, blue: 30))
        var b = a
        DateImprint(format: .dmy).draw(Self.date, on: &a)
        DateImprint(format: .dmy).draw(Self.date, on: &b)
        #expect(a == b)
    }
}
