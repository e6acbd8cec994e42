internal import CTurboJPEG
import SlideshowPixels
import SlideshowFormats

/// Owns one TurboJPEG decompressor handle (`tjInitDecompress` … `tjDestroy`).
///
/// Not `Sendable`: a handle keeps per-call state and its last error message, so each one
/// lives inside a single call of ``ImageManager`` on one thread. Every TurboJPEG return code
/// goes through ``check(_:_:)``, which reads the handle's message right after the failing
/// call, with no suspension point in between.
package final class TurboJPEGDecompressor {
    private let handle: UnsafeMutableRawPointer

    /// Allocates a decompressor.
    /// - Throws: `.unsupported` when TurboJPEG cannot allocate one (out of memory).
    package init() throws(ImageProblem) {
        guard let handle = tjInitDecompress() else {
            let message = tjGetErrorStr2(nil).map { String(cString: $0) } ?? "tjInitDecompress failed"
            throw ImageProblem(.unsupported, "cannot start the JPEG decoder (\(message))")
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// What `tjDecompressHeader3` reports.
    package struct Header: Equatable {
        package var size: Size
        /// A `TJSAMP` value.
        package var subsampling: Int32
        /// A `TJCS` value.
        package var colorspace: Int32

        /// Whether the pixels are CMYK or YCCK, which TurboJPEG decodes only to CMYK.
        package var isCMYK: Bool {
            colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        }
    }

    /// Reads the header with `tjDecompressHeader3`.
    ///
    /// Width and height start at 0 and are checked afterwards: on some truncated streams
    /// TurboJPEG 2.1 returns success without setting them.
    /// - Parameters:
    ///   - jpeg: the file's bytes, or the prefix through the SOS segment.
    /// - Throws: `.corrupt`, `.truncated` or `.unsupported`, with TurboJPEG's own message.
    package func readHeader(_ jpeg: UnsafeRawBufferPointer) throws(ImageProblem) -> Header {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = -1, colorspace: Int32 = -1
        let source = jpeg.bindMemory(to: UInt8.self)
        try check(tjDecompressHeader3(handle, source.baseAddress, UInt(source.count),
                                      &width, &height, &subsampling, &colorspace), "tjDecompressHeader3")
        guard width > 0, height > 0 else {
            throw ImageProblem(.truncated, "truncated JPEG data (the header gives no image size)")
        }
        return Header(size: Size(width: Int(width), height: Int(height)), subsampling: subsampling, colorspace: colorspace)
    }

    /// Decodes at a DCT scale with `tjDecompress2`, into packed RGB (or CMYK) rows.
    ///
    /// The exact scaled size is passed, so TurboJPEG uses exactly `scale`.
    /// `TJFLAG_LIMITSCANS` refuses progressive files of more than
    /// ``ImageLimits/maximumProgressiveScans`` scans (`.tooLarge`);
    /// `TJFLAG_STOPONWARNING` stops at the first warning, which is an error here, except
    /// stray bytes before the end-of-image marker (``isHarmlessAtEnd(_:)``).
    /// - Parameters:
    ///   - jpeg: the whole file.
    ///   - header: what ``readHeader(_:)`` said.
    ///   - scale: the DCT scaling factor.
    /// - Returns: the pixels (`3` or `4` bytes each, rows unpadded, ``ImageLimits/rowPadding``
    ///   spare bytes at the end) and the decoded size.
    /// - Throws: `.truncated` ("Premature end of JPEG file"), `.corrupt` (other warnings and
    ///   fatal errors), `.unsupported`, `.tooLarge` (too many scans).
    package func decompress(_ jpeg: UnsafeRawBufferPointer, header: Header, scale: DCTScale) throws(ImageProblem) -> RGBImage {
        let size = scale.scaled(header.size)
        let format = header.isCMYK ? TJPF_CMYK : TJPF_RGB
        let channels = header.isCMYK ? 4 : 3
        let rowBytes = size.width * channels
        let source = jpeg.bindMemory(to: UInt8.self)
        var problem: ImageProblem?
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * size.height + ImageLimits.rowPadding) { buffer, count in
            func decode(_ flags: Int32) -> (result: Int32, message: String?) {
                let result = tjDecompress2(handle, source.baseAddress, UInt(source.count), buffer.baseAddress,
                                           Int32(size.width), Int32(rowBytes), Int32(size.height), Int32(format.rawValue), flags)
                // Read the message now, on this thread, before anything else calls TurboJPEG.
                return (result, result == 0 ? nil : tjGetErrorStr2(handle).map { String(cString: $0) })
            }
            var outcome = decode(TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING)
            if outcome.result != 0, let message = outcome.message, Self.isHarmlessAtEnd(message),
               tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) {
                // Stray bytes before the end-of-image marker: every pixel came before them,
                // and libjpeg stopped there. Decode again without stopping (progressive files
                // read their end before their first row); the warning was the last possible one.
                outcome = decode(TJFLAG_LIMITSCANS)
                if outcome.result != 0, let again = outcome.message, again == message,
                   tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) {
                    outcome.result = 0
                }
            }
            do throws(ImageProblem) { try check(outcome.result, "tjDecompress2") } catch { problem = error }
            count = buffer.count
        }
        if let problem { throw problem }
        return RGBImage(width: size.width, height: size.height, channels: channels, pixels: pixels)
    }

    /// Turns a TurboJPEG return code into an error carrying TurboJPEG's message.
    ///
    /// Both warnings and fatal errors return -1; `tjGetErrorCode` tells them apart. A warning
    /// is still an error here (a truncated file decodes to grey-filled garbage): "Premature
    /// end of JPEG file" is `.truncated`, any other warning `.corrupt`. Fatal messages about
    /// unsupported features are `.unsupported`, the rest `.corrupt`.
    private func check(_ result: Int32, _ call: StaticString) throws(ImageProblem) {
        guard result != 0 else { return }
        let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "\(call) failed"
        let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
        throw Self.classify(message: message, isWarning: isWarning)
    }

    /// Whether a warning is one that libjpeg raises when the whole picture has been decoded:
    /// "Corrupt JPEG data: N extraneous bytes before marker 0xd9", stray bytes after the image
    /// data and before the end-of-image marker (cameras and editors that pad the file).
    /// Stray bytes between header segments never reach TurboJPEG (see
    /// ``JPEGMarkers/withoutExtraneousBytes(_:)``); every other warning still refuses the photo.
    package static func isHarmlessAtEnd(_ message: String) -> Bool {
        message.hasPrefix("Corrupt JPEG data: ") && message.hasSuffix("extraneous bytes before marker 0xd9")
    }

    /// The problem a TurboJPEG message stands for.
    package static func classify(message: String, isWarning: Bool) -> ImageProblem {
        if message.contains("more than 500 scans") {
            // TJFLAG_LIMITSCANS: each scan is a pass over the whole image, so a few kilobytes of
            // scans could keep the decoder busy for minutes.
            return ImageProblem(.tooLarge, "a progressive JPEG of more than \(ImageLimits.maximumProgressiveScans) scans is refused (\(message))")
        }
        if message.contains("Premature end") {
            return ImageProblem(.truncated, "truncated JPEG data (\(message))")
        }
        if !isWarning && (message.contains("Unsupported") || message.contains("not supported")) {
            return ImageProblem(.unsupported, "unsupported JPEG (\(message))")
        }
        return ImageProblem(.corrupt, "corrupt JPEG data (\(message))")
    }

    /// TurboJPEG's scaling factors, from `tjGetScalingFactors`.
    package static func scalingFactors() -> [DCTScale] {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [.one] }
        return (0..<Int(count)).map { DCTScale(numerator: Int(factors[$0].num), denominator: Int(factors[$0].denom)) }
    }
}
