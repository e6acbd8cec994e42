package import CFFmpeg
internal import CZimg
import SlideshowColor
import SlideshowFFmpeg
import SlideshowPixels

/// HDR and wide-gamut clips to SDR BT.709 RGB, in linear light, through zimg.
///
/// The chain is the one ffmpeg users run with
/// `zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=hable:desat=0,zscale=t=bt709`:
/// zimg decodes the YUV (any tagged matrix and range, 8 to 16 bits, 4:2:0/4:2:2/4:4:4),
/// resizes, linearises the transfer (PQ and HLG relative to a 100 cd/m² nominal white, HLG
/// with its system gamma for a 1000 cd/m² display) and converts the primaries to BT.709, all
/// in one graph writing 32-bit float RGB. Then, for HDR only, Hable's filmic curve maps each
/// pixel's brightest component from [0, peak] to [0, 1] and scales the three components by the
/// same factor (hue kept, `desat=0`); then BT.709 (BT.1886) encoding to 8 bits.
///
/// In an HDR show (``init(frame:color:size:hdr:)`` with a signal) the clip keeps its own light:
/// the graph writes linear BT.2020 with 1.0 at SDR reference white (zimg's nominal peak
/// 203 cd/m²: PQ's absolute light ÷ 203; HLG through BT.2100's OOTF of a 1,000 cd/m² display,
/// γ 1.2, then ÷ 203), nothing is tone-mapped, and ``convertHDR(_:into:at:orientation:)``
/// encodes it in the show's PQ or HLG (``HDRSignal/encode(_:_:_:)``, HLG through the inverse
/// OOTF): an HLG clip in a PQ show, a PQ clip in an HLG show, each at its own light up to the
/// 1,000 cd/m² peak.
package final class LinearLightConverter {
    private let graph: OpaquePointer
    private let size: Size
    private let stride: Int
    /// The graph's float RGB planes: the whole picture for an SDR show (tone-mapped after the
    /// graph has run), a ring of ``ringRows`` rows for an HDR show (each row encoded as zimg
    /// finishes it, ``convertHDR(_:into:at:orientation:)``).
    private let planes: UnsafeMutableRawPointer
    /// The rows of each plane in ``planes``.
    private let ringRows: Int
    /// `ringRows − 1` for a ring (output row `i` is at ring row `i & mask`), `UInt32.max` for the whole picture.
    private let ringMask: UInt32
    private let temporary: UnsafeMutableRawPointer
    private let toneMap: Bool
    /// The show's HDR light, nil for an SDR show.
    private let hdr: HDRSignal?
    private let inputDepth: Int
    private let chromaShift: (w: Int, h: Int)
    /// Aligned copies of the input planes, for frames whose planes are not 32-byte aligned.
    private var copies: [UnsafeMutableRawPointer?] = [nil, nil, nil]
    private var copyStrides = [0, 0, 0]
    private static let alignment = 64

    /// Whether zimg can read the frame: planar YUV, 8 to 16 bits, no alpha, no bitstream packing.
    package static func accepts(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format)) else { return false }
        let flags = descriptor.pointee.flags
        return descriptor.pointee.nb_components == 3 && flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0
            && flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 && flags & UInt64(AV_PIX_FMT_FLAG_BE) == 0
            && descriptor.pointee.comp.0.depth <= 16 && descriptor.pointee.comp.0.step <= 2
    }

    /// Builds the graph for frames like `frame`.
    /// - Throws: ``FFmpegError`` (`EINVAL`) with zimg's message when zimg refuses the conversion.
    package init(frame: UnsafeMutablePointer<AVFrame>, color: ClipColor, size: Size, hdr: HDRSignal? = nil) throws(FFmpegError) {
        let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format))!
        inputDepth = Int(descriptor.pointee.comp.0.depth)
        chromaShift = (Int(descriptor.pointee.log2_chroma_w), Int(descriptor.pointee.log2_chroma_h))
        self.size = size
        toneMap = hdr == nil && color.isHDR
        self.hdr = hdr
        var input = zimg_image_format(), output = zimg_image_format()
        zimg_image_format_default(&input, slideshow_zimg_api_version())
        zimg_image_format_default(&output, slideshow_zimg_api_version())
        input.width = UInt32(frame.pointee.width)
        input.height = UInt32(frame.pointee.height)
        input.pixel_type = inputDepth > 8 ? ZIMG_PIXEL_WORD : ZIMG_PIXEL_BYTE
        input.depth = UInt32(inputDepth)
        input.subsample_w = UInt32(chromaShift.w)
        input.subsample_h = UInt32(chromaShift.h)
        input.color_family = ZIMG_COLOR_YUV
        input.matrix_coefficients = zimg_matrix_coefficients_e(rawValue: Int32([1, 4, 5, 6, 7, 9, 10].contains(color.matrix) ? color.matrix : 6))
        input.transfer_characteristics = zimg_transfer_characteristics_e(rawValue: Int32(color.transfer == 2 ? 1 : color.transfer))
        input.color_primaries = zimg_color_primaries_e(rawValue: Int32(color.primaries))
        input.pixel_range = color.fullRange ? ZIMG_RANGE_FULL : ZIMG_RANGE_LIMITED
        let location = Int32(frame.pointee.chroma_location.rawValue)
        input.chroma_location = zimg_chroma_location_e(rawValue: location >= 1 && location <= 6 ? location - 1 : 0)
        output.width = UInt32(size.width)
        output.height = UInt32(size.height)
        output.pixel_type = ZIMG_PIXEL_FLOAT
        output.color_family = ZIMG_COLOR_RGB
        output.matrix_coefficients = ZIMG_MATRIX_RGB
        output.transfer_characteristics = ZIMG_TRANSFER_LINEAR
        output.color_primaries = hdr == nil ? ZIMG_PRIMARIES_BT709 : ZIMG_PRIMARIES_BT2020
        output.pixel_range = ZIMG_RANGE_FULL
        var parameters = zimg_graph_builder_params()
        zimg_graph_builder_params_default(&parameters, slideshow_zimg_api_version())
        parameters.resample_filter = ZIMG_RESIZE_BICUBIC
        parameters.nominal_peak_luminance = hdr == nil ? 100 : HDRSignal.referenceWhite
        parameters.cpu_type = ZIMG_CPU_AUTO
        // zimg's table-based transfer functions, as `zscale` uses them by default (`agamma=1`):
        // faster, and what the reference chain computes (exact HLG moves blue by 2.5%).
        // An HDR show's clips keep their own light: the exact curves.
        parameters.allow_approximate_gamma = hdr == nil ? 1 : 0
        guard let graph = zimg_filter_graph_build(&input, &output, &parameters) else {
            throw Self.lastError("zimg_filter_graph_build")
        }
        self.graph = graph
        stride = (size.width * 4 + Self.alignment - 1) / Self.alignment * Self.alignment
        // An HDR show's frames go through a ring of the few rows zimg needs at once (a 1080p
        // frame's float planes would be 24 MB); an SDR show's are tone-mapped from whole planes.
        var buffering: UInt32 = 0
        if hdr != nil, zimg_filter_graph_get_output_buffering(graph, &buffering) == ZIMG_ERROR_SUCCESS,
           case let mask = zimg_select_buffer_mask(buffering), mask != UInt32.max, Int(mask) + 1 < size.height {
            ringRows = Int(mask) + 1
            ringMask = mask
        } else {
            ringRows = size.height
            ringMask = UInt32.max
        }
        planes = UnsafeMutableRawPointer.allocate(byteCount: stride * ringRows * 3, alignment: Self.alignment)
        var temporaryBytes = 0
        _ = zimg_filter_graph_get_tmp_size(graph, &temporaryBytes)
        temporary = UnsafeMutableRawPointer.allocate(byteCount: max(temporaryBytes, 1), alignment: Self.alignment)
    }

    deinit {
        zimg_filter_graph_free(graph)
        planes.deallocate()
        temporary.deallocate()
        for copy in copies { copy?.deallocate() }
    }

    /// Converts one frame.
    package func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> PixelBuffer {
        try run(frame)
        let peak = toneMap ? Float(ToneCurve.signalPeak(of: frame)) : 1
        return pack(peak: peak)
    }

    /// Converts one frame to the HDR show's light (the converter made with a signal), turned
    /// upright by `orientation`, into the part `place` of `buffer` (of the converter's size turned).
    package func convertHDR(_ frame: UnsafeMutablePointer<AVFrame>, into buffer: inout HDRPixelBuffer, at place: Rect,
                            orientation: ClipOrientation) throws(FFmpegError) {
        guard let hdr else { preconditionFailure("an SDR converter") }
        precondition(orientation.upright(size) == Size(width: place.width, height: place.height) && place.x >= 0 && place.y >= 0
                     && place.maxX <= buffer.width && place.maxY <= buffer.height, "the place is not of the converter's size")
        let (w, h) = (size.width, size.height)
        // Where coded pixel (x, y) lands upright: (originX + a·x + c·y, originY + b·x + d·y).
        let o = orientation
        let originX = (o.a < 0 ? w - 1 : 0) + (o.c < 0 ? h - 1 : 0)
        let originY = (o.b < 0 ? w - 1 : 0) + (o.d < 0 ? h - 1 : 0)
        let width = buffer.width
        let (planes, stride, ringRows, ringMask) = (self.planes, self.stride, self.ringRows, self.ringMask)
        try buffer.withUnsafeMutableBufferPointer { out throws(FFmpegError) in
            var target = HDRRows(ring: planes.assumingMemoryBound(to: Float.self), floats: stride / 4, planeFloats: stride / 4 * ringRows,
                                 mask: Int(ringMask), out: out.baseAddress!,
                                 base: ((place.y + originY) * width + place.x + originX) * 3,
                                 stepX: (o.a + o.b * width) * 3, stepY: (o.c + o.d * width) * 3, signal: hdr)
            try withUnsafeMutablePointer(to: &target) { target throws(FFmpegError) in
                try run(frame, pack: { user, row, left, right in
                    user!.assumingMemoryBound(to: HDRRows.self).pointee.encode(row: Int(row), left: Int(left), right: Int(right))
                    return 0
                }, target: UnsafeMutableRawPointer(target))
            }
        }
    }

    /// What the pack callback of an HDR conversion reads: the ring zimg writes its float rows
    /// into, and where each finished row's pixels go in the frame, encoded in the show's light.
    private struct HDRRows {
        var ring: UnsafeMutablePointer<Float>
        /// Floats from one ring row to the next, and from one plane to the next.
        var floats: Int
        var planeFloats: Int
        var mask: Int
        var out: UnsafeMutablePointer<UInt16>
        /// The sample of coded pixel (0, 0), and the steps to the next coded pixel and row.
        var base: Int
        var stepX: Int
        var stepY: Int
        var signal: HDRSignal

        /// Encodes columns `left..<right` of coded row `row` into the frame.
        func encode(row: Int, left: Int, right: Int) {
            let red = ring + (row & mask) * floats
            var target = base + row * stepY + left * stepX
            for x in left..<right {
                let (r, g, b) = signal.encode(red[x], red[x + planeFloats], red[x + 2 * planeFloats])
                out[target] = r
                out[target + 1] = g
                out[target + 2] = b
                target += stepX
            }
        }
    }

    /// Runs the graph on one frame into ``planes``.
    /// - Parameters:
    ///   - pack: called with `target` as each output row is finished (an HDR show's ring); nil
    ///     to have the whole picture in the planes when the call returns.
    private func run(_ frame: UnsafeMutablePointer<AVFrame>, pack: zimg_filter_graph_callback? = nil,
                     target: UnsafeMutableRawPointer? = nil) throws(FFmpegError) {
        var input = zimg_image_buffer_const(), output = zimg_image_buffer()
        input.version = slideshow_zimg_api_version()
        output.version = slideshow_zimg_api_version()
        let bytes = inputDepth > 8 ? 2 : 1
        let data = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
        let lines = [Int(frame.pointee.linesize.0), Int(frame.pointee.linesize.1), Int(frame.pointee.linesize.2)]
        for p in 0..<3 {
            guard let source = data[p] else { throw FFmpegError(call: "zimg input plane \(p)", code: -EINVAL) }
            let width = Int(frame.pointee.width) >> (p == 0 ? 0 : chromaShift.w)
            let height = (Int(frame.pointee.height) + (p == 0 ? 0 : (1 << chromaShift.h) - 1)) >> (p == 0 ? 0 : chromaShift.h)
            var plane = UnsafeRawPointer(source), planeStride = lines[p]
            if Int(bitPattern: source) % 32 != 0 || lines[p] % 32 != 0 || lines[p] < 0 {
                let rowBytes = (width + (p == 0 ? 0 : 1)) * bytes
                let copyStride = (rowBytes + Self.alignment - 1) / Self.alignment * Self.alignment
                if copies[p] == nil || copyStrides[p] != copyStride {
                    copies[p]?.deallocate()
                    copies[p] = UnsafeMutableRawPointer.allocate(byteCount: copyStride * height, alignment: Self.alignment)
                    copyStrides[p] = copyStride
                }
                for row in 0..<height {
                    (copies[p]! + row * copyStride).copyMemory(from: source + row * lines[p], byteCount: min(rowBytes, abs(lines[p])))
                }
                plane = UnsafeRawPointer(copies[p]!)
                planeStride = copyStride
            }
            slideshow_zimg_set_input_plane(&input, Int32(p), plane, planeStride, UInt32.max)
            slideshow_zimg_set_output_plane(&output, Int32(p), planes + p * stride * ringRows, stride, ringMask)
        }
        let status = zimg_filter_graph_process(graph, &input, &output, temporary, nil, nil, pack, target)
        guard status == ZIMG_ERROR_SUCCESS else { throw Self.lastError("zimg_filter_graph_process") }
    }

    /// Tone-maps (HDR), clips and encodes the float planes into an interleaved 8-bit buffer.
    private func pack(peak: Float) -> PixelBuffer {
        var buffer = PixelBuffer(size: size)
        let floats = stride / 4, planeFloats = floats * size.height
        let red = planes.assumingMemoryBound(to: Float.self)
        let curve = ToneCurve(peak: peak)
        let encode = ToneCurve.bt709Encoding
        let last = Float(encode.count - 1)
        let toneMap = self.toneMap
        buffer.withUnsafeMutableBufferPointer { out in
            var o = 0
            for y in 0..<size.height {
                let row = red + y * floats
                for x in 0..<size.width {
                    var r = row[x], g = row[x + planeFloats], b = row[x + 2 * planeFloats]
                    if toneMap {
                        let signal = max(r, g, b, 1e-6)
                        let scale = curve.map(signal) / signal
                        r *= scale; g *= scale; b *= scale
                    }
                    out[o] = encode[Int(min(max(r, 0), 1) * last + 0.5)]
                    out[o + 1] = encode[Int(min(max(g, 0), 1) * last + 0.5)]
                    out[o + 2] = encode[Int(min(max(b, 0), 1) * last + 0.5)]
                    o += 3
                }
            }
        }
        return buffer
    }

    private static func lastError(_ call: String) -> FFmpegError {
        var message = [CChar](repeating: 0, count: 256)
        _ = zimg_get_last_error(&message, message.count)
        zimg_clear_last_error()
        return FFmpegError(call: "\(call): \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))",
                           code: -EINVAL)
    }
}

