import Foundation
import Synchronization
import SlideshowPixels

/// How `fill` chooses the part of a photo that shows: the centre, or where the faces are.
public enum Framing: String, Sendable, Hashable, CaseIterable {
    /// The centre of the photo (a blind centre crop).
    case center
    /// The faces a detector finds stay in the picture (all of them where they fit, else the
    /// largest); without faces, a portrait keeps its upper third. Falls back to `center` when
    /// no detector is available (``FaceFraming/isAvailable``).
    case faces
}

/// Face-aware framing: finds faces and chooses the crop (or a pan's end points) that keeps them.
///
/// The detector is OpenCV's LBP cascade `lbpcascade_frontalface.xml` (24x24 window) (from Debian's
/// `opencv-data`), run on a grey copy of the photo at most ``detectionSide`` pixels on its
/// longer side (each grey pixel the mean of four spread over its block), on one thread. Faces
/// narrower than 20 pixels at that scale (about 6 % of the longer side) are not looked for.
public enum FaceFraming {
    /// The longer side of the grey image detection runs on.
    public static let detectionSide = 320

    /// Where the cascade is read from.
    public static let cascadePath = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml"

    /// The process's detector, loaded at the first use (with the face detection library,
    /// ``FaceDetectionLibrary``): nil when the cascade file is missing or unreadable (the
    /// library is then not loaded); the loader's failure when the library cannot be loaded.
    package static let detector: Result<(any FaceDetector)?, FaceDetectionError> = Result { () throws(FaceDetectionError) in
        try CascadeFaceDetector(path: cascadePath)
    }

    /// Whether faces can be detected here: the cascade file could be loaded, by the face
    /// detection library (``FaceDetectionLibrary``). Asking loads them.
    public static var isAvailable: Bool { (try? detector.get()) != nil }

    /// The faces in an upright RGB image, in its pixels; empty without a detector (and when
    /// the face detection library cannot be loaded: ``detectFaces(in:)`` says so).
    package static func faces(in image: RGBImage) -> [Rect] {
        (try? detectFaces(in: image)) ?? []
    }

    /// The faces in an upright RGB image, in its pixels; empty without the cascade file.
    /// - Throws: ``FaceDetectionError`` when the face detection library cannot be loaded.
    package static func detectFaces(in image: RGBImage) throws(FaceDetectionError) -> [Rect] {
        guard image.channels == 3, let detector = try detector.get() else { return [] }
        let factor = max(1, (max(image.width, image.height) + detectionSide - 1) / detectionSide)
        let (gw, gh) = (image.width / factor, image.height / factor)
        guard gw >= 24, gh >= 24 else { return [] }
        // Rec. 601 luma, the mean of four pixels of each `factor` × `factor` block (at a
        // quarter and three quarters of the block each way): cheap, and enough against aliasing.
        let near = factor / 4, far = (3 * factor) / 4
        var grey = [UInt8](repeating: 0, count: gw * gh)
        image.pixels.withUnsafeBufferPointer { pixels in
            for gy in 0..<gh {
                for gx in 0..<gw {
                    var sum = 0
                    for y in [gy * factor + near, gy * factor + far] {
                        for x in [gx * factor + near, gx * factor + far] {
                            let p = (y * image.width + x) * 3
                            sum += 77 * Int(pixels[p]) + 150 * Int(pixels[p + 1]) + 29 * Int(pixels[p + 2])
                        }
                    }
                    grey[gy * gw + gx] = UInt8(sum / 1024)
                }
            }
        }
        return detector.faces(inGrey: grey, width: gw, height: gh).map {
            Rect(x: $0.x * factor, y: $0.y * factor, width: $0.width * factor, height: $0.height * factor)
        }
    }

    /// The region of a photo to keep in view: the faces (padded by a quarter of their size for
    /// hair and chin), all of them as one rectangle; nil when there are none.
    ///
    /// For pans: the motion's end points should both contain this region (or ``crop(of:aspect:faces:)``
    /// gives the crop of one aspect ratio that does).
    /// - Parameters:
    ///   - faces: face rectangles in the photo's pixels.
    ///   - imageSize: the photo's size; the result is clamped to it.
    public static func regionToKeep(faces: [Rect], imageSize: Size) -> Rect? {
        guard !faces.isEmpty else { return nil }
        let boxes = faces.map { padded($0, in: imageSize) }
        return boxes.dropFirst().reduce(boxes[0]) { union($0, $1) }
    }

