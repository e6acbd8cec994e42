internal import CFFmpeg

/// The encoding half of the asset writer: encodes, holds and muxes.
///
/// It owns the encoder and the muxer of a render and is used only on the writer's serial
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
/// numbering never meets the engine's. Pictures appended on consecutive frames (a crossfade, a pan)
/// go through the encoder as ordinary frames. With ``HoldStrategy/encode`` the encoder is
/// given every held frame as well.
final class WriterEngine {
    private let settings: VideoSettings
    private let encoder: H264Encoder
    /// The last picture given to the encoder, for held frames it encodes again.
    private var lastPicture: EncoderPicture?
    private let muxer: MP4Muxer
    private let skipWriter: SkipFrameWriter?

    /// The frame index of the last picture given to the encoder.
    private var lastFrame: Int64 = -1
    /// The frame index of the last packet the encoder gave out (and the file received).
    private var lastPacket: Int64 = -1
    /// Held frames waiting for the encoder's packet of the picture they repeat: after the
    /// packet for frame `after`, the frames `frames`.
    private var pendingHolds: [(after: Int64, frames: Range<Int64>)] = []
    /// `frame_num` of the last reference picture written, encoder's or engine's.
    private var lastFrameNum = 0
    /// Whether every video frame has gone to the muxer or waits below (``finishVideo(endFrame:)``).
    private var videoFinished = false

    /// Decides which stream writes next: every packet goes through it.
    private let interleaver: Interleaver

    /// - Parameter audio: the opened AAC encoder when the file gets a sound track (the engine
    ///   takes its stream parameters; the writer keeps the encoder).
    ///   and `metadata` the file's creation time and title.
    init(path: String, settings: VideoSettings, audio: AACEncoder? = nil, metadata: MovieMetadata = MovieMetadata()) throws(FFmpegError) {
        self.settings = settings
        encoder = try H264Encoder(settings: settings, globalHeader: true)
        var extradata = encoder.extradata
        var skipWriter: SkipFrameWriter? = nil
        if settings.hold == .skip {
            let units = NALUnit.split(annexB: extradata)
            let ppsIDs = units.filter { NALUnit.type(of: $0) == 8 }.compactMap { unit -> UInt32? in
                var reader = BitReader(rbsp: NALUnit.rbsp(of: unit))
                return try? reader.ue()
            }
            if let spsUnit = units.first(where: { NALUnit.type(of: $0) == 7 }),
               let sps = try? SequenceParameterSet(nalUnit: spsUnit),
               let writer = try? SkipFrameWriter(sps: sps, encoderPPSIDs: ppsIDs) {
                skipWriter = writer
                extradata += NALUnit.startCode + writer.pictureParameterSet
            }
        }
        self.skipWriter = skipWriter
        muxer = try MP4Muxer(path: path, encoder: encoder, extradata: extradata, framesPerSecond: settings.framesPerSecond,
                             metadata: metadata)
        if let audio { try muxer.addAudioStream(from: audio) }
        if let track = metadata.subtitles { try muxer.addSubtitleStream(track) }
        try muxer.writeHeader()
        if let track = metadata.subtitles { try muxer.write(subtitles: track) }
        interleaver = Interleaver(muxer: muxer, skipWriter: skipWriter, framesPerSecond: settings.framesPerSecond, hasAudio: audio != nil)
    }

    /// Encodes a picture shown from frame `index` on; the previous picture is held until then.
    func append(_ picture: EncoderPicture, at index: Int64) throws {
        precondition(index > lastFrame)
        let held = lastFrame >= 0 && index > lastFrame + 1
        if held { try hold(until: index) }
        lastPicture = picture
        try encode(at: index, forceIDR: lastFrame < 0 || held)
        lastFrame = index
    }

    /// Holds the last picture until frame `end` (exclusive), drains the encoder and closes the file.
    func finish(endFrame: Int64) throws {
        try finishVideo(endFrame: endFrame)
        try finishAudio()
        try muxer.finish()
    }

    /// Holds the last picture until frame `end` (exclusive) and drains the encoder: every video
    /// packet goes to the muxer (or, with sound, waits for the sound to reach it).
    func finishVideo(endFrame: Int64) throws {
        guard !videoFinished else { return }
        videoFinished = true
        if lastFrame >= 0 && endFrame > lastFrame + 1 { try hold(until: endFrame) }
        try encoder.sendEndOfStream()
        while try drainOne() != .endOfStream {}
        if let unwritten = pendingHolds.first {
            throw FFmpegError(call: "avcodec_receive_packet: no packet for frame \(unwritten.after), held until frame \(unwritten.frames.upperBound)",
                              code: -EIO)
        }
    }

    /// Muxes encoded sound, and the video that waited for it.
    func writeAudio(_ packets: [EncodedAudioPacket]) throws {
        try interleaver.push(packets)
    }

    /// The sound is finished: the video still waiting goes to the muxer.
    func finishAudio() throws {
        try interleaver.finishAudio()
    }

    /// Fills the frames after the last picture, up to `end` (exclusive).
    private func hold(until end: Int64) throws {
        let frames = (lastFrame + 1)..<end
        if let skipWriter {
            if lastPacket == lastFrame {
                // The encoder has given out the picture already: its copies follow at once.
                try writeHolds(frames, with: skipWriter)
            } else {
                pendingHolds.append((after: lastFrame, frames: frames))
            }
        } else {
            for index in frames { try encode(at: index, forceIDR: false) }
            lastFrame = end - 1
        }
    }

    private func encode(at index: Int64, forceIDR: Bool) throws {
        guard let picture = lastPicture else { return }
        while try !encoder.send(picture.frame, pts: index, forceIDR: forceIDR) {
            _ = try drainOne()
        }
        while try drainOne() == .packet {}
    }

    /// Receives one packet from the encoder, writes it, and writes any held frames due after it.
    private func drainOne() throws -> EncoderOutput {
        var index: Int64 = -1
        let output = try encoder.receive { packet in
            index = packet.pointee.pts
            if let skipWriter {
                let bytes = UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))
                if let slice = Self.firstSlice(in: bytes, sps: skipWriter.sps) {
                    lastFrameNum = slice.frameNum
                }
            }
            // A reference (no copy of the bytes): the encoder reuses its packet.
            let copy = try OwnedPacket()
            try check(av_packet_ref(copy.pointer, packet), "av_packet_ref")
            try interleaver.push(.encoded(copy, frame: index))
        }
        guard output == .packet else { return output }
        lastPacket = index
        if let skipWriter, let next = pendingHolds.first, next.after == index {
            pendingHolds.removeFirst()
            try writeHolds(next.frames, with: skipWriter)
        }
        return output
    }

    /// Writes held frames: all-skip P slices repeating the picture just written.
    private func writeHolds(_ frames: Range<Int64>, with skipWriter: SkipFrameWriter) throws {
        // They may wait for the sound as a range; their frame_nums follow on from here.
        let before = lastFrameNum
        for _ in frames { lastFrameNum = skipWriter.frameNum(after: lastFrameNum) }
        try interleaver.push(.held(frames, frameNumBefore: before))
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
