import Foundation
import Testing
import TestSupport
@testable import SlideshowKit
import SlideshowFormats
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels

@Suite("Photo metadata: one EXIF/XMP reader for JPEG, PNG, HEIF, AVIF and WebP")
struct PhotoMetadataTests {
    /// The capture dates of the shared phone-format files, as their EXIF states them (read with
    /// an independent TIFF walk in Python: DateTimeOriginal and OffsetTimeOriginal of the EXIF IFD).
    static let phoneDates: [(name: String, date: String?)] = [
        ("heic_iphonexr_grid_landscape.heic", "2020:04:17 10:03:40 -06:00"),
        ("heic_iphone8plus_grid_irot270_exif6_arrow.heic", "2018:07:31 14:52:07"),
        ("heic_samsung_s24fe_grid_exif6_no_irot.heic", "2025:05:09 11:38:44 +02:00"),  // EXIF after the image data
        ("hif_sony_a7s3_10bit.hif", "2020:09:14 11:09:34 -05:00"),
        ("webp_lossy_exif_orient6_iphonex.webp", "2018:08:27 12:20:23"),
        // Its EXIF has only IFD0's DateTime (when the file was written), no DateTimeOriginal.
        ("webp_lossy_icc_exif_xmp_flower.webp", nil),
        ("webp_lossless_photo.webp", nil),
        // The shared AVIFs carry no EXIF item.
        ("avif_fox_8bit_420.avif", nil),
        ("avif_kimono_irot270.avif", nil),
    ]

    @Test("HEIC, HIF and WebP capture dates, exact, from CaptureDate.read and from inspect",
          .enabled(if: haveSharedMedia, noSharedMedia), arguments: phoneDates.indices)
    func phoneFormatDates(_ index: Int) throws {
        let (name, expected) = Self.phoneDates[index]
        let photo = Photo(path: media(name))
        #expect(CaptureDate.read(photo)?.description == expected, "\(name)")
        #expect(try ImageManager().inspect(photo).captureDate?.description == expected, "\(name)")
    }

    @Test("the iPhone XR HEIC's date as an instant: 10:03:40 at UTC−6 is 16:03:40 UTC",
          .enabled(if: haveSharedMedia, noSharedMedia))
    func heicInstant() throws {
        let date = try #require(CaptureDate.read(Photo(path: media("heic_iphonexr_grid_landscape.heic"))))
        #expect(date.iso8601UTC == "2020-04-17T16:03:40.000000Z")
    }

    @Test("AVIF and HEIC: the Exif item heif-enc copies from a JPEG gives its date, exact",
          .enabled(if: which("heif-enc") != nil, "skipped: heif-enc (libheif-examples) is not installed"),
          arguments: [("-A", ImageFormat.avif), ("", .heif)])
    func encodedWithEXIF(_ flag: String, _ format: ImageFormat) throws {
        let folder = try TemporaryFolder()
        let jpeg = SyntheticJPEG.grey(width: 64, height: 64,
                                      before: SyntheticJPEG.exifSegment(exifBlock(date: "2016:02:29 08:15:00", offset: "+09:00")))
        try Data(jpeg).write(to: folder.url.appendingPathComponent("dated.jpg"))
        let output = folder.path(format == .avif ? "dated.avif" : "dated.heic")
        let result = try run(which("heif-enc")!, (flag.isEmpty ? [] : [flag]) + ["-q", "50", "-o", output, folder.path("dated.jpg")])
        #expect(result.status == 0, "\(result.stderr)")
        let photo = Photo(path: output)
        let info = try ImageManager().inspect(photo)
        #expect(info.format == format)
        #expect(info.captureDate?.description == "2016:02:29 08:15:00 +09:00")
        #expect(CaptureDate.read(photo)?.iso8601UTC == "2016-02-28T23:15:00.000000Z")
    }

