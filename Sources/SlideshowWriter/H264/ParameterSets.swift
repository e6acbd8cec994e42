import SlideshowSupport

/// What a skip slice needs to know of the encoder's sequence parameter set (H.264 §7.3.2.1.1).
package struct SequenceParameterSet: Equatable {
    package var profileIDC: UInt8
    package var id: UInt32
    package var log2MaxFrameNum: Int
    package var picOrderCntType: UInt32
    package var maxNumRefFrames: UInt32
    package var widthInMacroblocks: Int
    package var heightInMapUnits: Int
    package var frameMbsOnly: Bool
    /// `log2_max_pic_order_cnt_lsb` under POC type 0 (the width of a slice's
    /// `pic_order_cnt_lsb`); 0 under the other types.
    package var log2MaxPicOrderCntLsb = 0
    /// `chroma_format_idc` (1: 4:2:0).
    package var chromaFormatIDC: UInt32 = 1

    package init(profileIDC: UInt8, id: UInt32, log2MaxFrameNum: Int, picOrderCntType: UInt32, maxNumRefFrames: UInt32, widthInMacroblocks: Int, heightInMapUnits: Int, frameMbsOnly: Bool, log2MaxPicOrderCntLsb: Int = 0, chromaFormatIDC: UInt32 = 1) {
        self.log2MaxPicOrderCntLsb = log2MaxPicOrderCntLsb
        self.profileIDC = profileIDC
        self.id = id
        self.log2MaxFrameNum = log2MaxFrameNum
        self.picOrderCntType = picOrderCntType
        self.maxNumRefFrames = maxNumRefFrames
        self.widthInMacroblocks = widthInMacroblocks
        self.heightInMapUnits = heightInMapUnits
        self.frameMbsOnly = frameMbsOnly
        self.chromaFormatIDC = chromaFormatIDC
    }

    /// Macroblocks in a frame: PicSizeInMbs for progressive frames.
    package var macroblocksPerFrame: Int { widthInMacroblocks * heightInMapUnits * (frameMbsOnly ? 1 : 2) }

    package enum ParseError: Error, Equatable { case notAnSPS, truncated }
}

// In an extension, so that the memberwise initialiser (an SPS from its fields) stays.
extension SequenceParameterSet {
    /// Parses an SPS NAL unit (header byte included).
    package init(nalUnit: [UInt8]) throws(ParseError) {
        guard NALUnit.type(of: nalUnit) == 7 else { throw .notAnSPS }
        var reader = BitReader(rbsp: NALUnit.rbsp(of: nalUnit))
        do {
            profileIDC = UInt8(try reader.bits(8))
            _ = try reader.bits(16)  // constraint flags, reserved bits, level_idc
            id = try reader.ue()
            if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profileIDC) {
                let chromaFormat = try reader.ue()
                chromaFormatIDC = chromaFormat
                if chromaFormat == 3 { _ = try reader.flag() }  // separate_colour_plane_flag
                _ = try reader.ue()  // bit_depth_luma_minus8
                _ = try reader.ue()  // bit_depth_chroma_minus8
                _ = try reader.flag()  // qpprime_y_zero_transform_bypass_flag
                if try reader.flag() {  // seq_scaling_matrix_present_flag
                    for list in 0..<(chromaFormat == 3 ? 12 : 8) where try reader.flag() {
                        try Self.skipScalingList(&reader, size: list < 6 ? 16 : 64)
                    }
                }
            }
            log2MaxFrameNum = Int(try reader.ue()) + 4
            picOrderCntType = try reader.ue()
            switch picOrderCntType {
            case 0:
                log2MaxPicOrderCntLsb = Int(try reader.ue()) + 4
            case 1:
                _ = try reader.flag()
                _ = try reader.se()
                _ = try reader.se()
                for _ in 0..<(try reader.ue()) { _ = try reader.se() }
            default:
                break
            }
            maxNumRefFrames = try reader.ue()
            _ = try reader.flag()  // gaps_in_frame_num_value_allowed_flag
            widthInMacroblocks = Int(try reader.ue()) + 1
            heightInMapUnits = Int(try reader.ue()) + 1
            frameMbsOnly = try reader.flag()
        } catch {
            throw .truncated
        }
    }

    private static func skipScalingList(_ reader: inout BitReader, size: Int) throws(BitReader.EndOfData) {
        var last: Int32 = 8, next: Int32 = 8
        for _ in 0..<size where next != 0 {
            next = (last + (try reader.se()) + 256) % 256
            last = next == 0 ? last : next
        }
    }
}

