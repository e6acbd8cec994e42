internal import CFFmpeg
import SlideshowAudio
import SlideshowFFmpeg

/// The one place that decides which stream writes next, as FFmpeg's `doc/examples/mux.c`
/// decides it with one `av_compare_ts` loop: the video's next frame goes to the muxer when its
/// time is not after the end of the sound written so far, else the next sound packet goes.
///
/// The sound never waits for the pictures (the audio input's readiness keeps it within
/// ``AssetWriterAudioInput/lead`` of them); the pictures wait for the sound. Held frames wait
/// as a range (a few bytes), not as packets, so a long hold costs no memory while it waits.
/// Without a sound track, or once it is finished, every picture goes at once. libavformat's
/// own interleaving (`av_interleaved_write_frame`, ``MP4Muxer``) then orders the file by time;
/// this loop bounds what it must buffer.
package final class Interleaver {
    /// A picture waiting for the sound to reach its time.
    package enum Video {
        /// An encoder packet for `frame`.
        case encoded(OwnedPacket, frame: Int64)
        /// Held frames: all-skip P slices numbered on from `frameNumBefore`, repeating the
        /// picture at frame `repeating` (an IDR when the stream's POC type is 0: their picture
        /// order counts from it).
        case held(Range<Int64>, frameNumBefore: Int, repeating: Int64)
    }

    private let muxer: MP4Muxer
    private let skipWriter: (any HeldFrameWriter)?
    private let framesPerSecond: Int64
    private var video: [Video] = []
    private var audio: [EncodedAudioPacket] = []
    /// The end of the sound written so far, in 1/48000 s (the AAC priming is before 0);
    /// `.max` once the sound is finished, or when there is none.
    private var audioEnd: Int64

    /// - Parameters:
    ///   - hasAudio: whether the file has a sound track (without one, pictures never wait).
    ///   - audioPriming: the samples before time 0 in the sound's first packet (AAC's priming, Opus's pre-skip).
    package init(muxer: MP4Muxer, skipWriter: (any HeldFrameWriter)?, framesPerSecond: Int, hasAudio: Bool,
                 audioPriming: Int64 = AACEncoderPriming.samples) {
        self.muxer = muxer
        self.skipWriter = skipWriter
        self.framesPerSecond = Int64(framesPerSecond)
        audioEnd = hasAudio ? -audioPriming : .max
    }

    /// Queues a picture and writes what is due.
    package func push(_ item: Video) throws(FFmpegError) {
        video.append(item)
        try drain()
    }

    /// Queues sound and writes what is due.
    package func push(_ packets: [EncodedAudioPacket]) throws(FFmpegError) {
        audio += packets
        try drain()
    }

    /// The sound is finished: every picture still waiting goes to the muxer.
    package func finishAudio() throws(FFmpegError) {
        audioEnd = .max
        try drain()
    }

    /// The loop: the next picture if its time is not after the sound's end, else the next
    /// sound packet; stops when neither can go.
    private func drain() throws(FFmpegError) {
        let rate = Int64(AudioFormat.sampleRate)
        func due(_ frame: Int64) -> Bool {
            audioEnd == .max || frame.multipliedFullWidth(by: rate) <= audioEnd.multipliedFullWidth(by: framesPerSecond)
        }
        while true {
            if let first = video.first {
                switch first {
                case .encoded(let packet, let frame) where due(frame):
                    video.removeFirst()
                    try muxer.write(encoded: packet.pointer)
                    continue
                case .held(let frames, let frameNumBefore, let repeating) where due(frames.lowerBound):
                    guard let skipWriter else { preconditionFailure("held frames without a skip writer") }
                    let frameNum = skipWriter.frameNum(after: frameNumBefore)
                    let bytes = skipWriter.heldPacket(frameNum: frameNum, framesAfterIDR: frames.lowerBound - repeating)
                    try muxer.write(bytes: bytes, frame: frames.lowerBound, keyframe: false)
                    if frames.count > 1 {
                        video[0] = .held(frames.lowerBound + 1..<frames.upperBound, frameNumBefore: frameNum, repeating: repeating)
                    } else {
                        video.removeFirst()
                    }
                    continue
                default:
                    break
                }
            }
            // The sound never waits (it is all written before this returns).
            guard !audio.isEmpty else { return }
            let packet = audio.removeFirst()
            try muxer.write(audio: packet)
            if audioEnd != .max { audioEnd = max(audioEnd, packet.pts + packet.duration) }
        }
    }
}

/// What writes held frames: H.264's skip slices (``SkipFrameWriter``) or HEVC's skip pictures
/// (``HEVCSkipFrameWriter``).
package protocol HeldFrameWriter {
    /// The `frame_num` after `frameNum` (H.264; HEVC has none and counts on).
    func frameNum(after frameNum: Int) -> Int
    /// One held frame's NAL unit (without a start code), `framesAfterIDR` frames after the IDR
    /// its picture order counts from.
    func heldFrame(frameNum: Int, framesAfterIDR: Int64) -> [UInt8]
    /// The held frame's packet for the muxer (by default the NAL unit after a start code).
    func heldPacket(frameNum: Int, framesAfterIDR: Int64) -> [UInt8]
}

extension HeldFrameWriter {
    /// The held frame's packet as the muxer takes it: H.264 and HEVC in Annex B (a start code first).
    package func heldPacket(frameNum: Int, framesAfterIDR: Int64) -> [UInt8] {
        NALUnit.startCode + heldFrame(frameNum: frameNum, framesAfterIDR: framesAfterIDR)
    }
}

extension SkipFrameWriter: HeldFrameWriter {
    package func heldFrame(frameNum: Int, framesAfterIDR: Int64) -> [UInt8] {
        skipSlice(frameNum: frameNum, framesAfterIDR: framesAfterIDR)
    }
}

extension HEVCSkipFrameWriter: HeldFrameWriter {
    package func frameNum(after frameNum: Int) -> Int { frameNum &+ 1 }
    package func heldFrame(frameNum: Int, framesAfterIDR: Int64) -> [UInt8] { skipPicture(pictureOrder: framesAfterIDR) }
}
