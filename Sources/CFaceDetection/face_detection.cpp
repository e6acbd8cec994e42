// OpenCV's cascade classifier behind the C functions of CFaceDetection.h.
#include "CFaceDetection.h"

#include <opencv2/core.hpp>
#include <opencv2/objdetect.hpp>
#include <vector>

struct sfd_cascade {
    cv::CascadeClassifier classifier;
};

extern "C" sfd_cascade *sfd_cascade_open(const char *path) {
    try {
        // One thread: the renderer already keeps every core busy, and the result must not depend on it.
        cv::setNumThreads(1);
        sfd_cascade *cascade = new sfd_cascade();
        if (!cascade->classifier.load(path) || cascade->classifier.empty()) {
            delete cascade;
            return nullptr;
        }
        return cascade;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void sfd_cascade_close(sfd_cascade *cascade) {
    delete cascade;
}

extern "C" int sfd_cascade_detect(sfd_cascade *cascade, const unsigned char *grey, int width, int height, int stride,
                                  int min_size, int *rects, int capacity) {
    try {
        cv::Mat image(height, width, CV_8UC1, const_cast<unsigned char *>(grey), static_cast<size_t>(stride));
        std::vector<cv::Rect> faces;
        cascade->classifier.detectMultiScale(image, faces, 1.15, 3, 0, cv::Size(min_size, min_size));
        int count = static_cast<int>(faces.size());
        for (int i = 0; i < count && i < capacity; i++) {
            rects[4 * i] = faces[i].x;
            rects[4 * i + 1] = faces[i].y;
            rects[4 * i + 2] = faces[i].width;
            rects[4 * i + 3] = faces[i].height;
        }
        return count;
    } catch (...) {
        return -1;
    }
}