    /// The crop of `source` with the aspect ratio of `aspect` (the largest such, as a centre
    /// crop would have) placed to keep faces in view.
    ///
    /// - All the faces (padded) when their bounding box fits in the crop, centred on that box;
    ///   else the largest face (padded), centred on it; the crop never leaves the image.
    /// - Without faces: a crop that cuts the height (a portrait into a landscape frame) keeps
    ///   the upper third of the photo in view, centred on it when the crop is shorter than a
    ///   third; a crop that cuts the width stays centred.
    /// - Parameters:
    ///   - source: the photo's size.
    ///   - aspect: the frame's size (only its ratio matters).
    ///   - faces: face rectangles in the photo's pixels.
    public static func crop(of source: Size, aspect: Size, faces: [Rect]) -> Rect {
        var crop = FitGeometry.centreCrop(of: source, aspect: aspect)
        if let target = kept(faces: faces, imageSize: source, cropSize: FitGeometry.size(of: crop)) {
            crop.x = min(max(target.x + target.width / 2 - crop.width / 2, 0), source.width - crop.width)
            crop.y = min(max(target.y + target.height / 2 - crop.height / 2, 0), source.height - crop.height)
        } else if crop.height < source.height {
            crop.y = min(max(source.height / 6 - crop.height / 2, 0), source.height - crop.height)
        }
        return crop
    }

    /// The faces a crop of `cropSize` keeps, padded: all of them as one rectangle when it fits
    /// in the crop, else the largest face; nil without faces.
    ///
    /// ``crop(of:aspect:faces:)`` centres on it, and a moving photo's pan keeps the same
    /// rectangle in view, so that a face the still slide gave up (too far from the others)
    /// does not pull the pan away from the ones it kept.
    /// - Parameters:
    ///   - faces: face rectangles in the image's pixels.
    ///   - imageSize: the image's size; the result is clamped to it.
    ///   - cropSize: the size of the crop (the largest of the frame's aspect).
    package static func kept(faces: [Rect], imageSize: Size, cropSize: Size) -> Rect? {
        if let all = regionToKeep(faces: faces, imageSize: imageSize), all.width <= cropSize.width, all.height <= cropSize.height {
            return all
        }
        return faces.max(by: { $0.width * $0.height < $1.width * $1.height }).map { padded($0, in: imageSize) }
    }

    private static func padded(_ face: Rect, in size: Size) -> Rect {
        let dx = face.width / 4, dy = face.height / 4
        let x0 = max(face.x - dx, 0), y0 = max(face.y - dy, 0)
        let x1 = min(face.maxX + dx, size.width), y1 = min(face.maxY + dy, size.height)
        return Rect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
    }

    private static func union(_ a: Rect, _ b: Rect) -> Rect {
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        return Rect(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0)
    }
}

/// Finds faces in a grey image: the small interface the framing stands on, so another
/// detector (dlib's, a neural one) can replace OpenCV's cascade.
package protocol FaceDetector: Sendable {
    /// Face rectangles at least `minimumSize` pixels wide, in the grey image's pixels.
    func faces(inGrey grey: [UInt8], width: Int, height: Int, minimumSize: Int) -> [Rect]
}

extension FaceDetector {
    /// Face rectangles of 20 pixels or more (the cascades' own window).
    package func faces(inGrey grey: [UInt8], width: Int, height: Int) -> [Rect] {
        faces(inGrey: grey, width: width, height: height, minimumSize: 20)
    }
}

/// OpenCV's cascade classifier: owns one `sfd_cascade`, freed once in deinit, through the
/// face detection library's functions (``FaceDetectionLibrary``).
///
/// `@unchecked Sendable`: the C object is touched only under `lock` (OpenCV's
/// `detectMultiScale` is not safe to run on one classifier from two threads at once), and the
/// pointer itself never changes.
package final class CascadeFaceDetector: FaceDetector, @unchecked Sendable {
    private let cascade: OpaquePointer
    private let library: FaceDetectionLibrary
    private let lock = Mutex(())

    /// Loads a cascade; nil when the file is missing (the library is then not loaded) or is not a cascade.
    /// - Throws: ``FaceDetectionError`` when the face detection library cannot be loaded.
    package init?(path: String) throws(FaceDetectionError) {
        guard FileManager.default.isReadableFile(atPath: path) else { return nil }
        let library = try FaceDetectionLibrary.loaded()
        guard let cascade = library.open(path) else { return nil }
        self.cascade = cascade
        self.library = library
    }

    deinit { library.close(cascade) }

    package func faces(inGrey grey: [UInt8], width: Int, height: Int, minimumSize: Int) -> [Rect] {
        precondition(grey.count >= width * height)
        let capacity = 64
        var rects = [Int32](repeating: 0, count: capacity * 4)
        let count = lock.withLock { _ in
            grey.withUnsafeBufferPointer { grey in
                library.detect(cascade, grey.baseAddress, Int32(width), Int32(height), Int32(width), Int32(minimumSize), &rects, Int32(capacity))
            }
        }
        guard count > 0 else { return [] }
        return (0..<min(Int(count), capacity)).map {
            Rect(x: Int(rects[4 * $0]), y: Int(rects[4 * $0 + 1]), width: Int(rects[4 * $0 + 2]), height: Int(rects[4 * $0 + 3]))
        }
    }
}
