// One header over Little CMS 2 (lcms2.h; Debian's liblcms2-dev).
//
// It exists because lcms2's pixel formats (TYPE_RGB_8, TYPE_CMYK_8, ...) are built from
// function-like macros (COLORSPACE_SH, CHANNELS_SH, ...) that Swift does not import; they
// re-appear below as static inline functions.
#ifndef SLIDESHOW_CLCMS_SHIM_H
#define SLIDESHOW_CLCMS_SHIM_H

#include <lcms2.h>

/// TYPE_RGB_8: packed 8-bit R, G, B.
static inline cmsUInt32Number shim_type_rgb_8(void) { return TYPE_RGB_8; }
/// TYPE_RGBA_8: packed 8-bit R, G, B, A (the alpha is copied with cmsFLAGS_COPY_ALPHA).
static inline cmsUInt32Number shim_type_rgba_8(void) { return TYPE_RGBA_8; }
/// TYPE_CMYK_8: packed 8-bit C, M, Y, K (ink amounts).
static inline cmsUInt32Number shim_type_cmyk_8(void) { return TYPE_CMYK_8; }
/// TYPE_CMYK_8_REV: packed 8-bit inverted C, M, Y, K (Adobe's CMYK JPEGs).
static inline cmsUInt32Number shim_type_cmyk_8_rev(void) { return TYPE_CMYK_8_REV; }
/// One grey byte followed by two bytes to skip: a grey profile applied to RGB pixels whose
/// three channels are equal (TurboJPEG decodes greyscale JPEGs to RGB).
static inline cmsUInt32Number shim_type_gray_8_in_rgb(void) {
    return COLORSPACE_SH(PT_GRAY) | EXTRA_SH(2) | CHANNELS_SH(1) | BYTES_SH(1);
}

/// TYPE_RGB_DBL: packed double R, G, B, 0…1 (unbounded): a matrix read off a transform exactly.
static inline cmsUInt32Number shim_type_rgb_dbl(void) { return TYPE_RGB_DBL; }

#endif
