import Foundation
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowPixels
import SlideshowSupport
import SlideshowVideo
import SlideshowFFmpeg

/// Reads each photo or clip small and keeps its ``PhotoSummary``.
///
/// A photo is decoded to cover about 320x320 (``analysisSize``) through the image stage's own
/// path (``ImageManager``: TurboJPEG's DCT scaling, so a 12-megapixel JPEG decodes at 1/8,
/// some 500x375; a HEIF's own thumbnail where it has one of 240 pixels or more, else HEIF and
/// AVIF resampled from their decoded planes; colour managed, upright);
/// a clip's first picture is decoded at about 256 pixels wide. Only the summary outlives the
/// call: memory is a decode or two per core, whatever the number of inputs.
public enum PhotoAnalysis {
    /// The size the analysis decodes to cover.
    public static let analysisSize = Size(width: 320, height: 320)
    /// The shortest side of a HEIF thumbnail the analysis takes instead of the picture.
    package static let thumbnailSide = 240

    /// The summaries of `paths`, in parallel on every core, in the paths' order.
    /// - Parameters:
    ///   - paths: the photos and clips.
    ///   - clips: the paths already known to be clips by their content (``MediaListing/clips``).
    /// - Returns: per path, its summary or why it cannot be read.
    public static func summarize(_ paths: [String], clips: Set<String> = []) -> [Result<PhotoSummary, PickProblem>] {
        parallelMap(paths) { path in summarize(path, isClip: clips.contains(path)) }
    }

    /// One summary.
    /// - Returns: the summary, or ``PickProblem`` naming the file and why it cannot be read.
    public static func summarize(_ path: String, isClip: Bool = false) -> Result<PhotoSummary, PickProblem> {
        if !isClip {
            do throws(PhotoError) {
                return .success(try photo(path))
            } catch where error.kind == .notAnImage || error.kind == .tooLarge {
                if let clip = try? clip(path) { return .success(clip) }
                return .failure(PickProblem(path: path, reason: error.reason))
            } catch {
                return .failure(PickProblem(path: path, reason: error.reason))
            }
        }
        do throws(ClipError) {
            return .success(try clip(path))
        } catch {
            return .failure(PickProblem(path: path, reason: error.reason))
        }
    }

    /// A photo's summary: its header read (``ImageManager/inspect(_:)``), then decoded small.
    package static func photo(_ path: String) throws(PhotoError) -> PhotoSummary {
        let manager = ImageManager()
        let info = try manager.inspect(Photo(path: path))
        let bytes = try PhotoFile.read(path).bytes
        let fileBytes = bytes.count
        let image: RGBImage
        do throws(ImageProblem) {
            // A HEIF's own thumbnail where it has one large enough: a phone's 320x240 instead of its 12 MP grid.
            if info.format == .heif, let thumbnail = try HEIFDecoder(bytes, formatName: "HEIF").thumbnail(shorterSideAtLeast: thumbnailSide) {
                image = thumbnail
            } else {
                image = try manager.decodeOriented(bytes, target: analysisSize, mode: .aspectFit, background: .black).0
            }
        } catch {
            throw error.error(for: path)
        }
        var summary = measure(image.pixels, width: image.width, height: image.height, channels: image.channels, path: path)
        summary.captureDate = info.captureDate
        summary.size = info.displayedSize
        summary.fileBytes = fileBytes
        summary.content = content(of: summary, format: info.format, colourfulness: colourfulness(image.pixels, count: image.width * image.height, channels: image.channels))
        do throws(FaceDetectionError) {
            (summary.faces, summary.facesWithOpenEyes) = try eyes(in: image)
        } catch {
            throw PhotoError(path: path, kind: .unsupported, reason: error.message)
        }
        return summary
    }

    /// OpenCV's eye cascade (opencv-data), which finds open eyes and not shut ones; nil when
    /// it is not installed (faces are then not judged).
    package static let eyeDetector: (any FaceDetector)? = try? CascadeFaceDetector(path: "/usr/share/opencv4/haarcascades/haarcascade_eye.xml")

