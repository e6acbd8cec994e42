import SlideshowSupport

/// Writes an H.264 RBSP bit by bit: fixed-width fields and Exp-Golomb codes (ITU-T H.264 §7.2, §9.1).
package struct BitWriter {
    package private(set) var bytes: [UInt8] = []

    package init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }
    private var current: UInt8 = 0
    private var used = 0

    /// u(n): the low `count` bits of `value`, most significant first.
    package mutating func write(bits value: UInt64, count: Int) {
        precondition(count >= 0 && count <= 64)
        for shift in stride(from: count - 1, through: 0, by: -1) {
            writeBit((value >> UInt64(shift)) & 1 == 1)
        }
    }

    /// u(1).
    package mutating func write(flag: Bool) { writeBit(flag) }

    /// ue(v): unsigned Exp-Golomb.
    package mutating func write(ue value: UInt32) {
        let codeNum = UInt64(value) + 1
        let length = 64 - codeNum.leadingZeroBitCount
        write(bits: 0, count: length - 1)
        write(bits: codeNum, count: length)
    }

    /// se(v): signed Exp-Golomb (k > 0 ↦ 2k − 1, k ≤ 0 ↦ −2k).
    package mutating func write(se value: Int32) {
        write(ue: value > 0 ? UInt32(2 * Int64(value) - 1) : UInt32(-2 * Int64(value)))
    }

    /// Whether the next bit starts a byte.
    package var isByteAligned: Bool { used == 0 }

    /// Whole bytes, at a byte boundary (e.g. CABAC slice data after its alignment bits).
    package mutating func append<Bytes: Collection<UInt8>>(alignedBytes: Bytes) {
        precondition(used == 0, "bytes appended off a byte boundary")
        bytes.append(contentsOf: alignedBytes)
    }

    /// The next `count` bits of `reader`, as they are.
    package mutating func copy(_ count: Int, from reader: inout BitReader) throws(BitReader.EndOfData) {
        var left = count
        while left > 0 {
            let chunk = min(left, 32)
            write(bits: try reader.bits(chunk), count: chunk)
            left -= chunk
        }
    }

    /// rbsp_trailing_bits(): a one, then zeros to the byte boundary; returns the RBSP.
    package mutating func finishRBSP() -> [UInt8] {
        writeBit(true)
        while used != 0 { writeBit(false) }
        return bytes
    }

    private mutating func writeBit(_ bit: Bool) {
        current = (current << 1) | (bit ? 1 : 0)
        used += 1
        if used == 8 {
            bytes.append(current)
            current = 0
            used = 0
        }
    }
}