    @Test("the XMP packet is found in HEIF mime items and WebP XMP chunks; EXIF orientation in every container",
          .enabled(if: haveSharedMedia, noSharedMedia))
    func xmpAndOrientation() throws {
        for (name, format) in [("heic_samsung_s24fe_grid_exif6_no_irot.heic", ImageFormat.heif), ("hif_sony_a7s3_10bit.hif", .heif),
                               ("webp_lossy_exif_orient6_iphonex.webp", .webp), ("webp_lossy_icc_exif_xmp_flower.webp", .webp)] {
            let bytes = try PhotoFile.read(media(name)).bytes
            let blocks = format == .heif ? MetadataBlocks.heif(bytes) : MetadataBlocks.webp(bytes)
            let xmp = String(decoding: blocks.xmp ?? [], as: UTF8.self)
            #expect(xmp.contains("<x:xmpmeta") && xmp.contains("</x:xmpmeta>"), "\(name)")
        }
        let orientations: [(String, ImageFormat, Orientation?)] = [
            ("heic_samsung_s24fe_grid_exif6_no_irot.heic", .heif, .right), ("heic_iphonexr_grid_landscape.heic", .heif, .up),
            ("webp_lossy_exif_orient6_iphonex.webp", .webp, .right), ("avif_fox_8bit_420.avif", .avif, nil),
        ]
        for (name, format, orientation) in orientations {
            let bytes = try PhotoFile.read(media(name)).bytes
            #expect(PhotoMetadata(reading: bytes, format: format).orientation == orientation, "\(name)")
        }
        // The AVIF has no EXIF item and no XMP.
        let avif = MetadataBlocks.heif(try PhotoFile.read(media("avif_fox_8bit_420.avif")).bytes)
        #expect(avif.exif == nil)
        #expect(avif.xmp == nil)
    }

