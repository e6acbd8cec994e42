// One header over libheif 1.15's C API (HEIF, HEIC and AVIF; Debian's libheif-dev, which
// brings libde265 for HEVC and dav1d/libaom for AV1).
//
// It exists because the header lives under the multiarch include folder
// (/usr/include/<triplet>/libheif), which only pkg-config's libheif.pc knows, so the module
// map names this file rather than a system path. heif_plugin.h brings the decoder plugin table,
// through which HEVCDecoderPlugin gives libheif FFmpeg's HEVC decoder.
#ifndef SLIDESHOW_CHEIF_SHIM_H
#define SLIDESHOW_CHEIF_SHIM_H

#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#endif
