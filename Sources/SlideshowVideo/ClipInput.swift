import Glibc
internal import CFFmpeg
import SlideshowFFmpeg

extension OwnedInputFormat {
    /// Opens a clip: a whole file by path, or a byte range of a file through ``OwnedRangeIO``.
    /// - Throws: ``FFmpegError`` from `open`, `avformat_open_input` or `avformat_find_stream_info`.
    package convenience init(_ source: ClipSource) throws(FFmpegError) {
        guard let range = source.byteRange else {
            try self.init(path: source.path)
            return
        }
        let io = try OwnedRangeIO(range: FileRange(path: source.path, start: range.lowerBound,
                                                   length: range.upperBound - range.lowerBound))
        try self.init(path: source.path, io: io)
    }
}