    @Test("JPEG: date, orientation and XMP from the header parser's one walk of the markers")
    func jpegOneWalk() throws {
        let xmp = SyntheticJPEG.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8))
        let jpeg = SyntheticJPEG.grey(width: 16, height: 8, before: xmp + SyntheticJPEG.exifSegment(exifBlock(date: "2008:10:22 16:28:39", offset: "+02:00")))
        let header = try JPEGHeader(parsing: jpeg)
        #expect(header.metadata.captureDate?.description == "2008:10:22 16:28:39 +02:00")
        #expect(String(decoding: try #require(MetadataBlocks.jpeg(jpeg).xmp), as: UTF8.self) == "<x:xmpmeta/>")
        #expect(CaptureDate.parse(photo: jpeg) == header.metadata.captureDate)
    }

    @Test("PNG: the eXIf chunk's date and an uncompressed iTXt XMP packet, read in PNGHeader's walk")
    func png() throws {
        let plain = SyntheticPNG.file(width: 2, height: 1, bitDepth: 8, colorType: 0, rows: [[0, 255]])
        let ihdrEnd = 8 + 25
        let itxt = SyntheticPNG.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array("<x:xmpmeta/>".utf8))
        let dated = Array(plain[..<ihdrEnd]) + itxt + SyntheticPNG.chunk("eXIf", exifBlock(date: "1999:12:31 23:59:59")) + Array(plain[ihdrEnd...])
        let header = try PNGHeader(parsing: dated, complete: true)
        #expect(header.metadata.captureDate == CaptureDate(year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(CaptureDate.parse(photo: dated) == header.metadata.captureDate)
        #expect(CaptureDate.parse(photo: plain) == nil)
        var blocks = MetadataBlocks()
        blocks.take(pngChunk: "iTXt", payload: ihdrEnd + 8..<ihdrEnd + itxt.count - 4, in: dated)
        #expect(String(decoding: try #require(blocks.xmp), as: UTF8.self) == "<x:xmpmeta/>")
        // A compressed packet (flag 1) is not taken.
        var compressed = MetadataBlocks()
        var flagged = dated
        flagged[ihdrEnd + 8 + 18] = 1
        compressed.take(pngChunk: "iTXt", payload: ihdrEnd + 8..<ihdrEnd + itxt.count - 4, in: flagged)
        #expect(compressed.xmp == nil)
    }

    @Test("WebP: an EXIF chunk with an Exif\\0\\0 prefix, after the image data; odd-sized chunks padded")
    func webpChunks() {
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let n = payload.count
            return Array(type.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), 0, 0] + payload + (n % 2 == 1 ? [0] : [])
        }
        let body = Array("WEBP".utf8) + chunk("VP8X", [UInt8](repeating: 0, count: 10)) + chunk("VP8 ", [1, 2, 3])
            + chunk("EXIF", Array("Exif".utf8) + [0, 0] + exifBlock(date: "2015:06:01 12:00:00"))
        let n = body.count
        let file = Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), 0, 0] + body
        #expect(CaptureDate.parse(photo: file)?.description == "2015:06:01 12:00:00")
        // Cut inside the EXIF chunk: nothing, no trap.
        for length in stride(from: 0, to: file.count, by: 7) {
            _ = MetadataBlocks.webp(Array(file[..<length]))
        }
        #expect(MetadataBlocks.webp(Array(file[..<(file.count - 3)])).exif == nil)
    }

    @Test("HEIF: the Exif item's 4-byte offset is honoured, and a damaged offset gives nothing",
          .enabled(if: haveSharedMedia, noSharedMedia))
    func heifOffset() throws {
        var bytes = try PhotoFile.read(media("heic_iphonexr_grid_landscape.heic")).bytes
        let items = HEIFBoxes.metadataItems(bytes)
        let exif = try #require(items.exif)
        // The iPhone writes offset 6 ("Exif\0\0" before the TIFF header).
        #expect(Array(exif.prefix(10)) == [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0])
        #expect(items.xmp == nil)
        bytes[exif.startIndex + 3] = 0xFF  // the offset now points past the item's end
        #expect(MetadataBlocks.heif(bytes).exif == nil)
    }

    @Test("random damage to HEIF boxes, WebP chunks and PNG chunks never traps",
          .enabled(if: haveSharedMedia, noSharedMedia))
    func randomDamage() throws {
        var random = SplitMix64(state: 0xDA7E)
        let png = SyntheticPNG.file(width: 2, height: 1, bitDepth: 8, colorType: 0, rows: [[0, 255]])
        let dated = Array(png[..<33]) + SyntheticPNG.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0, 0x3C])
            + SyntheticPNG.chunk("eXIf", exifBlock(date: "1999:12:31 23:59:59")) + Array(png[33...])
        let files: [(bytes: [UInt8], format: ImageFormat, region: Int)] = [
            (try PhotoFile.read(media("heic_iphonexr_grid_landscape.heic")).bytes, .heif, 9800),  // meta, then the Exif item
            (try PhotoFile.read(media("webp_lossy_exif_orient6_iphonex.webp")).bytes, .webp, 23710),
            (dated, .png, dated.count),
        ]
        for round in 0..<1200 {
            let file = files[round % files.count]
            var bytes = file.bytes
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                bytes[Int.random(in: 0..<min(file.region, bytes.count), using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if round % 4 == 0 { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random)) }
            _ = PhotoMetadata(reading: bytes, format: file.format)
        }
    }

    @Test("plausible capture dates: 1826 up to a day past now; others give nil")
    func plausibility() throws {
        let now = try #require(CaptureDate(year: 2026, month: 1, day: 1)).secondsSince1970
        func check(_ text: String) -> CaptureDate? {
            CaptureDate.plausible(CaptureDate(exif: text), photo: "/nowhere/plausibility-\(text).jpg", now: now)
        }
        #expect(check("1825:12:31 23:59:59") == nil)
        #expect(check("1826:01:01 00:00:00")?.year == 1826)
        #expect(check("1850:06:01 12:00:00")?.year == 1850)
        #expect(check("1903:07:01 12:00:00")?.year == 1903)
        #expect(check("2026:01:01 23:00:00")?.year == 2026)  // a time zone ahead of UTC
        #expect(check("2026:01:03 00:00:00") == nil)
        #expect(check("9999:12:31 23:59:59") == nil)
        #expect(CaptureDate.plausible(nil, photo: "/nowhere.jpg") == nil)
    }
}
