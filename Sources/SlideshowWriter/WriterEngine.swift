internal import CFFmpeg
import SlideshowAudio
import SlideshowFFmpeg

/// The encoding half of the asset writer: encodes, holds and muxes.
///
/// It owns the encoders and the muxer of a render and is used only on the writer's serial
/// queue. It converts nothing: pictures arrive already in the encoder's format, converted
/// on the appending thread by ``AssetWriter`` (``ColorConverter``), so that conversion runs
/// beside the encoder rather than before it.
///
/// Held frames: an appended picture stays on screen until the next one's frame. With
/// ``HoldStrategy/skip`` the engine writes those frames itself as all-skip P slices
/// (``SkipFrameWriter``), right after the encoder's packet for the picture they repeat,
/// whenever that packet comes: at once when the encoder has already given it out (no
/// delay, e.g. x264's `zerolatency`), or as soon as it does (x264 may hold pictures back).
/// The first picture after held frames is a forced IDR, so the encoder's own frame
/// numbering never meets the engine's. With ``HoldStrategy/encode`` the encoder is given
/// every held frame as well.
///
/// Pictures appended on consecutive frames (a crossfade, a pan, a clip) are a *run*. In a show
/// of cuts, or with ``HoldStrategy/encode``, they go through the one encoder as ordinary
/// frames. In a show that composes frames (``VideoSettings/composesFrames``) each run goes to
/// an encoder of its own (``MotionRuns``, B-frames and mb-tree), opened for the run and
/// drained at its end, before the frames held after it; the held pictures between runs go to
/// the stills encoder, as in a show of cuts. To know whether a picture starts a run, the
/// engine keeps it until the next one comes (or the end): one picture more in memory. The
/// stream has one SPS, the motion encoders' (POC type 0): the stills encoder's IDRs are
/// rewritten to it (``SharedSequence``), and the held frames' skip slices carry their picture
/// order, so that decoders which mishandle a change of SPS (OpenH264) play every frame.
///
/// In HEVC the same, with x265s (``VideoSettings/motionX265Parameters``): the file's one VPS,
/// SPS and PPS are the motion encoders', which the stills encoder's equal but for the
/// reordering (``HEVCSharedSequence``), so no slice is rewritten; held frames are skip
/// pictures (``HEVCSkipFrameWriter``) whose picture order counts from the IDR they follow.
package final class WriterEngine {
    private let settings: VideoSettings
    /// The stills encoder: held pictures, and in a show of cuts every picture.
    private let stills: H264Encoder
    private let stillsSkip: (any HeldFrameWriter)?
    /// Motion runs' encoders, in a show that composes frames with held frames skipped.
    private let motion: MotionRuns?
    /// With ``motion``: the stream's one SPS, into which the stills encoder's slices are rewritten.
    private let sharedSequence: SharedSequence?
    /// The last picture given to the encoder, for held frames it encodes again: kept until the
    /// next one only when it may be encoded again (no skip writer, or a run's hold to end).
    private var lastPicture: EncoderPicture?
    /// With ``motion``: the last picture appended, not yet given to an encoder.
    private var waiting: (picture: EncoderPicture, index: Int64)?
    private let muxer: MP4Muxer

    /// The frame index of the last picture appended.
    private var lastFrame: Int64 = -1
    /// The highest frame index of a packet the encoders gave out (and the file received).
    private var lastPacket: Int64 = -1
    /// Held frames waiting for the encoder's packet of the picture they repeat: after the
    /// packet for frame `after`, the frames `frames`.
    private var pendingHolds: [(after: Int64, frames: Range<Int64>)] = []
    /// The stills encoder's clock: frames since the start, plus this. It runs ahead of the
    /// show's after a copy that ended a hold (``endHold(at:)``), so that the copy lasts a second.
    private var stillsClockOffset: Int64 = 0
    /// The show's frame of each picture the stills encoder holds, by its clock; nil for a copy
    /// that ended a hold, whose packet is not written.
    private var stillsFrames: [Int64: Int64?] = [:]
    /// The stills encoder's time of the last copy that ended a hold.
    private var lastHoldEnd: Int64?
    /// `frame_num` of the last reference picture the stills encoder or the engine wrote.
    private var lastFrameNum = 0
    /// HEVC: the frame of the last IDR the encoder gave out, from which picture order counts.
    private var lastIDRFrame: Int64 = 0
    /// Whether every video frame has gone to the muxer or waits below (``finishVideo(endFrame:)``).
    private var videoFinished = false

    /// Decides which stream writes next: every packet goes through it.
    private let interleaver: Interleaver

    /// - Parameter audio: the opened AAC encoder when the file gets a sound track (the engine
    ///   takes its stream parameters; the writer keeps the encoder).
    ///   and `metadata` the file's creation time and title.
    package init(path: String, settings: VideoSettings, audio: AACEncoder? = nil, metadata: MovieMetadata = MovieMetadata()) throws(FFmpegError) {
        self.settings = settings
        stills = try H264Encoder(settings: settings, globalHeader: true)
        var extradata = stills.extradata
        var stillsSkip: (any HeldFrameWriter)? = nil
        var motion: MotionRuns? = nil
        var sharedSequence: SharedSequence? = nil
        if settings.codec == .hevc {
            // Held frames as skip pictures on x265's SPS and PPS; in a moving show, the motion
            // runs' sets for the whole stream (the stills encoder's differ only in reordering).
            let runs = settings.hold == .skip && settings.composesFrames && settings.motionRuns ? try MotionRuns(settings: settings) : nil
            if let runs, (try? HEVCSharedSequence.check(stills: extradata, motion: runs.extradata)) != nil,
               let writer = try? HEVCSkipFrameWriter(extradata: runs.extradata) {
                (motion, stillsSkip, extradata) = (runs, writer, runs.extradata)
            } else if settings.hold == .skip {
                stillsSkip = try? HEVCSkipFrameWriter(extradata: extradata)
            }
        } else if settings.hold == .skip, let sets = EncoderParameterSets(annexB: extradata) {
            let runs = settings.composesFrames && settings.motionRuns ? try MotionRuns(settings: settings) : nil
            if let runs, let shared = try? SharedSequence(stills: extradata, motion: runs.extradata),
               let writer = try? SkipFrameWriter(sps: shared.sps, encoderPPSIDs: shared.ppsIDs) {
                // A moving show: the motion encoders' SPS for the whole stream, three PPSs.
                (motion, sharedSequence, stillsSkip) = (runs, shared, writer)
                extradata = shared.extradata + NALUnit.startCode + writer.pictureParameterSet
            } else if let writer = try? SkipFrameWriter(sps: sets.sps, encoderPPSIDs: sets.ppsIDs) {
                // A show of cuts (or runs that cannot share the SPS: the one encoder takes them).
                stillsSkip = writer
                extradata += NALUnit.startCode + writer.pictureParameterSet
            }
        }
        self.stillsSkip = stillsSkip
        self.motion = motion
        self.sharedSequence = sharedSequence
        muxer = try MP4Muxer(path: path, encoder: stills, extradata: extradata, framesPerSecond: settings.framesPerSecond,
                             decodeDelay: motion == nil ? 0 : H264Encoder.motionDecodeDelay, metadata: metadata)
        if let audio { try muxer.addAudioStream(from: audio) }
        if let track = metadata.subtitles { try muxer.addSubtitleStream(track) }
        try muxer.writeHeader()
        if let track = metadata.subtitles { try muxer.write(subtitles: track) }
        interleaver = Interleaver(muxer: muxer, skipWriter: stillsSkip, framesPerSecond: settings.framesPerSecond, hasAudio: audio != nil)
    }

    /// Encodes a picture shown from frame `index` on; the previous picture is held until then.
    package func append(_ picture: EncoderPicture, at index: Int64) throws {
        precondition(index > lastFrame)
        if let motion {
            if let waiting {
                try place(waiting.picture, at: waiting.index, shownUntil: index, runGoesOn: index == waiting.index + 1, motion: motion)
            }
            waiting = (picture, index)
        } else {
            let held = lastFrame >= 0 && index > lastFrame + 1
            if held { try hold(until: index) }
            lastPicture = picture
            try encode(at: index, forceIDR: lastFrame < 0 || held)
            // The encoder has copied the picture, and held frames are skip slices: its buffer
            // goes back to the pool now, so the next picture is converted into the same one
            // (a 10-bit 1080p picture is 6 MB of an HDR show's 300 MB).
            if stillsSkip != nil { lastPicture = nil }
        }
        lastFrame = index
    }

    /// Holds the last picture until frame `end` (exclusive), drains the encoder and closes the file.
    package func finish(endFrame: Int64) throws {
        try finishVideo(endFrame: endFrame)
        try finishAudio()
        try muxer.finish()
    }

    /// Holds the last picture until frame `end` (exclusive) and drains the encoder: every video
    /// packet goes to the muxer (or, with sound, waits for the sound to reach it).
    package func finishVideo(endFrame: Int64) throws {
        guard !videoFinished else { return }
        videoFinished = true
        if let motion, let waiting {
            let end = max(endFrame, waiting.index + 1)
            if settings.codec == .hevc, motion.isRunning, end == waiting.index + 1 {
                // HEVC: the last picture, shown one frame at the end of a run, ends the run
                // rather than costing an IDR (nothing is held after it).
                try send(waiting.picture, to: motion.encoderForRun(), at: waiting.index, forceIDR: false)
                try drainRun(motion)
            } else {
                try place(waiting.picture, at: waiting.index, shownUntil: end, runGoesOn: false, motion: motion)
            }
            self.waiting = nil
        } else if lastFrame >= 0 && endFrame > lastFrame + 1 {
            try hold(until: endFrame)
        }
        try stills.sendEndOfStream()
        while try drainOne(from: stills) != .endOfStream {}
        if let unwritten = pendingHolds.first {
            throw FFmpegError(call: "avcodec_receive_packet: no packet for frame \(unwritten.after), held until frame \(unwritten.frames.upperBound)",
                              code: -EIO)
        }
    }

    /// Muxes encoded sound, and the video that waited for it.
    package func writeAudio(_ packets: [EncodedAudioPacket]) throws {
        try interleaver.push(packets)
    }

    /// The sound is finished: the video still waiting goes to the muxer.
    package func finishAudio() throws {
        try interleaver.finishAudio()
    }

    /// Gives a picture to its encoder, knowing what follows it: a picture followed at once by
    /// another to the run's encoder (opened at the run's first); a picture held, or the last,
    /// to the stills encoder as an IDR, after the run before it, if any, is drained. Then the
    /// frames held after it.
    /// - Parameters:
    ///   - shownUntil: the frame where the next picture, or the video's end, comes.
    ///   - runGoesOn: whether the next picture follows on the next frame.
    private func place(_ picture: EncoderPicture, at index: Int64, shownUntil next: Int64, runGoesOn: Bool,
                       motion: MotionRuns) throws {
        if runGoesOn {
            if !motion.isRunning, !pendingHolds.isEmpty { try endHold(at: index) }
            try send(picture, to: motion.encoderForRun(), at: index, forceIDR: false)
            return
        }
        try drainRun(motion)
        lastPicture = picture
        try encode(at: index, forceIDR: true)
        if next > index + 1 { try hold(index + 1..<next, after: index) }
    }

    /// Drains the run under way, if any: its encoder gives out every packet and is freed.
    private func drainRun(_ motion: MotionRuns) throws {
        guard motion.isRunning else { return }
        let encoder = try motion.encoderForRun()
        try encoder.sendEndOfStream()
        while try drainOne(from: encoder) != .endOfStream {}
        motion.endRun()
    }

    /// Tells the stills encoder that its last picture's hold ends at frame `index`, where a
    /// run starts, so that it gives the picture out before the run's packets.
    ///
    /// x264 keeps each picture back until it sees the next one's time: it weighs a picture's
    /// rate by how long it is shown (a held photo gets the bits of a second, not of a frame;
    /// `force-cfr` would drop that, and held photos came out at a third of their bytes). So the
    /// picture is sent again at the run's first frame: the hold is timed, the picture comes
    /// out, and so do its held frames. The copy is not written. It is an IDR, as the held
    /// pictures are: a P frame there (all skipped blocks, next to no cost) would set the next
    /// held picture's quantiser from the P frames' (x264's `ip_factor` rule) and give it up
    /// to a quarter more bytes than in a show of cuts; R2's CPU time measured the same with
    /// either copy.
    private func endHold(at index: Int64) throws {
        try encode(at: index, forceIDR: true, holdEnd: true)
        if let unwritten = pendingHolds.first {
            throw FFmpegError(call: "avcodec_receive_packet: no packet for frame \(unwritten.after) before the run at frame \(index)", code: -EIO)
        }
    }

    /// Fills the frames after the last picture, up to `end` (exclusive).
    private func hold(until end: Int64) throws {
        try hold((lastFrame + 1)..<end, after: lastFrame)
    }

    /// Fills `frames` with the picture at frame `after`: skip slices once its packet is
    /// written, or (without a skip writer) the picture encoded again.
    private func hold(_ frames: Range<Int64>, after: Int64) throws {
        if let skipWriter = stillsSkip {
            if lastPacket >= after {
                // The encoder has given out the picture already: its copies follow at once.
                try writeHolds(frames, after: after, with: skipWriter)
            } else {
                pendingHolds.append((after: after, frames: frames))
            }
        } else {
            for index in frames { try encode(at: index, forceIDR: false) }
            lastFrame = frames.upperBound - 1
        }
    }

    /// The last picture to the stills encoder at frame `index`.
    ///
    /// x264 weighs each picture's rate by the time to the next (up to a second): a copy that
    /// ended a hold, at a run's first frame, lasts until the picture after the run, which may
    /// be a few frames, and would make that picture's quantiser jump. So the stills encoder's
    /// clock moves on to a second after the copy, as if the run lasted that long.
    /// - Parameter holdEnd: whether the picture is a copy that ends a hold (not written).
    private func encode(at index: Int64, forceIDR: Bool, holdEnd: Bool = false) throws {
        guard let picture = lastPicture else { return }
        if let lastHoldEnd, index + stillsClockOffset - lastHoldEnd < Int64(settings.framesPerSecond) {
            stillsClockOffset = lastHoldEnd + Int64(settings.framesPerSecond) - index
        }
        let time = index + stillsClockOffset
        stillsFrames[time] = holdEnd ? Int64?.none : index
        lastHoldEnd = holdEnd ? time : nil
        try send(picture, to: stills, at: time, forceIDR: forceIDR)
    }

    /// Sends a picture, receiving what the encoder gives out while it is full and after.
    private func send(_ picture: EncoderPicture, to encoder: H264Encoder, at index: Int64, forceIDR: Bool) throws {
        while try !encoder.send(picture.frame, pts: index, forceKey: forceIDR) {
            _ = try drainOne(from: encoder)
        }
        while try drainOne(from: encoder) == .packet {}
    }

    /// Receives one packet from an encoder, writes it, and writes any held frames due after it.
    /// The stills encoder's slices give the `frame_num` the held frames carry on from.
    private func drainOne(from encoder: H264Encoder) throws -> EncoderOutput {
        var index: Int64 = -1
        var written = true
        let output = try encoder.receive { packet in
            index = packet.pointee.pts
            if encoder === stills, let frame = stillsFrames.removeValue(forKey: index) {
                guard let frame else {
                    written = false
                    return
                }
                index = frame
                packet.pointee.pts = frame
                packet.pointee.dts = frame
            }
            let copy = try OwnedPacket()
            if encoder === stills, let sharedSequence {
                // In the stream's one SPS (a copy of the bytes, a little longer).
                let bytes = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
                let rewritten: [UInt8]
                do {
                    rewritten = try sharedSequence.rewrite(stillsPacket: bytes)
                } catch {
                    throw FFmpegError(call: "avcodec_receive_packet: the stills encoder's frame \(index) does not fit the stream's one SPS (\(error))",
                                      code: -EINVAL)
                }
                try check(av_new_packet(copy.pointer, Int32(rewritten.count)), "av_new_packet")
                copy.pointer.pointee.data.update(from: rewritten, count: rewritten.count)
                try check(av_packet_copy_props(copy.pointer, packet), "av_packet_copy_props")
            } else {
                // A reference (no copy of the bytes): the encoder reuses its packet.
                try check(av_packet_ref(copy.pointer, packet), "av_packet_ref")
            }
            if settings.codec == .hevc {
                let bytes = UnsafeBufferPointer(start: copy.pointer.pointee.data, count: Int(copy.pointer.pointee.size))
                if Self.startsIDR(bytes) { lastIDRFrame = index }
            } else if encoder === stills, let sps = (stillsSkip as? SkipFrameWriter)?.sps {
                let bytes = UnsafeBufferPointer(start: copy.pointer.pointee.data, count: Int(copy.pointer.pointee.size))
                if let slice = Self.firstSlice(in: bytes, sps: sps) {
                    lastFrameNum = slice.frameNum
                }
            }
            try interleaver.push(.encoded(copy, frame: index))
        }
        guard output == .packet, written else { return output }
        lastPacket = max(lastPacket, index)
        if let skipWriter = stillsSkip, let next = pendingHolds.first, next.after <= lastPacket {
            pendingHolds.removeFirst()
            try writeHolds(next.frames, after: next.after, with: skipWriter)
        }
        return output
    }

    /// Writes held frames: all-skip P slices repeating the picture just written, at frame `after`.
    private func writeHolds(_ frames: Range<Int64>, after: Int64, with skipWriter: any HeldFrameWriter) throws {
        // They may wait for the sound as a range; their frame_nums follow on from here.
        let before = lastFrameNum
        for _ in frames { lastFrameNum = skipWriter.frameNum(after: lastFrameNum) }
        // HEVC's picture order counts from the last IDR, one a frame (x265's, without B-frames).
        try interleaver.push(.held(frames, frameNumBefore: before, repeating: settings.codec == .hevc ? lastIDRFrame : after))
    }

    /// Whether an HEVC packet's first slice is an IDR's (NAL unit types 19 and 20).
    private static func startsIDR(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                let type = (bytes[index + 3] >> 1) & 0x3F
                if type < 32 { return HEVCNALUnit.isIDR(type) }
                index += 3
            } else {
                index += 1
            }
        }
        return false
    }

    /// The header of the first coded slice in an Annex B packet.
    private static func firstSlice(in bytes: UnsafeBufferPointer<UInt8>, sps: SequenceParameterSet) -> SliceHeaderPrefix? {
        // Only the first few bytes of each NAL unit are needed; scan for start codes.
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                let start = index + 3
                let type = bytes[start] & 0x1F
                if type == 1 || type == 5 {
                    let unit = Array(bytes[start..<min(bytes.count, start + 16)])
                    return SliceHeaderPrefix(nalUnit: unit, sps: sps)
                }
                index = start
            } else {
                index += 1
            }
        }
        return nil
    }
}
