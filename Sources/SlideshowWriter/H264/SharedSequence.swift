import SlideshowSupport

/// One sequence parameter set for a stream two encoders code: the motion encoder's, with the
/// stills encoder's IDR pictures rewritten into it.
///
/// A moving show is coded by the stills encoder (held pictures, each an IDR: no B-frames, so
/// x264 writes `pic_order_cnt_type` 2) and by motion runs' encoders (B-frames, so POC type 0).
/// Two SPSs in one stream, switched at each IDR, are legal H.264, and libavcodec follows the
/// switch; OpenH264 (GStreamer's `openh264dec`) does not: the last frames of every dissolve
/// came out as the next photo. So the stream carries one SPS, the motion encoder's as x264
/// wrote it, and its slices go into the file as they are.
///
/// The stills encoder's slices are each an IDR I slice. Rewritten, the header gains
/// `pic_order_cnt_lsb` 0 (an IDR's picture order count is its lsb) and its `frame_num` (0)
/// takes the shared SPS's width; every other field is copied, and the slice data after it is
/// the same bytes (CABAC's starts at a byte boundary; CAVLC's is copied bit for bit). So each
/// held picture decodes to exactly what the stills encoder coded: the two SPSs differ only in
/// what an IDR I slice does not use (picture order, reference count, reordering). The stills
/// encoder's PPS stays, pointing at the shared SPS.
package struct SharedSequence {
    /// The stream's SPS: the motion encoder's.
    package let sps: SequenceParameterSet
    /// The stills encoder's SPS and PPS, which its slices were written for.
    package let stillsSPS: SequenceParameterSet
    package let stillsPPS: PictureParameterSet
    /// The stream's configuration (Annex B): the shared SPS, the stills encoder's PPS pointing
    /// at it, the motion encoder's PPS.
    package let extradata: [UInt8]
    /// The ids of the PPSs in ``extradata``.
    package let ppsIDs: [UInt32]

    package enum Mismatch: Error, Equatable {
        /// A global header without one SPS and one PPS.
        case parameterSets
        /// The two SPSs code different pictures (a profile the motion SPS's does not contain,
        /// chroma format, size, field coding).
        case pictureFormat
        /// The two encoders' PPSs have the same id.
        case sameIDs
        /// The motion SPS's picture order type is not 0 or 2, or the stills SPS's not 2.
        case pictureOrder(UInt32)
        /// A stills slice that is not an IDR I slice of its PPS, a PPS with slice groups, or a
        /// truncated slice.
        case slice
    }

    /// - Parameters:
    ///   - stills: the stills encoder's global header (Annex B).
    ///   - motion: the motion encoder's global header (Annex B): its SPS becomes the stream's.
    package init(stills: [UInt8], motion: [UInt8]) throws(Mismatch) {
        let stillsUnits = NALUnit.split(annexB: stills), motionUnits = NALUnit.split(annexB: motion)
        func one(_ type: UInt8, _ units: [[UInt8]]) throws(Mismatch) -> [UInt8] {
            let found = units.filter { NALUnit.type(of: $0) == type }
            guard found.count == 1 else { throw .parameterSets }
            return found[0]
        }
        let motionSPSUnit = try one(7, motionUnits), motionPPSUnit = try one(8, motionUnits)
        let stillsSPSUnit = try one(7, stillsUnits), stillsPPSUnit = try one(8, stillsUnits)
        guard let sps = try? SequenceParameterSet(nalUnit: motionSPSUnit),
              let stillsSPS = try? SequenceParameterSet(nalUnit: stillsSPSUnit),
              let stillsPPS = try? PictureParameterSet(nalUnit: stillsPPSUnit),
              let motionPPS = try? PictureParameterSet(nalUnit: motionPPSUnit),
              let repointed = try? PictureParameterSet.pointing(stillsPPSUnit, atSPS: sps.id)
        else { throw .parameterSets }
        guard Self.profile(stillsSPS.profileIDC, fitsIn: sps.profileIDC), sps.chromaFormatIDC == stillsSPS.chromaFormatIDC,
              sps.widthInMacroblocks == stillsSPS.widthInMacroblocks, sps.heightInMapUnits == stillsSPS.heightInMapUnits,
              sps.frameMbsOnly, stillsSPS.frameMbsOnly
        else { throw .pictureFormat }
        guard sps.picOrderCntType == 0 || sps.picOrderCntType == 2 else { throw .pictureOrder(sps.picOrderCntType) }
        guard stillsSPS.picOrderCntType == 2 else { throw .pictureOrder(stillsSPS.picOrderCntType) }
        guard stillsPPS.id != motionPPS.id else { throw .sameIDs }
        guard stillsPPS.sliceGroups == 1 else { throw .slice }
        self.sps = sps
        self.stillsSPS = stillsSPS
        self.stillsPPS = stillsPPS
        extradata = [motionSPSUnit, repointed, motionPPSUnit].flatMap { NALUnit.startCode + $0 }
        ppsIDs = [stillsPPS.id, motionPPS.id]
    }

    /// Whether slices of profile `inner` decode under an SPS of profile `outer`: the same, or
    /// Constrained Baseline (66) or Main (77) under Main or High (100), whose tools are a
    /// superset. x264 lowers `profile_idc` to the tools it used: at `ultrafast` the stills
    /// encoder's SPS says Baseline (CAVLC, no B-frames) and the motion encoder's Main.
    package static func profile(_ inner: UInt8, fitsIn outer: UInt8) -> Bool {
        let order: [UInt8] = [66, 77, 100]
        guard let a = order.firstIndex(of: inner), let b = order.firstIndex(of: outer) else { return inner == outer }
        return a <= b
    }

    /// One of the stills encoder's packets (Annex B) in the shared sequence: its slices
    /// rewritten (``rewrite(idrSlice:)``), its other NAL units (x264's SEI) as they are.
    package func rewrite(stillsPacket bytes: [UInt8]) throws(Mismatch) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for unit in NALUnit.split(annexB: bytes) {
            let type = NALUnit.type(of: unit)
            out += NALUnit.startCode
            out += type == 1 || type == 5 ? try rewrite(idrSlice: unit) : unit
        }
        return out
    }

    /// An IDR I slice of the stills encoder in the shared sequence (H.264 §7.3.3).
    package func rewrite(idrSlice unit: [UInt8]) throws(Mismatch) -> [UInt8] {
        guard NALUnit.type(of: unit) == 5 else { throw .slice }
        let rbsp = NALUnit.rbsp(of: unit)
        var reader = BitReader(rbsp: rbsp)
        var bits = BitWriter()
        do {
            bits.write(ue: try reader.ue())  // first_mb_in_slice
            let sliceType = try reader.ue()
            guard sliceType % 5 == 2 else { throw Mismatch.slice }  // I
            bits.write(ue: sliceType)
            let ppsID = try reader.ue()
            guard ppsID == stillsPPS.id else { throw Mismatch.slice }
            bits.write(ue: ppsID)
            // frame_num (0 in an IDR), in the shared SPS's width; frame_mbs_only: no field_pic_flag.
            bits.write(bits: try reader.bits(stillsSPS.log2MaxFrameNum), count: sps.log2MaxFrameNum)
            bits.write(ue: try reader.ue())  // idr_pic_id
            // The stills SPS's POC type 2 has no POC fields; type 0 has the lsb (an IDR's: 0).
            if sps.picOrderCntType == 0 {
                bits.write(bits: 0, count: sps.log2MaxPicOrderCntLsb)  // pic_order_cnt_lsb
                if stillsPPS.bottomFieldPicOrderInFramePresent { bits.write(se: 0) }  // delta_pic_order_cnt_bottom
            }
            if stillsPPS.redundantPicCntPresent { bits.write(ue: try reader.ue()) }  // redundant_pic_cnt
            // An I slice: no reference list fields, no prediction weights; an IDR's marking.
            bits.write(flag: try reader.flag())  // no_output_of_prior_pics_flag
            bits.write(flag: try reader.flag())  // long_term_reference_flag
            bits.write(se: try reader.se())  // slice_qp_delta
            if stillsPPS.deblockingFilterControlPresent {
                let idc = try reader.ue()
                bits.write(ue: idc)  // disable_deblocking_filter_idc
                if idc != 1 {
                    bits.write(se: try reader.se())  // slice_alpha_c0_offset_div2
                    bits.write(se: try reader.se())  // slice_beta_offset_div2
                }
            }
            if stillsPPS.entropyCodingMode {
                // cabac_alignment_one_bit to the byte boundary, then the CABAC bytes as they are.
                try reader.skip((8 - reader.position % 8) % 8)
                while !bits.isByteAligned { bits.write(flag: true) }
                bits.append(alignedBytes: rbsp[(reader.position / 8)...])
                return NALUnit.make(header: unit[0], rbsp: bits.bytes)
            }
            try bits.copy(RBSP.payloadBits(rbsp) - reader.position, from: &reader)
        } catch {
            throw .slice
        }
        return NALUnit.make(header: unit[0], rbsp: bits.finishRBSP())
    }
}
