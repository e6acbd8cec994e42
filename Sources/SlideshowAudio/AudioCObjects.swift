package import CFFmpeg
package import CEBUR128
import SlideshowFFmpeg

// The C objects of the audio stage that FFmpeg/ does not already cover, one owner
// each: a `final class` whose throwing `init` allocates (and, once the object exists,
// configures it; a failure after that point runs `deinit`, which frees it once) and whose
// `deinit` frees it. Inputs, codec contexts, frames and packets are FFmpeg/'s.

/// A libswresample context converting one input format to 48 kHz stereo interleaved float.
package final class OwnedResampler {
    package let context: OpaquePointer

    /// Sets up the conversion from `layout`/`format`/`rate` to ``AudioFormat``.
    ///
    /// Channels are mixed with libswresample's standard matrix: 5.1 folds its centre and
    /// surrounds into left and right at −3 dB (the matrix then normalised so nothing clips),
    /// mono goes to both sides at −3 dB each (equal power).
    package init(layout: UnsafeMutablePointer<AVChannelLayout>, format: AVSampleFormat, rate: Int32) throws(FFmpegError) {
        var output = AVChannelLayout()
        av_channel_layout_default(&output, Int32(AudioFormat.channels))
        defer { av_channel_layout_uninit(&output) }
        var context: OpaquePointer? = nil
        try check(swr_alloc_set_opts2(&context, &output, AV_SAMPLE_FMT_FLT, Int32(AudioFormat.sampleRate),
                                      layout, format, rate, 0, nil), "swr_alloc_set_opts2")
        guard let context else { throw FFmpegError(call: "swr_alloc_set_opts2", code: -ENOMEM) }
        self.context = context
        try check(swr_init(context), "swr_init")
    }

    deinit {
        var context: OpaquePointer? = context
        swr_free(&context)
    }
}

/// A libebur128 state measuring 48 kHz stereo.
package final class OwnedLoudnessMeter {
    package let state: UnsafeMutablePointer<ebur128_state>

    /// A state measuring what `mode` (libebur128's `EBUR128_MODE_…` bits) asks; nil when
    /// `ebur128_init` fails (it returns no code: out of memory or an invalid mode).
    package init?(mode: Int32) {
        guard let state = ebur128_init(UInt32(AudioFormat.channels), UInt(AudioFormat.sampleRate), mode) else { return nil }
        self.state = state
    }

    deinit {
        var state: UnsafeMutablePointer<ebur128_state>? = state
        ebur128_destroy(&state)
    }
}
