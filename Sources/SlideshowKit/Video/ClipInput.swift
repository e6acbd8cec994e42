import Glibc
internal import CFFmpeg

/// A byte range of an open file, read with `pread`: the state behind a custom `AVIOContext`.
///
/// libavformat sees only the range, as if it were a whole file: position 0 is the range's
/// first byte and `AVSEEK_SIZE` answers its length. This is how a motion photo's embedded
/// MP4 is demuxed in place, without a temporary file.
final class FileRange {
    let descriptor: Int32
    let start: Int64
    let length: Int64
    var position: Int64 = 0

    init(descriptor: Int32, start: Int64, length: Int64) {
        self.descriptor = descriptor
        self.start = start
        self.length = length
    }

    deinit { close(descriptor) }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int32) -> Int32 {
        let count = min(Int64(size), length - position)
        guard count > 0 else { return shim_averror_eof() }
        let got = pread(descriptor, buffer, Int(count), off_t(start + position))
        if got < 0 { return -errno }
        if got == 0 { return shim_averror_eof() }
        position += Int64(got)
        return Int32(got)
    }

    func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & shim_avseek_size() != 0 { return length }
        let target: Int64
        switch whence & 3 {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END: target = length + offset
        default: return Int64(-EINVAL)
        }
        guard target >= 0 else { return Int64(-EINVAL) }
        position = target
        return target
    }
}

/// An owned custom `AVIOContext` over a ``FileRange`` (`avio_alloc_context` …
/// `avio_context_free`, with its buffer).
final class OwnedRangeIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private let range: FileRange
    private let opaque: Unmanaged<FileRange>

    /// - Throws: ``FFmpegError`` (`ENOMEM`).
    init(range: FileRange) throws(FFmpegError) {
        self.range = range
        opaque = Unmanaged.passUnretained(range)
        let size = 64 * 1024
        guard let buffer = av_malloc(size) else { throw FFmpegError(call: "av_malloc", code: -ENOMEM) }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(size), 0, opaque.toOpaque(),
                                               { opaque, buffer, size in
                                                   Unmanaged<FileRange>.fromOpaque(opaque!).takeUnretainedValue().read(buffer!, size)
                                               }, nil,
                                               { opaque, offset, whence in
                                                   Unmanaged<FileRange>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
                                               })
        else {
            var pointer: UnsafeMutableRawPointer? = buffer
            av_freep(&pointer)
            throw FFmpegError(call: "avio_alloc_context", code: -ENOMEM)
        }
        self.context = context
    }

    deinit {
        // The buffer may have been replaced by libavformat: free whatever the context holds now.
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }
}

/// A clip opened by libavformat, its streams probed: a whole file by path, or a byte range
/// of a file through ``OwnedRangeIO``.
final class OwnedClipInput {
    let context: UnsafeMutablePointer<AVFormatContext>
    /// Kept alive for as long as the format context reads through it (declared after
    /// `context`, so it is freed after the context is closed).
    private let io: OwnedRangeIO?

    /// - Throws: ``FFmpegError`` from `open`, `avformat_open_input` or `avformat_find_stream_info`.
    init(_ source: ClipSource) throws(FFmpegError) {
        _ = quietFFmpegLogging
        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        if let range = source.byteRange {
            let descriptor = open(source.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FFmpegError(call: "open", code: -errno) }
            let io = try OwnedRangeIO(range: FileRange(descriptor: descriptor, start: range.lowerBound,
                                                       length: range.upperBound - range.lowerBound))
            self.io = io
            guard let allocated = avformat_alloc_context() else { throw FFmpegError(call: "avformat_alloc_context", code: -ENOMEM) }
            allocated.pointee.pb = io.context
            context = allocated
        } else {
            io = nil
        }
        // On failure avformat_open_input frees the context (not a custom pb) and leaves it nil.
        try check(avformat_open_input(&context, source.path, nil, nil), "avformat_open_input")
        guard let context else { throw FFmpegError(call: "avformat_open_input", code: -ENOMEM) }
        self.context = context
        try check(avformat_find_stream_info(context, nil), "avformat_find_stream_info")
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&context)
    }
}
