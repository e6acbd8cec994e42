import Testing
import SlideshowKit
import SlideshowMetadata
import SlideshowPlan

/// `--order`: natural name order and capture-date order, a pure function of names and dates.
@Suite struct PhotoOrderTests {
    private func date(_ text: String, _ offset: String? = nil) -> CaptureDate {
        CaptureDate(exif: text, offset: offset)!
    }

    private func names(_ order: PhotoOrder, _ items: [PhotoOrder.Item]) -> [String] {
        order.arrange(items).order.map { items[$0].name }
    }

    @Test func naturalNameOrderComparesDigitsAsNumbers() {
        let items = ["img10.jpg", "img2.jpg", "IMG1.jpg", "img02.jpg", "img1b.jpg", "a.jpg", "img.jpg"].map { PhotoOrder.Item(name: $0, date: nil) }
        #expect(names(.name, items) == ["a.jpg", "img.jpg", "IMG1.jpg", "img1b.jpg", "img2.jpg", "img02.jpg", "img10.jpg"])
        #expect(PhotoOrder.naturalCompare("img2", "img10") == .orderedAscending)
        #expect(PhotoOrder.naturalCompare("img10", "img2") == .orderedDescending)
        #expect(PhotoOrder.naturalCompare("photo 9 (2)", "photo 9 (10)") == .orderedAscending)
        #expect(PhotoOrder.naturalCompare("x99999999999999999999999", "x100000000000000000000000") == .orderedAscending)
        #expect(PhotoOrder.naturalCompare("same", "same") == .orderedSame)
        #expect(PhotoOrder.name.arrange([]) == PhotoOrder.Arrangement(order: [], undated: []))
    }

    @Test func givenKeepsTheOrder() {
        let items = ["b", "a", "c"].map { PhotoOrder.Item(name: $0, date: nil) }
        #expect(PhotoOrder.given.arrange(items) == PhotoOrder.Arrangement(order: [0, 1, 2], undated: []))
    }

    /// With offsets the instant decides: 10:00 in Tokyo (+09:00) is 01:00 UTC, before 09:00 in London (+01:00, 08:00 UTC)
    /// and 03:00 in New York (-04:00, 07:00 UTC).
    @Test func dateOrderAppliesTheOffsets() {
        let items = [
            PhotoOrder.Item(name: "london.jpg", date: date("2024:06:01 09:00:00", "+01:00")),
            PhotoOrder.Item(name: "newyork.jpg", date: date("2024:06:01 03:00:00", "-04:00")),
            PhotoOrder.Item(name: "tokyo.jpg", date: date("2024:06:01 10:00:00", "+09:00")),
        ]
        let result = PhotoOrder.date.arrange(items)
        #expect(result.order == [2, 1, 0])
        #expect(result.undated.isEmpty)
    }

    /// Without offsets the wall-clock times compare as they are; equal times go by natural name.
    @Test func dateOrderWithoutOffsetsAndTies() {
        let items = [
            PhotoOrder.Item(name: "img10.jpg", date: date("2023:12:31 23:59:59")),
            PhotoOrder.Item(name: "img9.jpg", date: date("2024:01:01 00:00:00")),
            PhotoOrder.Item(name: "img2.jpg", date: date("2023:12:31 23:59:59")),
            PhotoOrder.Item(name: "img1.jpg", date: date("2024:01:01 00:00:01")),
        ]
        #expect(names(.date, items) == ["img2.jpg", "img10.jpg", "img9.jpg", "img1.jpg"])
    }

    /// Undated photos go after every dated one, by natural name, and are named for the warning.
    @Test func dateOrderPutsUndatedLastAndNamesThem() {
        let items = [
            PhotoOrder.Item(name: "scan10.png", date: nil),
            PhotoOrder.Item(name: "b.jpg", date: date("2020:05:05 12:00:00", "+02:00")),
            PhotoOrder.Item(name: "scan9.png", date: nil),
            PhotoOrder.Item(name: "a.jpg", date: date("2020:05:05 12:30:00")),
        ]
        let result = PhotoOrder.date.arrange(items)
        // b is 10:00 UTC; a, without an offset, reads as 12:30 UTC.
        #expect(result.order == [1, 3, 2, 0])
        #expect(result.undated == ["scan9.png", "scan10.png"])
    }

    /// A dated photo with an offset and one without at the same wall-clock time: the one with +02:00 is 2 hours earlier.
    @Test func mixedOffsetsCompareAsInstants() {
        let items = [
            PhotoOrder.Item(name: "a.jpg", date: date("2022:08:01 12:00:00")),
            PhotoOrder.Item(name: "b.jpg", date: date("2022:08:01 12:00:00", "+02:00")),
            PhotoOrder.Item(name: "c.jpg", date: date("2022:08:01 12:00:00", "-02:00")),
        ]
        #expect(names(.date, items) == ["b.jpg", "a.jpg", "c.jpg"])
    }
}
