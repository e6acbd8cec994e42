internal import CFFmpeg
import Foundation
import SlideshowFFmpeg

/// The true peak of sound as it will be in the file: encoded by ``AACEncoder`` (the writer's
/// settings, bit-exact), decoded by FFmpeg's AAC decoder, measured by libebur128.
///
/// FFmpeg's AAC encoder overshoots loud sound: a shared Vorbis tone whose true peak is
/// −1.5 dBTP comes out at +0.5 dBTP. The loudness gain is capped by this measure, not by the
/// peak before encoding, so that the −1 dBTP promise holds on the file.
package final class EncodedPeakMeter {
    private let encoder: AACEncoder
    private let decoder: AACDecoder
    private let meter: LoudnessMeter

    /// - Parameters:
    ///   - path: the music, for errors.
    ///   - bitrate: the AAC bit rate the render will use.
    /// - Throws: ``AudioError`` `.measurementFailed` when the encoder, the decoder or the meter cannot be opened.
    package init(path: String, bitrate: Int) throws(AudioError) {
        do {
            encoder = try AACEncoder(bitrate: bitrate)
            decoder = try AACDecoder(encoder: encoder)
        } catch {
            throw AudioError(path: path, kind: .measurementFailed, reason: "cannot measure the encoded true peak (\(error.message))")
        }
        // EBUR128_MODE_TRUE_PEAK (with its sample peak).
        meter = try LoudnessMeter(path: path, mode: 49)
    }

    /// Encodes and decodes interleaved stereo frames, and measures what comes out.
    package func add(_ samples: [Float]) throws(AudioError) {
        try measure { () throws(FFmpegError) in try encoder.encode(samples) }
    }

    /// The true peak of everything added, after the encoder's last frame, in dBTP.
    package func truePeak() throws(AudioError) -> Double {
        try measure { () throws(FFmpegError) in try encoder.finish() }
        return try meter.truePeak()
    }

    private func measure(_ encode: () throws(FFmpegError) -> [EncodedAudioPacket]) throws(AudioError) {
        do {
            for packet in try encode() {
                let decoded = try decoder.decode(packet)
                if !decoded.isEmpty { try meter.add(decoded) }
            }
        } catch let error as FFmpegError {
            throw AudioError(path: meter.path, kind: .measurementFailed, reason: "cannot measure the encoded true peak (\(error.message))")
        } catch let error as AudioError {
            throw error
        } catch {
            preconditionFailure("only FFmpegError and AudioError are thrown here")
        }
    }
}

/// FFmpeg's AAC decoder, opened with an ``AACEncoder``'s configuration, giving interleaved
/// stereo float.
package final class AACDecoder {
    private let codec: OwnedCodecContext
    private let frame: OwnedFrame
    private let packet: OwnedPacket

    /// Opens the decoder for the encoder's stream (its AudioSpecificConfig, rate and layout).
    package init(encoder: AACEncoder) throws(FFmpegError) {
        guard let decoder = avcodec_find_decoder(AV_CODEC_ID_AAC) else {
            throw FFmpegError(call: "avcodec_find_decoder(aac)", code: -ENOSYS)
        }
        codec = try OwnedCodecContext(codec: decoder)
        frame = try OwnedFrame()
        packet = try OwnedPacket()
        let context = codec.pointer, source = encoder.context
        context.pointee.sample_rate = source.pointee.sample_rate
        try check(av_channel_layout_copy(&context.pointee.ch_layout, &source.pointee.ch_layout), "av_channel_layout_copy")
        let size = Int(source.pointee.extradata_size)
        if size > 0, let extradata = source.pointee.extradata {
            guard let copy = av_mallocz(size + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self) else {
                throw FFmpegError(call: "av_mallocz", code: -ENOMEM)
            }
            copy.update(from: extradata, count: size)
            // From here the context owns the copy; avcodec_free_context frees it.
            context.pointee.extradata = copy
            context.pointee.extradata_size = Int32(size)
        }
        context.pointee.flags |= Int32(AV_CODEC_FLAG_BITEXACT)
        try check(avcodec_open2(context, decoder, nil), "avcodec_open2(aac decoder)")
    }

    /// Decodes one packet; returns the interleaved stereo frames that came out (none for the priming).
    package func decode(_ source: EncodedAudioPacket) throws(FFmpegError) -> [Float] {
        try check(av_new_packet(packet.pointer, Int32(source.bytes.count)), "av_new_packet")
        defer { av_packet_unref(packet.pointer) }
        packet.pointer.pointee.data.update(from: source.bytes, count: source.bytes.count)
        packet.pointer.pointee.pts = source.pts
        try check(avcodec_send_packet(codec.pointer, packet.pointer), "avcodec_send_packet(aac)")
        var samples: [Float] = []
        while true {
            let code = avcodec_receive_frame(codec.pointer, frame.pointer)
            if code == shim_averror_eagain() || code == shim_averror_eof() { return samples }
            try check(code, "avcodec_receive_frame(aac)")
            defer { av_frame_unref(frame.pointer) }
            let count = Int(frame.pointer.pointee.nb_samples)
            guard frame.pointer.pointee.format == AV_SAMPLE_FMT_FLTP.rawValue, frame.pointer.pointee.ch_layout.nb_channels == 2 else {
                throw FFmpegError(call: "avcodec_receive_frame(aac): not planar float stereo", code: -EINVAL)
            }
            let left = UnsafeRawPointer(frame.pointer.pointee.data.0!).assumingMemoryBound(to: Float.self)
            let right = UnsafeRawPointer(frame.pointer.pointee.data.1!).assumingMemoryBound(to: Float.self)
            samples.reserveCapacity(samples.count + 2 * count)
            for index in 0..<count {
                samples.append(left[index])
                samples.append(right[index])
            }
        }
    }
}
