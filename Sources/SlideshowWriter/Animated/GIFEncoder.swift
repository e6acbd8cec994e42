package import CFFmpeg
import SlideshowFFmpeg
import SlideshowPixels

/// A GIF through FFmpeg: per scene, `palettegen` makes the scene's 256 colours from all of its
/// pictures, `paletteuse` maps each picture to them, and libavcodec's `gif` encoder and
/// libavformat's `gif` muxer write the frames.
///
/// - Palette: one per scene (a held photo, or a run of up to ``AnimatedImageWriter/longestRun``
///   moving pictures), from all of its pixels (`stats_mode=full`); the first scene's becomes
///   the file's global palette, the others are local palettes. A scene's pictures share one
///   palette, so a transition does not flicker between palettes.
/// - Dithering: a held photo is one frame, so nothing can crawl on it: it gets error diffusion
///   (`sierra2_4a`), the best still picture. A run gets ordered dithering (`bayer`, scale 3),
///   whose pattern is fixed to the pixel grid, and `diff_mode=rectangle`, which leaves the
///   pixels outside what changed as they were; error diffusion would shimmer frame to frame.
/// - Timing: each frame's time in hundredths (``AnimatedFormat/tick(ofFrame:framesPerSecond:)``);
///   the muxer writes each delay as the difference to the next frame's, and the last one's
///   (`final_delay`) as the rest of the show, so the delays add up to the show's length rounded
///   to 1/100 s.
final class GIFEncoder: AnimatedEncoder {
    private let target: String
    private let size: Size
    private let framesPerSecond: Int
    private let formatOwner: OwnedOutputFormat
    /// The scene's encoder: a new one each scene (``encode(scene:still:)``).
    private var codecOwner: OwnedCodecContext
    private let packet: OwnedPacket
    private var lastTick = 0
    /// Scenes written so far.
    private var scenes = 0

    init(path: String, target: String, size: Size, framesPerSecond: Int) throws(WriterError) {
        self.target = target
        self.size = size
        self.framesPerSecond = framesPerSecond
        _ = quietFFmpegLogging
        do throws(FFmpegError) {
            codecOwner = try Self.openEncoder(size: size)
            let context = codecOwner.pointer
            formatOwner = try OwnedOutputFormat(format: "gif", path: path)
            let format = formatOwner.pointer
            guard let stream = avformat_new_stream(format, nil) else { throw FFmpegError(call: "avformat_new_stream", code: -ENOMEM) }
            try check(avcodec_parameters_from_context(stream.pointee.codecpar, context), "avcodec_parameters_from_context")
            stream.pointee.time_base = AVRational(num: 1, den: 100)
            packet = try OwnedPacket()
            try check(avio_open(&format.pointee.pb, format.pointee.url, AVIO_FLAG_WRITE), "avio_open")
            var options: OpaquePointer? = nil
            defer { av_dict_free(&options) }
            try setOption(&options, "loop", "0")
            try check(avformat_write_header(format, &options), "avformat_write_header")
        } catch {
            throw Self.failure(error, target: target)
        }
    }

