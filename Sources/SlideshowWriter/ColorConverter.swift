package import CFFmpeg
import Synchronization
import SlideshowFFmpeg
import SlideshowPixels

/// A picture ready for the encoder: one owned `AVFrame` in limited-range BT.709 4:2:0, or in an
/// HDR show limited-range BT.2020 4:2:0 in 10 bits (PQ or HLG).
package final class EncoderPicture {
    private let owner: OwnedFrame
    package var frame: UnsafeMutablePointer<AVFrame> { owner.pointer }

    /// Allocates a picture of a size (planes uninitialised).
    /// - Throws: ``FFmpegError`` when the frame or its planes cannot be allocated (or the size is not positive).
    package init(size: Size) throws(FFmpegError) {
        owner = try OwnedFrame()
        Self.describe(owner.pointer, size: size)
        try check(av_frame_get_buffer(owner.pointer, 0), "av_frame_get_buffer")
    }

    /// A picture whose planes are one buffer taken from `pool` (planes hold whatever the
    /// buffer's last picture left): the buffer goes back to the pool when the frame is freed
    /// and the encoder has let go of it too, never while either still holds it.
    /// - Throws: ``FFmpegError`` when the frame or the buffer cannot be allocated.
    package init(size: Size, pool: PicturePool) throws(FFmpegError) {
        owner = try OwnedFrame()
        let frame = owner.pointer
        Self.describe(frame, size: size, hdr: pool.hdr)
        guard let buffer = pool.buffer() else { throw FFmpegError(call: "av_buffer_pool_get", code: -ENOMEM) }
        frame.pointee.buf.0 = buffer
        let base = buffer.pointee.data!
        let layout = pool.layout
        frame.pointee.data.0 = base
        frame.pointee.data.1 = base + layout.chromaOffset
        frame.pointee.data.2 = base + layout.chromaOffset + layout.chromaPlane
        frame.pointee.linesize.0 = Int32(layout.lumaStride)
        frame.pointee.linesize.1 = Int32(layout.chromaStride)
        frame.pointee.linesize.2 = Int32(layout.chromaStride)
    }

    /// Where the luma plane starts: which buffer the picture holds.
    package var storage: UnsafeRawPointer { UnsafeRawPointer(frame.pointee.data.0!) }

    /// The planes' pixels, Y then U then V, rows without their padding (to compare pictures).
    package var planes: [[UInt8]] {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let planes = [(frame.pointee.data.0, frame.pointee.linesize.0, width, height),
                      (frame.pointee.data.1, frame.pointee.linesize.1, (width + 1) / 2, (height + 1) / 2),
                      (frame.pointee.data.2, frame.pointee.linesize.2, (width + 1) / 2, (height + 1) / 2)]
        return planes.map { data, stride, w, h in
            (0..<h).flatMap { y in Array(UnsafeBufferPointer(start: data! + y * Int(stride), count: w)) }
        }
    }

    private static func describe(_ frame: UnsafeMutablePointer<AVFrame>, size: Size, hdr: HDRTransfer? = nil) {
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(size.width)
        frame.pointee.height = Int32(size.height)
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        frame.pointee.colorspace = AVCOL_SPC_BT709
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_BT709
        if let hdr {
            frame.pointee.format = AV_PIX_FMT_YUV420P10LE.rawValue
            frame.pointee.colorspace = AVCOL_SPC_BT2020_NCL
            frame.pointee.color_primaries = AVCOL_PRI_BT2020
            frame.pointee.color_trc = hdr == .pq ? AVCOL_TRC_SMPTE2084 : AVCOL_TRC_ARIB_STD_B67
        }
    }
}

