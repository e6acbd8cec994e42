package import CFFmpeg
import SlideshowFFmpeg
import SlideshowPixels

/// Turns a decoded planar frame upright, plane by plane, before it is scaled: what ffmpeg's
/// own `transpose`/`hflip`/`vflip` filters do ahead of its `scale` when it autorotates.
///
/// Turning the decoder's YUV planes (1.5 bytes a pixel for 4:2:0, at the clip's own size)
/// costs far less than turning the scaled RGB picture (3 bytes a pixel at the fitted size),
/// and libswscale then scales and converts the upright planes straight into the frame. The
/// turned frame is allocated once and rewritten for every picture; planes are turned in
/// 32×32 tiles so that both the reads and the scattered writes stay in the cache.
///
/// Only planar formats whose planes keep their subsampling when turned are taken (4:2:0 and
/// 4:4:4 for quarter turns, any planar format for half turns and mirrors); others (4:2:2
/// turned a quarter) go the RGB way (``ClipOrientation/apply(to:)``).
package final class PlanarFrameTurner {
    /// The turn applied.
    package let orientation: ClipOrientation
    private let output: OwnedFrame
    private var allocated: (width: Int32, height: Int32, format: Int32)?
    private static let tile = 32

    /// - Throws: ``FFmpegError`` (`ENOMEM`) when the frame cannot be allocated.
    package init(orientation: ClipOrientation) throws(FFmpegError) {
        self.orientation = orientation
        output = try OwnedFrame()
    }

    /// Whether frames like `frame` can be turned plane by plane under `orientation`.
    package static func accepts(_ frame: UnsafeMutablePointer<AVFrame>, orientation: ClipOrientation) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format)) else { return false }
        let flags = descriptor.pointee.flags
        let refused = UInt64(AV_PIX_FMT_FLAG_HWACCEL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM) | UInt64(AV_PIX_FMT_FLAG_PAL)
            | UInt64(AV_PIX_FMT_FLAG_BE)
        guard flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0, flags & refused == 0 else { return false }
        let planes = av_pix_fmt_count_planes(AVPixelFormat(rawValue: frame.pointee.format))
        guard planes >= 1, planes == Int32(descriptor.pointee.nb_components) else { return false }
        let step = descriptor.pointee.comp.0.step
        guard step == 1 || step == 2, descriptor.pointee.comp.0.shift == 0 else { return false }
        return !orientation.swapsAxes || descriptor.pointee.log2_chroma_w == descriptor.pointee.log2_chroma_h
    }

    /// Turns `frame` upright into the turner's own frame, which stays valid until the next call.
    /// - Precondition: ``accepts(_:orientation:)``.
    /// - Throws: ``FFmpegError`` when the turned frame's planes cannot be allocated.
    package func turn(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> UnsafeMutablePointer<AVFrame> {
        let format = frame.pointee.format
        let (width, height) = (frame.pointee.width, frame.pointee.height)
        let upright = orientation.upright(Size(width: Int(width), height: Int(height)))
        let out = output.pointer
        if allocated.map({ $0 != (width, height, format) }) ?? true {
            av_frame_unref(out)
            allocated = nil
            out.pointee.format = format
            out.pointee.width = Int32(upright.width)
            out.pointee.height = Int32(upright.height)
            try check(av_frame_get_buffer(out, 0), "av_frame_get_buffer")
            allocated = (width, height, format)
        }
        out.pointee.color_range = frame.pointee.color_range
        out.pointee.colorspace = frame.pointee.colorspace
        out.pointee.color_trc = frame.pointee.color_trc
        out.pointee.color_primaries = frame.pointee.color_primaries
        out.pointee.chroma_location = frame.pointee.chroma_location
        let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: format))!
        let bytes = Int(descriptor.pointee.comp.0.step)
        let shift = (w: Int(descriptor.pointee.log2_chroma_w), h: Int(descriptor.pointee.log2_chroma_h))
        let planes = Int(av_pix_fmt_count_planes(AVPixelFormat(rawValue: format)))
        withUnsafePointer(to: &frame.pointee.data) { sourceData in
            withUnsafePointer(to: &out.pointee.data) { targetData in
                let sources = UnsafeRawPointer(sourceData).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
                let targets = UnsafeRawPointer(targetData).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
                let sourceLines = Self.lineSizes(frame), targetLines = Self.lineSizes(out)
                for p in 0..<planes {
                    // Planes 1 and 2 are the chroma planes of a YUV format; alpha (plane 3) is full size.
                    let chroma = p == 1 || p == 2
                    let w = chroma ? -((-Int(width)) >> shift.w) : Int(width)
                    let h = chroma ? -((-Int(height)) >> shift.h) : Int(height)
                    Self.turnPlane(from: UnsafePointer(sources[p]!), stride: sourceLines[p], width: w, height: h,
                                   to: targets[p]!, stride: targetLines[p], bytes: bytes, orientation: orientation)
                }
            }
        }
        return out
    }

    private static func lineSizes(_ frame: UnsafeMutablePointer<AVFrame>) -> [Int] {
        let l = frame.pointee.linesize
        return [Int(l.0), Int(l.1), Int(l.2), Int(l.3)]
    }

    /// Turns one plane of `width`×`height` samples of `bytes` bytes each: source sample (x, y)
    /// goes where ``ClipOrientation/apply(to:)`` puts pixel (x, y).
    package static func turnPlane(from source: UnsafePointer<UInt8>, stride sourceStride: Int, width w: Int, height h: Int,
                          to target: UnsafeMutablePointer<UInt8>, stride targetStride: Int, bytes: Int,
                          orientation o: ClipOrientation) {
        let originX = (o.a < 0 ? w - 1 : 0) + (o.c < 0 ? h - 1 : 0)
        let originY = (o.b < 0 ? w - 1 : 0) + (o.d < 0 ? h - 1 : 0)
        let stepX = o.a * bytes + o.b * targetStride, stepY = o.c * bytes + o.d * targetStride
        let base = target + originY * targetStride + originX * bytes
        if bytes == 1 {
            tiles(width: w, height: h) { x0, x1, y in
                var to = base + y * stepY + x0 * stepX
                var from = source + y * sourceStride + x0
                for _ in x0..<x1 {
                    to.pointee = from.pointee
                    to += stepX
                    from += 1
                }
            }
        } else {
            tiles(width: w, height: h) { x0, x1, y in
                var to = UnsafeMutableRawPointer(base + y * stepY + x0 * stepX)
                var from = UnsafeRawPointer(source + y * sourceStride + x0 * 2)
                for _ in x0..<x1 {
                    to.storeBytes(of: from.loadUnaligned(as: UInt16.self), as: UInt16.self)
                    to += stepX
                    from += 2
                }
            }
        }
    }

    /// Calls `row(x0, x1, y)` for the rows of each tile in turn.
    @inline(__always)
    private static func tiles(width: Int, height: Int, _ row: (Int, Int, Int) -> Void) {
        for y0 in Swift.stride(from: 0, to: height, by: tile) {
            let y1 = min(y0 + tile, height)
            for x0 in Swift.stride(from: 0, to: width, by: tile) {
                let x1 = min(x0 + tile, width)
                for y in y0..<y1 { row(x0, x1, y) }
            }
        }
    }
}
