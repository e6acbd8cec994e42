import Testing
@testable import SlideshowKit
import SlideshowSupport
import SlideshowWriter

@Suite("H.264 bitstream: Exp-Golomb, emulation prevention, parameter sets, skip slices")
struct BitstreamTests {
    @Test("ue(v) codes, bit for bit", arguments: [
        (UInt32(0), "1"), (1, "010"), (2, "011"), (3, "00100"), (4, "00101"), (7, "0001000"), (8160, "0000000000001111111100001"),
    ])
    func unsignedExpGolomb(value: UInt32, bits: String) throws {
        var writer = BitWriter()
        writer.write(ue: value)
        let rbsp = writer.finishRBSP()
        #expect(bitString(rbsp).hasPrefix(bits + "1"))
        var reader = BitReader(rbsp: rbsp)
        #expect(try reader.ue() == value)
    }

    @Test("se(v) maps 0, 1, −1, 2, −2 to code numbers 0 to 4 and back")
    func signedExpGolomb() throws {
        for (value, code) in [(Int32(0), UInt32(0)), (1, 1), (-1, 2), (2, 3), (-2, 4), (-26, 52)] {
            var signed = BitWriter(), unsigned = BitWriter()
            signed.write(se: value)
            unsigned.write(ue: code)
            let rbsp = signed.finishRBSP()
            #expect(rbsp == unsigned.finishRBSP())
            var reader = BitReader(rbsp: rbsp)
            #expect(try reader.se() == value)
        }
    }

