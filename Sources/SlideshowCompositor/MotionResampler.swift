internal import CZimg
import SlideshowImages
import SlideshowPixels
import SlideshowFormats

/// Resamples a rectangle of a source, with fractional position and size, into a rectangle of
/// a frame, through zimg.
///
/// zimg takes the view as an "active region" of the source: every output pixel centre maps
/// back to `left + (i + ½)·w/W − ½` (and the same down), so the picture moves by fractions of
/// a pixel from frame to frame, never in whole-pixel steps. The filter is bilinear, widened
/// to the step between output pixels when reducing (up to 2:1, which is all motion needs:
/// the source is at most `1 + zoom` times its place on screen), so aliasing does not crawl
/// over the picture. zimg picks its SIMD kernels (AVX-512, AVX2, SSE2) at run time; for 8-bit
/// pictures they give the same bytes as its C code (tested), so the output does not depend on
/// the machine. It writes a few rows at a time into a small ring, from which each finished row
/// is interleaved into the frame while it is still in the cache.
package enum MotionResampler {
    /// Resamples.
    /// - Parameters:
    ///   - source: the source picture.
    ///   - view: the source rectangle, in source pixels (may be fractional).
    ///   - frame: the frame's pixels, `frameWidth × 3` bytes a row.
    ///   - frameWidth: the frame's width.
    ///   - content: where in the frame to write.
    ///   - plainC: zimg's C kernels instead of its SIMD ones (for the test that they agree).
    /// - Throws: ``ImageProblem`` (kind `unsupported`) with zimg's message, when zimg cannot
    ///   build or run the resample (it runs out of memory).
    package static func resample(_ source: PlanarPicture, view: (x: Double, y: Double, width: Double, height: Double),
                         into frame: UnsafeMutablePointer<UInt8>, frameWidth: Int, content: Rect,
                         plainC: Bool = false) throws(ImageProblem) {
        let resize = try ZimgResize(from: source.size, view: view, to: Size(width: content.width, height: content.height),
                                    plainC: plainC)
        let rows = try resize.outputRows()
        let stride = PlanarPicture.padded(content.width)
        let ring = UnsafeMutableRawPointer.allocate(byteCount: stride * rows * 3, alignment: PlanarPicture.alignment)
        defer { ring.deallocate() }
        var target = Target(ring: ring.assumingMemoryBound(to: UInt8.self), stride: stride, mask: rows - 1, rows: rows,
                            frame: frame + (content.y * frameWidth + content.x) * 3, frameRowBytes: frameWidth * 3)
        try resize.process(source, into: &target)
    }

    /// Where zimg writes, and the frame the finished rows go to: what the pack callback reads.
    package struct Target {
        /// The three planes' rings, one after the other, `rows` rows of `stride` bytes each.
        package var ring: UnsafeMutablePointer<UInt8>
        package var stride: Int
        /// `rows − 1`: row `i` of the output is at ring row `i & mask`.
        package var mask: Int
        package var rows: Int
        /// The content rectangle's top left pixel in the frame.
        package var frame: UnsafeMutablePointer<UInt8>
        package var frameRowBytes: Int

        /// Interleaves columns `left..<right` of output row `row` into the frame.
        package func pack(row: Int, left: Int, right: Int) {
            let offset = (row & mask) * stride
            let r = ring + offset, g = r + rows * stride, b = g + rows * stride
            var out = UnsafeMutableRawPointer(frame + row * frameRowBytes + left * 3)
            var x = left
            // Eight pixels at a time: three 8-byte loads, three 8-byte stores of the 24
            // interleaved bytes (r0 g0 b0 r1 … b7), instead of 24 byte loads and stores.
            while x &+ 8 <= right {
                let rs = UInt64(littleEndian: UnsafeRawPointer(r + x).loadUnaligned(as: UInt64.self))
                let gs = UInt64(littleEndian: UnsafeRawPointer(g + x).loadUnaligned(as: UInt64.self))
                let bs = UInt64(littleEndian: UnsafeRawPointer(b + x).loadUnaligned(as: UInt64.self))
                out.storeBytes(of: Self.interleave(rs, gs, bs, from: 0).littleEndian, toByteOffset: 0, as: UInt64.self)
                out.storeBytes(of: Self.interleave(rs, gs, bs, from: 8).littleEndian, toByteOffset: 8, as: UInt64.self)
                out.storeBytes(of: Self.interleave(rs, gs, bs, from: 16).littleEndian, toByteOffset: 16, as: UInt64.self)
                out += 24
                x &+= 8
            }
            while x < right {
                out.storeBytes(of: r[x], toByteOffset: 0, as: UInt8.self)
                out.storeBytes(of: g[x], toByteOffset: 1, as: UInt8.self)
                out.storeBytes(of: b[x], toByteOffset: 2, as: UInt8.self)
                out += 3
                x &+= 1
            }
        }

        /// Bytes `first ..< first + 8` of the interleaved run of eight pixels whose channels
        /// are `r`, `g` and `b` (pixel `i` in byte `i` of each), as one word, byte 0 lowest.
        @inline(__always)
        package static func interleave(_ r: UInt64, _ g: UInt64, _ b: UInt64, from first: Int) -> UInt64 {
            var word: UInt64 = 0
            for k in 0..<8 {
                let byte = first &+ k
                let channel = byte % 3 == 0 ? r : byte % 3 == 1 ? g : b
                word |= ((channel >> UInt64((byte / 3) &* 8)) & 0xFF) << UInt64(k &* 8)
            }
            return word
        }
    }
}

