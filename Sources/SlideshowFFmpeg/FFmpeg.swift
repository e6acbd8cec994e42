internal import CFFmpeg

/// A failed FFmpeg call: its name, its code and FFmpeg's own message.
package struct FFmpegError: Error, CustomStringConvertible {
    /// The C function that failed, e.g. `avcodec_open2`.
    package var call: String
    /// Its negative return code (an `AVERROR`).
    package var code: Int32
    /// Our own words when FFmpeg has none for the failure (a library the loader could not load).
    package var reason: String?

    package init(call: String, code: Int32, reason: String? = nil) {
        self.call = call
        self.code = code
        self.reason = reason
    }

    /// The reason given, or else FFmpeg's message for the code.
    package var message: String {
        if let reason { return reason }
        var buffer = [CChar](repeating: 0, count: 256)
        shim_av_strerror(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package var description: String { "\(call): \(message)" }

    /// Whether the failure was a full disk or a file-size limit.
    package var isNoSpace: Bool { code == -ENOSPC || code == -EFBIG || code == -EDQUOT }
}

/// Passes through a non-negative FFmpeg return code; throws a negative one as an ``FFmpegError``.
@discardableResult
package func check(_ code: Int32, _ call: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
    guard code >= 0 else { throw FFmpegError(call: call(), code: code) }
    return code
}

/// The outcome of asking an encoder for output: "try again" and "end of stream" are states, not errors.
package enum EncoderOutput {
    case packet
    case needsInput
    case endOfStream
}

/// Silences FFmpeg's own logging once per process: failures reach the user through our errors.
package let quietFFmpegLogging: Void = shim_av_log_quiet()
