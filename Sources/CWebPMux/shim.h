// One header over libwebp 1.2's encoder and animation encoder (Debian's libwebp-dev).
//
// It exists to bring the two libraries in together: the picture encoder (webp/encode.h,
// libwebp) and WebPAnimEncoder (webp/mux.h, libwebpmux), which writes the animated WebP
// previews (SlideshowWriter/Animated).
#ifndef SLIDESHOW_CWEBPMUX_SHIM_H
#define SLIDESHOW_CWEBPMUX_SHIM_H

#include <webp/encode.h>
#include <webp/mux.h>

/// WebPAnimEncoderOptionsInit is an inline function over a versioned call; so is WebPConfigInit.
static inline int shim_webp_anim_options_init(WebPAnimEncoderOptions *options) { return WebPAnimEncoderOptionsInit(options); }
static inline int shim_webp_config_init(WebPConfig *config) { return WebPConfigInit(config); }
static inline int shim_webp_picture_init(WebPPicture *picture) { return WebPPictureInit(picture); }
static inline WebPAnimEncoder *shim_webp_anim_encoder_new(int width, int height, const WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderNew(width, height, options);
}

#endif
