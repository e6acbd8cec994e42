/// Writes HEVC pictures that repeat the previous picture exactly, without the encoder: the
/// HEVC counterpart of ``SkipFrameWriter``.
///
/// Each is one P slice (a TRAIL_R picture) whose every coding unit is skipped: `cu_skip_flag`
/// 1, and with `MaxNumMergeCand` 1 no `merge_idx`, so each CU takes the first merge candidate.
/// With temporal MV prediction off in the slice, that candidate is a neighbour's motion (zero,
/// reference 0) or, with none available, the zero candidate: motion zero from the one
/// reference, the picture before. No residual, so no transform edge to deblock, and between
/// blocks of the same reference and motion the boundary strength is 0; SAO is off in the
/// slice. So the picture decodes to the reference's samples exactly.
///
/// The slice data is CABAC (§9.3): per CTU the coding quadtree's `split_cu_flag`s (0 where
/// the CTU fits, split where the picture's edge cuts it), `cu_transquant_bypass_flag` (0)
/// when the PPS has it, `cu_skip_flag`, and `end_of_slice_segment_flag`. With wavefront
/// parallel processing (x265's default, `entropy_coding_sync_enabled_flag`) each CTU row is
/// a substream of its own: flushed with `end_of_subset_one_bit`, byte aligned, its contexts
/// taken from the row above after that row's second CTU, and its size in the header's entry
/// points. The slice data does not depend on the picture order count, so it is coded once;
/// each picture is its header and those bytes.
///
/// The writer uses x265's SPS and PPS as they are; it refuses tiles, separate colour planes,
/// scaling lists, PPS extensions and a decoded picture buffer of one picture.
package struct HEVCSkipFrameWriter: Sendable {
    package let sps: HEVCSequenceParameterSet
    package let pps: HEVCPictureParameterSet
    /// The slice data's substreams (RBSP bytes): one, or one per CTU row with WPP.
    package let substreams: [[UInt8]]

    package enum Unsupported: Error, Equatable {
        case parameterSets, tiles, extensions, pictureBuffer
        case sps(HEVCSequenceParameterSet.Unsupported), pps(HEVCPictureParameterSet.Unsupported)
    }

    /// - Parameter extradata: x265's global header (Annex B: VPS, SPS, PPS).
    package init(extradata: [UInt8]) throws(Unsupported) {
        let units = NALUnit.split(annexB: extradata)
        let spsUnits = units.filter { HEVCNALUnit.type(of: $0) == 33 }, ppsUnits = units.filter { HEVCNALUnit.type(of: $0) == 34 }
        guard spsUnits.count == 1, ppsUnits.count == 1 else { throw .parameterSets }
        let sps: HEVCSequenceParameterSet, pps: HEVCPictureParameterSet
        do { sps = try HEVCSequenceParameterSet(nalUnit: spsUnits[0]) } catch { throw .sps(error) }
        do { pps = try HEVCPictureParameterSet(nalUnit: ppsUnits[0]) } catch { throw .pps(error) }
        try self.init(sps: sps, pps: pps)
    }

    package init(sps: HEVCSequenceParameterSet, pps: HEVCPictureParameterSet) throws(Unsupported) {
        guard pps.spsID == sps.id else { throw .parameterSets }
        guard !pps.tiles else { throw .tiles }
        guard !pps.extensionPresent else { throw .extensions }
        guard sps.maxDecPicBufferingMinus1 >= 1 else { throw .pictureBuffer }
        self.sps = sps
        self.pps = pps
        substreams = Self.sliceData(sps: sps, pps: pps)
    }

    /// The P slice NAL unit (TRAIL_R, without a start code) of the picture `pictureOrder`
    /// pictures after the last IDR (whose picture order count is 0), referring to the one before.
    package func skipPicture(pictureOrder: Int64) -> [UInt8] {
        var bits = BitWriter()
        bits.write(flag: true)  // first_slice_segment_in_pic_flag
        bits.write(ue: pps.id)  // slice_pic_parameter_set_id
        for _ in 0..<pps.numExtraSliceHeaderBits { bits.write(flag: false) }  // slice_reserved_flag
        bits.write(ue: 1)  // slice_type: P
        if pps.outputFlagPresent { bits.write(flag: true) }  // pic_output_flag
        let lsbMask = (Int64(1) << Int64(sps.log2MaxPicOrderCntLsb)) - 1
        bits.write(bits: UInt64(pictureOrder & lsbMask), count: sps.log2MaxPicOrderCntLsb)  // slice_pic_order_cnt_lsb
        bits.write(flag: false)  // short_term_ref_pic_set_sps_flag: the set follows
        if sps.numShortTermRefPicSets != 0 { bits.write(flag: false) }  // inter_ref_pic_set_prediction_flag
        bits.write(ue: 1)  // num_negative_pics
        bits.write(ue: 0)  // num_positive_pics
        bits.write(ue: 0)  // delta_poc_s0_minus1: the picture before
        bits.write(flag: true)  // used_by_curr_pic_s0_flag
        if sps.longTermRefPicsPresent {
            if sps.numLongTermRefPicsSPS > 0 { bits.write(ue: 0) }  // num_long_term_sps
            bits.write(ue: 0)  // num_long_term_pics
        }
        if sps.temporalMVP { bits.write(flag: false) }  // slice_temporal_mvp_enabled_flag
        if sps.sampleAdaptiveOffset {
            bits.write(flag: false)  // slice_sao_luma_flag
            if sps.chromaFormatIDC != 0 { bits.write(flag: false) }  // slice_sao_chroma_flag
        }
        bits.write(flag: true)  // num_ref_idx_active_override_flag
        bits.write(ue: 0)  // num_ref_idx_l0_active_minus1: one reference
        if pps.cabacInitPresent { bits.write(flag: false) }  // cabac_init_flag
        if pps.weightedPred {
            // pred_weight_table(): default weights, which predict the samples as they are.
            bits.write(ue: 0)  // luma_log2_weight_denom
            if sps.chromaFormatIDC != 0 { bits.write(se: 0) }  // delta_chroma_log2_weight_denom
            bits.write(flag: false)  // luma_weight_l0_flag[0]
            if sps.chromaFormatIDC != 0 { bits.write(flag: false) }  // chroma_weight_l0_flag[0]
        }
        bits.write(ue: 4)  // five_minus_max_num_merge_cand: one candidate, no merge_idx
        bits.write(se: 0)  // slice_qp_delta
        if pps.sliceChromaQPOffsetsPresent {
            bits.write(se: 0)
            bits.write(se: 0)
        }
        if pps.deblockingOverrideEnabled { bits.write(flag: false) }  // deblocking_filter_override_flag
        if pps.loopFilterAcrossSlices && !pps.deblockingDisabled { bits.write(flag: true) }  // slice_loop_filter_across_slices_enabled_flag
        if pps.entropyCodingSync {
            // Entry points: each substream's size in the NAL unit, emulation prevention
            // included. Each substream's last byte holds its stop bit, so no escape crosses
            // from one into the next, and each escapes as it would alone.
            let sizes = substreams.dropLast().map { UInt32(NALUnit.make(header: 1, rbsp: $0).count - 1) }
            bits.write(ue: UInt32(sizes.count))  // num_entry_point_offsets
            if let largest = sizes.max() {
                let length = max(1, 32 - (largest - 1).leadingZeroBitCount)
                bits.write(ue: UInt32(length - 1))  // offset_len_minus1
                for size in sizes { bits.write(bits: UInt64(size - 1), count: length) }  // entry_point_offset_minus1
            }
        }
        if pps.sliceHeaderExtensionPresent { bits.write(ue: 0) }  // slice_segment_header_extension_length
        // byte_alignment()
        bits.write(flag: true)
        while !bits.isByteAligned { bits.write(flag: false) }
        for substream in substreams { bits.append(alignedBytes: substream) }
        return HEVCNALUnit.make(type: 1, rbsp: bits.bytes)  // TRAIL_R
    }

    /// The slice data of an all-skip P slice (§7.3.8): its substreams' bytes.
    static func sliceData(sps: HEVCSequenceParameterSet, pps: HEVCPictureParameterSet) -> [[UInt8]] {
        let qp = 26 + Int(pps.initQPMinus26)
        // Initialisation type 1 (a P slice, cabac_init_flag 0): Table 9-11's split_cu_flag
        // (107, 139, 126), Table 9-13's cu_skip_flag (197, 185, 201), Table 9-10's
        // cu_transquant_bypass_flag (154).
        struct Contexts {
            var split: [CABACEncoder.Context]
            var skip: [CABACEncoder.Context]
            var bypass: CABACEncoder.Context
            init(qp: Int) {
                split = [107, 139, 126].map { CABACEncoder.Context(initValue: $0, qp: qp) }
                skip = [197, 185, 201].map { CABACEncoder.Context(initValue: $0, qp: qp) }
                bypass = CABACEncoder.Context(initValue: 154, qp: qp)
            }
        }
        let ctbLog2 = sps.log2CodingTreeBlockSize, minLog2 = sps.log2MinCodingBlockSize
        let width = sps.width, height = sps.height
        let ctbSize = 1 << ctbLog2
        let widthInCtbs = (width + ctbSize - 1) / ctbSize, heightInCtbs = (height + ctbSize - 1) / ctbSize
        // The coding quadtree depth of each minimum coding block, for split_cu_flag's contexts.
        let minWidth = width >> minLog2, minHeight = height >> minLog2
        var depths = [UInt8](repeating: 0, count: max(1, minWidth * minHeight))
        var contexts = Contexts(qp: qp)
        var synced: Contexts? = nil
        var encoder = CABACEncoder()
        var substreams: [[UInt8]] = []

        func quadtree(_ x0: Int, _ y0: Int, _ log2Size: Int, _ depth: Int) {
            let size = 1 << log2Size
            let split: Bool
            if x0 + size <= width && y0 + size <= height && log2Size > minLog2 {
                var increment = 0
                if x0 > 0 && depths[(y0 >> minLog2) * minWidth + ((x0 - 1) >> minLog2)] > depth { increment += 1 }
                if y0 > 0 && depths[((y0 - 1) >> minLog2) * minWidth + (x0 >> minLog2)] > depth { increment += 1 }
                encoder.encodeDecision(false, &contexts.split[increment])
                split = false
            } else {
                split = log2Size > minLog2
            }
            if split {
                let half = size / 2
                for (dx, dy) in [(0, 0), (half, 0), (0, half), (half, half)] where x0 + dx < width && y0 + dy < height {
                    quadtree(x0 + dx, y0 + dy, log2Size - 1, depth + 1)
                }
                return
            }
            // coding_unit(): skipped.
            for y in stride(from: y0 >> minLog2, to: min(minHeight, (y0 + size) >> minLog2), by: 1) {
                for x in stride(from: x0 >> minLog2, to: min(minWidth, (x0 + size) >> minLog2), by: 1) {
                    depths[y * minWidth + x] = UInt8(depth)
                }
            }
            if pps.transquantBypass { encoder.encodeDecision(false, &contexts.bypass) }
            encoder.encodeDecision(true, &contexts.skip[(x0 > 0 ? 1 : 0) + (y0 > 0 ? 1 : 0)])
        }

        let count = widthInCtbs * heightInCtbs
        for address in 0..<count {
            let x = address % widthInCtbs, y = address / widthInCtbs
            if pps.entropyCodingSync && x == 0 && y > 0 {
                // A new row: the contexts after the second CTU of the row above, if it has one.
                contexts = synced ?? Contexts(qp: qp)
            }
            quadtree(x << ctbLog2, y << ctbLog2, ctbLog2, 0)
            if pps.entropyCodingSync && x == 1 { synced = contexts }
            let last = address == count - 1
            encoder.encodeTerminate(last)  // end_of_slice_segment_flag
            if last {
                substreams.append(encoder.finish())
            } else if pps.entropyCodingSync && x == widthInCtbs - 1 {
                encoder.encodeTerminate(true)  // end_of_subset_one_bit, then byte_alignment()
                substreams.append(encoder.finish())
                encoder = CABACEncoder()
            }
        }
        return substreams
    }
}
