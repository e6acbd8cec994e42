// Process-wide memory settings for renders (glibc and Linux), as functions Swift can call.
//
// It exists because prctl is variadic and mallopt lives in <malloc.h>, which Swift's Glibc
// module does not import.
#ifndef SLIDESHOW_CPROCESSTUNING_SHIM_H
#define SLIDESHOW_CPROCESSTUNING_SHIM_H

#include <malloc.h>
#include <sys/prctl.h>

/// prctl(PR_SET_THP_DISABLE, 1): no transparent huge pages for this process. Returns 0 on success.
static inline int shim_disable_transparent_huge_pages(void) {
    return prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}

/// mallopt(M_MMAP_THRESHOLD, bytes): a fixed threshold, which also stops glibc from raising it. Returns 1 on success.
static inline int shim_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

#endif
