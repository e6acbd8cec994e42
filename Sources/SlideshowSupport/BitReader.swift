/// Reads a raw byte sequence payload (emulation prevention bytes already removed) bit by
/// bit, most significant first: fixed-width fields and Exp-Golomb codes (ITU-T H.264 §7.2,
/// §9.1; the same in H.265, and AV1's fixed-width fields). Every read past the end throws.
///
/// The H.264 parameter-set parser and the HEVC and AV1 header readers of HEIF photos use it.
package struct BitReader {
    package struct EndOfData: Error {}

    private let bytes: [UInt8]
    /// The next bit's place: bits read so far.
    package private(set) var position = 0

    package init(rbsp: [UInt8]) { bytes = rbsp }

    /// The bits not yet read.
    package var bitsLeft: Int { bytes.count * 8 - position }

    /// u(n).
    package mutating func bits(_ count: Int) throws(EndOfData) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<count { value = (value << 1) | (try bit() ? 1 : 0) }
        return value
    }

    /// Skips `count` bits.
    package mutating func skip(_ count: Int) throws(EndOfData) {
        guard count >= 0, position + count <= bytes.count * 8 else { throw EndOfData() }
        position += count
    }

    /// u(1).
    package mutating func flag() throws(EndOfData) -> Bool { try bit() }

    /// ue(v).
    package mutating func ue() throws(EndOfData) -> UInt32 {
        var zeros = 0
        while try !bit() {
            zeros += 1
            if zeros > 31 { throw EndOfData() }
        }
        return UInt32((UInt64(1) << UInt64(zeros)) - 1 + (try bits(zeros)))
    }

    /// se(v).
    package mutating func se() throws(EndOfData) -> Int32 {
        let code = Int64(try ue())
        return Int32(code % 2 == 1 ? (code + 1) / 2 : -(code / 2))
    }

    private mutating func bit() throws(EndOfData) -> Bool {
        guard position < bytes.count * 8 else { throw EndOfData() }
        let byte = bytes[position / 8]
        let bit = (byte >> UInt8(7 - position % 8)) & 1
        position += 1
        return bit == 1
    }
}
