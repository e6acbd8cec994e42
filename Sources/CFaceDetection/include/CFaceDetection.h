// A C face of OpenCV's cascade face detector, so that Swift never sees C++.
//
// Why a shim: OpenCV's object detection is a C++ API (cv::CascadeClassifier, cv::Mat,
// std::vector) that Swift cannot import as plain C; these four functions are all the library
// needs, with plain types, and no C++ exception crosses them.
#ifndef CFACEDETECTION_H
#define CFACEDETECTION_H

#ifdef __cplusplus
extern "C" {
#endif

/// An opened cascade classifier (one `cv::CascadeClassifier`).
typedef struct sfd_cascade sfd_cascade;

/// Loads a cascade file (OpenCV XML); NULL when it cannot be read or is not a cascade.
sfd_cascade *sfd_cascade_open(const char *path);

/// Frees a cascade from sfd_cascade_open.
void sfd_cascade_close(sfd_cascade *cascade);

/// Detects faces in an 8-bit grey image (rows `stride` bytes apart), on the calling thread only.
///
/// Faces at least `min_size` pixels wide are searched for, the window growing by 15 % a step,
/// and a face needs 3 overlapping detections. Up to `capacity` faces are written to `rects`
/// as x, y, width, height (4 ints each).
/// Returns the number of faces found (all of them, even beyond capacity), or -1 when OpenCV failed.
int sfd_cascade_detect(sfd_cascade *cascade, const unsigned char *grey, int width, int height, int stride,
                       int min_size, int *rects, int capacity);

#ifdef __cplusplus
}
#endif

#endif
