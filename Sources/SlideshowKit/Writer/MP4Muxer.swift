internal import CFFmpeg

/// libavformat's MP4 muxer with one H.264 stream, writing to one file path.
///
/// `moov` goes before `mdat` (`movflags=+faststart`, a second pass over the file at the end),
/// so players can start before the whole file has arrived.
final class MP4Muxer {
    private let format: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let encoderTimeBase: AVRational
    private var headerWritten = false
    private var ioOpen = false
    private let packet: UnsafeMutablePointer<AVPacket>

    /// Sets up the muxer for a stream described by the opened encoder.
    /// - Parameters:
    ///   - path: the file to write (created or truncated by ``writeHeader()``).
    ///   - encoder: the opened encoder; its parameters and global header become the stream's.
    ///   - extradata: the stream's configuration (SPS/PPS, Annex B); the encoder's own plus any the writer adds.
    ///   - metadata: the creation time and title; nothing else is written.
    init(path: String, encoder: H264Encoder, extradata: [UInt8], framesPerSecond: Int,
         metadata: MovieMetadata = MovieMetadata()) throws(FFmpegError) {
        var format: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_alloc_output_context2(&format, nil, "mp4", path), "avformat_alloc_output_context2(mp4)")
        guard let format else { throw FFmpegError(call: "avformat_alloc_output_context2", code: -ENOMEM) }
        self.format = format
        guard let stream = avformat_new_stream(format, nil), let packet = av_packet_alloc() else {
            avformat_free_context(format)
            throw FFmpegError(call: "avformat_new_stream", code: -ENOMEM)
        }
        self.stream = stream
        self.packet = packet
        // The movenc muxer reads `creation_time` into mvhd, tkhd and mdhd, and `title` into
        // udta's ©nam; AVFMT_FLAG_BITEXACT keeps it from adding an encoder tag.
        for entry in metadata.entries {
            av_dict_set(&format.pointee.metadata, entry.key, entry.value, 0)
        }
        encoderTimeBase = encoder.context.pointee.time_base
        stream.pointee.time_base = encoderTimeBase
        // A constant frame rate, stated: the muxer then knows each sample's duration.
        stream.pointee.avg_frame_rate = AVRational(num: Int32(framesPerSecond), den: 1)
        stream.pointee.r_frame_rate = AVRational(num: Int32(framesPerSecond), den: 1)
        do throws(FFmpegError) {
            try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "avcodec_parameters_from_context")
            let codecpar = stream.pointee.codecpar!
            av_freep(&codecpar.pointee.extradata)
            let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
            guard let copy = av_mallocz(extradata.count + padding)?.assumingMemoryBound(to: UInt8.self) else {
                throw FFmpegError(call: "av_mallocz", code: -ENOMEM)
            }
            copy.update(from: extradata, count: extradata.count)
            codecpar.pointee.extradata = copy
            codecpar.pointee.extradata_size = Int32(extradata.count)
        } catch {
            var packet: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&packet)
            avformat_free_context(format)
            throw error
        }
    }

    deinit {
        if ioOpen { avio_closep(&format.pointee.pb) }
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
        avformat_free_context(format)
    }

    /// Opens the file and writes the header.
    /// - Throws: ``FFmpegError`` when the file cannot be created or the header is refused.
    func writeHeader() throws(FFmpegError) {
        try check(avio_open(&format.pointee.pb, format.pointee.url, AVIO_FLAG_WRITE), "avio_open")
        ioOpen = true
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        av_dict_set(&options, "movflags", "+faststart", 0)
        // No wall-clock creation time or random identifiers: the same input gives the same bytes.
        format.pointee.flags |= AVFMT_FLAG_BITEXACT
        try check(avformat_write_header(format, &options), "avformat_write_header")
        headerWritten = true
        if let unrecognised = av_dict_get(options, "", nil, AV_DICT_IGNORE_SUFFIX) {
            throw FFmpegError(call: "avformat_write_header: option \(String(cString: unrecognised.pointee.key)) not recognised", code: -EINVAL)
        }
    }

    /// Writes an encoded packet (timestamps in the encoder's time base) lasting one frame.
    func write(encoded source: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        source.pointee.duration = 1
        source.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(source, encoderTimeBase, stream.pointee.time_base)
        try check(av_write_frame(format, source), "av_write_frame")
    }

    /// Writes a packet of the writer's own (Annex B bytes) at frame `index`, lasting one frame.
    func write(bytes: [UInt8], frame index: Int64, keyframe: Bool) throws(FFmpegError) {
        try check(av_new_packet(packet, Int32(bytes.count)), "av_new_packet")
        defer { av_packet_unref(packet) }
        packet.pointee.data.update(from: bytes, count: bytes.count)
        packet.pointee.pts = index
        packet.pointee.dts = index
        if keyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        try write(encoded: packet)
    }

    /// Writes the trailer (and moves `moov` to the front) and closes the file.
    func finish() throws(FFmpegError) {
        try check(av_write_trailer(format), "av_write_trailer")
        try check(avio_closep(&format.pointee.pb), "avio_closep")
        ioOpen = false
    }
}
