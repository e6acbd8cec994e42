import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels


@Suite("EXIF orientation")
struct EXIFOrientationTests {
    /// A JFIF APP0 segment, as most files carry before EXIF.
    static let jfif = SyntheticJPEG.segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])

    static func jpeg(withTIFF tiff: [UInt8]) -> [UInt8] {
        SyntheticJPEG.grey(width: 16, height: 8, before: jfif + SyntheticJPEG.exifSegment(tiff))
    }

    @Test("all eight orientations, both byte orders", arguments: Orientation.allCases, [true, false])
    func everyOrientation(_ orientation: Orientation, _ littleEndian: Bool) {
        let tiff = SyntheticJPEG.tiff(orientation: orientation.rawValue, littleEndian: littleEndian)
        #expect(EXIFOrientation.parse(jpeg: Self.jpeg(withTIFF: tiff)) == orientation)
        // IFD0 further in, after padding, and as the only entry.
        let padded = SyntheticJPEG.tiff(orientation: orientation.rawValue, littleEndian: littleEndian, filler: 0, ifdOffset: 40)
        #expect(EXIFOrientation.parse(jpeg: Self.jpeg(withTIFF: padded)) == orientation)
        // The header parser reports it too.
        #expect((try? JPEGHeader(parsing: Self.jpeg(withTIFF: tiff)))?.orientation == orientation)
    }

    @Test("no EXIF: nil")
    func absent() {
        #expect(EXIFOrientation.parse(jpeg: SyntheticJPEG.grey(width: 16, height: 8)) == nil)
        #expect(EXIFOrientation.parse(jpeg: SyntheticJPEG.grey(width: 16, height: 8, before: Self.jfif)) == nil)
        // An APP1 that is XMP, not EXIF.
        let xmp = SyntheticJPEG.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x/>".utf8))
        #expect(EXIFOrientation.parse(jpeg: SyntheticJPEG.grey(width: 16, height: 8, before: xmp)) == nil)
        // EXIF after SOS is not looked for.
        var late = SyntheticJPEG.grey(width: 16, height: 8)
        late += SyntheticJPEG.exifSegment(SyntheticJPEG.tiff(orientation: 6, littleEndian: true))
        #expect(EXIFOrientation.parse(jpeg: late) == nil)
    }

    /// Garbled EXIF, each of which must give nil without reading out of bounds.
    static let garbled: [(String, [UInt8])] = {
        let good = SyntheticJPEG.tiff(orientation: 6, littleEndian: true)
        var cases: [(String, [UInt8])] = []
        cases.append(("IFD0 offset past the end", jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 6, littleEndian: true, filler: 0, ifdOffset: 8)
            .enumerated().map { $0.offset == 4 ? 0xF0 : $0.offset == 5 ? 0xFF : $0.element })))
        cases.append(("IFD0 offset 0xFFFFFFFF", jpeg(withTIFF: Array(good[0..<4]) + [0xFF, 0xFF, 0xFF, 0xFF] + Array(good[8...]))))
        // Entry count claims more entries than there are bytes, and the orientation entry is cut off.
        cases.append(("entries cut off", jpeg(withTIFF: Array(good[0..<(good.count - 10)]))))
        cases.append(("wrong type LONG", jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 6, littleEndian: true, type: 4))))
        cases.append(("wrong type ASCII", jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 6, littleEndian: false, type: 2))))
        cases.append(("count 0", jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 6, littleEndian: true, count: 0))))
        cases.append(("value 0", jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 0, littleEndian: true))))
        cases.append(("value 9", jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 9, littleEndian: false))))
        cases.append(("value 0x0106 read big-endian", jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 0x0601, littleEndian: false))))
        cases.append(("byte order IM", jpeg(withTIFF: [0x49, 0x4D] + Array(good[2...]))))
        cases.append(("magic 43", jpeg(withTIFF: Array(good[0..<2]) + [43, 0] + Array(good[4...]))))
        cases.append(("TIFF header of 7 bytes", jpeg(withTIFF: Array(good[0..<7]))))
        cases.append(("Exif header alone", jpeg(withTIFF: [])))
        // Zero-length and one-length segments: not valid, the walk stops.
        cases.append(("APP1 of length 0", [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x00] + SyntheticJPEG.exifSegment(good)))
        cases.append(("APP1 of length 1", [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01, 0x45] + SyntheticJPEG.exifSegment(good)))
        // A segment claiming to run past the end of the file.
        cases.append(("APP1 longer than the file", [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xF0] + Array("Exif".utf8) + [0, 0] + good))
        cases.append(("APP1 length byte missing", [0xFF, 0xD8, 0xFF, 0xE1, 0x00]))
        cases.append(("only SOI", [0xFF, 0xD8]))
        cases.append(("empty", []))
        cases.append(("not a JPEG", [0x89, 0x50, 0x4E, 0x47] + good))
        return cases
    }()

    @Test("garbled or truncated EXIF gives nil", arguments: garbled.indices)
    func garbledGivesNil(_ index: Int) {
        let (what, bytes) = Self.garbled[index]
        #expect(EXIFOrientation.parse(jpeg: bytes) == nil, "\(what)")
    }

    @Test("a bare TIFF block is read only within its range")
    func tiffRange() {
        let good = SyntheticJPEG.tiff(orientation: 8, littleEndian: false)
        let padded = [0xEE, 0xEE] + good + [0xEE]
        #expect(EXIFOrientation.parse(tiff: padded, in: 2..<(2 + good.count)) == .left)
        // The range cuts the orientation entry off: nil, even though the bytes follow.
        #expect(EXIFOrientation.parse(tiff: padded, in: 2..<(2 + good.count - 8)) == nil)
        // Ranges outside the array are refused.
        #expect(EXIFOrientation.parse(tiff: good, in: 0..<(good.count + 1)) == nil)
        #expect(EXIFOrientation.parse(tiff: good, in: -1..<4) == nil)
    }

    @Test("every prefix of a file with EXIF: no trap; nil or the right value")
    func everyPrefix() {
        for littleEndian in [true, false] {
            let bytes = Self.jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 7, littleEndian: littleEndian))
            for length in 0...bytes.count {
                let prefix = Array(bytes[0..<length])
                let found = EXIFOrientation.parse(jpeg: prefix)
                #expect(found == nil || found == .rightMirrored, "prefix \(length)")
                _ = try? JPEGHeader(parsing: prefix)
            }
        }
    }

    @Test("random damage never traps")
    func fuzz() {
        var random = SplitMix64(state: 0x5EED)
        let originals = [Self.jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 3, littleEndian: true)),
                         Self.jpeg(withTIFF: SyntheticJPEG.tiff(orientation: 5, littleEndian: false, filler: 5))]
        for round in 0..<3000 {
            var bytes = originals[round % 2]
            // Damage only the header region (the first 90 bytes), where the parser looks.
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let index = Int.random(in: 0..<min(90, bytes.count), using: &random)
                bytes[index] = UInt8.random(in: 0...255, using: &random)
            }
            if round % 3 == 0 { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &random)) }
            _ = EXIFOrientation.parse(jpeg: bytes)
            _ = try? JPEGHeader(parsing: bytes)
        }
    }
}
