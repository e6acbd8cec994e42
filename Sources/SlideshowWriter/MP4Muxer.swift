package import CFFmpeg
import SlideshowAudio
import SlideshowFFmpeg

/// libavformat's MP4 muxer with one H.264 stream and, optionally, one AAC stream, writing to
/// one file path. Packets go through `av_interleaved_write_frame`, which orders the two
/// streams by time in the file.
///
/// `moov` goes before `mdat` (`movflags=+faststart`, a second pass over the file at the end),
/// so players can start before the whole file has arrived.
package final class MP4Muxer {
    /// The format context (and its I/O context) and the packet for the writer's own bytes:
    /// each freed once, by its own owner.
    private let formatOwner: OwnedOutputFormat
    private let packetOwner: OwnedPacket
    private let stream: UnsafeMutablePointer<AVStream>
    private let encoderTimeBase: AVRational
    private let framesPerSecond: Int
    /// How many places later in decode order than in presentation order a frame can come (B-frames).
    private let decodeDelay: Int64
    /// MP4 or WebM.
    package let container: VideoContainer
    /// The video packets written so far: the next one's place in decode order.
    private var videoPackets: Int64 = 0
    private var format: UnsafeMutablePointer<AVFormatContext> { formatOwner.pointer }
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    /// The AAC stream, when there is sound.
    private var audioStream: UnsafeMutablePointer<AVStream>?
    /// The timed-text stream, when the show has captions to write as one (``MP4Muxer+Subtitles``).
    package var subtitleStream: UnsafeMutablePointer<AVStream>?
    /// For the subtitle writer: the format context and the packet it reuses.
    package var formatContext: UnsafeMutablePointer<AVFormatContext> { format }
    package var reusablePacket: UnsafeMutablePointer<AVPacket> { packet }

    /// Sets up the muxer for a stream described by the opened encoder.
    /// - Parameters:
    ///   - path: the file to write (created or truncated by ``writeHeader()``).
    ///   - encoder: the opened encoder; its parameters and global header become the stream's.
    ///   - extradata: the stream's configuration (SPS/PPS, Annex B); the encoder's own plus any the writer adds.
    ///   - decodeDelay: how many places later in decode order than in presentation order a
    ///     frame can come: 0 when they are the same, 1 with a motion encoder's B-frames.
    ///   - metadata: the creation time and title; nothing else is written.
    package convenience init(path: String, encoder: H264Encoder, extradata: [UInt8], framesPerSecond: Int, decodeDelay: Int64 = 0,
         metadata: MovieMetadata = MovieMetadata()) throws(FFmpegError) {
        try self.init(path: path, codecContext: encoder.context, extradata: extradata, framesPerSecond: framesPerSecond,
                      decodeDelay: decodeDelay, metadata: metadata)
    }

    /// Sets up the muxer for a stream described by an opened encoder's context.
    /// - Parameter container: `mp4`, or `webm` (VP9 or AV1 with Opus: ``VideoContainer``).
    package init(path: String, codecContext: UnsafeMutablePointer<AVCodecContext>, extradata: [UInt8], framesPerSecond: Int,
                 decodeDelay: Int64 = 0, metadata: MovieMetadata = MovieMetadata(), container: VideoContainer = .mp4) throws(FFmpegError) {
        self.container = container
        formatOwner = try OwnedOutputFormat(format: container.formatName, path: path)
        packetOwner = try OwnedPacket()
        guard let stream = avformat_new_stream(formatOwner.pointer, nil) else {
            throw FFmpegError(call: "avformat_new_stream", code: -ENOMEM)
        }
        self.stream = stream
        self.framesPerSecond = framesPerSecond
        self.decodeDelay = decodeDelay
        // The movenc muxer reads `creation_time` into mvhd, tkhd and mdhd, and `title` into
        // udta's ©nam; AVFMT_FLAG_BITEXACT keeps it from adding an encoder tag.
        for entry in metadata.entries {
            av_dict_set(&formatOwner.pointer.pointee.metadata, entry.key, entry.value, 0)
        }
        encoderTimeBase = codecContext.pointee.time_base
        stream.pointee.time_base = encoderTimeBase
        // A constant frame rate, stated: the muxer then knows each sample's duration.
        stream.pointee.avg_frame_rate = AVRational(num: Int32(framesPerSecond), den: 1)
        stream.pointee.r_frame_rate = AVRational(num: Int32(framesPerSecond), den: 1)
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, codecContext), "avcodec_parameters_from_context")
        guard let codecpar = stream.pointee.codecpar else { throw FFmpegError(call: "avcodec_parameters_from_context", code: -ENOMEM) }
        codecpar.pointee.video_delay = Int32(decodeDelay)
        if codecpar.pointee.color_trc == AVCOL_TRC_SMPTE2084 { try HDRMetadata.attach(to: stream) }
        if codecpar.pointee.codec_id == AV_CODEC_ID_HEVC {
            // `hvc1`: parameter sets in the sample entry only (movenc's hvcC, arrays complete),
            // the tag Apple's players require; `hev1` is libavformat's default.
            codecpar.pointee.codec_tag = 0x3163_7668  // MKTAG('h','v','c','1')
        }
        av_freep(&codecpar.pointee.extradata)
        codecpar.pointee.extradata_size = 0
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let copy = av_mallocz(extradata.count + padding)?.assumingMemoryBound(to: UInt8.self) else {
            throw FFmpegError(call: "av_mallocz", code: -ENOMEM)
        }
        copy.update(from: extradata, count: extradata.count)
        // From here the stream's parameters own the copy; avformat_free_context frees it.
        codecpar.pointee.extradata = copy
        codecpar.pointee.extradata_size = Int32(extradata.count)
    }

    /// The movie's time scale (`mvhd`, `elst`): a multiple of the frame rate, so that every
    /// whole number of frames is a whole number of ticks and the container's duration is
    /// exact (libavformat's default, 1000, rounds a 30 fps frame to 33 or 34 ms).
    package static func movieTimescale(framesPerSecond: Int) -> Int { framesPerSecond * 1000 }

    /// Adds an audio stream (AAC, or Opus in WebM) described by the opened encoder (before ``writeHeader()``).
    package func addAudioStream(from encoder: any SoundEncoder) throws(FFmpegError) {
        precondition(audioStream == nil, "one audio stream")
        guard let stream = avformat_new_stream(format, nil) else {
            throw FFmpegError(call: "avformat_new_stream(audio)", code: -ENOMEM)
        }
        stream.pointee.time_base = encoder.context.pointee.time_base
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "avcodec_parameters_from_context(aac)")
        audioStream = stream
        // Interleave strictly by time, waiting for a packet of each stream, never by a time
        // limit: the file's layout then depends on the packets alone, not on when the video
        // and the sound reached the muxer (the same input gives the same bytes).
        format.pointee.max_interleave_delta = 0
    }

    /// Writes an AAC packet (times in 1/48000 s).
    package func write(audio source: EncodedAudioPacket) throws(FFmpegError) {
        guard let audioStream else { preconditionFailure("no audio stream") }
        try check(av_new_packet(packet, Int32(source.bytes.count)), "av_new_packet")
        defer { av_packet_unref(packet) }
        packet.pointee.data.update(from: source.bytes, count: source.bytes.count)
        packet.pointee.pts = source.pts
        packet.pointee.dts = source.pts
        packet.pointee.duration = source.duration
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        packet.pointee.stream_index = audioStream.pointee.index
        if source.discardPadding > 0 {
            // Opus's last packet: the samples after the sound's end (WebM's DiscardPadding).
            guard let side = av_packet_new_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, 10) else {
                throw FFmpegError(call: "av_packet_new_side_data", code: -ENOMEM)
            }
            side.update(repeating: 0, count: 10)
            let padding = UInt32(truncatingIfNeeded: source.discardPadding)
            for byte in 0..<4 { side[4 + byte] = UInt8(truncatingIfNeeded: padding >> (8 * UInt32(byte))) }
        }
        av_packet_rescale_ts(packet, AVRational(num: 1, den: Int32(AudioFormat.sampleRate)), audioStream.pointee.time_base)
        try check(av_interleaved_write_frame(format, packet), "av_interleaved_write_frame(audio)")
    }

    /// Opens the file and writes the header.
    /// - Throws: ``FFmpegError`` when the file cannot be created or the header is refused.
    package func writeHeader() throws(FFmpegError) {
        try check(avio_open(&format.pointee.pb, format.pointee.url, AVIO_FLAG_WRITE), "avio_open")
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        if container == .mp4 {
            try setOption(&options, "movflags", "+faststart")
            try setOption(&options, "movie_timescale", String(Self.movieTimescale(framesPerSecond: framesPerSecond)))
        }
        // No wall-clock creation time or random identifiers: the same input gives the same bytes.
        format.pointee.flags |= AVFMT_FLAG_BITEXACT
        try check(avformat_write_header(format, &options), "avformat_write_header")
        if let unrecognised = av_dict_get(options, "", nil, AV_DICT_IGNORE_SUFFIX) {
            throw FFmpegError(call: "avformat_write_header: option \(String(cString: unrecognised.pointee.key)) not recognised", code: -EINVAL)
        }
    }

    /// Writes an encoded packet (its pts in the encoder's time base, in frames) lasting one
    /// frame; packets come in decode order.
    ///
    /// The decode time is the packet's place in decode order less ``decodeDelay``: every
    /// frame of the show is one packet, so it runs one frame a packet, and no packet comes
    /// more than that delay later than its frame (a B-frame, one place after its frame behind
    /// the P frame decoded first), so each is decoded by its time. With B-frames the first
    /// decode time is negative, and libavformat's edit list starts the presentation at 0.
    package func write(encoded source: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        source.pointee.dts = videoPackets - decodeDelay
        videoPackets += 1
        source.pointee.duration = 1
        source.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(source, encoderTimeBase, stream.pointee.time_base)
        try check(av_interleaved_write_frame(format, source), "av_interleaved_write_frame")
    }

    /// Writes a packet of the writer's own (Annex B bytes) at frame `index`, lasting one frame.
    package func write(bytes: [UInt8], frame index: Int64, keyframe: Bool) throws(FFmpegError) {
        try check(av_new_packet(packet, Int32(bytes.count)), "av_new_packet")
        defer { av_packet_unref(packet) }
        packet.pointee.data.update(from: bytes, count: bytes.count)
        packet.pointee.pts = index
        packet.pointee.dts = index
        if keyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        try write(encoded: packet)
    }

    /// Writes the trailer (and moves `moov` to the front) and closes the file.
    package func finish() throws(FFmpegError) {
        try check(av_write_trailer(format), "av_write_trailer")
        try check(avio_closep(&format.pointee.pb), "avio_closep")
    }
}
