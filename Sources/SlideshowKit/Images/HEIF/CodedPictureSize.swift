/// The size a coded picture's own headers give it, read without a decoder: the HEVC sequence
/// parameter set's `pic_width_in_luma_samples` and `pic_height_in_luma_samples` (with its
/// conformance window), and the AV1 sequence header's `max_frame_width_minus_1` and
/// `max_frame_height_minus_1`.
///
/// The decoders allocate their pictures at these sizes, whatever a HEIF file's `ispe` box
/// says, so ``HEIFBoxes/Meta/checkItems(formatName:)`` compares them with `ispe` before
/// libheif decodes anything. Every read is bounds-checked; anything unreadable gives nil.
enum CodedPictureSize {
    /// The size an HEVC SPS NAL unit (its 2-byte header included) gives its pictures
    /// (ITU-T H.265 7.3.2.2.1); nil when it is not an SPS or is cut short.
    static func hevc(sps nal: ArraySlice<UInt8>) -> Size? {
        guard nal.count >= 3, (nal[nal.startIndex] >> 1) & 0x3F == 33 else { return nil }
        var bits = HeaderBits(unescaping: nal.dropFirst(2))
        guard let _ = bits.read(4), let subLayers = bits.read(3), bits.read(1) != nil else { return nil }
        // profile_tier_level(1, sps_max_sub_layers_minus1): 96 bits of general profile and
        // level, the sub-layers' presence flags, then their profiles and levels.
        guard bits.skip(96) else { return nil }
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayers {
            guard let profile = bits.read(1), let level = bits.read(1) else { return nil }
            present.append((profile == 1, level == 1))
        }
        if subLayers > 0 { guard bits.skip(2 * (8 - subLayers)) else { return nil } }
        for layer in present {
            guard bits.skip((layer.profile ? 88 : 0) + (layer.level ? 8 : 0)) else { return nil }
        }
        guard bits.readExpGolomb() != nil, let chromaFormat = bits.readExpGolomb() else { return nil }
        if chromaFormat == 3 { guard bits.read(1) != nil else { return nil } }
        guard let width = bits.readExpGolomb(), let height = bits.readExpGolomb(), width > 0, height > 0 else { return nil }
        return Size(width: width, height: height)
    }

    /// The sizes every SPS in an `hvcC` payload's arrays gives.
    static func hevc(configuration payload: ArraySlice<UInt8>) -> [Size?] {
        guard payload.count >= 23 else { return [] }
        var cursor = payload.startIndex + 23
        var found: [Size?] = []
        for _ in 0..<payload[payload.startIndex + 22] {
            guard cursor + 3 <= payload.endIndex else { return found }
            let type = payload[cursor] & 0x3F, count = Int(HEIFBoxes.u16(payload, cursor + 1))
            cursor += 3
            for _ in 0..<count {
                guard cursor + 2 <= payload.endIndex else { return found }
                let length = Int(HEIFBoxes.u16(payload, cursor))
                cursor += 2
                guard length <= payload.endIndex - cursor else { return found }
                if type == 33 { found.append(hevc(sps: payload[cursor..<cursor + length])) }
                cursor += length
            }
        }
        return found
    }

    /// The sizes every SPS among an HEVC item's NAL units gives (lengths of `lengthSize` bytes).
    static func hevc(data: ArraySlice<UInt8>, lengthSize: Int) -> [Size?] {
        var found: [Size?] = []
        var offset = data.startIndex
        while data.endIndex - offset >= lengthSize {
            var length = 0
            for index in offset..<offset + lengthSize { length = length << 8 | Int(data[index]) }
            offset += lengthSize
            guard length <= data.endIndex - offset else { break }
            if length >= 1, (data[offset] >> 1) & 0x3F == 33 { found.append(hevc(sps: data[offset..<offset + length])) }
            offset += length
        }
        return found
    }

    /// The size every AV1 sequence header among a run of OBUs gives (an `av1C`'s configOBUs
    /// or an item's data; AV1 5.3 and 5.5); OBUs without a size field end the run.
    static func av1(obus data: ArraySlice<UInt8>) -> [Size?] {
        var found: [Size?] = []
        var offset = data.startIndex
        while offset < data.endIndex {
            let header = data[offset]
            let type = (header >> 3) & 15, hasExtension = header & 4 != 0, hasSize = header & 2 != 0
            offset += hasExtension ? 2 : 1
            guard hasSize, offset < data.endIndex else { break }
            var size = 0, shift = 0
            while true {  // leb128
                guard offset < data.endIndex, shift < 56 else { return found }
                let byte = data[offset]
                offset += 1
                size |= Int(byte & 0x7F) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            guard size <= data.endIndex - offset else { break }
            if type == 1 { found.append(av1(sequenceHeader: data[offset..<offset + size])) }
            offset += size
        }
        return found
    }

    /// The largest frame an AV1 sequence header (its payload) allows (AV1 5.5.1).
    static func av1(sequenceHeader payload: ArraySlice<UInt8>) -> Size? {
        var bits = HeaderBits(payload)
        guard bits.skip(4), let reduced = bits.read(1) else { return nil }  // seq_profile, still_picture
        if reduced == 1 {
            guard bits.skip(5) else { return nil }
        } else {
            guard let timing = bits.read(1) else { return nil }
            var decoderModel = 0, delayLength = 0
            if timing == 1 {
                guard bits.skip(64), let equalInterval = bits.read(1) else { return nil }
                if equalInterval == 1 {  // uvlc()
                    var zeros = 0
                    while true {
                        guard let bit = bits.read(1) else { return nil }
                        if bit == 1 { break }
                        zeros += 1
                        guard zeros < 32 else { return nil }
                    }
                    guard bits.skip(zeros) else { return nil }
                }
                guard let model = bits.read(1) else { return nil }
                decoderModel = model
                if model == 1 {
                    guard let length = bits.read(5), bits.skip(32 + 5 + 5) else { return nil }
                    delayLength = length + 1
                }
            }
            guard let initialDelay = bits.read(1), let points = bits.read(5) else { return nil }
            for _ in 0...points {
                guard bits.skip(12), let level = bits.read(5) else { return nil }
                if level > 7 { guard bits.skip(1) else { return nil } }
                if decoderModel == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(2 * delayLength + 1) else { return nil } }
                }
                if initialDelay == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(4) else { return nil } }
                }
            }
        }
        guard let widthBits = bits.read(4), let heightBits = bits.read(4),
              let width = bits.read(widthBits + 1), let height = bits.read(heightBits + 1) else { return nil }
        return Size(width: width + 1, height: height + 1)
    }
}

/// Reads bits most significant first; for HEVC, over the payload with its emulation
/// prevention bytes (`00 00 03`) removed.
private struct HeaderBits {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = Array(bytes) }

    init(unescaping payload: ArraySlice<UInt8>) {
        var out: [UInt8] = []
        out.reserveCapacity(min(payload.count, 256))
        var zeros = 0
        // The SPS fields read here lie in its first bytes: 256 are plenty.
        for byte in payload.prefix(256) {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        bytes = out
    }

    /// The next `count` bits (at most 32) as a number; nil past the end.
    mutating func read(_ count: Int) -> Int? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// Skips `count` bits; false past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count * 8 else { return false }
        position += count
        return true
    }

    /// An unsigned Exp-Golomb number, `ue(v)`; nil past the end or over 32 bits.
    mutating func readExpGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros < 32 else { return nil }
        }
        guard let rest = read(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }
}
