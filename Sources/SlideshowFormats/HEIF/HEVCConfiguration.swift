/// An `hvcC` box's parameter sets, ready to go before each picture.
package struct HEVCConfiguration {
    /// The VPS, SPS, PPS and SEI NAL units of its arrays, each after an Annex B start code.
    package var parameterSets: [UInt8]
    /// The size of each NAL unit's length in the pictures' data: 1, 2 or 4 bytes.
    package var lengthSize: Int

    /// Reads an `hvcC` payload (ISO/IEC 14496-15 8.3.3.1); nil when it is cut short or has no NAL unit.
    package init?(_ payload: ArraySlice<UInt8>) {
        guard payload.count >= 23 else { return nil }
        let start = payload.startIndex
        lengthSize = Int(payload[start + 21] & 3) + 1
        guard lengthSize != 3 else { return nil }
        let arrays = Self.nalUnits(payload)
        guard arrays.complete else { return nil }
        var sets: [UInt8] = []
        for (_, unit) in arrays.units {
            sets += [0, 0, 0, 1]
            sets += unit
        }
        guard !sets.isEmpty else { return nil }
        parameterSets = sets
    }

    /// The NAL units of an `hvcC` payload's arrays, in order, each with its array's NAL unit
    /// type; `complete` is false when the payload is cut short (the units before the cut are
    /// given) or shorter than its 23-byte header.
    package static func nalUnits(_ payload: ArraySlice<UInt8>) -> (units: [(type: UInt8, unit: ArraySlice<UInt8>)], complete: Bool) {
        guard payload.count >= 23 else { return ([], false) }
        var cursor = payload.startIndex + 23
        var units: [(type: UInt8, unit: ArraySlice<UInt8>)] = []
        for _ in 0..<payload[payload.startIndex + 22] {
            guard cursor + 3 <= payload.endIndex else { return (units, false) }
            let type = payload[cursor] & 0x3F, count = Int(HEIFBoxes.u16(payload, cursor + 1))
            cursor += 3
            for _ in 0..<count {
                guard cursor + 2 <= payload.endIndex else { return (units, false) }
                let length = Int(HEIFBoxes.u16(payload, cursor))
                cursor += 2
                guard length <= payload.endIndex - cursor else { return (units, false) }
                units.append((type, payload[cursor..<cursor + length]))
                cursor += length
            }
        }
        return (units, true)
    }
}
