import SlideshowSupport

/// HEVC NAL units: the two-byte header (ITU-T H.265 §7.3.1.2).
package enum HEVCNALUnit {
    /// nal_unit_type: bits 1–6 of the first header byte.
    package static func type(of unit: [UInt8]) -> UInt8 { unit.first.map { ($0 >> 1) & 0x3F } ?? 0 }

    /// The RBSP of a unit's payload (after its two header bytes), emulation prevention removed.
    package static func rbsp(of unit: [UInt8]) -> [UInt8] { NALUnit.rbsp(of: Array(unit.dropFirst())) }

    /// A unit of type `type` (layer 0, temporal id 0) around `rbsp`, escaped.
    package static func make(type: UInt8, rbsp: [UInt8]) -> [UInt8] {
        [type << 1] + NALUnit.make(header: 0x01, rbsp: rbsp)
    }

    /// Whether a unit of this type is an IDR picture's slice (IDR_W_RADL, IDR_N_LP).
    package static func isIDR(_ type: UInt8) -> Bool { type == 19 || type == 20 }
}

/// What the writer's slices need of an HEVC sequence parameter set (H.265 §7.3.2.2).
package struct HEVCSequenceParameterSet: Equatable, Sendable {
    package var id: UInt32 = 0
    package var chromaFormatIDC: UInt32 = 1
    package var width = 0, height = 0
    package var log2MaxPicOrderCntLsb = 4
    /// sps_max_dec_pic_buffering_minus1 of the highest sub-layer.
    package var maxDecPicBufferingMinus1: UInt32 = 0
    package var log2MinCodingBlockSize = 3, log2CodingTreeBlockSize = 4
    package var sampleAdaptiveOffset = false
    package var numShortTermRefPicSets: UInt32 = 0
    package var longTermRefPicsPresent = false
    package var numLongTermRefPicsSPS: UInt32 = 0
    package var temporalMVP = false

    package enum Unsupported: Error, Equatable { case truncated, separateColourPlanes, scalingLists }

    package init(nalUnit: [UInt8]) throws(Unsupported) {
        var reader = BitReader(rbsp: HEVCNALUnit.rbsp(of: nalUnit))
        do {
            _ = try reader.bits(4)  // sps_video_parameter_set_id
            let maxSubLayersMinus1 = Int(try reader.bits(3))
            _ = try reader.flag()  // sps_temporal_id_nesting_flag
            try Self.skipProfileTierLevel(&reader, maxSubLayersMinus1: maxSubLayersMinus1)
            id = try reader.ue()
            chromaFormatIDC = try reader.ue()
            if chromaFormatIDC == 3, try reader.flag() { throw Unsupported.separateColourPlanes }
            width = Int(try reader.ue())
            height = Int(try reader.ue())
            if try reader.flag() { for _ in 0..<4 { _ = try reader.ue() } }  // conformance window
            _ = try reader.ue()  // bit_depth_luma_minus8
            _ = try reader.ue()  // bit_depth_chroma_minus8
            log2MaxPicOrderCntLsb = Int(try reader.ue()) + 4
            let orderingInfo = try reader.flag()
            for _ in (orderingInfo ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
                maxDecPicBufferingMinus1 = try reader.ue()
                _ = try reader.ue()  // sps_max_num_reorder_pics
                _ = try reader.ue()  // sps_max_latency_increase_plus1
            }
            log2MinCodingBlockSize = Int(try reader.ue()) + 3
            log2CodingTreeBlockSize = log2MinCodingBlockSize + Int(try reader.ue())
            for _ in 0..<4 { _ = try reader.ue() }  // transform sizes and depths
            if try reader.flag() { throw Unsupported.scalingLists }  // scaling_list_enabled_flag
            _ = try reader.flag()  // amp_enabled_flag
            sampleAdaptiveOffset = try reader.flag()
            if try reader.flag() {  // pcm_enabled_flag
                _ = try reader.bits(8)
                _ = try reader.ue()
                _ = try reader.ue()
                _ = try reader.flag()
            }
            numShortTermRefPicSets = try reader.ue()
            var deltaPocs: [Int] = []
            for index in 0..<Int(numShortTermRefPicSets) {
                deltaPocs.append(try Self.skipShortTermRefPicSet(&reader, index: index, deltaPocs: deltaPocs))
            }
            longTermRefPicsPresent = try reader.flag()
            if longTermRefPicsPresent {
                numLongTermRefPicsSPS = try reader.ue()
                for _ in 0..<numLongTermRefPicsSPS {
                    _ = try reader.bits(log2MaxPicOrderCntLsb)
                    _ = try reader.flag()
                }
            }
            temporalMVP = try reader.flag()
        } catch let error as Unsupported {
            throw error
        } catch {
            throw .truncated
        }
    }

    /// profile_tier_level(1, maxSubLayersMinus1) (§7.3.3).
    static func skipProfileTierLevel(_ reader: inout BitReader, maxSubLayersMinus1: Int) throws(BitReader.EndOfData) {
        try reader.skip(96)  // general profile (88 bits) and level
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            profilePresent.append(try reader.flag())
            levelPresent.append(try reader.flag())
        }
        if maxSubLayersMinus1 > 0 { try reader.skip(2 * (8 - maxSubLayersMinus1)) }
        for index in 0..<maxSubLayersMinus1 {
            if profilePresent[index] { try reader.skip(88) }
            if levelPresent[index] { try reader.skip(8) }
        }
    }

    /// st_ref_pic_set(index) in an SPS (§7.3.7); returns its NumDeltaPocs.
    private static func skipShortTermRefPicSet(_ reader: inout BitReader, index: Int, deltaPocs: [Int]) throws(BitReader.EndOfData) -> Int {
        if index != 0, try reader.flag() {  // inter_ref_pic_set_prediction_flag
            _ = try reader.flag()  // delta_rps_sign
            _ = try reader.ue()  // abs_delta_rps_minus1
            var count = 0
            for _ in 0...deltaPocs[index - 1] {
                let used = try reader.flag()
                let use = used ? true : try reader.flag()
                if used || use { count += 1 }
            }
            return count
        }
        let negative = Int(try reader.ue()), positive = Int(try reader.ue())
        for _ in 0..<(negative + positive) {
            _ = try reader.ue()
            _ = try reader.flag()
        }
        return negative + positive
    }
}

