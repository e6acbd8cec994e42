package import CFFmpeg
import SlideshowFFmpeg

/// What every sound encoder here does alike: cuts interleaved stereo float, given any number of
/// frames at a time, into the encoder's frames (as transcode_aac.c does with an AVAudioFifo:
/// here a Swift buffer of less than a frame left over; the last frame may be shorter), sends
/// them with their times in samples, and drains the packets that come out. It owns the opened
/// codec context and its frame and packet (``AACEncoder``, ``OpusEncoder``).
package final class EncoderFrames {
    private let codec: OwnedCodecContext
    private let frame: OwnedFrame
    private let packet: OwnedPacket
    /// The encoder's name in errors.
    private let name: String
    /// Samples a channel per frame.
    private let frameSize: Int
    /// Whether the frame takes a plane per channel (AAC's `fltp`) or interleaved samples (`flt`).
    private let planar: Bool
    /// Interleaved samples not yet sent (less than a frame's).
    private var pending: [Float] = []
    /// The next frame's time in samples.
    private var nextPTS: Int64 = 0
    private var flushed = false

    /// The opened codec context.
    package var context: UnsafeMutablePointer<AVCodecContext> { codec.pointer }

    /// Takes an opened encoder and makes its frame: `frameSize` samples a channel, planar or interleaved float.
    package init(codec: OwnedCodecContext, name: String, frameSize: Int, planar: Bool) throws(FFmpegError) {
        self.codec = codec
        self.name = name
        self.frameSize = frameSize
        self.planar = planar
        frame = try OwnedFrame()
        packet = try OwnedPacket()
        frame.pointer.pointee.format = (planar ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_FLT).rawValue
        frame.pointer.pointee.sample_rate = Int32(AudioFormat.sampleRate)
        try check(av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &codec.pointer.pointee.ch_layout), "av_channel_layout_copy")
        frame.pointer.pointee.nb_samples = Int32(frameSize)
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
    }

    /// Encodes interleaved stereo frames; returns the packets that came out.
    package func encode(_ samples: [Float]) throws(FFmpegError) -> [EncodedAudioPacket] {
        precondition(!flushed, "samples after the end")
        pending += samples
        var packets: [EncodedAudioPacket] = []
        let frameValues = frameSize * AudioFormat.channels
        var offset = 0
        while pending.count - offset >= frameValues {
            try send(pending[offset..<(offset + frameValues)], into: &packets)
            offset += frameValues
        }
        pending.removeFirst(offset)
        return packets
    }

    /// Encodes what is left (a last, shorter frame) and drains the encoder.
    package func finish() throws(FFmpegError) -> [EncodedAudioPacket] {
        guard !flushed else { return [] }
        var packets: [EncodedAudioPacket] = []
        if !pending.isEmpty {
            try send(pending[...], into: &packets)
            pending = []
        }
        flushed = true
        let code = avcodec_send_frame(codec.pointer, nil)
        if code != shim_averror_eof() { try check(code, "avcodec_send_frame(NULL)") }
        try receive(into: &packets)
        return packets
    }

    /// Sends one frame of at most ``frameSize`` samples a channel.
    private func send(_ samples: ArraySlice<Float>, into packets: inout [EncodedAudioPacket]) throws(FFmpegError) {
        let frames = samples.count / AudioFormat.channels
        try check(av_frame_make_writable(frame.pointer), "av_frame_make_writable")
        frame.pointer.pointee.nb_samples = Int32(frames)
        frame.pointer.pointee.pts = nextPTS
        let first = UnsafeMutableRawPointer(frame.pointer.pointee.data.0!).assumingMemoryBound(to: Float.self)
        if planar {
            let second = UnsafeMutableRawPointer(frame.pointer.pointee.data.1!).assumingMemoryBound(to: Float.self)
            var index = samples.startIndex
            for sample in 0..<frames {
                first[sample] = samples[index]
                second[sample] = samples[index + 1]
                index += 2
            }
        } else {
            samples.withUnsafeBufferPointer { first.update(from: $0.baseAddress!, count: $0.count) }
        }
        nextPTS += Int64(frames)
        while true {
            let code = avcodec_send_frame(codec.pointer, frame.pointer)
            if code == shim_averror_eagain() {
                try receive(into: &packets)
                continue
            }
            try check(code, "avcodec_send_frame(\(name))")
            break
        }
        try receive(into: &packets)
    }

    /// The packets the encoder has ready, each with the padding at its end its side data names.
    private func receive(into packets: inout [EncodedAudioPacket]) throws(FFmpegError) {
        while true {
            let code = avcodec_receive_packet(codec.pointer, packet.pointer)
            if code == shim_averror_eagain() || code == shim_averror_eof() { return }
            try check(code, "avcodec_receive_packet(\(name))")
            let p = packet.pointer.pointee
            var discard: Int64 = 0
            var size: Int = 0
            // AV_PKT_DATA_SKIP_SAMPLES: 32-bit LE samples to skip at the start, then at the end.
            if let side = av_packet_get_side_data(packet.pointer, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 {
                discard = Int64(UInt32(side[4]) | UInt32(side[5]) << 8 | UInt32(side[6]) << 16 | UInt32(side[7]) << 24)
            }
            packets.append(EncodedAudioPacket(bytes: Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))),
                                              pts: p.pts, duration: p.duration, discardPadding: discard))
            av_packet_unref(packet.pointer)
        }
    }
}