    @Test("emulation prevention: 00 00 0x gets an 03, and unescaping undoes it")
    func emulationPrevention() {
        let rbsp: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0xFF]
        let unit = NALUnit.make(header: 0x41, rbsp: rbsp)
        #expect(unit == [0x41, 0, 0, 3, 0, 0, 3, 0, 1, 0, 0, 3, 2, 0, 0, 3, 3, 0, 0, 4, 0xFF])
        #expect(NALUnit.rbsp(of: unit) == rbsp)
    }

    @Test("Annex B splitting finds each unit with three- and four-byte start codes")
    func annexBSplit() {
        let stream: [UInt8] = [0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 0, 1, 0x65, 4, 5]
        #expect(NALUnit.split(annexB: stream) == [[0x67, 1, 2], [0x68, 3], [0x65, 4, 5]])
    }

    @Test("the encoder's SPS parses: 4:2:0 High, POC type 2, 1080p is 120x68 macroblocks")
    func encoderSPS() throws {
        let encoder = try H264Encoder(settings: VideoSettings(), globalHeader: true)
        let units = NALUnit.split(annexB: encoder.extradata)
        let sps = try SequenceParameterSet(nalUnit: try #require(units.first { NALUnit.type(of: $0) == 7 }))
        #expect(sps.profileIDC == 100)
        #expect(sps.picOrderCntType == 2)
        #expect(sps.frameMbsOnly)
        #expect(sps.widthInMacroblocks == 120)
        #expect(sps.heightInMapUnits == 68)
        #expect(sps.macroblocksPerFrame == 8160)
        #expect(sps.maxNumRefFrames >= 1)
        #expect(units.contains { NALUnit.type(of: $0) == 8 })
    }

    @Test("a skip slice is the documented layout: P, PPS 1, frame_num, deblocking off, one skip run over 8160 macroblocks")
    func skipSliceLayout() throws {
        let sps = SequenceParameterSet(profileIDC: 100, id: 0, log2MaxFrameNum: 4, picOrderCntType: 2, maxNumRefFrames: 3,
                                       widthInMacroblocks: 120, heightInMapUnits: 68, frameMbsOnly: true)
        let writer = try SkipFrameWriter(sps: sps, encoderPPSIDs: [0])
        #expect(writer.ppsID == 1)
        let slice = writer.skipSlice(frameNum: 5)
        #expect(slice[0] == 0x41)  // nal_ref_idc 2, nal_unit_type 1
        var reader = BitReader(rbsp: NALUnit.rbsp(of: slice))
        #expect(try reader.ue() == 0)           // first_mb_in_slice
        #expect(try reader.ue() == 5)           // slice_type P
        #expect(try reader.ue() == 1)           // pic_parameter_set_id
        #expect(try reader.bits(4) == 5)        // frame_num
        #expect(try reader.flag() == false)     // num_ref_idx_active_override_flag
        #expect(try reader.flag() == false)     // ref_pic_list_modification_flag_l0
        #expect(try reader.flag() == false)     // adaptive_ref_pic_marking_mode_flag
        #expect(try reader.se() == 0)           // slice_qp_delta
        #expect(try reader.ue() == 1)           // disable_deblocking_filter_idc
        #expect(try reader.ue() == 8160)        // mb_skip_run
        #expect(try reader.flag() == true)      // rbsp_stop_one_bit
        #expect(slice.count <= 10)
        #expect(writer.frameNum(after: 15) == 0)
        #expect(writer.frameNum(after: 3) == 4)
    }

    @Test("under POC type 0 a skip slice carries its pic_order_cnt_lsb after frame_num: two a frame after the IDR, modulo MaxPicOrderCntLsb")
    func skipSliceWithPictureOrder() throws {
        let sps = SequenceParameterSet(profileIDC: 100, id: 1, log2MaxFrameNum: 4, picOrderCntType: 0, maxNumRefFrames: 3,
                                       widthInMacroblocks: 120, heightInMapUnits: 68, frameMbsOnly: true, log2MaxPicOrderCntLsb: 5)
        let writer = try SkipFrameWriter(sps: sps, encoderPPSIDs: [0, 1])
        #expect(writer.ppsID == 2)
        for (frames, lsb) in [(1, 2), (15, 30), (16, 0), (21, 10)] {
            let slice = writer.skipSlice(frameNum: 5, framesAfterIDR: Int64(frames))
            var reader = BitReader(rbsp: NALUnit.rbsp(of: slice))
            #expect(try reader.ue() == 0 && reader.ue() == 5 && reader.ue() == 2)
            #expect(try reader.bits(4) == 5)          // frame_num
            #expect(try reader.bits(5) == UInt64(lsb))  // pic_order_cnt_lsb
            #expect(try reader.flag() == false && reader.flag() == false && reader.flag() == false)
            #expect(try reader.se() == 0 && reader.ue() == 1 && reader.ue() == 8160 && reader.flag() == true)
        }
    }

    @Test("skip slices need POC type 2 or 0, progressive frames and a reference frame")
    func unsupportedStreams() {
        let base = SequenceParameterSet(profileIDC: 100, id: 0, log2MaxFrameNum: 4, picOrderCntType: 2, maxNumRefFrames: 3,
                                        widthInMacroblocks: 20, heightInMapUnits: 15, frameMbsOnly: true)
        var poc1 = base
        poc1.picOrderCntType = 1
        #expect(throws: SkipFrameWriter.Unsupported.pictureOrder(1)) { try SkipFrameWriter(sps: poc1, encoderPPSIDs: [0]) }
        var interlaced = base
        interlaced.frameMbsOnly = false
        #expect(throws: SkipFrameWriter.Unsupported.interlaced) { try SkipFrameWriter(sps: interlaced, encoderPPSIDs: [0]) }
        var noRefs = base
        noRefs.maxNumRefFrames = 0
        #expect(throws: SkipFrameWriter.Unsupported.noReferenceFrames) { try SkipFrameWriter(sps: noRefs, encoderPPSIDs: [0]) }
    }

    @Test("a truncated SPS is refused, not read past its end")
    func truncatedSPS() {
        #expect(throws: SequenceParameterSet.ParseError.truncated) { try SequenceParameterSet(nalUnit: [0x67, 100, 0]) }
        #expect(throws: SequenceParameterSet.ParseError.notAnSPS) { try SequenceParameterSet(nalUnit: [0x68, 0xCE]) }
    }

    private func bitString(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let bits = String(byte, radix: 2)
            return String(repeating: "0", count: 8 - bits.count) + bits
        }.joined()
    }
}
