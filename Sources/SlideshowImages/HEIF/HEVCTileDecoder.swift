internal import CFFmpeg
import Dispatch
import Synchronization
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowFormats

/// Decodes a HEIC's HEVC tiles with libavcodec straight into one ``HEVCCanvas``, without libheif.
///
/// libheif 1.15 turns every tile into planar RGB with a scalar floating-point loop and pastes
/// it into a full-size RGB image (36 MB for 12 MP, touched fresh for each photo); a slide needs
/// neither: the YCbCr tiles are pasted as they are (18 MB), and libswscale converts them while
/// resampling to the slide's size. The tiles are decoded on `threads` workers, each with one
/// single-threaded libavcodec decoder kept from tile to tile (its picture buffers come back from
/// its pool instead of fresh memory).
///
/// The matrix follows libheif: the tiles' own `colr` nclx when they have one, else the first
/// tile's VUI.
package enum HEVCTileDecoder {
    /// Tiles decoded this way in the process, for the tests that check which path ran.
    package static let decodedTiles = Atomic<Int>(0)

    /// Decodes every tile of `layout` from `bytes`.
    /// - Returns: the canvas; nil when a tile does not decode, or decodes to anything but 8-bit
    ///   4:2:0 of the layout's tile size, or to a matrix libheif converts its own way: the
    ///   caller then decodes with libheif, which reports damage in its own words.
    package static func decode(_ layout: HEVCLayout, from bytes: [UInt8], threads: Int) -> HEVCCanvas? {
        let tile = layout.tileSize
        guard tile.width % 2 == 0, tile.height % 2 == 0, !layout.tiles.isEmpty, let worker = try? Worker() else { return nil }
        // Tile 0 first, alone: its VUI gives the matrix, and it makes the canvas the others are
        // pasted into.
        var made: HEVCCanvas?
        let decoded = worker.decode(0, of: layout, from: bytes) { frame in
            // AVChromaLocation counts from 1 (left) where H.273 counts from 0; 0 is unspecified.
            let chroma = max(0, Int(frame.pointee.chroma_location.rawValue) - 1)
            let vui = YCbCrEncoding(coefficients: Int(frame.pointee.colorspace.rawValue), fullRange: frame.pointee.color_range == AVCOL_RANGE_JPEG,
                                    chromaLocation: chroma)
            let matrix = layout.matrix.map { YCbCrEncoding(coefficients: $0.coefficients, fullRange: $0.fullRange, chromaLocation: chroma) } ?? vui
            guard matrix.swscaleColorspace != nil else { return false }
            let canvas = HEVCCanvas(size: layout.size, covered: Size(width: tile.width * layout.columns, height: tile.height * layout.rows),
                                    matrix: matrix)
            paste(frame, into: canvas, at: 0, of: layout)
            made = canvas
            return true
        }
        guard decoded, let canvas = made else { return nil }
        decodedTiles.add(1, ordering: .relaxed)
        let job = Job(layout: layout, bytes: bytes, canvas: canvas)
        let workers = max(1, min(threads, layout.tiles.count - 1))
        if workers > 1 {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in job.work() }
        } else {
            job.work()
        }
        return job.failed.load(ordering: .relaxed) ? nil : canvas
    }

    /// The tiles after the first, handed out one at a time to the workers that paste them.
    ///
    /// `@unchecked Sendable`: its stored properties are constants, atomics, and the canvas,
    /// into which each worker writes only the pixels of the tiles it took (no two workers take
    /// the same tile, and tiles do not overlap); the canvas is read once every worker has returned.
    private final class Job: @unchecked Sendable {
        let layout: HEVCLayout
        let bytes: [UInt8]
        let canvas: HEVCCanvas
        let next = Atomic<Int>(1)
        let failed = Atomic<Bool>(false)

        init(layout: HEVCLayout, bytes: [UInt8], canvas: HEVCCanvas) {
            self.layout = layout
            self.bytes = bytes
            self.canvas = canvas
        }

        /// Decodes and pastes tiles on a decoder of its own until none is left or one fails.
        func work() {
            guard let worker = try? Worker() else { return failed.store(true, ordering: .relaxed) }
            while !failed.load(ordering: .relaxed) {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < layout.tiles.count else { return }
                let done = worker.decode(index, of: layout, from: bytes) { frame in
                    paste(frame, into: canvas, at: index, of: layout)
                    return true
                }
                guard done else { return failed.store(true, ordering: .relaxed) }
                decodedTiles.add(1, ordering: .relaxed)
            }
        }
    }

    /// Copies a decoded tile's three planes to its place in the canvas.
    private static func paste(_ frame: UnsafePointer<AVFrame>, into canvas: HEVCCanvas, at index: Int, of layout: HEVCLayout) {
        let tile = layout.tileSize, column = index % layout.columns, row = index / layout.columns
        let (planes, strides) = canvas.planes
        let sources = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
        let lineSizes = [Int(frame.pointee.linesize.0), Int(frame.pointee.linesize.1), Int(frame.pointee.linesize.2)]
        for plane in 0..<3 {
            let shift = plane == 0 ? 0 : 1
            let width = tile.width >> shift, height = tile.height >> shift
            let to = planes[plane] + (row * height) * strides[plane] + column * width
            guard let from = sources[plane] else { continue }
            for line in 0..<height {
                (to + line * strides[plane]).update(from: from + line * lineSizes[plane], count: width)
            }
        }
    }

    /// One tile at a time through an ``HEVCPictureCodec`` of its own: the tile's Annex B
    /// stream built in a buffer kept from tile to tile, its picture checked and lent on.
    /// Not `Sendable`: one worker of ``HEVCTileDecoder/decode(_:from:threads:)`` owns it.
    private final class Worker {
        private let codec: HEVCPictureCodec
        private var stream: [UInt8] = []

        init() throws(FFmpegError) { codec = try HEVCPictureCodec() }

        /// Decodes tile `index` and lends its picture to `use`, which says whether it took it.
        /// - Returns: false when the tile does not decode to an 8-bit 4:2:0 picture of the tile size,
        ///   or `use` refused it.
        func decode(_ index: Int, of layout: HEVCLayout, from bytes: [UInt8], _ use: (UnsafePointer<AVFrame>) -> Bool) -> Bool {
            stream.removeAll(keepingCapacity: true)
            stream += layout.configuration.parameterSets
            let extents = layout.tiles[index]
            do throws(AnnexB.Failure) {
                if extents.count == 1 {
                    try AnnexB.append(bytes[extents[0]], lengthSize: layout.configuration.lengthSize, to: &stream)
                } else {
                    try AnnexB.append(extents.flatMap { bytes[$0] }, lengthSize: layout.configuration.lengthSize, to: &stream)
                }
            } catch {
                return false
            }
            let taken = try? codec.decode(stream) { frame -> Bool in
                let picture = frame.pointee
                guard picture.format == AV_PIX_FMT_YUV420P.rawValue || picture.format == AV_PIX_FMT_YUVJ420P.rawValue,
                      Int(picture.width) == layout.tileSize.width, Int(picture.height) == layout.tileSize.height,
                      // A picture concealed over damage is flagged corrupt: libheif's path decides then.
                      picture.flags & AV_FRAME_FLAG_CORRUPT == 0
                else { return false }
                return use(frame)
            }
            return taken == true
        }
    }
}
