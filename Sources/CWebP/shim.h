// One header over libwebp 1.2's decoder and demuxer (Debian's libwebp-dev).
//
// It exists to bring the two libraries in together: the decoder (webp/decode.h, libwebp)
// and the container reader (webp/demux.h, libwebpdemux) that finds the ICCP and EXIF chunks
// and tells an animation from a still image.
#ifndef SLIDESHOW_CWEBP_SHIM_H
#define SLIDESHOW_CWEBP_SHIM_H

#include <webp/decode.h>
#include <webp/demux.h>

#endif
