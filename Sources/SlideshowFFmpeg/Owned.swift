package import CFFmpeg
import SlideshowPixels
import SlideshowSupport

// One owner per FFmpeg object: each class below allocates exactly one C object in its
// `init` and frees it exactly once in its `deinit`. A type that needs several (an encoder's
// context and packet, a muxer's format context) holds several of these, so a throwing
// initialiser never frees anything itself: whatever was allocated before the throw is freed
// once, by its own owner, when the partly built value goes away.

/// An owned `AVPacket` (`av_packet_alloc` … `av_packet_free`).
package final class OwnedPacket {
    package let pointer: UnsafeMutablePointer<AVPacket>

    /// - Throws: ``FFmpegError`` (`ENOMEM`) when the packet cannot be allocated.
    package init() throws(FFmpegError) {
        guard let pointer = av_packet_alloc() else { throw FFmpegError(call: "av_packet_alloc", code: -ENOMEM) }
        self.pointer = pointer
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&pointer)
    }
}

/// An owned `AVFrame` (`av_frame_alloc` … `av_frame_free`), with whatever buffers it references.
package final class OwnedFrame {
    package let pointer: UnsafeMutablePointer<AVFrame>

    /// - Throws: ``FFmpegError`` (`ENOMEM`) when the frame cannot be allocated.
    package init() throws(FFmpegError) {
        guard let pointer = av_frame_alloc() else { throw FFmpegError(call: "av_frame_alloc", code: -ENOMEM) }
        self.pointer = pointer
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&pointer)
    }
}

/// An owned `AVCodecContext` (`avcodec_alloc_context3` … `avcodec_free_context`), opened or not.
package final class OwnedCodecContext {
    package let pointer: UnsafeMutablePointer<AVCodecContext>

    /// - Throws: ``FFmpegError`` (`ENOMEM`) when the context cannot be allocated.
    package init(codec: UnsafePointer<AVCodec>) throws(FFmpegError) {
        guard let pointer = avcodec_alloc_context3(codec) else {
            throw FFmpegError(call: "avcodec_alloc_context3", code: -ENOMEM)
        }
        self.pointer = pointer
    }

    /// A context for the encoder of this name (`libx264`, `aac`, …), not yet opened.
    /// - Throws: ``FFmpegError`` (`ENOSYS`) when this FFmpeg has no such encoder.
    package convenience init(encoderNamed name: String) throws(FFmpegError) {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw FFmpegError(call: "avcodec_find_encoder_by_name(\(name))", code: -ENOSYS)
        }
        try self.init(codec: codec)
    }

    /// Opens the context's codec with these options, in order; an option the codec does not
    /// recognise is an error rather than silently left unused.
    /// - Parameter name: the codec's name in errors: `avcodec_open2(libx264)`.
    /// - Throws: ``FFmpegError`` when an option cannot be set, the codec refuses to open, or an
    ///   option is not recognised (`EINVAL`).
    package func open(options: [(key: String, value: String)] = [], name: String) throws(FFmpegError) {
        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for option in options { try setOption(&dictionary, option.key, option.value) }
        try check(avcodec_open2(pointer, pointer.pointee.codec, &dictionary), "avcodec_open2(\(name))")
        if let unrecognised = av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) {
            throw FFmpegError(call: "avcodec_open2(\(name)): option \(String(cString: unrecognised.pointee.key)) not recognised", code: -EINVAL)
        }
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&pointer)
    }
}