/// Buffers for the encoder's pictures of one size, reused from picture to picture
/// (`av_buffer_pool_init` … `av_buffer_pool_uninit`).
///
/// A fresh 3 MB buffer for every 1080p picture costs page faults (the allocator hands such
/// blocks back to the system when they are freed); from the pool, a buffer comes back
/// already mapped. A buffer is reference-counted: it returns to the pool only when its last
/// holder (the ``EncoderPicture``, libavcodec's copy of the frame) lets go, so two pictures in
/// flight never share one. The pool holds as many buffers as were ever in flight at once
/// (the writer keeps two or three); they are freed with the pool, or when the last one
/// returns after it.
///
/// FFmpeg's pool is thread-safe: pictures are taken on the appending thread and freed on
/// the writer's queue.
package final class PicturePool: @unchecked Sendable {
    // @unchecked: the pool pointer never changes after init, and av_buffer_pool_get and the
    // buffers' release are locked inside FFmpeg.

    /// Where the planes lie in a buffer: rows padded to 64 bytes, the chroma planes after luma.
    package struct Layout: Sendable, Equatable {
        package var lumaStride: Int
        package var chromaStride: Int
        package var chromaOffset: Int
        package var chromaPlane: Int
        package var bytes: Int

        /// - Parameter bytesPerSample: 1, or 2 for 10-bit samples.
        package init(size: Size, bytesPerSample: Int = 1) {
            let align = 64
            lumaStride = (size.width * bytesPerSample + align - 1) / align * align
            chromaStride = ((size.width + 1) / 2 * bytesPerSample + align - 1) / align * align
            chromaOffset = lumaStride * size.height
            chromaPlane = chromaStride * ((size.height + 1) / 2)
            // Padding past the last row, as av_frame_get_buffer leaves for SIMD readers.
            bytes = chromaOffset + 2 * chromaPlane + align
        }
    }

    package let layout: Layout
    /// The HDR transfer of its pictures (10-bit samples), nil for SDR's 8 bits.
    package let hdr: HDRTransfer?
    private let pool: OpaquePointer
    /// How many buffers the pool has allocated (the rest of its buffers were reused).
    private let counter = Counter()

    /// A count the pool's allocator (a C function pointer, so no captures) reaches through its opaque pointer.
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// - Throws: ``FFmpegError`` (`ENOMEM`) when the pool cannot be made.
    package init(size: Size, hdr: HDRTransfer? = nil) throws(FFmpegError) {
        layout = Layout(size: size, bytesPerSample: hdr == nil ? 1 : 2)
        self.hdr = hdr
        // The allocator counts into `counter`: it runs only inside av_buffer_pool_get, which
        // only ``buffer()`` calls, while this object (and so the counter) is alive.
        let opaque = Unmanaged.passUnretained(counter).toOpaque()
        guard let pool = av_buffer_pool_init2(layout.bytes, opaque, { opaque, size in
            Unmanaged<Counter>.fromOpaque(opaque!).takeUnretainedValue().value.add(1, ordering: .relaxed)
            return av_buffer_alloc(size)
        }, nil) else {
            throw FFmpegError(call: "av_buffer_pool_init2", code: -ENOMEM)
        }
        self.pool = pool
    }

    deinit {
        var pointer: OpaquePointer? = pool
        av_buffer_pool_uninit(&pointer)
    }

    /// How many buffers the pool has allocated so far: the most pictures ever in flight at once.
    package var made: Int { counter.value.load(ordering: .relaxed) }

    /// A buffer of ``Layout/bytes``: a returned one when there is one, else a new one; nil when out of memory.
    package func buffer() -> UnsafeMutablePointer<AVBufferRef>? {
        av_buffer_pool_get(pool)
    }
}