/// Hable's filmic curve ("Uncharted 2"), normalised so the signal peak maps to 1, as
/// FFmpeg's `tonemap=hable` applies it.
package struct ToneCurve {
    package let peakScale: Float

    package init(peak: Float) { peakScale = 1 / Self.hable(max(peak, 1)) }

    package static func hable(_ x: Float) -> Float {
        let a: Float = 0.15, b: Float = 0.50, c: Float = 0.10, d: Float = 0.20, e: Float = 0.02, f: Float = 0.30
        return (x * (x * a + b * c) + d * e) / (x * (x * a + b) + d * f) - e / f
    }

    package func map(_ signal: Float) -> Float { Self.hable(signal) * peakScale }

    /// The brightest signal the frame can hold, in multiples of 100 cd/m² (FFmpeg's rule):
    /// the content light level's MaxCLL, else the mastering display's peak, else 10 (1000 cd/m²,
    /// the usual mastering peak and HLG's reference display). FFmpeg's `tonemap` reads the
    /// untagged default from the frame it is given, which `zscale=t=linear` has retagged as
    /// linear, so it too takes 10 for PQ and HLG alike (its debug log: "Computed signal peak: 10").
    package static func signalPeak(of frame: UnsafeMutablePointer<AVFrame>) -> Double {
        if let data = av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL) {
            let level = data.pointee.data.withMemoryRebound(to: AVContentLightMetadata.self, capacity: 1) { $0.pointee }
            if level.MaxCLL > 0 { return Double(level.MaxCLL) / 100 }
        }
        if let data = av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA) {
            let mastering = data.pointee.data.withMemoryRebound(to: AVMasteringDisplayMetadata.self, capacity: 1) { $0.pointee }
            if mastering.has_luminance != 0, mastering.max_luminance.den != 0 {
                let peak = av_q2d(mastering.max_luminance) / 100
                if peak > 0 { return peak }
            }
        }
        return 10
    }

    /// Linear light in [0, 1] (16 384 steps) to 8-bit BT.709 code values, display-referred:
    /// the inverse of BT.1886's EOTF (a 2.4 power), which is how zimg (and so `zscale=t=bt709`)
    /// encodes BT.709 and the inverse of how it linearised an SDR input.
    package static let bt709Encoding: [UInt8] = (0..<16384).map { index in
        let v = pow(Double(index) / 16383, 1 / 2.4)
        return UInt8(min(max(v * 255 + 0.5, 0), 255))
    }
}