/// An owned output `AVFormatContext` (`avformat_alloc_output_context2` … `avformat_free_context`),
/// with its I/O context, which is closed first if it is still open.
package final class OwnedOutputFormat {
    package let pointer: UnsafeMutablePointer<AVFormatContext>

    /// - Throws: ``FFmpegError`` when the muxer is unknown or the context cannot be allocated.
    package init(format name: String, path: String) throws(FFmpegError) {
        var pointer: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(PathBytes.withCString(path) { avformat_alloc_output_context2(&pointer, nil, name, $0) }, "avformat_alloc_output_context2(\(name))")
        guard let pointer else { throw FFmpegError(call: "avformat_alloc_output_context2(\(name))", code: -ENOMEM) }
        self.pointer = pointer
    }

    deinit {
        if pointer.pointee.pb != nil { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }
}

/// An owned libswscale context (`sws_getContext` … `sws_freeContext`).
package final class OwnedScaleContext {
    package let pointer: OpaquePointer

    /// - Throws: ``FFmpegError`` (`EINVAL`) when libswscale refuses the sizes, formats or flags.
    package init(from source: Size, format sourceFormat: AVPixelFormat, to destination: Size, format destinationFormat: AVPixelFormat,
         flags: Int32) throws(FFmpegError) {
        _ = quietFFmpegLogging
        guard let pointer = sws_getContext(Int32(source.width), Int32(source.height), sourceFormat,
                                           Int32(destination.width), Int32(destination.height), destinationFormat,
                                           flags, nil, nil, nil)
        else { throw FFmpegError(call: "sws_getContext(\(source) to \(destination))", code: -EINVAL) }
        self.pointer = pointer
    }

    /// A context that splits each picture into slices scaled on `threads` threads of its own
    /// (libswscale's slice threads, which only `sws_scale_frame` uses).
    /// - Parameter options: further libswscale options by name, set before the context starts.
    /// - Throws: ``FFmpegError`` (`EINVAL`) when libswscale refuses the sizes, formats, flags, threads or options.
    package init(from source: Size, format sourceFormat: AVPixelFormat, to destination: Size, format destinationFormat: AVPixelFormat,
         flags: Int32, threads: Int, options more: [(String, Int64)] = []) throws(FFmpegError) {
        _ = quietFFmpegLogging
        guard let pointer = sws_alloc_context() else { throw FFmpegError(call: "sws_alloc_context", code: -ENOMEM) }
        self.pointer = pointer
        let options: [(String, Int64)] = [
            ("srcw", Int64(source.width)), ("srch", Int64(source.height)), ("src_format", Int64(sourceFormat.rawValue)),
            ("dstw", Int64(destination.width)), ("dsth", Int64(destination.height)), ("dst_format", Int64(destinationFormat.rawValue)),
            ("sws_flags", Int64(flags)), ("threads", Int64(threads)),
        ] + more
        for (name, value) in options {
            try check(av_opt_set_int(UnsafeMutableRawPointer(pointer), name, value, 0), "av_opt_set_int(\(name))")
        }
        try check(sws_init_context(pointer, nil, nil), "sws_init_context(\(source) to \(destination), \(threads) threads)")
    }

    deinit { sws_freeContext(pointer) }
}

/// Sets one entry of an `AVDictionary` of options, checking the result.
package func setOption(_ options: inout OpaquePointer?, _ key: String, _ value: String) throws(FFmpegError) {
    try check(av_dict_set(&options, key, value, 0), "av_dict_set(\(key))")
}

/// An owned `AVFilterGraph` (`avfilter_graph_alloc` … `avfilter_graph_free`), which owns the
/// filters created in it: they are freed with it and never on their own. Every libavfilter call
/// goes through it, to the library loaded at the first graph (``FilterLibrary``).
package final class OwnedFilterGraph {
    package let pointer: UnsafeMutablePointer<AVFilterGraph>
    private let library: FilterLibrary

    /// - Throws: ``FFmpegError``: libavfilter cannot be loaded (naming it and why), or `ENOMEM`
    ///   when the graph cannot be allocated.
    package init() throws(FFmpegError) {
        let library = try FilterLibrary.loaded()
        guard let pointer = library.graphAlloc() else { throw FFmpegError(call: "avfilter_graph_alloc", code: -ENOMEM) }
        self.library = library
        self.pointer = pointer
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFilterGraph>? = pointer
        library.graphFree(&pointer)
    }

    /// A filter of this graph (owned by it): `kind` (`buffer`, `bwdif`, `palettegen`, …) under
    /// `name`, with its arguments.
    /// - Throws: ``FFmpegError``: `ENOSYS` when this FFmpeg has no such filter, or what
    ///   `avfilter_graph_create_filter` returned.
    package func filter(_ kind: String, name: String, arguments: String?) throws(FFmpegError) -> UnsafeMutablePointer<AVFilterContext> {
        guard let filter = library.getByName(kind) else { throw FFmpegError(call: "avfilter_get_by_name(\(kind))", code: -ENOSYS) }
        var context: UnsafeMutablePointer<AVFilterContext>?
        try check(library.createFilter(&context, filter, name, arguments, nil, pointer), "avfilter_graph_create_filter(\(kind))")
        guard let context else { throw FFmpegError(call: "avfilter_graph_create_filter(\(kind))", code: -ENOMEM) }
        return context
    }

    /// Links `source`'s output pad to `destination`'s input pad (`avfilter_link`).
    package func link(_ source: UnsafeMutablePointer<AVFilterContext>, _ sourcePad: UInt32,
                      to destination: UnsafeMutablePointer<AVFilterContext>, _ destinationPad: UInt32) throws(FFmpegError) {
        try check(library.link(source, sourcePad, destination, destinationPad), "avfilter_link")
    }

    /// Checks the links and negotiates the formats (`avfilter_graph_config`), once all filters are linked.
    package func configure() throws(FFmpegError) {
        try check(library.graphConfig(pointer, nil), "avfilter_graph_config")
    }

    /// Gives a `buffer` source of this graph a frame, or the end of its stream with nil
    /// (`av_buffersrc_add_frame_flags`); its return code, for the caller to check.
    package func add(_ frame: UnsafeMutablePointer<AVFrame>?, to source: UnsafeMutablePointer<AVFilterContext>, flags: Int32) -> Int32 {
        library.addFrame(source, frame, flags)
    }

    /// Takes the next frame out of a `buffersink` of this graph (`av_buffersink_get_frame`); its
    /// return code (`EAGAIN` when none is ready), for the caller to check.
    package func take(from sink: UnsafeMutablePointer<AVFilterContext>, into frame: UnsafeMutablePointer<AVFrame>) -> Int32 {
        library.getFrame(sink, frame)
    }

    /// The time base of a `buffersink`'s frames, once the graph is configured.
    package func timeBase(of sink: UnsafeMutablePointer<AVFilterContext>) -> AVRational {
        library.timeBase(sink)
    }
}
