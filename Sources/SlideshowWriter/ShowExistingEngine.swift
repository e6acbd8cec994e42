internal import CFFmpeg
import SlideshowAudio
import SlideshowFFmpeg

/// What the asset writer's queue drives: the H.264/HEVC engine (``WriterEngine``) or the VP9/AV1
/// one (``ShowExistingEngine``).
package protocol EncodingEngine: AnyObject {
    func append(_ picture: EncoderPicture, at index: Int64) throws
    func finish(endFrame: Int64) throws
    func finishVideo(endFrame: Int64) throws
    func writeAudio(_ packets: [EncodedAudioPacket]) throws
    func finishAudio() throws
}

extension WriterEngine: EncodingEngine {}

/// The encoding half of the asset writer for VP9 and AV1: one encoder (libvpx, libaom) for the
/// whole show, held frames as `show_existing_frame` frames of the writer's own, in WebM (or AV1
/// in MP4).
///
/// The engine keeps each picture until the next one comes, to know whether it is held. A held
/// picture, and the picture after a hold, go to the encoder as key frames (as H.264's as IDRs):
/// every photo can be sought to, and no frame the encoder codes follows frames it did not see.
/// Pictures on consecutive frames (a transition, Ken Burns, a clip) go as the encoder likes.
///
/// - VP9: a key frame refreshes all 8 reference slots; the frames that hold it are one byte each
///   (``VP9ShowExisting``), showing slot 0.
/// - AV1: a shown key frame cannot be shown again (``AV1ShowExisting``), so the held picture
///   goes to the encoder twice, a key frame and, on the next frame, the same picture as an inter
///   frame (tens of bytes: every block a copy); the rest of the hold shows the slot that frame
///   was stored in, a 5-byte temporal unit each.
///
/// An AV1 moving show (``VideoSettings/av1Segments``) gives each stretch from one key frame to
/// the next to an encoder of its own in libaom's `good` mode (``ReferenceFrameEncoder/Role/segment``):
/// where a key frame is due, the encoder under way is drained and freed and a fresh one takes
/// the picture as its first, a key frame unforced. The frames a hold shows again are then the
/// stretch's own: the held picture's copy, in its encoder's slot as before.
///
/// The encoder runs on its own clock (one tick a picture it is given); its packets are put back
/// on the show's frames.
package final class ShowExistingEngine: EncodingEngine {
    private let settings: VideoSettings
    private var encoder: ReferenceFrameEncoder
    /// How many pictures the encoder under way has been given.
    private var encoderPictures = 0
    /// AV1: the sequence header OBU of the first key frame, which every later one must repeat
    /// (the file's sample entry carries one).
    private var sequenceHeaderOBU: [UInt8]?
    private let muxer: MP4Muxer
    private let interleaver: Interleaver
    /// AV1: the fields of the sequence header the frame headers depend on, from the first key
    /// frame's packet (libaom gives no global header through libavcodec 5.1; the muxers take
    /// `av1C` from that packet too).
    private var sequence: AV1SequenceHeader?
    /// The last picture appended, not yet given to the encoder.
    private var waiting: (picture: EncoderPicture, index: Int64)?
    private var lastFrame: Int64 = -1
    /// Whether the picture given to the encoder last was held (the next one is then a key frame).
    private var lastWasHeld = true
    /// The encoder's clock: the next picture's tick.
    private var clock: Int64 = 0
    /// The show's frame of each tick the encoder holds.
    private var frames: [Int64: Int64] = [:]
    /// The highest frame whose packet was written.
    private var lastPacket: Int64 = -1
    /// Held frames waiting for the packet of the frame they repeat.
    private var pendingHolds: [(after: Int64, frames: Range<Int64>)] = []
    /// The reference slot the frame of each written packet that a hold repeats was stored in.
    private var slots: [Int64: Int] = [:]
    /// The frames whose packets a hold will repeat (their slot is looked up when they come out).
    private var repeated: Set<Int64> = []
    private var videoFinished = false

    /// - Parameters:
    ///   - audio: the opened sound encoder (Opus in WebM, AAC in MP4), when the file has sound.
    ///   - container: WebM, or MP4 for AV1.
    package init(path: String, settings: VideoSettings, container: VideoContainer, audio: (any SoundEncoder)? = nil,
                 metadata: MovieMetadata = MovieMetadata()) throws(FFmpegError) {
        self.settings = settings
        encoder = try ReferenceFrameEncoder(settings: settings, globalHeader: true, role: settings.av1Segments ? .segment : .whole)
        let extradata = encoder.extradata
        var movieMetadata = metadata
        // WebM carries WebVTT subtitles, not MP4's timed text: the captions stay burned in (and in the WebVTT file if asked for).
        if container == .webm { movieMetadata.subtitles = nil }
        muxer = try MP4Muxer(path: path, codecContext: encoder.context, extradata: extradata, framesPerSecond: settings.framesPerSecond,
                             metadata: movieMetadata, container: container)
        if let audio { try muxer.addAudioStream(from: audio) }
        if let track = movieMetadata.subtitles { try muxer.addSubtitleStream(track) }
        try muxer.writeHeader()
        if let track = movieMetadata.subtitles { try muxer.write(subtitles: track) }
        interleaver = Interleaver(muxer: muxer, skipWriter: ExistingFrameWriter(codec: settings.codec),
                                  framesPerSecond: settings.framesPerSecond, hasAudio: audio != nil,
                                  audioPriming: audio?.priming ?? AACEncoderPriming.samples)
    }

    package func append(_ picture: EncoderPicture, at index: Int64) throws {
        precondition(index > lastFrame)
        if let waiting { try place(waiting.picture, at: waiting.index, shownUntil: index) }
        waiting = (picture, index)
        lastFrame = index
    }

    package func finish(endFrame: Int64) throws {
        try finishVideo(endFrame: endFrame)
        try finishAudio()
        try muxer.finish()
    }

    package func finishVideo(endFrame: Int64) throws {
        guard !videoFinished else { return }
        videoFinished = true
        if let waiting {
            try place(waiting.picture, at: waiting.index, shownUntil: max(endFrame, waiting.index + 1))
            self.waiting = nil
        }
        try encoder.sendEndOfStream()
        while try drainOne() != .endOfStream {}
        if let unwritten = pendingHolds.first {
            throw FFmpegError(call: "avcodec_receive_packet: no packet for frame \(unwritten.after), held until frame \(unwritten.frames.upperBound)",
                              code: -EIO)
        }
    }

    package func writeAudio(_ packets: [EncodedAudioPacket]) throws { try interleaver.push(packets) }

    package func finishAudio() throws { try interleaver.finishAudio() }

    /// Gives a picture to the encoder, knowing where the next one comes, then its held frames.
    private func place(_ picture: EncoderPicture, at index: Int64, shownUntil next: Int64) throws {
        let held = next > index + 1
        let skip = held && settings.hold == .skip
        // VP9 shows the key frame itself again; AV1 a copy of it (below).
        try send(picture, frame: index, forceKey: held || lastWasHeld, repeated: skip && settings.codec == .vp9)
        lastWasHeld = held
        guard held else { return }
        guard skip else {
            for frame in index + 1..<next { try send(picture, frame: frame, forceKey: false) }
            return
        }
        if settings.codec == .av1 {
            // The same picture again as an inter frame: the frame the rest of the hold shows.
            try send(picture, frame: index + 1, forceKey: false, repeated: next > index + 2)
            if next > index + 2 { try hold(index + 2..<next, after: index + 1) }
        } else {
            try hold(index + 1..<next, after: index)
        }
    }

    private func send(_ picture: EncoderPicture, frame: Int64, forceKey: Bool, repeated isRepeated: Bool = false) throws {
        var forceKey = forceKey
        if settings.av1Segments {
            if forceKey && encoderPictures > 0 { try startSegment() }
            forceKey = false  // a segment's first picture is its key frame; none other is forced
        }
        frames[clock] = frame
        if isRepeated { repeated.insert(frame) }
        while try !encoder.send(picture.frame, pts: clock, forceKey: forceKey) {
            _ = try drainOne()
        }
        clock += 1
        encoderPictures += 1
        while try drainOne() == .packet {}
    }

    /// Drains and frees the segment encoder under way and opens the next one, on a clock of its own.
    private func startSegment() throws {
        try encoder.sendEndOfStream()
        while try drainOne() != .endOfStream {}
        guard frames.isEmpty else {
            throw FFmpegError(call: "avcodec_receive_packet: no packet for frames \(frames.values.sorted()) at the end of an encoder", code: -EIO)
        }
        encoder = try ReferenceFrameEncoder(settings: settings, globalHeader: true, role: .segment)
        encoderPictures = 0
        clock = 0
    }

    private func hold(_ held: Range<Int64>, after: Int64) throws {
        if lastPacket >= after {
            try writeHolds(held, after: after)
        } else {
            pendingHolds.append((after: after, frames: held))
        }
    }

    private func writeHolds(_ held: Range<Int64>, after: Int64) throws {
        guard let slot = slots.removeValue(forKey: after) else {
            throw FFmpegError(call: "\(settings.codec.encoderName): frame \(after) is not in a reference slot to be shown again", code: -EINVAL)
        }
        // frameNumBefore carries the slot: ExistingFrameWriter's frame numbers do not move.
        try interleaver.push(.held(held, frameNumBefore: slot, repeating: after))
    }

    private func drainOne() throws -> EncoderOutput {
        var index: Int64 = -1
        let output = try encoder.receive { packet in
            guard let frame = frames.removeValue(forKey: packet.pointee.pts) else {
                throw FFmpegError(call: "avcodec_receive_packet: a packet for tick \(packet.pointee.pts), which was not sent", code: -EIO)
            }
            index = frame
            packet.pointee.pts = frame
            packet.pointee.dts = frame
            let isKey = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
            if repeated.contains(frame) || (isKey && settings.codec == .av1) {
                let bytes = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
                if isKey && settings.codec == .av1, let unit = AV1OBU.split(bytes).first(where: { $0.type == AV1OBU.sequenceHeader }) {
                    if let first = sequenceHeaderOBU {
                        guard first.elementsEqual(unit.payload) else {
                            throw FFmpegError(call: "libaom-av1: frame \(frame)'s sequence header differs from the first key frame's", code: -EINVAL)
                        }
                    } else {
                        do {
                            sequence = try AV1SequenceHeader(obus: bytes)
                        } catch {
                            throw FFmpegError(call: "libaom-av1's sequence header: \(error)", code: -EINVAL)
                        }
                        sequenceHeaderOBU = Array(unit.payload)
                    }
                }
                if repeated.remove(frame) != nil { slots[frame] = try slot(of: bytes, frame: frame) }
            }
            let copy = try OwnedPacket()
            try check(av_packet_ref(copy.pointer, packet), "av_packet_ref")
            try interleaver.push(.encoded(copy, frame: frame))
        }
        guard output == .packet else { return output }
        lastPacket = max(lastPacket, index)
        while let next = pendingHolds.first, next.after <= lastPacket {
            pendingHolds.removeFirst()
            try writeHolds(next.frames, after: next.after)
        }
        return output
    }

    /// The reference slot in which the encoder's frame is stored and from which it may be shown again.
    private func slot(of packet: [UInt8], frame: Int64) throws(FFmpegError) -> Int {
        switch settings.codec {
        case .vp9:
            guard VP9ShowExisting.isKeyFrame(packet) else {
                throw FFmpegError(call: "libvpx-vp9: frame \(frame), held, is not a key frame", code: -EINVAL)
            }
            return 0
        default:
            // An alt-ref shown again by the encoder itself (its overlay): that slot, shown again.
            if let sequence, let header = AV1FrameHeaderPrefix(packet: packet, sequence: sequence), header.showExistingFrame {
                return header.frameToShow
            }
            guard let sequence, let header = AV1FrameHeaderPrefix(packet: packet, sequence: sequence),
                  header.showFrame, header.showableFrame, header.refreshFrameFlags != 0 else {
                let header = sequence.flatMap { AV1FrameHeaderPrefix(packet: packet, sequence: $0) }
                throw FFmpegError(call: "libaom-av1: frame \(frame), held, is not a shown frame stored in a slot (\(header.map { "\($0)" } ?? "unread"); \(packet.prefix(12).map { String($0, radix: 16) }))", code: -EINVAL)
            }
            return header.refreshFrameFlags.trailingZeroBitCount
        }
    }
}

/// The held frames' packets for VP9 and AV1: `show_existing_frame` of the slot passed as the
/// "frame number" (``HeldFrameWriter``'s numbering does not move).
struct ExistingFrameWriter: HeldFrameWriter {
    let codec: VideoCodec
    func frameNum(after frameNum: Int) -> Int { frameNum }
    func heldFrame(frameNum slot: Int, framesAfterIDR: Int64) -> [UInt8] {
        codec == .vp9 ? VP9ShowExisting.frame(slot: slot) : AV1ShowExisting.temporalUnit(slot: slot)
    }
    func heldPacket(frameNum slot: Int, framesAfterIDR: Int64) -> [UInt8] { heldFrame(frameNum: slot, framesAfterIDR: framesAfterIDR) }
}
