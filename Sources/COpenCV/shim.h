// OpenCV is C++; this module only carries its pkg-config flags (headers and libraries) to
// CFaceDetection, whose C header is what Swift imports.