    /// A `gif` encoder for PAL8 pictures timed in hundredths, each picture with a palette of
    /// its own (`global_palette=0`). It compares a picture's palette with its first picture's:
    /// the same, and it writes only the rectangle that changed (`offsetting`) with the unchanged
    /// pixels transparent (`transdiff`); another, and it writes the whole picture. So each scene
    /// gets an encoder of its own, whose first picture carries the scene's palette.
    private static func openEncoder(size: Size) throws(FFmpegError) -> OwnedCodecContext {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_GIF) else { throw FFmpegError(call: "avcodec_find_encoder(gif)", code: -ENOSYS) }
        let owner = try OwnedCodecContext(codec: codec)
        let context = owner.pointer
        context.pointee.width = Int32(size.width)
        context.pointee.height = Int32(size.height)
        context.pointee.pix_fmt = AV_PIX_FMT_PAL8
        context.pointee.time_base = AVRational(num: 1, den: 100)
        try owner.open(options: [("global_palette", "0")], name: "gif")
        return owner
    }

    static func failure(_ error: FFmpegError, target: String) -> WriterError {
        if error.isNoSpace { return WriterError(path: target, kind: .diskFull, reason: error.description) }
        if error.call == "avio_open" { return WriterError(path: target, kind: .notWritable, reason: error.description) }
        return WriterError(path: target, kind: .encoderFailed, reason: error.description)
    }

    func encode(scene: [(buffer: PixelBuffer, frame: Int)], still: Bool) throws(WriterError) {
        do throws(FFmpegError) {
            let frames = try scene.map { picture throws(FFmpegError) in try Self.frame(of: picture.buffer) }
            let palette = try Self.palette(of: frames, size: size)
            let mapping = try PaletteMapping(size: size, palette: palette,
                                             dither: still ? "dither=sierra2_4a" : "dither=bayer:bayer_scale=3:diff_mode=rectangle")
            let mapped = try OwnedFrame()
            if scenes > 0 {
                try send(nil)
                codecOwner = try Self.openEncoder(size: size)
            }
            scenes += 1
            for (picture, frame) in zip(scene, frames) {
                try mapping.send(frame.pointer)
                guard try mapping.receive(into: mapped.pointer) else {
                    throw FFmpegError(call: "paletteuse", code: -EAGAIN)
                }
                lastTick = AnimatedFormat.gif.tick(ofFrame: picture.frame, framesPerSecond: framesPerSecond)
                mapped.pointer.pointee.pts = Int64(lastTick)
                try send(mapped.pointer)
            }
        } catch {
            throw Self.failure(error, target: target)
        }
    }

    func finish(endFrame: Int) throws(WriterError) {
        do throws(FFmpegError) {
            try send(nil)
            let format = formatOwner.pointer
            // The last frame's delay: the rest of the show (the muxer holds the last packet
            // until the trailer, and gives it this delay; by default it repeats the one before).
            let rest = AnimatedFormat.gif.tick(ofFrame: endFrame, framesPerSecond: framesPerSecond) - lastTick
            try check(av_opt_set_int(format.pointee.priv_data, "final_delay", Int64(max(rest, 1)), 0), "av_opt_set_int(final_delay)")
            try check(av_write_trailer(format), "av_write_trailer")
            try check(avio_closep(&format.pointee.pb), "avio_closep")
        } catch {
            throw Self.failure(error, target: target)
        }
    }

    /// Sends a frame (nil: the end) to the encoder and its packets to the muxer.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(FFmpegError) {
        let context = codecOwner.pointer
        try check(avcodec_send_frame(context, frame), "avcodec_send_frame(gif)")
        while true {
            let code = avcodec_receive_packet(context, packet.pointer)
            if code == shim_averror_eagain() || code == shim_averror_eof() { return }
            try check(code, "avcodec_receive_packet(gif)")
            // An encoder's first packet starts with the file's header (the muxer takes it from
            // the file's first packet only): the later scenes' are cut to their image.
            if scenes > 1 && context.pointee.frame_number <= 1 { try Self.dropHeader(packet.pointer) }
            packet.pointer.pointee.stream_index = 0
            av_packet_rescale_ts(packet.pointer, context.pointee.time_base, formatOwner.pointer.pointee.streams[0]!.pointee.time_base)
            try check(av_write_frame(formatOwner.pointer, packet.pointer), "av_write_frame(gif)")
            av_packet_unref(packet.pointer)
        }
    }

    /// Cuts the GIF header (signature, screen descriptor, global colour table if any) off a packet.
    private static func dropHeader(_ packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        let size = Int(packet.pointee.size)
        guard size > 13, let data = packet.pointee.data, data[0] == 0x47, data[1] == 0x49, data[2] == 0x46 else { return }
        var header = 13
        if data[10] & 0x80 != 0 { header += 3 * (1 << (Int(data[10] & 0x07) + 1)) }
        guard size > header else { throw FFmpegError(call: "gif packet", code: -EINVAL) }
        packet.pointee.data = data + header
        packet.pointee.size = Int32(size - header)
    }

    /// An RGB24 frame holding a copy of a picture.
    static func frame(of buffer: PixelBuffer) throws(FFmpegError) -> OwnedFrame {
        let frame = try OwnedFrame()
        let pointer = frame.pointer
        pointer.pointee.width = Int32(buffer.width)
        pointer.pointee.height = Int32(buffer.height)
        pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer")
        let stride = Int(pointer.pointee.linesize.0)
        let destination = pointer.pointee.data.0!
        buffer.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for row in 0..<buffer.height {
                (destination + row * stride).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * buffer.bytesPerRow,
                                                    count: buffer.bytesPerRow)
            }
        }
        return frame
    }

    /// The scene's palette: `palettegen` over all of its pictures (a 16x16 frame of 256 colours).
    static func palette(of frames: [OwnedFrame], size: Size) throws(FFmpegError) -> OwnedFrame {
        let graph = try OwnedFilterGraph()
        let source = try graph.filter("buffer", name: "in", arguments: FilterGraphs.rgbSource(size))
        let generate = try graph.filter("palettegen", name: "palettegen",
                                        arguments: "max_colors=256:reserve_transparent=0:stats_mode=full")
        let sink = try graph.filter("buffersink", name: "out", arguments: nil)
        try graph.link(source, 0, to: generate, 0)
        try graph.link(generate, 0, to: sink, 0)
        try graph.configure()
        for (index, frame) in frames.enumerated() {
            frame.pointer.pointee.pts = Int64(index)
            try check(graph.add(frame.pointer, to: source, flags: Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), "av_buffersrc_add_frame_flags")
        }
        try check(graph.add(nil, to: source, flags: 0), "av_buffersrc_add_frame_flags(end)")
        let palette = try OwnedFrame()
        try check(graph.take(from: sink, into: palette.pointer), "av_buffersink_get_frame(palettegen)")
        return palette
    }
}