    /// The faces at least ``minimumFace`` pixels wide in the analysis picture, and how many of
    /// them show an open eye: each face's upper half (the eyes lie from a fifth to a half of
    /// its height), enlarged twice (the cascade looks for eyes of 20 pixels or more), searched
    /// with ``eyeDetector``.
    /// - Throws: ``FaceDetectionError`` when the face detection library cannot be loaded.
    package static func eyes(in image: RGBImage) throws(FaceDetectionError) -> (faces: Int, open: Int) {
        guard let faceDetector = try FaceFraming.detector.get(), let eyeDetector else { return (0, 0) }
        let width = image.width, height = image.height
        let grey = luma(image.pixels, count: width * height, channels: image.channels)
        // Only faces large enough to judge are looked for, at two thirds of the size: the small
        // windows and the pixels are most of the work.
        let (smallWidth, smallHeight) = (width * 2 / 3, height * 2 / 3)
        var small = [UInt8](repeating: 0, count: smallWidth * smallHeight)
        for y in 0..<smallHeight {
            let sourceRow = (y * 3 / 2) * width
            for x in 0..<smallWidth { small[y * smallWidth + x] = grey[sourceRow + x * 3 / 2] }
        }
        let faces = faceDetector.faces(inGrey: small, width: smallWidth, height: smallHeight, minimumSize: minimumFace * 2 / 3)
            .map { Rect(x: $0.x * 3 / 2, y: $0.y * 3 / 2, width: $0.width * 3 / 2, height: $0.height * 3 / 2) }
        var open = 0
        for face in faces {
            // The band of the eyes, twice as large (bilinear).
            let band = Rect(x: face.x, y: face.y + face.height / 5, width: face.width, height: face.height * 3 / 10)
            let (w, h) = (band.width * 2, band.height * 2)
            var crop = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                let sy = min(Double(height - 1), max(0, Double(band.y) + (Double(y) + 0.5) / 2 - 0.5))
                let y0 = Int(sy), y1 = min(y0 + 1, height - 1), fy = sy - Double(y0)
                for x in 0..<w {
                    let sx = min(Double(width - 1), max(0, Double(band.x) + (Double(x) + 0.5) / 2 - 0.5))
                    let x0 = Int(sx), x1 = min(x0 + 1, width - 1), fx = sx - Double(x0)
                    let top = Double(grey[y0 * width + x0]) * (1 - fx) + Double(grey[y0 * width + x1]) * fx
                    let bottom = Double(grey[y1 * width + x0]) * (1 - fx) + Double(grey[y1 * width + x1]) * fx
                    crop[y * w + x] = UInt8((top * (1 - fy) + bottom * fy).rounded())
                }
            }
            if !eyeDetector.faces(inGrey: crop, width: w, height: h).isEmpty { open += 1 }
        }
        return (faces.count, open)
    }

    /// The narrowest face whose eyes are judged, in analysis pixels: its eyes some 12 pixels wide.
    package static let minimumFace = 48

    /// A clip's summary, from its first picture.
    package static func clip(_ path: String) throws(ClipError) -> PhotoSummary {
        let source = ClipSource(path: path)
        let info = try ClipProbe.probe(source)
        let display = info.displaySize
        let width = 256, height = max(2, Int((Double(display.height) * 256 / Double(max(display.width, 1))).rounded()) & ~1)
        let reader = try ClipReader(source: source, size: Size(width: width, height: height), framesPerSecond: 1,
                                    duration: MediaTime(value: 1, timescale: 1))
        guard let frame = try reader.nextFrame() else {
            throw ClipError(path: path, kind: .decodeFailed, reason: "no picture could be decoded")
        }
        var summary = measure(frame.pixels, width: frame.width, height: frame.height, channels: 3, path: path)
        summary.captureDate = info.creationTime
        summary.size = display
        summary.content = .clip
        return summary
    }

    /// Screenshot, document or photo, from the format, size, date and colours.
    package static func content(of summary: PhotoSummary, format: ImageFormat, colourfulness: Double) -> PhotoSummary.Content {
        let atScreenSize = screenSizes.contains(summary.size) || screenSizes.contains(Size(width: summary.size.height, height: summary.size.width))
        if summary.captureDate == nil && (format == .png || atScreenSize) { return .screenshot }
        if format == .png && atScreenSize { return .screenshot }
        if summary.captureDate == nil && summary.highlights + summary.paperWhite > 0.5 && colourfulness < 12 { return .document }
        return .photo
    }

    /// Screens' sizes (phones, tablets, monitors), landscape or portrait.
    package static let screenSizes: Set<Size> = Set([
        (640, 1136), (750, 1334), (828, 1792), (1080, 1920), (1125, 2436), (1170, 2532), (1179, 2556), (1242, 2208),
        (1242, 2688), (1284, 2778), (1290, 2796), (1080, 2340), (1080, 2400), (1440, 2560), (1440, 3120), (1440, 3200),
        (1536, 2048), (1620, 2160), (1668, 2388), (2048, 2732), (1366, 768), (1440, 900), (1680, 1050), (1920, 1200),
        (2560, 1440), (2560, 1600), (2880, 1800), (3024, 1964), (3456, 2234), (3840, 2160), (1280, 800), (1280, 720),
    ].map { Size(width: $0.0, height: $0.1) })

    /// The summary's picture figures from packed RGB (or RGBA) pixels; the rest is the caller's.
    package static func measure(_ pixels: [UInt8], width: Int, height: Int, channels: Int, path: String) -> PhotoSummary {
        let count = width * height
        let luma = luma(pixels, count: count, channels: channels)
        var histogram = [Int](repeating: 0, count: 256)
        for y in luma { histogram[Int(y)] += 1 }
        var sum = 0.0, squares = 0.0
        for (value, n) in histogram.enumerated() {
            sum += Double(value * n)
            squares += Double(value * value * n)
        }
        let mean = sum / Double(max(count, 1))
        let lumaVariance = max(0, squares / Double(max(count, 1)) - mean * mean)
        let laplacian = laplacianVariance(luma, width: width, height: height)
        let highlights = Double(histogram[250...].reduce(0, +)) / Double(max(count, 1))
        let shadows = Double(histogram[...8].reduce(0, +)) / Double(max(count, 1))
        var summary = PhotoSummary(path: path, content: .photo, captureDate: nil, size: Size(width: width, height: height),
                                   hash: differenceHash(luma, width: width, height: height), sharpness: laplacian,
                                   detail: laplacian.squareRoot() / (lumaVariance.squareRoot() + 1),
                                   meanLuma: mean, highlights: highlights, shadows: shadows)
        summary.paperWhite = Double(histogram[215..<250].reduce(0, +)) / Double(max(count, 1))
        return summary
    }

    /// BT.601 luma, in integers, of `count` packed RGB (or RGBA) pixels.
    package static func luma(_ pixels: [UInt8], count: Int, channels: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { grey, initialized in
            pixels.withUnsafeBufferPointer { source in
                for index in 0..<count {
                    let p = index * channels
                    let red = 77 * Int(source[p]), green = 150 * Int(source[p + 1]), blue = 29 * Int(source[p + 2])
                    grey[index] = UInt8((red + green + blue + 128) >> 8)
                }
            }
            initialized = count
        }
    }

    /// The variance of the 4-neighbour Laplacian over the picture's inside.
    package static func laplacianVariance(_ luma: [UInt8], width: Int, height: Int) -> Double {
        guard width >= 3, height >= 3 else { return 0 }
        var sum = 0, squares = 0
        luma.withUnsafeBufferPointer { y in
            for row in 1..<(height - 1) {
                let r = row * width
                for column in 1..<(width - 1) {
                    let i = r + column
                    let value = Int(y[i - 1]) + Int(y[i + 1]) + Int(y[i - width]) + Int(y[i + width]) - 4 * Int(y[i])
                    sum &+= value
                    squares &+= value * value
                }
            }
        }
        let n = Double((width - 2) * (height - 2))
        let mean = Double(sum) / n
        return max(0, Double(squares) / n - mean * mean)
    }

    /// The 64-bit difference hash (dHash): the luma averaged into 9x8 cells, one bit per pair of
    /// neighbours in a row, set when the left cell is brighter. Small crops, recompression, blur
    /// and exposure move few bits; another picture differs in about half.
    package static func differenceHash(_ luma: [UInt8], width: Int, height: Int) -> UInt64 {
        guard width >= 9, height >= 8 else { return 0 }
        var cells = [Double](repeating: 0, count: 72)
        luma.withUnsafeBufferPointer { y in
            for cy in 0..<8 {
                let y0 = cy * height / 8, y1 = (cy + 1) * height / 8
                for cx in 0..<9 {
                    let x0 = cx * width / 9, x1 = (cx + 1) * width / 9
                    var total = 0
                    for row in y0..<y1 {
                        for column in x0..<x1 { total += Int(y[row * width + column]) }
                    }
                    cells[cy * 9 + cx] = Double(total) / Double(max(1, (y1 - y0) * (x1 - x0)))
                }
            }
        }
        var hash: UInt64 = 0
        for cy in 0..<8 {
            for cx in 0..<8 where cells[cy * 9 + cx] > cells[cy * 9 + cx + 1] {
                hash |= 1 << UInt64(cy * 8 + cx)
            }
        }
        return hash
    }

    /// The mean spread between a pixel's largest and smallest channel, on every 7th pixel.
    package static func colourfulness(_ pixels: [UInt8], count: Int, channels: Int) -> Double {
        var total = 0, n = 0
        for index in stride(from: 0, to: count, by: 7) {
            let p = index * channels
            let r = pixels[p], g = pixels[p + 1], b = pixels[p + 2]
            total += Int(max(r, g, b) - min(r, g, b))
            n += 1
        }
        return Double(total) / Double(max(n, 1))
    }
}

/// A file picking could not read: a photo's or a clip's failure in one line.
public struct PickProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// Why.
    public var reason: String
    /// `<file>: <reason>`.
    public var description: String { Message.oneLine("\(path): \(reason)") }
}
