import Glibc
package import CFFmpeg
import SlideshowSupport

/// An input opened by libavformat, its streams probed: a file by path, or whatever an
/// ``OwnedRangeIO`` reads (a byte range of a file).
package final class OwnedInputFormat {
    package let context: UnsafeMutablePointer<AVFormatContext>
    /// Kept alive for as long as the format context reads through it (declared after
    /// `context`, so it is freed after the context is closed).
    private let io: OwnedRangeIO?

    /// Opens `path` and reads enough of it to know its streams.
    /// - Parameter io: a custom I/O to read instead of the file; `path` then only names the input.
    /// - Throws: ``FFmpegError`` from `avformat_alloc_context`, `avformat_open_input` or
    ///   `avformat_find_stream_info`.
    package init(path: String, io: OwnedRangeIO? = nil) throws(FFmpegError) {
        _ = quietFFmpegLogging
        self.io = io
        var context: UnsafeMutablePointer<AVFormatContext>? = nil
        if let io {
            guard let allocated = avformat_alloc_context() else { throw FFmpegError(call: "avformat_alloc_context", code: -ENOMEM) }
            allocated.pointee.pb = io.context
            context = allocated
        }
        // On failure avformat_open_input frees what it allocated (not a custom pb) and leaves `context` nil.
        try check(PathBytes.withCString(path) { avformat_open_input(&context, $0, nil, nil) }, "avformat_open_input")
        guard let context else { throw FFmpegError(call: "avformat_open_input", code: -ENOMEM) }
        self.context = context
        try check(avformat_find_stream_info(context, nil), "avformat_find_stream_info")
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&context)
    }
}
