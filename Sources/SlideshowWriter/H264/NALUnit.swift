/// H.264 NAL units in Annex B byte streams: splitting, escaping and unescaping (H.264 §7.3.1, Annex B).
package enum NALUnit {
    /// The four-byte start code that precedes each NAL unit in an Annex B stream.
    package static let startCode: [UInt8] = [0, 0, 0, 1]

    /// The NAL units of an Annex B stream (each without its start code).
    package static func split(annexB data: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var index = 0
        var start: Int? = nil
        while index + 2 < data.count {
            if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                if let start {
                    var end = index
                    while end > start, data[end - 1] == 0 { end -= 1 }  // trailing zeros belong to the next start code
                    units.append(Array(data[start..<end]))
                }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let start, start < data.count { units.append(Array(data[start...])) }
        return units
    }

    /// nal_unit_type, the low five bits of the header byte.
    package static func type(of unit: [UInt8]) -> UInt8 { unit.first.map { $0 & 0x1F } ?? 0 }

    /// Removes emulation-prevention bytes: the RBSP of a NAL unit's payload (after its header byte).
    package static func rbsp(of unit: [UInt8]) -> [UInt8] {
        var rbsp: [UInt8] = []
        rbsp.reserveCapacity(unit.count)
        var zeros = 0
        for byte in unit.dropFirst() {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            rbsp.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return rbsp
    }

    /// A NAL unit from a header byte and an RBSP: inserts emulation-prevention bytes so that no
    /// 0x000000–0x000003 sequence appears inside.
    package static func make(header: UInt8, rbsp: [UInt8]) -> [UInt8] {
        var unit: [UInt8] = [header]
        unit.reserveCapacity(rbsp.count + rbsp.count / 64 + 2)
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2 && byte <= 3 {
                unit.append(3)
                zeros = 0
            }
            unit.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return unit
    }
}
