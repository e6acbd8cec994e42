package import CFFmpeg
import SlideshowFFmpeg

/// Converts decoded audio frames to ``AudioFormat`` (48 kHz stereo interleaved float).
///
/// The libswresample context is set up from the first frame's sample format, rate and
/// channel layout, and made again should they change midway. A layout of unspecified order
/// (WAV without a channel mask) is taken as the usual layout for its channel count.
///
/// Each call gives at most ``blockFrames`` sample frames: libswresample keeps the rest of a
/// frame's input, and ``drain()`` gives it, a block at a time. So a frame whose sound is long
/// once resampled (a PCM packet of a clip at a low rate) never becomes one huge array.
package struct FrameResampler {
    /// The most sample frames one call gives: about 1.4 s at 48 kHz (512 KiB of samples).
    package static let blockFrames = 1 << 16

    /// What the resampler was set up for.
    private struct Input: Equatable {
        var format: Int32
        var rate: Int32
        var channels: Int32
    }

    private var resampler: OwnedResampler?
    private var input: Input?

    package init() {}

    /// Whether a frame has set the resampler up.
    package var isSetUp: Bool { input != nil }

    /// Converts one frame; the resampler may hold some samples back until the next frame or ``flush()``.
    /// - Throws: ``FFmpegError`` from `swr_alloc_set_opts2` or `swr_init` when the frame's
    ///   format cannot be converted, from `swr_convert` when the conversion fails.
    package mutating func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> [Float] {
        let key = Input(format: frame.pointee.format, rate: frame.pointee.sample_rate, channels: frame.pointee.ch_layout.nb_channels)
        if input != key {
            var layout = AVChannelLayout()
            defer { av_channel_layout_uninit(&layout) }
            if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
                av_channel_layout_default(&layout, frame.pointee.ch_layout.nb_channels)
            } else {
                _ = av_channel_layout_copy(&layout, &frame.pointee.ch_layout)
            }
            resampler = try OwnedResampler(layout: &layout, format: AVSampleFormat(rawValue: frame.pointee.format),
                                           rate: frame.pointee.sample_rate)
            input = key
        }
        // swr_convert takes the planes as `const uint8_t **`; AVFrame holds them as `uint8_t **`.
        let planes = frame.pointee.extended_data.map { UnsafeMutablePointer<UnsafePointer<UInt8>?>(OpaquePointer($0)) }
        return try convert(input: planes, count: frame.pointee.nb_samples)
    }

    /// The next block of what the resampler holds of the frames it was given, without ending
    /// the stream; empty when it holds less than it needs to give a sample (or before the first frame).
    /// - Throws: ``FFmpegError`` from `swr_convert`.
    package func drain() throws(FFmpegError) -> [Float] {
        guard resampler != nil else { return [] }
        // A non-NULL input of no samples gives what is buffered; a NULL input would end the stream.
        var none: UnsafePointer<UInt8>? = nil
        return try withUnsafeMutablePointer(to: &none) { pointer throws(FFmpegError) in try convert(input: pointer, count: 0) }
    }

    /// What the resampler still holds, at the end of the stream (a block at a time: call it
    /// until it gives nothing); empty before the first frame.
    /// - Throws: ``FFmpegError`` from `swr_convert`.
    package func flush() throws(FFmpegError) -> [Float] {
        try convert(input: nil, count: 0)
    }

    private func convert(input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32) throws(FFmpegError) -> [Float] {
        guard let resampler else { return [] }
        let capacity = min(Int(swr_get_out_samples(resampler.context, count)) + 16, Self.blockFrames)
        guard capacity > 0 else { return [] }
        var output = [Float](repeating: 0, count: capacity * AudioFormat.channels)
        let converted = output.withUnsafeMutableBytes { buffer -> Int32 in
            var planes: UnsafeMutablePointer<UInt8>? = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &planes) { planes in
                swr_convert(resampler.context, planes, Int32(capacity), input, count)
            }
        }
        try check(converted, "swr_convert")
        output.removeLast((capacity - Int(converted)) * AudioFormat.channels)
        return output
    }
}
