/// An `hvcC` box's parameter sets, ready to go before each picture.
struct HEVCConfiguration {
    /// The VPS, SPS, PPS and SEI NAL units of its arrays, each after an Annex B start code.
    var parameterSets: [UInt8]
    /// The size of each NAL unit's length in the pictures' data: 1, 2 or 4 bytes.
    var lengthSize: Int

    /// Reads an `hvcC` payload (ISO/IEC 14496-15 8.3.3.1); nil when it is cut short or has no NAL unit.
    init?(_ payload: ArraySlice<UInt8>) {
        guard payload.count >= 23 else { return nil }
        let start = payload.startIndex
        lengthSize = Int(payload[start + 21] & 3) + 1
        guard lengthSize != 3 else { return nil }
        var cursor = start + 23
        var sets: [UInt8] = []
        for _ in 0..<payload[start + 22] {
            guard cursor + 3 <= payload.endIndex else { return nil }
            let count = Int(HEIFBoxes.u16(payload, cursor + 1))
            cursor += 3
            for _ in 0..<count {
                guard cursor + 2 <= payload.endIndex else { return nil }
                let length = Int(HEIFBoxes.u16(payload, cursor))
                cursor += 2
                guard length <= payload.endIndex - cursor else { return nil }
                sets += [0, 0, 0, 1]
                sets += payload[cursor..<cursor + length]
                cursor += length
            }
        }
        guard !sets.isEmpty else { return nil }
        parameterSets = sets
    }
}
