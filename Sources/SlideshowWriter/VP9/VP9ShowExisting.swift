/// Held frames in VP9: a frame of one byte, its uncompressed header's `show_existing_frame`
/// (VP9 Bitstream & Decoding Process Specification 0.6, §6.2): `frame_marker` (2), profile 0
/// (two bits), `show_existing_frame` 1 and `frame_to_show_map_idx` (3). It shows the picture in
/// a reference slot again and changes nothing else; the held picture is a key frame, which
/// refreshes all 8 slots, so slot 0 holds it.
package enum VP9ShowExisting {
    /// The frame that shows slot `slot` again (profile 0).
    package static func frame(slot: Int) -> [UInt8] {
        precondition((0..<8).contains(slot))
        return [0b1000_1000 | UInt8(slot)]
    }

    /// Whether a libvpx packet is one key frame of profile 0 (not a superframe of several).
    package static func isKeyFrame(_ packet: [UInt8]) -> Bool {
        guard let first = packet.first else { return false }
        // frame_marker 2, profile bits 0 0, show_existing_frame 0, frame_type 0 (KEY_FRAME).
        return first & 0b1111_1100 == 0b1000_0000
    }
}
