// One header over libebur128 1.2 (EBU R 128 loudness and true peak, Debian's libebur128-dev).
//
// It exists because a system-library target needs one header of its own to name in its
// module map; libebur128's API is plain functions and an enum, which Swift imports as they are.
#ifndef SLIDESHOW_CEBUR128_SHIM_H
#define SLIDESHOW_CEBUR128_SHIM_H

#include <ebur128.h>

#endif