/// Converts full-range sRGB pixel buffers into limited-range BT.709 4:2:0 pictures with libswscale.
///
/// libswscale converts with BT.601 unless told otherwise; HD video is BT.709, and the
/// difference is the "video looks more yellow than the photo" users report. Pure red
/// becomes Y 63, U 102, V 240; white 235/128/128; black 16/128/128.
package final class ColorConverter {
    private let owner: OwnedScaleContext
    package let size: Size
    /// The buffers of the pictures it makes, reused once the encoder is done with them.
    package let pool: PicturePool

    /// The HDR transfer of the pictures it makes from ``HDRPixelBuffer``s; nil for SDR.
    package let hdr: HDRTransfer?

    /// - Parameter hdr: for an HDR video: 16-bit RGB (already PQ or HLG, BT.2020) to 10-bit
    ///   limited-range 4:2:0 with the BT.2020 non-constant-luminance matrix; nil for SDR.
    /// - Throws: ``FFmpegError`` when libswscale cannot be set up.
    package init(size: Size, hdr: HDRTransfer? = nil) throws(FFmpegError) {
        self.size = size
        self.hdr = hdr
        pool = try PicturePool(size: size, hdr: hdr)
        // SWS_AREA: each chroma sample averages exactly its 2x2 block, so bars on even edges stay
        // pure. HDR pictures are converted without libswscale (``convert(_:)-(HDRPixelBuffer)``).
        owner = try OwnedScaleContext(from: size, format: AV_PIX_FMT_RGB24, to: size, format: AV_PIX_FMT_YUV420P,
                                      flags: Int32(SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP))
        let matrix = sws_getCoefficients(SWS_CS_ITU709)
        // src range 1 = full (JPEG), dst range 0 = limited (MPEG); brightness 0, contrast and saturation 1.0.
        try check(sws_setColorspaceDetails(owner.pointer, matrix, 1, matrix, 0, 0, 1 << 16, 1 << 16), "sws_setColorspaceDetails")
    }

    /// Converts an HDR buffer into a new 10-bit picture, whose planes come from ``pool``.
    ///
    /// Written out here rather than through libswscale, which has no fast path from 16-bit RGB
    /// to 10-bit 4:2:0 (35–45 ms a 1080p frame, against 6 ms for 8 bits: a third of an HDR
    /// dissolve show's time). The same conversion libswscale makes with `SWS_AREA` and
    /// full-resolution chroma input: Y' = 0.2627 R' + 0.6780 G' + 0.0593 B' (BT.2020
    /// non-constant luminance) on each pixel, Cb and Cr from each 2x2 block's mean R', G', B';
    /// limited range (Y' 64–940, C 64–960), rounded to the nearest.
    /// - Throws: ``FFmpegError`` when the picture cannot be allocated.
    package func convert(_ buffer: HDRPixelBuffer) throws(FFmpegError) -> EncoderPicture {
        precondition(buffer.size == size && hdr != nil, "the buffer is not of the converter's size or range")
        let picture = try EncoderPicture(size: size, pool: pool)
        let (width, height) = (size.width, size.height)
        buffer.withUnsafeBytes { raw in
            let samples = raw.bindMemory(to: UInt16.self).baseAddress!
            Self.encode(into: picture.frame, size: size) { body in
                for row in 0..<height { body(row, samples + row * width * 3) }
            }
        }
        return picture
    }

    /// Converts an HDR picture kept apart from its bars into a new 10-bit picture, whose planes
    /// come from ``pool``: the frame's rows made one by one as the conversion reads them
    /// (``HDRPlacedPicture/withRows(_:)``), to the code values ``convert(_:)-(HDRPixelBuffer)``
    /// gives the whole frame.
    /// - Throws: ``FFmpegError`` when the picture cannot be allocated.
    package func convert(_ placed: HDRPlacedPicture) throws(FFmpegError) -> EncoderPicture {
        precondition(placed.frameSize == size && hdr != nil, "the picture is not of the converter's size or range")
        let picture = try EncoderPicture(size: size, pool: pool)
        Self.encode(into: picture.frame, size: size) { body in placed.withRows(body) }
        return picture
    }

    /// The conversion of both: `rows` calls its argument with each row of 16-bit RGB, top to
    /// bottom, and a row stays readable until the next but one is given.
    private static func encode(into frame: UnsafeMutablePointer<AVFrame>, size: Size,
                               rows: ((Int, UnsafePointer<UInt16>) -> Void) -> Void) {
        let width = size.width, height = size.height
        let luma = UnsafeMutableRawPointer(frame.pointee.data.0!), lumaStride = Int(frame.pointee.linesize.0)
        let blue = UnsafeMutableRawPointer(frame.pointee.data.1!), red = UnsafeMutableRawPointer(frame.pointee.data.2!)
        let chromaStride = Int(frame.pointee.linesize.1)
        let (kr, kb) = (Float(0.2627), Float(0.0593))
        let kg = 1 - kr - kb
        // From 16-bit code values (0–65535 for 0–1) to 10-bit limited range.
        let lumaScale = Float(876) / 65535, chromaScale = Float(896) / 65535
        let cbScale = chromaScale / (2 * (1 - kb)), crScale = chromaScale / (2 * (1 - kr))
        // Loops over contiguous rows with nothing called or checked per sample, so that they
        // vectorise; the same arithmetic in the same order as the formula above, to the same code values.
        func lumaRow(_ row: Int, _ from: UnsafePointer<UInt16>) {
            let y = (luma + row * lumaStride).assumingMemoryBound(to: UInt16.self)
            for column in 0..<width {
                let value = kr * Float(from[3 * column]) + kg * Float(from[3 * column + 1]) + kb * Float(from[3 * column + 2])
                y[column] = Self.truncate(64 + value * lumaScale + 0.5)
            }
        }
        // Two rows of luma, then the chroma of those rows, while they are in the cache. The
        // chroma in three passes, each of which vectorises but the second: the two rows'
        // sums, sample by sample; each block's mean R', G', B' from them (a block's four
        // samples sum to a whole number under 2²⁴, exact in a Float whatever the order, so
        // the means are the ones the formula gives); Cb and Cr from the means.
        let chromaWidth = (width + 1) / 2
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * chromaWidth) { means in
          withUnsafeTemporaryAllocation(of: UInt32.self, capacity: width * 3) { pairs in
            let (reds, greens, blues) = (means.baseAddress!, means.baseAddress! + chromaWidth, means.baseAddress! + 2 * chromaWidth)
            let sums = pairs.baseAddress!
            // The block's rows and columns; at an odd edge the last one twice.
            func chromaRow(_ chromaRow: Int, _ top: UnsafePointer<UInt16>, _ bottom: UnsafePointer<UInt16>) {
                for index in 0..<(width * 3) { sums[index] = UInt32(top[index]) &+ UInt32(bottom[index]) }
                for chromaColumn in 0..<chromaWidth {
                    let left = 6 * chromaColumn, right = min(2 * chromaColumn + 1, width - 1) * 3
                    reds[chromaColumn] = Float(sums[left] &+ sums[right]) / 4
                    greens[chromaColumn] = Float(sums[left + 1] &+ sums[right + 1]) / 4
                    blues[chromaColumn] = Float(sums[left + 2] &+ sums[right + 2]) / 4
                }
                let cb = (blue + chromaRow * chromaStride).assumingMemoryBound(to: UInt16.self)
                let cr = (red + chromaRow * chromaStride).assumingMemoryBound(to: UInt16.self)
                for chromaColumn in 0..<chromaWidth {
                    let (r, g, b) = (reds[chromaColumn], greens[chromaColumn], blues[chromaColumn])
                    let value = kr * r + kg * g + kb * b
                    cb[chromaColumn] = Self.truncate(512 + (b - value) * cbScale + 0.5)
                    cr[chromaColumn] = Self.truncate(512 + (r - value) * crScale + 0.5)
                }
            }
            var top: UnsafePointer<UInt16>?
            rows { row, line in
                lumaRow(row, line)
                if row & 1 == 1 {
                    chromaRow(row / 2, top!, line)
                } else if row + 1 < height {
                    top = line
                } else {
                    chromaRow(row / 2, line, line)
                }
            }
          }
        }
    }

    /// `UInt16(t)` for 0 ≤ t < 2²², rounding toward zero as that conversion does, without its
    /// range check (a branch per sample, which keeps a loop from vectorising): t plus 1.5 · 2²³
    /// rounds t to the nearest integer, one less when that is above t, and that integer is
    /// the low bits of the float's pattern.
    @inline(__always) private static func truncate(_ t: Float) -> UInt16 {
        let magic: Float = 12_582_912
        let nearest = (t + magic) - magic
        return UInt16(truncatingIfNeeded: ((nearest > t ? nearest - 1 : nearest) + magic).bitPattern)
    }

    /// Converts a buffer into a new picture, whose planes come from ``pool``.
    /// - Throws: ``FFmpegError`` when the picture cannot be allocated or libswscale converts fewer rows than the picture has.
    package func convert(_ buffer: PixelBuffer) throws(FFmpegError) -> EncoderPicture {
        precondition(buffer.size == size && hdr == nil, "the buffer is not of the converter's size or range")
        return try scale(buffer.bytesPerRow) { body in buffer.withUnsafeBytes { body($0) } }
    }

    /// Scales one packed RGB picture, lent by `lend`, into a new picture from ``pool``.
    private func scale(_ bytesPerRow: Int, _ lend: ((UnsafeRawBufferPointer) -> Int32) -> Int32) throws(FFmpegError) -> EncoderPicture {
        let picture = try EncoderPicture(size: size, pool: pool)
        let frame = picture.frame
        let context = owner.pointer
        let rows = lend { pixels in
            var source: [UnsafePointer<UInt8>?] = [pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var sourceStride: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
            var destination: [UnsafeMutablePointer<UInt8>?] = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, nil]
            var destinationStride: [Int32] = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, 0]
            return sws_scale(context, &source, &sourceStride, 0, Int32(size.height), &destination, &destinationStride)
        }
        try check(rows, "sws_scale")
        guard rows == Int32(size.height) else { throw FFmpegError(call: "sws_scale: \(rows) of \(size.height) rows", code: -EINVAL) }
        return picture
    }
}
