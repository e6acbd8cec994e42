/// Writes H.264 frames that repeat the previous frame exactly, without the encoder.
///
/// A P slice whose every macroblock is P_Skip copies its reference picture: with the
/// neighbours skipped or absent the predicted motion vector is zero, there is no residual,
/// and with the deblocking filter disabled nothing is filtered (ITU-T H.264 §8.4.1.1). So a
/// held frame costs a few bytes and no encoding time.
///
/// The slices use a picture parameter set of their own (CAVLC, one reference, no weighted
/// prediction, deblocking control present), added beside the encoder's in the stream's
/// configuration. Each slice is a reference picture that carries on the encoder's
/// `frame_num` sequence; sliding-window reference marking keeps the decoder's list in step.
/// The stream uses `pic_order_cnt_type` 2 (x264's without B-frames: a show of cuts), where
/// picture order follows decoding order, or 0 (a moving show's one SPS, ``SharedSequence``),
/// where each slice carries its `pic_order_cnt_lsb`: two a frame after the IDR it repeats.
package struct SkipFrameWriter {
    package let sps: SequenceParameterSet
    /// The id of the writer's own picture parameter set.
    package let ppsID: UInt32

    package enum Unsupported: Error, Equatable { case pictureOrder(UInt32), interlaced, noReferenceFrames }

    /// - Parameters:
    ///   - sps: the encoder's sequence parameter set.
    ///   - encoderPPSIDs: the ids the encoder's own PPSs use; the writer picks the next free one.
    package init(sps: SequenceParameterSet, encoderPPSIDs: [UInt32]) throws(Unsupported) {
        guard sps.picOrderCntType == 2 || sps.picOrderCntType == 0 else { throw .pictureOrder(sps.picOrderCntType) }
        guard sps.frameMbsOnly else { throw .interlaced }
        guard sps.maxNumRefFrames > 0 else { throw .noReferenceFrames }
        self.sps = sps
        ppsID = (encoderPPSIDs.max() ?? 0) + 1
    }

    /// The writer's picture parameter set NAL unit (H.264 §7.3.2.2).
    package var pictureParameterSet: [UInt8] {
        var bits = BitWriter()
        bits.write(ue: ppsID)
        bits.write(ue: sps.id)
        bits.write(flag: false)  // entropy_coding_mode_flag: CAVLC
        bits.write(flag: false)  // bottom_field_pic_order_in_frame_present_flag
        bits.write(ue: 0)        // num_slice_groups_minus1
        bits.write(ue: 0)        // num_ref_idx_l0_default_active_minus1: one reference
        bits.write(ue: 0)        // num_ref_idx_l1_default_active_minus1
        bits.write(flag: false)  // weighted_pred_flag
        bits.write(bits: 0, count: 2)  // weighted_bipred_idc
        bits.write(se: 0)        // pic_init_qp_minus26
        bits.write(se: 0)        // pic_init_qs_minus26
        bits.write(se: 0)        // chroma_qp_index_offset
        bits.write(flag: true)   // deblocking_filter_control_present_flag
        bits.write(flag: false)  // constrained_intra_pred_flag
        bits.write(flag: false)  // redundant_pic_cnt_present_flag
        return NALUnit.make(header: 0x68, rbsp: bits.finishRBSP())  // nal_ref_idc 3, type 8
    }

    /// One held frame: a non-IDR reference P slice of all-skipped macroblocks (H.264 §7.3.3, §7.3.4).
    /// - Parameters:
    ///   - frameNum: the previous reference frame's `frame_num` plus one, modulo MaxFrameNum.
    ///   - framesAfterIDR: under POC type 0, how many frames after the IDR it repeats this
    ///     one is shown (its picture order count is twice that, the IDR's 0); unused under type 2.
    package func skipSlice(frameNum: Int, framesAfterIDR: Int64 = 0) -> [UInt8] {
        var bits = BitWriter()
        bits.write(ue: 0)        // first_mb_in_slice
        bits.write(ue: 5)        // slice_type: P, every slice of the picture
        bits.write(ue: ppsID)    // pic_parameter_set_id
        bits.write(bits: UInt64(frameNum), count: sps.log2MaxFrameNum)
        // frame_mbs_only: no field_pic_flag; not IDR: no idr_pic_id. POC type 2: no POC
        // fields; type 0: the lsb (the writer's PPS has no bottom field order).
        if sps.picOrderCntType == 0 {
            let lsb = UInt64(truncatingIfNeeded: 2 * framesAfterIDR) & ((1 << UInt64(sps.log2MaxPicOrderCntLsb)) - 1)
            bits.write(bits: lsb, count: sps.log2MaxPicOrderCntLsb)
        }
        bits.write(flag: false)  // num_ref_idx_active_override_flag
        bits.write(flag: false)  // ref_pic_list_modification_flag_l0
        bits.write(flag: false)  // adaptive_ref_pic_marking_mode_flag: sliding window
        bits.write(se: 0)        // slice_qp_delta
        bits.write(ue: 1)        // disable_deblocking_filter_idc: off
        bits.write(ue: UInt32(sps.macroblocksPerFrame))  // mb_skip_run: the whole picture
        return NALUnit.make(header: 0x41, rbsp: bits.finishRBSP())  // nal_ref_idc 2, type 1
    }

    /// The `frame_num` after `frameNum`.
    package func frameNum(after frameNum: Int) -> Int { (frameNum + 1) % (1 << sps.log2MaxFrameNum) }
}
