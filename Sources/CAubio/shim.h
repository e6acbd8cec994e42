// One header over aubio 0.4.9 (onset detection, Debian's libaubio-dev) for the beat analysis.
//
// It exists because a system-library target needs one header of its own to name in its
// module map; aubio's API is plain functions over opaque objects and `fvec_t` buffers,
// which Swift imports as they are. Only the onset detector is used (Audio/Beats).
#ifndef SLIDESHOW_CAUBIO_SHIM_H
#define SLIDESHOW_CAUBIO_SHIM_H

#include <aubio/aubio.h>

#endif
