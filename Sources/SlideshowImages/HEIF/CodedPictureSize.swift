import SlideshowPixels
import SlideshowSupport
import SlideshowFormats

/// The size a coded picture's own headers give it, read without a decoder: the HEVC sequence
/// parameter set's `pic_width_in_luma_samples` and `pic_height_in_luma_samples` (with its
/// conformance window), and the AV1 sequence header's `max_frame_width_minus_1` and
/// `max_frame_height_minus_1`.
///
/// The decoders allocate their pictures at these sizes, whatever a HEIF file's `ispe` box
/// says, so ``HEIFBoxes/Meta/checkItems(formatName:)`` compares them with `ispe` before
/// libheif decodes anything. Every read is bounds-checked; anything unreadable gives nil.
package enum CodedPictureSize {
    /// The size an HEVC SPS NAL unit (its 2-byte header included) gives its pictures
    /// (ITU-T H.265 7.3.2.2.1); nil when it is not an SPS or is cut short.
    package static func hevc(sps nal: ArraySlice<UInt8>) -> Size? {
        guard nal.count >= 3, (nal[nal.startIndex] >> 1) & 0x3F == 33 else { return nil }
        var bits = BitReader(rbsp: unescaped(nal.dropFirst(2)))
        do throws(BitReader.EndOfData) {
            try bits.skip(4)
            let subLayers = Int(try bits.bits(3))
            try bits.skip(1)
            // profile_tier_level(1, sps_max_sub_layers_minus1): 96 bits of general profile and
            // level, the sub-layers' presence flags, then their profiles and levels.
            try bits.skip(96)
            var present: [(profile: Bool, level: Bool)] = []
            for _ in 0..<subLayers {
                let profile = try bits.flag()
                let level = try bits.flag()
                present.append((profile, level))
            }
            if subLayers > 0 { try bits.skip(2 * (8 - subLayers)) }
            for layer in present {
                try bits.skip((layer.profile ? 88 : 0) + (layer.level ? 8 : 0))
            }
            _ = try bits.ue()
            let chromaFormat = try bits.ue()
            if chromaFormat == 3 { try bits.skip(1) }
            let width = Int(try bits.ue()), height = Int(try bits.ue())
            guard width > 0, height > 0 else { return nil }
            return Size(width: width, height: height)
        } catch {
            return nil
        }
    }

    /// The sizes every SPS in an `hvcC` payload's arrays gives.
    package static func hevc(configuration payload: ArraySlice<UInt8>) -> [Size?] {
        HEVCConfiguration.nalUnits(payload).units.filter { $0.type == 33 }.map { hevc(sps: $0.unit) }
    }

    /// The sizes every SPS among an HEVC item's NAL units gives (lengths of `lengthSize` bytes).
    package static func hevc(data: ArraySlice<UInt8>, lengthSize: Int) -> [Size?] {
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
    package static func av1(obus data: ArraySlice<UInt8>) -> [Size?] {
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
    package static func av1(sequenceHeader payload: ArraySlice<UInt8>) -> Size? {
        var bits = BitReader(rbsp: Array(payload))
        do throws(BitReader.EndOfData) {
            try bits.skip(4)  // seq_profile, still_picture
            if try bits.flag() {  // reduced_still_picture_header
                try bits.skip(5)
            } else {
                var decoderModel = false, delayLength = 0
                if try bits.flag() {  // timing_info_present_flag
                    try bits.skip(64)
                    if try bits.flag() {  // equal_picture_interval: uvlc()
                        var zeros = 0
                        while try !bits.flag() {
                            zeros += 1
                            guard zeros < 32 else { return nil }
                        }
                        try bits.skip(zeros)
                    }
                    decoderModel = try bits.flag()
                    if decoderModel {
                        delayLength = Int(try bits.bits(5)) + 1
                        try bits.skip(32 + 5 + 5)
                    }
                }
                let initialDelay = try bits.flag()
                let points = Int(try bits.bits(5))
                for _ in 0...points {
                    try bits.skip(12)
                    if try bits.bits(5) > 7 { try bits.skip(1) }
                    if decoderModel, try bits.flag() { try bits.skip(2 * delayLength + 1) }
                    if initialDelay, try bits.flag() { try bits.skip(4) }
                }
            }
            let widthBits = Int(try bits.bits(4)), heightBits = Int(try bits.bits(4))
            let width = Int(try bits.bits(widthBits + 1)), height = Int(try bits.bits(heightBits + 1))
            return Size(width: width + 1, height: height + 1)
        } catch {
            return nil
        }
    }

    /// An HEVC NAL unit's payload with its emulation prevention bytes (`00 00 03`) removed.
    /// The SPS fields read here lie in its first bytes: 256 are plenty.
    private static func unescaped(_ payload: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(payload.count, 256))
        var zeros = 0
        for byte in payload.prefix(256) {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}