/// One zimg filter graph (`zimg_filter_graph_build` … `zimg_filter_graph_free`): 8-bit RGB
/// from a fractional rectangle of a source to a whole output.
package final class ZimgResize {
    private let graph: OpaquePointer

    /// Builds the graph: with zimg's fastest kernels for this CPU, or its C ones when `plainC`.
    /// - Throws: ``ImageProblem`` with zimg's message.
    /// - Parameter deep: 16-bit samples (an HDR picture's code values) instead of bytes.
    package init(from source: Size, view: (x: Double, y: Double, width: Double, height: Double), to output: Size,
         plainC: Bool = false, deep: Bool = false) throws(ImageProblem) {
        var input = zimg_image_format(), result = zimg_image_format()
        zimg_image_format_default(&input, slideshow_zimg_api_version())
        zimg_image_format_default(&result, slideshow_zimg_api_version())
        Self.describe(&input, source, deep: deep)
        Self.describe(&result, output, deep: deep)
        input.active_region.left = view.x
        input.active_region.top = view.y
        input.active_region.width = view.width
        input.active_region.height = view.height
        var parameters = zimg_graph_builder_params()
        zimg_graph_builder_params_default(&parameters, slideshow_zimg_api_version())
        parameters.resample_filter = ZIMG_RESIZE_BILINEAR
        parameters.cpu_type = plainC ? ZIMG_CPU_NONE : ZIMG_CPU_AUTO_64B
        guard let graph = zimg_filter_graph_build(&input, &result, &parameters) else {
            throw Self.lastError("zimg_filter_graph_build")
        }
        self.graph = graph
    }

    deinit { zimg_filter_graph_free(graph) }

    /// The rows the output ring must hold: zimg's minimum, rounded up to a power of two.
    package func outputRows() throws(ImageProblem) -> Int {
        var rows: UInt32 = 0
        try Self.check(zimg_filter_graph_get_output_buffering(graph, &rows), "zimg_filter_graph_get_output_buffering")
        return Int(zimg_select_buffer_mask(rows)) + 1
    }

    /// Runs the graph over `source`; each finished output row is handed to `target.pack`.
    package func process(_ source: PlanarPicture, into target: inout MotionResampler.Target) throws(ImageProblem) {
        try process(planes: { UnsafeRawPointer(source.plane($0)) }, stride: source.stride,
                    ring: UnsafeMutableRawPointer(target.ring), ringStride: target.stride, ringRows: target.rows,
                    target: &target) { user, row, left, right in
            user!.assumingMemoryBound(to: MotionResampler.Target.self).pointee.pack(row: Int(row), left: Int(left), right: Int(right))
            return 0
        }
    }

    /// Runs the graph over a 16-bit source; each finished output row is handed to `target.pack`.
    package func process(_ source: DeepPlanarPicture, into target: inout MotionResampler.DeepTarget) throws(ImageProblem) {
        try process(planes: { UnsafeRawPointer(source.plane($0)) }, stride: source.stride,
                    ring: UnsafeMutableRawPointer(target.ring), ringStride: target.stride, ringRows: target.rows,
                    target: &target) { user, row, left, right in
            user!.assumingMemoryBound(to: MotionResampler.DeepTarget.self).pointee.pack(row: Int(row), left: Int(left), right: Int(right))
            return 0
        }
    }

    /// Runs the graph: the source's three planes (`stride` bytes a row) through a ring of three
    /// planes of `ringRows` rows of `ringStride` bytes, `pack` called with `target` on each finished row.
    private func process<T>(planes: (Int) -> UnsafeRawPointer, stride inputStride: Int, ring: UnsafeMutableRawPointer,
                            ringStride outputStride: Int, ringRows: Int, target: inout T,
                            pack: zimg_filter_graph_callback) throws(ImageProblem) {
        var temporaryBytes = 0
        try Self.check(zimg_filter_graph_get_tmp_size(graph, &temporaryBytes), "zimg_filter_graph_get_tmp_size")
        let temporary = UnsafeMutableRawPointer.allocate(byteCount: max(temporaryBytes, 1), alignment: PlanarPicture.alignment)
        defer { temporary.deallocate() }
        var input = zimg_image_buffer_const()
        var output = zimg_image_buffer()
        input.version = slideshow_zimg_api_version()
        output.version = slideshow_zimg_api_version()
        let mask = UInt32(ringRows - 1)
        let planeBytes = ringRows * outputStride
        for p in 0..<3 {
            slideshow_zimg_set_input_plane(&input, Int32(p), planes(p), inputStride, UInt32.max)
            slideshow_zimg_set_output_plane(&output, Int32(p), ring + p * planeBytes, outputStride, mask)
        }
        let status = withUnsafeMutablePointer(to: &target) { target in
            zimg_filter_graph_process(graph, &input, &output, temporary, nil, nil, pack, target)
        }
        try Self.check(status, "zimg_filter_graph_process")
    }

    private static func describe(_ format: inout zimg_image_format, _ size: Size, deep: Bool) {
        format.width = UInt32(size.width)
        format.height = UInt32(size.height)
        format.pixel_type = deep ? ZIMG_PIXEL_WORD : ZIMG_PIXEL_BYTE
        format.depth = deep ? 16 : 8
        format.color_family = ZIMG_COLOR_RGB
        format.pixel_range = ZIMG_RANGE_FULL
    }

    private static func check(_ status: zimg_error_code_e, _ call: String) throws(ImageProblem) {
        guard status == ZIMG_ERROR_SUCCESS else { throw lastError(call) }
    }

    /// zimg's message for the last failure on this thread (cleared after reading).
    private static func lastError(_ call: String) -> ImageProblem {
        var message = [CChar](repeating: 0, count: 256)
        let code = zimg_get_last_error(&message, message.count)
        zimg_clear_last_error()
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return ImageProblem(.unsupported, "zimg could not resample the photo (\(call): \(text.isEmpty ? "error \(code.rawValue)" : text))")
    }
}