/// `paletteuse` over one palette: pictures in, PAL8 frames out, one for one.
private final class PaletteMapping {
    private let graph: OwnedFilterGraph
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private var next: Int64 = 0

    init(size: Size, palette: OwnedFrame, dither: String) throws(FFmpegError) {
        graph = try OwnedFilterGraph()
        source = try graph.filter("buffer", name: "in", arguments: FilterGraphs.rgbSource(size))
        let paletteSize = "\(palette.pointer.pointee.width)x\(palette.pointer.pointee.height)"
        let paletteSource = try graph.filter("buffer", name: "palette",
                                             arguments: "video_size=\(paletteSize):pix_fmt=\(palette.pointer.pointee.format):time_base=1/100:pixel_aspect=1/1")
        let use = try graph.filter("paletteuse", name: "paletteuse", arguments: dither)
        sink = try graph.filter("buffersink", name: "out", arguments: nil)
        try graph.link(source, 0, to: use, 0)
        try graph.link(paletteSource, 0, to: use, 1)
        try graph.link(use, 0, to: sink, 0)
        try graph.configure()
        palette.pointer.pointee.pts = 0
        try check(graph.add(palette.pointer, to: paletteSource, flags: Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), "av_buffersrc_add_frame_flags(palette)")
        try check(graph.add(nil, to: paletteSource, flags: 0), "av_buffersrc_add_frame_flags(palette end)")
    }

    func send(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        frame.pointee.pts = next
        next += 1
        try check(graph.add(frame, to: source, flags: Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), "av_buffersrc_add_frame_flags")
    }

    /// The mapped picture, false when none is ready.
    func receive(into frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> Bool {
        av_frame_unref(frame)
        let code = graph.take(from: sink, into: frame)
        if code == shim_averror_eagain() { return false }
        try check(code, "av_buffersink_get_frame(paletteuse)")
        return true
    }
}

/// What the GIF's filter graphs share.
enum FilterGraphs {
    /// The `buffer` source's arguments for RGB24 pictures of a size.
    static func rgbSource(_ size: Size) -> String {
        "video_size=\(size.width)x\(size.height):pix_fmt=\(AV_PIX_FMT_RGB24.rawValue):time_base=1/100:pixel_aspect=1/1"
    }
}
