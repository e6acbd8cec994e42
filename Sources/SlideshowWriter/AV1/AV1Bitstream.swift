import SlideshowSupport

/// The few parts of an AV1 stream (AV1 Bitstream & Decoding Process Specification, 2019) the
/// writer reads and writes: OBUs in the low-overhead format (§5.3), the sequence header's
/// fields that the frame header's first fields depend on (§5.5), a frame header up to
/// `refresh_frame_flags` (§5.9.2), and the `show_existing_frame` header that shows a decoded
/// frame again (§5.9.2, §7.21).
package enum AV1OBU {
    package static let sequenceHeader: UInt8 = 1
    package static let temporalDelimiter: UInt8 = 2
    package static let frameHeader: UInt8 = 3
    package static let frame: UInt8 = 6

    /// The OBUs of a packet or of extradata: each one's type and payload.
    package static func split(_ bytes: [UInt8]) -> [(type: UInt8, payload: ArraySlice<UInt8>)] {
        var units: [(UInt8, ArraySlice<UInt8>)] = []
        var index = 0
        while index < bytes.count {
            let header = bytes[index]
            let type = (header >> 3) & 0x0F
            let hasExtension = header & 0x04 != 0, hasSize = header & 0x02 != 0
            index += hasExtension ? 2 : 1
            var size = bytes.count - index
            if hasSize {
                var value = 0, shift = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    index += 1
                    value |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte & 0x80 == 0 || shift > 56 { break }
                }
                size = value
            }
            guard size >= 0, index + size <= bytes.count else { break }
            units.append((type, bytes[index..<(index + size)]))
            index += size
        }
        return units
    }

    /// One OBU with `obu_has_size_field` 1 and no extension.
    package static func make(type: UInt8, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [type << 3 | 0x02]
        var size = payload.count
        repeat {
            var byte = UInt8(size & 0x7F)
            size >>= 7
            if size > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while size > 0
        return bytes + payload
    }
}

/// What the frame header's first fields depend on, from a sequence header OBU (§5.5).
package struct AV1SequenceHeader: Sendable, Equatable {
    package var reducedStillPictureHeader = false
    package var decoderModelInfoPresent = false
    package var equalPictureInterval = false
    package var frameIDNumbersPresent = false
    package var frameIDLength = 0
    /// `seq_force_screen_content_tools` (2: chosen per frame).
    package var forceScreenContentTools = 2
    /// `seq_force_integer_mv` (2: chosen per frame).
    package var forceIntegerMV = 2
    package var orderHintBits = 0

    package enum Unsupported: Error, Equatable { case noSequenceHeader, truncated, decoderModel, frameIDNumbers, reducedStillPicture }

    /// - Parameter obus: the encoder's global header (its sequence header OBU), or a packet that holds one.
    package init(obus: [UInt8]) throws(Unsupported) {
        // libaom's global header is an `av1C` record (ISO/IEC 14496-15 AV1 binding: marker and
        // version 0x81, then three bytes) with the sequence header OBU after it.
        let obus = obus.first == 0x81 && obus.count > 4 ? Array(obus.dropFirst(4)) : obus
        guard let unit = AV1OBU.split(obus).first(where: { $0.type == AV1OBU.sequenceHeader }) else { throw .noSequenceHeader }
        var bits = BitReader(rbsp: Array(unit.payload))
        do {
            _ = try bits.bits(3)  // seq_profile
            _ = try bits.flag()  // still_picture
            reducedStillPictureHeader = try bits.flag()
            guard !reducedStillPictureHeader else { throw Unsupported.reducedStillPicture }
            if try bits.flag() {  // timing_info_present_flag
                try bits.skip(64)  // num_units_in_display_tick, time_scale
                equalPictureInterval = try bits.flag()
                if equalPictureInterval { _ = try Self.uvlc(&bits) }
                decoderModelInfoPresent = try bits.flag()
                // The frame headers then carry buffer removal times per operating point: not read here.
                guard !decoderModelInfoPresent else { throw Unsupported.decoderModel }
            }
            let initialDisplayDelayPresent = try bits.flag()
            let operatingPoints = Int(try bits.bits(5)) + 1
            for _ in 0..<operatingPoints {
                try bits.skip(12)  // operating_point_idc
                if try bits.bits(5) > 7 { try bits.skip(1) }  // seq_level_idx, seq_tier
                if initialDisplayDelayPresent, try bits.flag() { try bits.skip(4) }
            }
            let widthBits = Int(try bits.bits(4)) + 1, heightBits = Int(try bits.bits(4)) + 1
            try bits.skip(widthBits + heightBits)  // max_frame_width_minus_1, max_frame_height_minus_1
            frameIDNumbersPresent = try bits.flag()
            // display_frame_id would have to follow each frame's id: not written here.
            guard !frameIDNumbersPresent else { throw Unsupported.frameIDNumbers }
            try bits.skip(3)  // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
            try bits.skip(4)  // enable_interintra_compound, enable_masked_compound, enable_warped_motion, enable_dual_filter
            let enableOrderHint = try bits.flag()
            if enableOrderHint { try bits.skip(2) }  // enable_jnt_comp, enable_ref_frame_mvs
            forceScreenContentTools = try bits.flag() ? 2 : Int(try bits.bits(1))
            if forceScreenContentTools > 0 {
                forceIntegerMV = try bits.flag() ? 2 : Int(try bits.bits(1))
            }
            if enableOrderHint { orderHintBits = Int(try bits.bits(3)) + 1 }
        } catch let error as Unsupported {
            throw error
        } catch {
            throw .truncated
        }
    }

    private static func uvlc(_ bits: inout BitReader) throws(BitReader.EndOfData) -> UInt64 {
        var zeros = 0
        while try !bits.flag() {
            zeros += 1
            if zeros >= 32 { return UInt64(UInt32.max) }
        }
        return (1 << UInt64(zeros)) - 1 + (try bits.bits(zeros))
    }
}

