import Testing
@testable import SlideshowKit
import SlideshowSupport

/// The one bit reader (Support/BitReader.swift) that the H.264 parameter-set parser and the
/// HEIF photos' HEVC and AV1 header readers share.
@Suite("BitReader: fields, skips and Exp-Golomb codes, bounded by the data")
struct BitReaderTests {
    @Test("fields are read most significant bit first; a skip moves past bits without reading them")
    func fieldsAndSkips() throws {
        var reader = BitReader(rbsp: [0b1010_0110, 0b0101_1111])
        #expect(try reader.bits(3) == 0b101)
        try reader.skip(2)
        #expect(try reader.flag())
        #expect(try reader.bits(4) == 0b1001)
        try reader.skip(5)
        #expect(try reader.flag())
        #expect(throws: BitReader.EndOfData.self) { try reader.flag() }
    }

    @Test("a skip past the end, or a negative one, throws and leaves the position where it was")
    func skipPastTheEnd() throws {
        var reader = BitReader(rbsp: [0xFF])
        #expect(throws: BitReader.EndOfData.self) { try reader.skip(9) }
        #expect(throws: BitReader.EndOfData.self) { try reader.skip(-1) }
        try reader.skip(8)
        #expect(throws: BitReader.EndOfData.self) { try reader.bits(1) }
    }

    @Test("ue(v) over 31 leading zeros is refused, not read as a number")
    func longExpGolomb() throws {
        var reader = BitReader(rbsp: [0, 0, 0, 0, 0xFF])
        #expect(throws: BitReader.EndOfData.self) { try reader.ue() }
        var short = BitReader(rbsp: [0b0001_0001])  // 0001000 → 7, then 1
        #expect(try short.ue() == 7)
    }
}
