import SlideshowFormats
import SlideshowMetadata
import SlideshowPixels

/// What a JPEG file's markers say before its image data: frame type, size, components, EXIF.
///
/// Parsed here rather than asked of TurboJPEG because TurboJPEG does not say which SOF
/// marker (process) a file uses, fails on 12-bit files with a generic message, and does not
/// read EXIF or the Adobe marker. TurboJPEG's own `tjDecompressHeader3` still runs before any
/// decode, as a second opinion.
package struct JPEGHeader: Sendable, Equatable {
    /// One colour component of the frame.
    package struct Component: Sendable, Equatable {
        package var id: UInt8
        package var horizontalSampling: Int
        package var verticalSampling: Int
    }

    /// The SOF marker's second byte (C0 baseline, C1 extended, C2 progressive, C9/CA arithmetic, …).
    package var frameMarker: UInt8
    /// Bits per sample (8 in every file TurboJPEG 2.1 can decode).
    package var precision: Int
    /// The stored size, before orientation.
    package var size: Size
    /// The frame's components (1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK).
    package var components: [Component]
    /// The Adobe APP14 colour transform (0 none/CMYK, 1 YCbCr, 2 YCCK), nil without the marker.
    package var adobeTransform: Int?
    /// What its EXIF says (orientation, capture date), read during the same walk of its markers.
    package var metadata: PhotoMetadata
    /// The EXIF orientation, nil when there is none (or it is garbled).
    package var orientation: Orientation? { metadata.orientation }
    /// How many components the first scan carries (fewer than the frame's means multi-scan).
    package var firstScanComponentCount: Int
    /// The bytes from SOI through the end of the SOS segment: all `tjDecompressHeader3` needs.
    package var headerLength: Int

    /// Whether the frame is progressive (SOF2, or SOF10 arithmetic).
    package var isProgressive: Bool { frameMarker == 0xC2 || frameMarker == 0xCA }

    /// Whether libjpeg must hold every DCT coefficient of the image before it outputs a row:
    /// progressive files, and sequential files whose first scan lacks some components.
    package var needsWholeImageCoefficients: Bool {
        isProgressive || firstScanComponentCount < components.count
    }

    /// The bytes of libjpeg's whole-image coefficient buffer when it needs one
    /// (64 coefficients of 2 bytes for each 8x8 block of each component), else 0.
    package var coefficientBytes: Int {
        guard needsWholeImageCoefficients else { return 0 }
        let maxH = components.map(\.horizontalSampling).max() ?? 1
        let maxV = components.map(\.verticalSampling).max() ?? 1
        var total = 0
        for component in components {
            let width = (size.width * component.horizontalSampling + maxH - 1) / maxH
            let height = (size.height * component.verticalSampling + maxV - 1) / maxV
            total += ((width + 7) / 8) * ((height + 7) / 8) * 128
        }
        return total
    }

    /// Parses the markers from SOI through SOS.
    /// - Parameters:
    ///   - bytes: the file's bytes, or a prefix of them.
    /// - Throws: `.truncated` when the bytes end before SOS (also for a prefix too short),
    ///   `.corrupt` for a broken marker structure or frame header, `.unsupported` for a
    ///   lossless or hierarchical JPEG, a precision other than 8 bits, or an odd component count.
    package init(parsing bytes: [UInt8]) throws(ImageProblem) {
        var frame: (marker: UInt8, precision: Int, size: Size, components: [Component])?
        var adobe: Int?
        var scanComponents: Int?
        var headerEnd = 0
        var problem: ImageProblem?
        var blocks = MetadataBlocks()

        let end = JPEGMarkers.scan(bytes) { marker, payload in
            blocks.take(jpegSegment: marker, payload: payload, in: bytes)
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard frame == nil else {
                    problem = ImageProblem(.corrupt, "corrupt JPEG header (two frame headers)")
                    return false
                }
                guard payload.count >= 6 else {
                    problem = ImageProblem(.corrupt, "corrupt JPEG header (short frame header)")
                    return false
                }
                let p = payload.lowerBound
                let precision = Int(bytes[p])
                let height = Int(bytes[p + 1]) << 8 | Int(bytes[p + 2])
                let width = Int(bytes[p + 3]) << 8 | Int(bytes[p + 4])
                let count = Int(bytes[p + 5])
                guard payload.count == 6 + 3 * count else {
                    problem = ImageProblem(.corrupt, "corrupt JPEG header (frame header length does not match its \(count) components)")
                    return false
                }
                var components: [Component] = []
                for index in 0..<count {
                    let offset = p + 6 + 3 * index
                    let sampling = bytes[offset + 1]
                    components.append(Component(id: bytes[offset],
                                                horizontalSampling: Int(sampling >> 4),
                                                verticalSampling: Int(sampling & 0x0F)))
                }
                frame = (marker, precision, Size(width: width, height: height), components)
            case 0xEE:
                // Adobe APP14: "Adobe", version (2), flags0 (2), flags1 (2), transform (1).
                let adobeTag: [UInt8] = [0x41, 0x64, 0x6F, 0x62, 0x65]
                if adobe == nil, payload.count >= 12,
                   bytes[payload.lowerBound..<payload.lowerBound + 5].elementsEqual(adobeTag) {
                    adobe = Int(bytes[payload.lowerBound + 11])
                }
            case 0xDA:
                if payload.count >= 1 { scanComponents = Int(bytes[payload.lowerBound]) }
                headerEnd = payload.upperBound
            default:
                break
            }
            return true
        }
        if let problem { throw problem }
        switch end {
        case .startOfScan, .stopped:
            break
        case .endOfData:
            throw ImageProblem(.truncated, "truncated JPEG data (the file ends inside its header)")
        case .malformed(let what):
            throw ImageProblem(.corrupt, "corrupt JPEG header (\(what))")
        }
        guard let frame else {
            throw ImageProblem(.corrupt, "corrupt JPEG header (image data before the frame header)")
        }
        guard let scanComponents, scanComponents >= 1 else {
            throw ImageProblem(.corrupt, "corrupt JPEG header (bad start-of-scan segment)")
        }

        switch frame.marker {
        case 0xC0, 0xC1, 0xC2, 0xC9, 0xCA:
            break
        case 0xC3, 0xCB:
            throw ImageProblem(.unsupported, "lossless JPEG is not supported")
        default:
            throw ImageProblem(.unsupported, "hierarchical JPEG is not supported")
        }
        switch frame.precision {
        case 8:
            break
        case 12, 16:
            throw ImageProblem(.unsupported, "\(frame.precision)-bit JPEG is not supported")
        default:
            throw ImageProblem(.corrupt, "corrupt JPEG header (sample precision \(frame.precision))")
        }
        guard frame.size.width > 0, frame.size.height > 0 else {
            throw ImageProblem(.corrupt, "corrupt JPEG header (size \(frame.size))")
        }
        guard [1, 3, 4].contains(frame.components.count) else {
            throw ImageProblem(.unsupported, "a JPEG with \(frame.components.count) colour components is not supported")
        }
        for component in frame.components
        where !(1...4).contains(component.horizontalSampling) || !(1...4).contains(component.verticalSampling) {
            throw ImageProblem(.corrupt, "corrupt JPEG header (bad sampling factors)")
        }

        frameMarker = frame.marker
        precision = frame.precision
        size = frame.size
        components = frame.components
        adobeTransform = adobe
        metadata = PhotoMetadata(blocks)
        firstScanComponentCount = scanComponents
        headerLength = headerEnd
    }

    /// Refuses files whose decode would cost too much, before anything is allocated.
    /// - Throws: `.tooLarge` over ``ImageManager/maximumPixels``, or when the whole-image
    ///   coefficient buffer would pass ``ImageLimits/maximumIntermediateBytes``.
    package func checkLimits() throws(ImageProblem) {
        try ImageManager.checkPixelCount(size, format: "JPEG")
        let coefficients = coefficientBytes
        if coefficients > ImageLimits.maximumIntermediateBytes {
            let kind = isProgressive ? "progressive" : "multi-scan"
            throw ImageProblem(.tooLarge,
                               "a \(kind) JPEG of \(size) needs \(coefficients >> 20) MiB to decode, over the \(ImageLimits.maximumIntermediateBytes >> 20) MiB cap")
        }
    }

    /// Checks that TurboJPEG's reading of the header (`tjDecompressHeader3`) agrees with this
    /// one on the size: they read the same SOF segment.
    /// - Throws: `.corrupt` when they disagree.
    package func checkAgrees(with checked: TurboJPEGDecompressor.Header) throws(ImageProblem) {
        guard checked.size == size else {
            throw ImageProblem(.corrupt, "corrupt JPEG header (TurboJPEG reads \(checked.size), the frame header says \(size))")
        }
    }
}
