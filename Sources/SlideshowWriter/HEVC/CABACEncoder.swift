/// H.265's binary arithmetic encoder (ITU-T H.265 §9.3.4.3; the engine is H.264's, §9.3.4.2),
/// with context variables initialised as §9.3.2.2 says. Enough for the writer's own slices:
/// context-coded bins, bypass bins, terminating bins and the flush.
package struct CABACEncoder {
    /// One context variable: its probability state and most probable symbol.
    package struct Context: Equatable, Sendable {
        package var state: UInt8
        package var mps: UInt8

        /// The context of `initValue` (a table entry of §9.3.2.2) at slice QP `qp`.
        package init(initValue: Int, qp: Int) {
            let slope = initValue >> 4, offset = initValue & 15
            let m = slope * 5 - 45, n = (offset << 3) - 16
            let pre = min(126, max(1, ((m * min(51, max(0, qp))) >> 4) + n))
            mps = pre <= 63 ? 0 : 1
            state = UInt8(mps == 1 ? pre - 64 : 63 - pre)
        }
    }

    private var low: UInt32 = 0
    private var range: UInt32 = 510
    private var firstBit = true
    private var outstanding = 0
    private var bits = BitWriter()

    package init() {}

    /// The bytes written so far (whole bytes only; ``finish()`` completes them).
    package var bytes: [UInt8] { bits.bytes }

    /// A bin coded with context `context` (§9.3.4.3.2).
    package mutating func encodeDecision(_ bin: Bool, _ context: inout Context) {
        let value: UInt8 = bin ? 1 : 0
        let lps = UInt32(Self.rangeTabLPS[Int(context.state)][Int((range >> 6) & 3)])
        range -= lps
        if value != context.mps {
            low += range
            range = lps
            if context.state == 0 { context.mps = 1 - context.mps }
            context.state = Self.transIdxLPS[Int(context.state)]
        } else {
            context.state = min(62, context.state + 1)
        }
        renormalise()
    }

    /// A bin of probability one half (§9.3.4.3.4).
    package mutating func encodeBypass(_ bin: Bool) {
        low <<= 1
        if bin { low += range }
        if low >= 1024 {
            put(1)
            low -= 1024
        } else if low < 512 {
            put(0)
        } else {
            low -= 512
            outstanding += 1
        }
    }

    /// A terminating bin (§9.3.4.3.5): `end_of_slice_segment_flag`, `end_of_subset_one_bit`.
    /// A one flushes the encoder; its last bit written is the RBSP's stop bit (or the
    /// `alignment_bit_equal_to_one` of the `byte_alignment()` after a subset).
    package mutating func encodeTerminate(_ bin: Bool) {
        range -= 2
        if bin {
            low += range
            range = 2
            renormalise()
            put(UInt8((low >> 9) & 1))
            bits.write(bits: UInt64(((low >> 7) & 3) | 1), count: 2)
        } else {
            renormalise()
        }
    }

    /// After a terminating one: zeros to the byte boundary; the bytes of the substream.
    package mutating func finish() -> [UInt8] {
        while !bits.isByteAligned { bits.write(flag: false) }
        return bits.bytes
    }

    private mutating func renormalise() {
        while range < 256 {
            if low < 256 {
                put(0)
            } else if low >= 512 {
                low -= 512
                put(1)
            } else {
                low -= 256
                outstanding += 1
            }
            range <<= 1
            low <<= 1
        }
    }

    private mutating func put(_ bit: UInt8) {
        if firstBit {
            firstBit = false
        } else {
            bits.write(flag: bit == 1)
        }
        while outstanding > 0 {
            bits.write(flag: bit == 0)
            outstanding -= 1
        }
    }

    /// rangeTabLps (H.265 Table 9-52), by pStateIdx and qRangeIdx.
    static let rangeTabLPS: [[UInt8]] = [
        [128, 176, 208, 240], [128, 167, 197, 227], [128, 158, 187, 216], [123, 150, 178, 205],
        [116, 142, 169, 195], [111, 135, 160, 185], [105, 128, 152, 175], [100, 122, 144, 166],
        [95, 116, 137, 158], [90, 110, 130, 150], [85, 104, 123, 142], [81, 99, 117, 135],
        [77, 94, 111, 128], [73, 89, 105, 122], [69, 85, 100, 116], [66, 80, 95, 110],
        [62, 76, 90, 104], [59, 72, 86, 99], [56, 69, 81, 94], [53, 65, 77, 89],
        [51, 62, 73, 85], [48, 59, 69, 80], [46, 56, 66, 76], [43, 53, 63, 72],
        [41, 50, 59, 69], [39, 48, 56, 65], [37, 45, 54, 62], [35, 43, 51, 59],
        [33, 41, 48, 56], [32, 39, 46, 53], [30, 37, 43, 50], [29, 35, 41, 48],
        [27, 33, 39, 45], [26, 31, 37, 43], [24, 30, 35, 41], [23, 28, 33, 39],
        [22, 27, 32, 37], [21, 26, 30, 35], [20, 24, 29, 33], [19, 23, 27, 31],
        [18, 22, 26, 30], [17, 21, 25, 28], [16, 20, 23, 27], [15, 19, 22, 25],
        [14, 18, 21, 24], [14, 17, 20, 23], [13, 16, 19, 22], [12, 15, 18, 21],
        [12, 14, 17, 20], [11, 14, 16, 19], [11, 13, 15, 18], [10, 12, 15, 17],
        [10, 12, 14, 16], [9, 11, 13, 15], [9, 11, 12, 14], [8, 10, 12, 14],
        [8, 9, 11, 13], [7, 9, 11, 12], [7, 9, 10, 12], [7, 8, 10, 11],
        [6, 8, 9, 11], [6, 7, 9, 10], [6, 7, 8, 9], [2, 2, 2, 2],
    ]

    /// transIdxLps (H.265 Table 9-53); after an MPS the state goes up by one, to 62 at most.
    static let transIdxLPS: [UInt8] = [
        0, 0, 1, 2, 2, 4, 4, 5, 6, 7, 8, 9, 9, 11, 11, 12,
        13, 13, 15, 15, 16, 16, 18, 18, 19, 19, 21, 21, 22, 22, 23, 24,
        24, 25, 26, 26, 27, 27, 28, 29, 29, 30, 30, 30, 31, 32, 32, 33,
        33, 33, 34, 34, 35, 35, 35, 36, 36, 36, 37, 37, 37, 38, 38, 63,
    ]
}