/// What a slice header's layout depends on in a picture parameter set (H.264 §7.3.2.2).
package struct PictureParameterSet: Equatable {
    package var id: UInt32
    package var spsID: UInt32
    /// CABAC (slice data byte-aligned after the header) rather than CAVLC.
    package var entropyCodingMode: Bool
    package var bottomFieldPicOrderInFramePresent: Bool
    package var sliceGroups: UInt32
    package var deblockingFilterControlPresent: Bool
    package var redundantPicCntPresent: Bool

    package enum ParseError: Error, Equatable { case notAPPS, truncated }

    /// Parses a PPS NAL unit (header byte included).
    package init(nalUnit: [UInt8]) throws(ParseError) {
        guard NALUnit.type(of: nalUnit) == 8 else { throw .notAPPS }
        var reader = BitReader(rbsp: NALUnit.rbsp(of: nalUnit))
        do {
            id = try reader.ue()
            spsID = try reader.ue()
            entropyCodingMode = try reader.flag()
            bottomFieldPicOrderInFramePresent = try reader.flag()
            sliceGroups = try reader.ue() + 1
            guard sliceGroups == 1 else {
                // Slice group maps (Baseline's FMO) never come from x264; their syntax is not read.
                deblockingFilterControlPresent = false
                redundantPicCntPresent = false
                return
            }
            _ = try reader.ue()  // num_ref_idx_l0_default_active_minus1
            _ = try reader.ue()  // num_ref_idx_l1_default_active_minus1
            _ = try reader.flag()  // weighted_pred_flag
            _ = try reader.bits(2)  // weighted_bipred_idc
            _ = try reader.se()  // pic_init_qp_minus26
            _ = try reader.se()  // pic_init_qs_minus26
            _ = try reader.se()  // chroma_qp_index_offset
            deblockingFilterControlPresent = try reader.flag()
            _ = try reader.flag()  // constrained_intra_pred_flag
            redundantPicCntPresent = try reader.flag()
        } catch {
            throw .truncated
        }
    }

    /// The same PPS NAL unit naming another SPS: every other field copied bit for bit.
    package static func pointing(_ nalUnit: [UInt8], atSPS spsID: UInt32) throws(ParseError) -> [UInt8] {
        guard NALUnit.type(of: nalUnit) == 8 else { throw .notAPPS }
        let rbsp = NALUnit.rbsp(of: nalUnit)
        var reader = BitReader(rbsp: rbsp)
        var bits = BitWriter()
        do {
            bits.write(ue: try reader.ue())  // pic_parameter_set_id
            _ = try reader.ue()  // seq_parameter_set_id
            bits.write(ue: spsID)
            try bits.copy(RBSP.payloadBits(rbsp) - reader.position, from: &reader)
        } catch {
            throw .truncated
        }
        return NALUnit.make(header: nalUnit[0], rbsp: bits.finishRBSP())
    }
}

/// Where an RBSP's payload ends.
package enum RBSP {
    /// The bits before `rbsp_stop_one_bit` (the last set bit; zero bytes after it, such as
    /// CABAC's `cabac_zero_word`s, are not payload).
    package static func payloadBits(_ rbsp: [UInt8]) -> Int {
        guard let last = rbsp.lastIndex(where: { $0 != 0 }) else { return 0 }
        return last * 8 + 7 - rbsp[last].trailingZeroBitCount
    }
}

/// The first fields of a slice header (H.264 §7.3.3), read from the encoder's own slices so
/// that the writer's held frames carry on its frame numbering.
package struct SliceHeaderPrefix: Equatable {
    package var nalType: UInt8
    package var nalRefIDC: UInt8
    package var sliceType: UInt32
    package var ppsID: UInt32
    package var frameNum: Int

    /// Parses the start of a coded slice NAL unit (type 1 or 5).
    package init?(nalUnit: [UInt8], sps: SequenceParameterSet) {
        let type = NALUnit.type(of: nalUnit)
        guard type == 1 || type == 5 else { return nil }
        var reader = BitReader(rbsp: Array(NALUnit.rbsp(of: Array(nalUnit.prefix(16)))))
        guard (try? reader.ue()) != nil,  // first_mb_in_slice
              let sliceType = try? reader.ue(),
              let ppsID = try? reader.ue(),
              let frameNum = try? reader.bits(sps.log2MaxFrameNum)
        else { return nil }
        nalType = type
        nalRefIDC = (nalUnit[0] >> 5) & 3
        self.sliceType = sliceType
        self.ppsID = ppsID
        self.frameNum = Int(frameNum)
    }
}

/// An encoder's global header, read: its sequence parameter set and its picture parameter
/// sets' ids (the skip writer's own PPS takes a free id).
package struct EncoderParameterSets {
    package var sps: SequenceParameterSet
    package var ppsIDs: [UInt32]

    /// Reads an Annex B global header; nil without a readable SPS.
    package init?(annexB data: [UInt8]) {
        let units = NALUnit.split(annexB: data)
        guard let spsUnit = units.first(where: { NALUnit.type(of: $0) == 7 }),
              let sps = try? SequenceParameterSet(nalUnit: spsUnit)
        else { return nil }
        self.sps = sps
        ppsIDs = units.filter { NALUnit.type(of: $0) == 8 }.compactMap { unit -> UInt32? in
            var reader = BitReader(rbsp: NALUnit.rbsp(of: unit))
            return try? reader.ue()
        }
    }
}
