import SlideshowSupport

// HEVC motion runs (issue 34): as in H.264 (``MotionRuns``), each run of consecutive moving
// frames goes to an x265 of its own, with B-frames and a lookahead, opened for the run and
// drained before the frames held after it; the held pictures stay the stills encoder's IDRs.
//
// One `hvc1` sample entry: `hvc1` carries the parameter sets in the sample entry only (ISO/IEC
// 14496-15 §8.4.1: with `hvc1` "all parameter sets … shall be stored in the sample entry",
// `hev1` allows them in the samples too), and Apple's players ask for `hvc1`. So the stream
// has one VPS, one SPS and one PPS, the motion encoders': x265 writes the same sets for the
// stills encoder except that it has no B-frames, which shows in the sub-layer ordering info
// alone (`sps_max_num_reorder_pics` 0 against 1, `sps_max_latency_increase_plus1` 1 against 4,
// the same in the VPS). Those fields bound a decoder's output delay and take no part in
// parsing or decoding a slice, so the stills encoder's slices decode under the motion
// encoders' sets exactly as under their own (``HEVCSharedSequence``, which checks every other
// bit of the sets equal before the writer relies on it). Every run's encoder has the same
// settings, so the same sets (``MotionRuns`` checks each one's bytes).

extension VideoSettings {
    /// The `x265-params` of a motion run's encoder (``H264Encoder/Role/motion``, ``VideoCodec/hevc``).
    ///
    /// - `bframes=3:b-pyramid=0`: B-frames, none of them a reference, so that a frame is decoded
    ///   at most one frame after its place (``H264Encoder/motionDecodeDelay``), as in H.264;
    /// - `rc-lookahead` and `cutree`: x265's lookahead and its cu-tree (x264's mb-tree);
    /// - the rest as the stills encoder (``x265Parameters``), whose parameter sets these must
    ///   equal but for the reordering (``HEVCSharedSequence``): the same coding-unit sizes, SAO,
    ///   weighted prediction and references, closed GOPs, one frame thread, no scene cuts.
    package var motionX265Parameters: String {
        "bframes=\(H264Encoder.motionBFrames):b-pyramid=0:open-gop=0:frame-threads=1:pools=\(H264Encoder.threads):info=0:log-level=error"
            + ":rc-lookahead=\(Self.hevcMotionLookahead):cutree=1:scenecut=0:psy-rd=0:psy-rdoq=0"
    }

    /// Frames of a motion run's x265 lookahead.
    package static let hevcMotionLookahead = 10

    /// The CRF of HEVC motion runs (x265's scale).
    package var hevcMotionCRF: Double { min(Double(Self.crfRange.upperBound), Double(crf) + 0.5) }
}

/// Whether the motion encoders' parameter sets can stand for the stills encoder's in an HEVC
/// stream: the same PPS bytes, and a VPS and SPS that differ at most in their sub-layer
/// ordering info (reordering, output latency and picture buffering), which no slice's parsing
/// or decoding reads.
package enum HEVCSharedSequence {
    package enum Mismatch: Error, Equatable { case missing, vps, sps, pps }

    /// - Parameters:
    ///   - stills: the stills encoder's global header (Annex B: VPS, SPS, PPS).
    ///   - motion: a motion encoder's.
    /// - Throws: ``Mismatch`` naming the first set that differs otherwise, or one missing.
    package static func check(stills: [UInt8], motion: [UInt8]) throws(Mismatch) {
        let stillsUnits = NALUnit.split(annexB: stills), motionUnits = NALUnit.split(annexB: motion)
        for (type, mismatch) in [(UInt8(32), Mismatch.vps), (33, .sps), (34, .pps)] {
            let a = stillsUnits.filter { HEVCNALUnit.type(of: $0) == type }, b = motionUnits.filter { HEVCNALUnit.type(of: $0) == type }
            guard a.count == 1, b.count == 1 else { throw .missing }
            if type == 34 {
                guard a[0] == b[0] else { throw mismatch }
            } else {
                guard let left = bitsOutsideOrderingInfo(a[0]), let right = bitsOutsideOrderingInfo(b[0]), left == right else { throw mismatch }
            }
        }
    }

    /// A VPS's or SPS's RBSP as bits (one a byte), without its sub-layer ordering info and
    /// without its trailing bits; nil when it cannot be read.
    static func bitsOutsideOrderingInfo(_ unit: [UInt8]) -> [UInt8]? {
        let rbsp = HEVCNALUnit.rbsp(of: unit)
        var reader = BitReader(rbsp: rbsp)
        let start: Int, end: Int
        do {
            let maxSubLayersMinus1: Int
            if HEVCNALUnit.type(of: unit) == 32 {
                // vps_video_parameter_set_id, the base layer's flags, vps_max_layers_minus1.
                try reader.skip(12)
                maxSubLayersMinus1 = Int(try reader.bits(3))
                try reader.skip(17)  // vps_temporal_id_nesting_flag, vps_reserved_0xffff_16bits
                try HEVCSequenceParameterSet.skipProfileTierLevel(&reader, maxSubLayersMinus1: maxSubLayersMinus1)
            } else {
                try reader.skip(4)  // sps_video_parameter_set_id
                maxSubLayersMinus1 = Int(try reader.bits(3))
                try reader.skip(1)  // sps_temporal_id_nesting_flag
                try HEVCSequenceParameterSet.skipProfileTierLevel(&reader, maxSubLayersMinus1: maxSubLayersMinus1)
                _ = try reader.ue()  // sps_seq_parameter_set_id
                if try reader.ue() == 3 { try reader.skip(1) }  // chroma_format_idc, separate_colour_plane_flag
                _ = try reader.ue()  // pic_width_in_luma_samples
                _ = try reader.ue()  // pic_height_in_luma_samples
                if try reader.flag() { for _ in 0..<4 { _ = try reader.ue() } }  // conformance window
                for _ in 0..<3 { _ = try reader.ue() }  // bit depths, log2_max_pic_order_cnt_lsb_minus4
            }
            let allSubLayers = try reader.flag()  // *_sub_layer_ordering_info_present_flag (kept)
            start = reader.position
            for _ in (allSubLayers ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
                for _ in 0..<3 { _ = try reader.ue() }  // max_dec_pic_buffering_minus1, max_num_reorder_pics, max_latency_increase_plus1
            }
            end = reader.position
        } catch {
            return nil
        }
        func bit(_ index: Int) -> UInt8 { (rbsp[index / 8] >> (7 - UInt8(index % 8))) & 1 }
        var bits = (0..<start).map(bit) + (end..<rbsp.count * 8).map(bit)
        // rbsp_trailing_bits: the stop bit and the zeros after it.
        while bits.last == 0 { bits.removeLast() }
        guard bits.last == 1 else { return nil }
        bits.removeLast()
        return bits
    }
}