/// What the writer's slices need of an HEVC picture parameter set (H.265 §7.3.2.3).
package struct HEVCPictureParameterSet: Equatable, Sendable {
    package var id: UInt32 = 0
    package var spsID: UInt32 = 0
    package var outputFlagPresent = false
    package var numExtraSliceHeaderBits = 0
    package var cabacInitPresent = false
    package var initQPMinus26: Int32 = 0
    package var sliceChromaQPOffsetsPresent = false
    package var weightedPred = false
    package var transquantBypass = false
    package var tiles = false
    package var entropyCodingSync = false
    package var loopFilterAcrossSlices = false
    package var deblockingOverrideEnabled = false
    package var deblockingDisabled = false
    package var sliceHeaderExtensionPresent = false
    package var extensionPresent = false

    package enum Unsupported: Error, Equatable { case truncated, scalingLists }

    package init(nalUnit: [UInt8]) throws(Unsupported) {
        var reader = BitReader(rbsp: HEVCNALUnit.rbsp(of: nalUnit))
        do {
            id = try reader.ue()
            spsID = try reader.ue()
            _ = try reader.flag()  // dependent_slice_segments_enabled_flag
            outputFlagPresent = try reader.flag()
            numExtraSliceHeaderBits = Int(try reader.bits(3))
            _ = try reader.flag()  // sign_data_hiding_enabled_flag
            cabacInitPresent = try reader.flag()
            _ = try reader.ue()  // num_ref_idx_l0_default_active_minus1
            _ = try reader.ue()  // num_ref_idx_l1_default_active_minus1
            initQPMinus26 = try reader.se()
            _ = try reader.flag()  // constrained_intra_pred_flag
            _ = try reader.flag()  // transform_skip_enabled_flag
            if try reader.flag() { _ = try reader.ue() }  // cu_qp_delta_enabled_flag, diff_cu_qp_delta_depth
            _ = try reader.se()  // pps_cb_qp_offset
            _ = try reader.se()  // pps_cr_qp_offset
            sliceChromaQPOffsetsPresent = try reader.flag()
            weightedPred = try reader.flag()
            _ = try reader.flag()  // weighted_bipred_flag
            transquantBypass = try reader.flag()
            tiles = try reader.flag()
            entropyCodingSync = try reader.flag()
            if tiles { return }  // the writer refuses tiles; nothing after matters
            loopFilterAcrossSlices = try reader.flag()
            if try reader.flag() {  // deblocking_filter_control_present_flag
                deblockingOverrideEnabled = try reader.flag()
                deblockingDisabled = try reader.flag()
                if !deblockingDisabled {
                    _ = try reader.se()
                    _ = try reader.se()
                }
            }
            if try reader.flag() { throw Unsupported.scalingLists }  // pps_scaling_list_data_present_flag
            _ = try reader.flag()  // lists_modification_present_flag
            _ = try reader.ue()  // log2_parallel_merge_level_minus2
            sliceHeaderExtensionPresent = try reader.flag()
            extensionPresent = try reader.flag()
        } catch let error as Unsupported {
            throw error
        } catch {
            throw .truncated
        }
    }
}
