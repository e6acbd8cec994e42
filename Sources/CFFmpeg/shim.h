// One header over FFmpeg 5.1's libavformat, libavcodec, libswscale, libswresample, libavfilter (the
// deinterlacer's and the GIF's filter graphs) and libavutil. libavfilter is not linked (the module
// map links the others): its headers give the types, and its functions are looked up when the
// first graph is built (SlideshowFFmpeg's FilterLibrary), so that it and the 26 libraries only it
// needs are not loaded by every run.
//
// It exists because Swift imports neither function-like macros (AVERROR, av_err2str) nor
// some macro constants (AVERROR_EOF, AVERROR_INVALIDDATA, AV_NOPTS_VALUE); each is re-exposed below as a static
// inline function, with the macro it stands for.
#ifndef SLIDESHOW_CFFMPEG_SHIM_H
#define SLIDESHOW_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/dict.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/pixdesc.h>
#include <errno.h>

/// AVERROR(EAGAIN): "output is not ready / input is full, try again after the other side moved".
static inline int shim_averror_eagain(void) { return AVERROR(EAGAIN); }

/// AVERROR_EOF: the encoder or demuxer has nothing more to give.
static inline int shim_averror_eof(void) { return AVERROR_EOF; }

/// AVERROR_INVALIDDATA: a demuxer or decoder met bytes it cannot make sense of (damaged input).
static inline int shim_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }

/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t shim_av_nopts_value(void) { return AV_NOPTS_VALUE; }

/// av_err2str is a macro over a compound literal; this writes the message into a caller's buffer.
static inline void shim_av_strerror(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
}

/// Silences libav*'s own logging: failures reach the user through our errors, not stderr.
static inline void shim_av_log_quiet(void) { av_log_set_level(AV_LOG_QUIET); }

/// AVSEEK_SIZE (a custom I/O seek callback's "how long is the stream?" request).
static inline int shim_avseek_size(void) { return AVSEEK_SIZE; }

#endif
