// One header over zimg 3.0's C API (Debian's libzimg-dev): the resampler a moving photo's
// frames are cut with, at fractional source rectangles ("active regions"), with SIMD
// kernels chosen at run time.
//
// Beyond the include, it gives Swift two things it cannot import: the API version (a
// function-like macro) and the buffers' planes (an array of anonymous structs).
#ifndef SLIDESHOW_CZIMG_SHIM_H
#define SLIDESHOW_CZIMG_SHIM_H

#include <zimg.h>

static inline unsigned slideshow_zimg_api_version(void) { return ZIMG_API_VERSION; }

static inline void slideshow_zimg_set_input_plane(zimg_image_buffer_const *buffer, int plane,
                                                  const void *data, ptrdiff_t stride, unsigned mask) {
    buffer->plane[plane].data = data;
    buffer->plane[plane].stride = stride;
    buffer->plane[plane].mask = mask;
}

static inline void slideshow_zimg_set_output_plane(zimg_image_buffer *buffer, int plane,
                                                   void *data, ptrdiff_t stride, unsigned mask) {
    buffer->plane[plane].data = data;
    buffer->plane[plane].stride = stride;
    buffer->plane[plane].mask = mask;
}

#endif
