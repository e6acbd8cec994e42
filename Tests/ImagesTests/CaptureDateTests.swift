import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFormats
import SlideshowMetadata

@Suite("Capture dates: EXIF DateTimeOriginal from TIFF bytes, JPEG and PNG")
struct CaptureDateTests {
    @Test("both byte orders, with and without an offset", arguments: [true, false])
    func parsesTIFF(littleEndian: Bool) throws {
        let plain = exifBlock(date: "2011:04:25 01:55:30", littleEndian: littleEndian)
        let date = try #require(CaptureDate.parse(tiff: plain, in: 0..<plain.count))
        #expect(date == CaptureDate(year: 2011, month: 4, day: 25, hour: 1, minute: 55, second: 30))
        #expect(date.iso8601UTC == "2011-04-25T01:55:30.000000Z")
        let offset = exifBlock(date: "2022:08:14 14:12:31", offset: "+03:00", littleEndian: littleEndian)
        let withOffset = try #require(CaptureDate.parse(tiff: offset, in: 0..<offset.count))
        #expect(withOffset.utcOffsetMinutes == 180 && withOffset.hour == 14)
        #expect(withOffset.iso8601UTC == "2022-08-14T11:12:31.000000Z")
    }

    @Test("a TIFF block inside other bytes is read at its range only")
    func rangeRespected() throws {
        let block = exifBlock(date: "1999:12:31 23:59:59")
        let bytes: [UInt8] = [1, 2, 3] + block + [9, 9]
        #expect(CaptureDate.parse(tiff: bytes, in: 3..<3 + block.count)?.year == 1999)
        #expect(CaptureDate.parse(tiff: bytes, in: 3..<3 + block.count - 5) == nil)  // the date's bytes cut off
    }

    @Test("garbled or absent dates give nil", arguments: [
        "0000:00:00 00:00:00", "    :  :     :  :  ", "2011:13:01 00:00:00", "2011:02:30 10:00:00", "2011-04-25", "garbage here and more",
    ])
    func garbled(text: String) {
        let block = exifBlock(date: text)
        #expect(CaptureDate.parse(tiff: block, in: 0..<block.count) == nil)
    }

    @Test("a date of the wrong type, or no EXIF pointer, gives nil")
    func wrongStructure() {
        let wrongType = exifBlock(date: "2011:04:25 01:55:30", dateType: 7)
        #expect(CaptureDate.parse(tiff: wrongType, in: 0..<wrongType.count) == nil)
        let noPointer: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(CaptureDate.parse(tiff: noPointer, in: 0..<noPointer.count) == nil)
        #expect(CaptureDate.parse(tiff: [0x49, 0x49, 42], in: 0..<3) == nil)
    }

    @Test("every truncation of a block is refused without a trap")
    func truncations() {
        let block = exifBlock(date: "2011:04:25 01:55:30", offset: "-05:30")
        for end in 0..<block.count - 1 {
            _ = CaptureDate.parse(tiff: block, in: 0..<end)
        }
        #expect(CaptureDate.parse(tiff: block, in: 0..<block.count)?.iso8601UTC == "2011-04-25T07:25:30.000000Z")
    }

    @Test("JPEG: the first Exif APP1 segment")
    func jpeg() {
        #expect(CaptureDate.parse(photo: jpegWithEXIF(exifBlock(date: "2008:10:22 16:28:39")))?.day == 22)
        #expect(CaptureDate.parse(photo: [0xFF, 0xD8, 0xFF, 0xD9]) == nil)
    }

    @Test("seconds since 1970 agree with Foundation's calendar")
    func epoch() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for (y, m, d, h) in [(1970, 1, 1, 0), (2000, 2, 29, 12), (2011, 4, 25, 1), (1904, 1, 1, 0), (2099, 12, 31, 23)] {
            let date = try #require(CaptureDate(year: y, month: m, day: d, hour: h))
            let reference = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h))!
            #expect(date.secondsSince1970 == Int64(reference.timeIntervalSince1970))
        }
        #expect(CaptureDate(year: 2001, month: 2, day: 29) == nil)
    }

    @Test("the shared camera photos' dates, as Pillow reads them",
          .enabled(if: haveSharedPhotos, "skipped: ../shared/photos is absent (a fresh clone); the test needs the shared photos"))
    func sharedPhotos() throws {
        let expected = [
            "camera_nikon_d90_12mp.jpg": "2011:04:25 01:55:30",
            "camera_canon_eos5d_13mp_portrait.jpg": "2005:09:25 00:31:00",
            "camera_apple_iphone4s_8mp_orient6.jpg": "2012:08:26 15:53:03",
            "camera_nokia_8.3_9mp_wide.jpg": "2022:08:14 14:12:31 +03:00",
        ]
        for (name, text) in expected {
            let date = CaptureDate.read(Photo(path: shared(name)))
            #expect(date?.description == text, "\(name)")
        }
        #expect(CaptureDate.read(Photo(path: TestEnvironment.sample("landscape.jpg"))) == nil)
        #expect(CaptureDate.read(Photo(path: "/no/such/photo.jpg")) == nil)
    }
}
