// One header over Pango 1.50 with Cairo 1.16 and fontconfig (Debian's libpango1.0-dev,
// libcairo2-dev): the text stage's shaping (HarfBuzz), bidi (FriBidi), line breaking,
// ellipsising and font fallback, drawn by cairo (colour emoji included).
//
// It exists to bring in, together, the Pango-to-cairo glue (pango/pangocairo.h), the
// fontconfig font map's own calls (pango/pangofc-fontmap.h, from pangoft2: to give a font map
// a fontconfig configuration that holds a user's font file) and fontconfig itself
// (FcConfigAppFontAddFile, to load a font file the user names).
#ifndef SLIDESHOW_CPANGOCAIRO_SHIM_H
#define SLIDESHOW_CPANGOCAIRO_SHIM_H

#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

#endif
