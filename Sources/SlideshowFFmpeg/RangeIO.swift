import Glibc
package import CFFmpeg
import SlideshowSupport

/// A byte range of an open file, read with `pread`: the state behind a custom `AVIOContext`.
///
/// libavformat sees only the range, as if it were a whole file: position 0 is the range's
/// first byte and `AVSEEK_SIZE` answers its length. This is how a motion photo's embedded
/// MP4 is demuxed in place, without a temporary file.
///
/// It opens the file itself and closes it once, in deinit: the descriptor it closes is the one
/// it opened, and nobody else's.
package final class FileRange {
    package let descriptor: Int32
    package let start: Int64
    package let length: Int64
    package var position: Int64 = 0

    /// Opens `path` for reading the range `start ..< start + length`.
    /// - Throws: ``FFmpegError`` from `open` (`-errno`).
    package init(path: String, start: Int64, length: Int64) throws(FFmpegError) {
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw FFmpegError(call: "open", code: -errno) }
        self.descriptor = descriptor
        self.start = start
        self.length = length
    }

    deinit { close(descriptor) }

    package func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int32) -> Int32 {
        let count = min(Int64(size), length - position)
        guard count > 0 else { return shim_averror_eof() }
        let got = pread(descriptor, buffer, Int(count), off_t(start + position))
        if got < 0 { return -errno }
        if got == 0 { return shim_averror_eof() }
        position += Int64(got)
        return Int32(got)
    }

    package func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & shim_avseek_size() != 0 { return length }
        // The offset comes from the demuxer, which reads it from the file: checked, never trapping.
        let sum: (partialValue: Int64, overflow: Bool)
        switch whence & 3 {
        case SEEK_SET: sum = (offset, false)
        case SEEK_CUR: sum = position.addingReportingOverflow(offset)
        case SEEK_END: sum = length.addingReportingOverflow(offset)
        default: return Int64(-EINVAL)
        }
        guard !sum.overflow, sum.partialValue >= 0 else { return Int64(-EINVAL) }
        let target = sum.partialValue
        position = target
        return target
    }
}

/// An owned custom `AVIOContext` over a ``FileRange`` (`avio_alloc_context` …
/// `avio_context_free`, with its buffer).
package final class OwnedRangeIO {
    package let context: UnsafeMutablePointer<AVIOContext>
    private let range: FileRange
    private let opaque: Unmanaged<FileRange>

    /// - Throws: ``FFmpegError`` (`ENOMEM`).
    package init(range: FileRange) throws(FFmpegError) {
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
