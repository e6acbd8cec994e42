import Foundation
import CWebPMux
import SlideshowPixels

/// An animated WebP through libwebp's `WebPAnimEncoder` (libwebpmux): lossy, quality
/// ``quality``, each picture added at its first frame's time in milliseconds
/// (``AnimatedFormat/tick(ofFrame:framesPerSecond:)``) and the end added as the last
/// timestamp, so a held photo is one frame with one long duration and the durations add up to
/// the show's length rounded to 1 ms. The encoder itself codes each frame as a key frame or
/// as the rectangle that changed, whichever is smaller. The file is assembled in memory (a
/// preview is small) and written at the end.
final class WebPAnimationEncoder: AnimatedEncoder {
    /// libwebp's lossy quality, 0 to 100: 75, its own default.
    static let quality: Float = 75

    private let path: String
    private let target: String
    private let size: Size
    private let framesPerSecond: Int
    private let encoder: OpaquePointer
    private var config = WebPConfig()

    init(path: String, target: String, size: Size, framesPerSecond: Int) throws(WriterError) {
        self.path = path
        self.target = target
        self.size = size
        self.framesPerSecond = framesPerSecond
        var options = WebPAnimEncoderOptions()
        guard shim_webp_anim_options_init(&options) != 0, shim_webp_config_init(&config) != 0 else {
            throw WriterError(path: target, kind: .encoderFailed, reason: "libwebp's version does not match its headers")
        }
        options.anim_params.loop_count = 0
        config.quality = Self.quality
        config.method = 4
        guard let encoder = shim_webp_anim_encoder_new(Int32(size.width), Int32(size.height), &options) else {
            throw WriterError(path: target, kind: .encoderFailed, reason: "WebPAnimEncoderNew failed")
        }
        self.encoder = encoder
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    func encode(scene: [(buffer: PixelBuffer, frame: Int)], still: Bool) throws(WriterError) {
        for picture in scene {
            var webp = CWebPMux.WebPPicture()
            guard shim_webp_picture_init(&webp) != 0 else { throw failure("WebPPictureInit") }
            webp.width = Int32(size.width)
            webp.height = Int32(size.height)
            webp.use_argb = 1
            defer { WebPPictureFree(&webp) }
            let imported = picture.buffer.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                WebPPictureImportRGB(&webp, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(picture.buffer.bytesPerRow))
            }
            guard imported != 0 else { throw failure("WebPPictureImportRGB") }
            let milliseconds = AnimatedFormat.webp.tick(ofFrame: picture.frame, framesPerSecond: framesPerSecond)
            guard WebPAnimEncoderAdd(encoder, &webp, Int32(milliseconds), &config) != 0 else { throw failure("WebPAnimEncoderAdd") }
        }
    }

    func finish(endFrame: Int) throws(WriterError) {
        let end = AnimatedFormat.webp.tick(ofFrame: endFrame, framesPerSecond: framesPerSecond)
        guard WebPAnimEncoderAdd(encoder, nil, Int32(end), nil) != 0 else { throw failure("WebPAnimEncoderAdd(end)") }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else { throw failure("WebPAnimEncoderAssemble") }
        defer { WebPDataClear(&data) }
        let file = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard file >= 0 else { throw WriterError(path: target, kind: .notWritable, reason: String(cString: strerror(errno))) }
        defer { close(file) }
        var written = 0
        while written < data.size {
            let count = write(file, bytes + written, data.size - written)
            if count < 0 {
                if errno == EINTR { continue }
                let error = errno
                throw WriterError(path: target, kind: error == ENOSPC || error == EDQUOT || error == EFBIG ? .diskFull : .notWritable,
                                  reason: String(cString: strerror(error)))
            }
            written += count
        }
    }

    private func failure(_ call: String) -> WriterError {
        let message = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? ""
        return WriterError(path: target, kind: .encoderFailed, reason: "\(call) failed\(message.isEmpty ? "" : ": \(message)")")
    }
}
