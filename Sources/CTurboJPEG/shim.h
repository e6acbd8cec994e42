// One header over libjpeg-turbo 2.1.5's TurboJPEG API (only the tj* calls exist in 2.1).
//
// It exists because Swift does not import the function-like macro TJSCALED, which
// re-appears below as a static inline function.
#ifndef SLIDESHOW_CTURBOJPEG_SHIM_H
#define SLIDESHOW_CTURBOJPEG_SHIM_H

#include <turbojpeg.h>

/// TJSCALED(dimension, scalingFactor): the size of a dimension after DCT scaling (rounds up).
static inline int shim_tjscaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

#endif
