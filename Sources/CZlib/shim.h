// One header over zlib (Debian's zlib1g-dev), for the compressed text chunks of PNG metadata.
//
// It exists because Swift imports neither inflateInit (a function-like macro over
// inflateInit_ with the library's version and the stream's size) nor ZLIB_VERSION reliably;
// the macro is re-exposed below as a static inline function.
#ifndef SLIDESHOW_CZLIB_SHIM_H
#define SLIDESHOW_CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit(stream): a zlib-wrapped deflate stream (RFC 1950), as PNG's zTXt, iTXt and iCCP hold.
static inline int shim_inflate_init(z_streamp stream) { return inflateInit(stream); }

#endif
