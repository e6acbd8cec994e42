import SlideshowAudio
import SlideshowFFmpeg

/// The sound's side of the asset writer: AAC encoding on the appending thread, the packets
/// queued for the engine, and the hand-over between the video and the audio inputs.
extension AssetWriter {
    /// Accepts sound from the audio input: encodes it here and queues its packets for the muxer.
    /// - Returns: false, with ``error`` set when the writer failed, when the sound cannot be appended.
    package func enqueueAudio(_ buffer: AudioSampleBuffer, done: @escaping @Sendable () -> Void) -> Bool {
        guard status == .writing else { return false }
        let packets: [EncodedAudioPacket]
        do {
            packets = try audioEncoder.withLock { encoder throws(FFmpegError) -> [EncodedAudioPacket] in
                guard let encoder else { return [] }
                return try encoder.encode(buffer.samples)
            }
        } catch {
            fail(describe(error))
            return false
        }
        queue.async { [self] in
            defer { done() }
            guard status == .writing, let engine else { return }
            do {
                try engine.writeAudio(packets)
            } catch {
                fail(describe(error))
            }
        }
        return true
    }

    /// The audio input is finished: encodes its last frame, drains the encoder, queues the packets.
    package func finishAudio() {
        guard status == .writing else { return }
        let packets: [EncodedAudioPacket]
        do {
            packets = try audioEncoder.withLock { encoder throws(FFmpegError) -> [EncodedAudioPacket] in
                try encoder?.finish() ?? []
            }
        } catch {
            fail(describe(error))
            return
        }
        queue.async { [self] in
            guard status == .writing, let engine else { return }
            do {
                try engine.writeAudio(packets)
                try engine.finishAudio()
            } catch {
                fail(describe(error))
            }
        }
    }

    /// The video input is finished: the sound may run to its end.
    package func videoInputFinished() {
        state.withLock { $0.videoInputFinished = true }
        flushVideoIfFinished()
        state.withLock { $0.audioInput }?.videoFinished()
    }

    /// With an audio input, once the video input is finished and the session's end is known:
    /// the last picture's held frames go to the muxer at once, so that the sound still to
    /// come meets video packets to interleave with instead of waiting for finishWriting().
    package func flushVideoIfFinished() {
        let endFrame = state.withLock { state -> Int64? in
            guard state.audioInput != nil, state.status == .writing, state.videoInputFinished, !state.videoFlushed,
                  let end = state.sessionEnd else { return nil }
            state.videoFlushed = true
            return max(frameIndex(of: end, start: state.sessionStart ?? .zero), state.lastFrame + 1)
        }
        guard let endFrame else { return }
        queue.async { [self] in
            guard status == .writing, let engine else { return }
            do {
                try engine.finishVideo(endFrame: endFrame)
            } catch {
                fail(describe(error))
            }
        }
    }
}