/// The first fields of a frame header (§5.9.2), up to `refresh_frame_flags`: what a
/// `show_existing_frame` needs to know of the frame it shows again.
package struct AV1FrameHeaderPrefix: Sendable, Equatable {
    package static let keyFrame = 0
    package var showExistingFrame = false
    package var frameType = 0
    package var showFrame = false
    package var showableFrame = false
    /// The reference slots the frame is stored in.
    package var refreshFrameFlags: UInt8 = 0
    /// With ``showExistingFrame``: the slot it shows.
    package var frameToShow = 0

    /// The shown frame of an encoder's packet: its last frame (or frame header) OBU, after any
    /// hidden frame (an alt-ref) before it.
    package init?(packet: [UInt8], sequence: AV1SequenceHeader) {
        guard let unit = AV1OBU.split(packet).last(where: { $0.type == AV1OBU.frame || $0.type == AV1OBU.frameHeader }) else { return nil }
        var bits = BitReader(rbsp: Array(unit.payload.prefix(32)))
        do {
            showExistingFrame = try bits.flag()
            if showExistingFrame {
                frameToShow = Int(try bits.bits(3))
                showFrame = true
                return
            }
            frameType = Int(try bits.bits(2))
            showFrame = try bits.flag()
            showableFrame = showFrame ? frameType != Self.keyFrame : try bits.flag()
            let switchFrame = frameType == 3, shownKey = frameType == Self.keyFrame && showFrame
            let errorResilient = switchFrame || shownKey ? true : try bits.flag()
            _ = try bits.flag()  // disable_cdf_update
            let screenContent = sequence.forceScreenContentTools == 2 ? try bits.flag() : sequence.forceScreenContentTools == 1
            if screenContent, sequence.forceIntegerMV == 2 { _ = try bits.flag() }  // force_integer_mv
            if !switchFrame { _ = try bits.flag() }  // frame_size_override_flag
            try bits.skip(sequence.orderHintBits)  // order_hint
            let intra = frameType == Self.keyFrame || frameType == 2
            if !(intra || errorResilient) { try bits.skip(3) }  // primary_ref_frame
            refreshFrameFlags = switchFrame || shownKey ? 0xFF : UInt8(try bits.bits(8))
        } catch {
            return nil
        }
    }
}

/// Held frames in AV1: a temporal unit of a temporal delimiter and a frame header OBU with
/// `show_existing_frame` 1, which shows the frame in one reference slot again (5 bytes).
///
/// A shown key frame cannot be shown again so: its `showable_frame` is 0 (§5.9.2; libaom's
/// decoder marks the frame corrupt, dav1d refuses it when strict), and a key frame shown by
/// `show_existing_frame` is shown at most once. So the picture a hold repeats is a shown
/// inter frame: the writer gives the encoder the held picture twice, a key frame and then the
/// same picture again, which the encoder codes as an inter frame of a few tens of bytes, and
/// the rest of the hold shows that frame's slot (``AV1FrameHeaderPrefix/refreshFrameFlags``).
package struct AV1ShowExisting: Sendable {
    /// The temporal unit that shows slot `slot` (0 to 7) again.
    package static func temporalUnit(slot: Int) -> [UInt8] {
        precondition((0..<8).contains(slot))
        var bits = BitWriter()
        bits.write(flag: true)  // show_existing_frame
        bits.write(bits: UInt64(slot), count: 3)  // frame_to_show_map_idx
        // No temporal_point_info (no decoder model), no display_frame_id (no frame ids).
        let header = bits.finishRBSP()  // trailing_bits
        return AV1OBU.make(type: AV1OBU.temporalDelimiter, payload: []) + AV1OBU.make(type: AV1OBU.frameHeader, payload: header)
    }
}
