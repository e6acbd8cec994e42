internal import CFFmpeg
import Dispatch
import Synchronization

/// Where a HEIC's primary image lies as HEVC pictures: one picture, or a grid of tiles (every
/// iPhone photo is 8 x 6 tiles of 512x512), read from the file's boxes by ``HEIFBoxes/hevcLayout(_:)``.
struct HEVCLayout {
    /// The image's size as stored, before any `irot`: the grid's output size, or the picture's `ispe`.
    var size: Size
    var columns: Int
    var rows: Int
    /// Every tile's size (`ispe`); the tiles on the right and at the bottom may reach past ``size``.
    var tileSize: Size
    /// The tiles' decoder configuration (`hvcC`), which they share.
    var configuration: HEVCConfiguration
    /// Each tile's coded data in the file, its extents in order, tiles in raster order.
    var tiles: [[Range<Int>]]
    /// The tiles' own `colr` nclx (matrix and range), when they have one; otherwise the
    /// bitstream's VUI says. The chroma siting always comes from the VUI.
    var matrix: YCbCrEncoding?
}

/// How a picture's YCbCr turns into RGB: its matrix coefficients and range (ITU-T H.273), and
/// where its chroma samples sit.
struct YCbCrEncoding: Equatable {
    /// H.273 `MatrixCoefficients`: 1 BT.709, 5/6 BT.601, 9/10 BT.2020, 2 unspecified …
    var coefficients: Int
    /// Full range (0–255), or limited (16–235 luma, 16–240 chroma).
    var fullRange: Bool
    /// H.273 `ChromaSampleLocType` (0 when the bitstream does not say: left of the pair of luma
    /// samples, midway between the rows, HEVC's default).
    var chromaLocation = 0

    /// The chroma samples' position within their 2x2 luma samples, in 1/256 of a luma sample
    /// from the top-left one: what libswscale's `src_h_chr_pos` and `src_v_chr_pos` take.
    var chromaPosition: (horizontal: Int, vertical: Int) {
        let location = (0...5).contains(chromaLocation) ? chromaLocation : 0
        return ((location & 1) == 0 ? 0 : 128, [128, 128, 0, 0, 256, 256][location])
    }

    /// libswscale's table for the matrix (`SWS_CS_*`), following libheif 1.15's choice for
    /// each value so that both paths agree: the matrices it knows by their constants, BT.601
    /// (its default) for unspecified and unknown ones.
    ///
    /// nil for identity (0), YCgCo (8) and the chromaticity-derived matrices (12, 13), which
    /// libheif converts its own way, and for limited range: libswscale 5.1's RGB output
    /// overflows on samples past the nominal range there (Y ≥ 238 with Cb = 255 turns blue
    /// from 255 to 0), where libheif clips. Phone HEICs are full range.
    var swscaleColorspace: Int32? {
        guard fullRange else { return nil }
        return switch coefficients {
        case 0, 8, 12, 13: nil
        case 1: SWS_CS_ITU709
        case 4: SWS_CS_FCC
        case 7: SWS_CS_SMPTE240M
        case 9, 10: SWS_CS_BT2020
        default: SWS_CS_ITU601
        }
    }
}

/// An `hvcC` box's parameter sets, ready to go before each picture.
struct HEVCConfiguration {
    /// The VPS, SPS, PPS and SEI NAL units of its arrays, each after an Annex B start code.
    var parameterSets: [UInt8]
    /// The size of each NAL unit's length in the pictures' data: 1, 2 or 4 bytes.
    var lengthSize: Int

    /// Reads an `hvcC` payload (ISO/IEC 14496-15 8.3.3.1); nil when it is cut short or has no NAL unit.
    init?(_ payload: ArraySlice<UInt8>) {
        guard payload.count >= 23 else { return nil }
        let start = payload.startIndex
        lengthSize = Int(payload[start + 21] & 3) + 1
        guard lengthSize != 3 else { return nil }
        var cursor = start + 23
        var sets: [UInt8] = []
        for _ in 0..<payload[start + 22] {
            guard cursor + 3 <= payload.endIndex else { return nil }
            let count = Int(HEIFBoxes.u16(payload, cursor + 1))
            cursor += 3
            for _ in 0..<count {
                guard cursor + 2 <= payload.endIndex else { return nil }
                let length = Int(HEIFBoxes.u16(payload, cursor))
                cursor += 2
                guard length <= payload.endIndex - cursor else { return nil }
                sets += [0, 0, 0, 1]
                sets += payload[cursor..<cursor + length]
                cursor += length
            }
        }
        guard !sets.isEmpty else { return nil }
        parameterSets = sets
    }
}

/// NAL units with length prefixes (what HEIF stores) rewritten with Annex B start codes (what
/// libavcodec's HEVC decoder takes without extradata).
enum AnnexB {
    enum Failure: Error {
        /// The data ends inside a NAL unit's length.
        case lengthCutOff
        /// A NAL unit's length runs past the data.
        case runsPastEnd
    }

    /// Appends each NAL unit of `data`, whose lengths are `lengthSize`-byte big-endian numbers,
    /// to `stream` after a start code `00 00 00 01`.
    static func append<Bytes: RandomAccessCollection<UInt8>>(_ data: Bytes, lengthSize: Int, to stream: inout [UInt8]) throws(Failure)
    where Bytes.Index == Int {
        stream.reserveCapacity(stream.count + data.count + 64)
        var offset = data.startIndex
        while offset < data.endIndex {
            guard data.endIndex - offset >= lengthSize else { throw .lengthCutOff }
            var length = 0
            for index in offset..<offset + lengthSize { length = length << 8 | Int(data[index]) }
            offset += lengthSize
            guard length <= data.endIndex - offset else { throw .runsPastEnd }
            stream += [0, 0, 0, 1]
            stream += data[offset..<offset + length]
            offset += length
        }
    }
}

/// A HEIC's 8-bit 4:2:0 picture, whole: the tiles pasted into three planes, which libswscale
/// then resamples and converts to RGB in one pass.
///
/// Owns its planes (one 64-byte-aligned allocation), which are as wide and tall as the tiles
/// together; the image is their top-left ``size``.
final class HEVCCanvas {
    /// The image's size as stored.
    let size: Size
    /// How its YCbCr turns into RGB.
    let matrix: YCbCrEncoding
    /// The luma plane's row length in bytes; the chroma planes' is half.
    let lumaStride: Int
    private let storage: UnsafeMutableRawPointer
    private let lumaBytes: Int

    init(size: Size, covered: Size, matrix: YCbCrEncoding) {
        self.size = size
        self.matrix = matrix
        lumaStride = (covered.width + 127) / 128 * 128
        lumaBytes = lumaStride * covered.height
        storage = .allocate(byteCount: lumaBytes + lumaBytes / 2 + 64, alignment: 64)
    }

    deinit { storage.deallocate() }

    /// The Y, Cb and Cr planes and their strides.
    var planes: (pointers: [UnsafeMutablePointer<UInt8>], strides: [Int]) {
        let base = storage.assumingMemoryBound(to: UInt8.self)
        return ([base, base + lumaBytes, base + lumaBytes + lumaBytes / 4], [lumaStride, lumaStride / 2, lumaStride / 2])
    }
}

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
enum HEVCTileDecoder {
    /// Tiles decoded this way in the process, for the tests that check which path ran.
    static let decodedTiles = Atomic<Int>(0)

    /// Decodes every tile of `layout` from `bytes`.
    /// - Returns: the canvas; nil when a tile does not decode, or decodes to anything but 8-bit
    ///   4:2:0 of the layout's tile size, or to a matrix libheif converts its own way: the
    ///   caller then decodes with libheif, which reports damage in its own words.
    static func decode(_ layout: HEVCLayout, from bytes: [UInt8], threads: Int) -> HEVCCanvas? {
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

/// One single-threaded libavcodec HEVC decoder with its packet and frame, decoding one coded
/// picture after another: each is sent whole (Annex B NAL units, parameter sets first), the
/// decoder drained, and the decoder reset for the next. Used by ``HEVCTileDecoder`` (one per
/// worker, kept from tile to tile, so that its picture buffers come back from its pool) and by
/// ``HEVCPictureDecoder`` (libheif's plugin, one per picture).
///
/// Owns its `AVCodecContext`, `AVPacket` and `AVFrame` through ``OwnedCodecContext``,
/// ``OwnedPacket`` and ``OwnedFrame``. Not `Sendable`: one thread uses it.
final class HEVCPictureCodec {
    /// Whether this FFmpeg was built with an HEVC decoder.
    static var isAvailable: Bool { avcodec_find_decoder(AV_CODEC_ID_HEVC) != nil }

    private let context: OwnedCodecContext
    private let packet: OwnedPacket
    private let frame: OwnedFrame

    /// - Throws: ``FFmpegError`` when there is no HEVC decoder or it cannot start.
    init() throws(FFmpegError) {
        _ = quietFFmpegLogging
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_HEVC) else { throw FFmpegError(call: "avcodec_find_decoder(hevc)", code: -ENOSYS) }
        context = try OwnedCodecContext(codec: codec)
        context.pointer.pointee.thread_count = 1
        try check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2(hevc)")
        packet = try OwnedPacket()
        frame = try OwnedFrame()
    }

    /// Decodes the picture in `stream` and lends it to `body`; the picture is released when
    /// `body` returns.
    /// - Returns: what `body` returns; nil when the data holds no picture.
    /// - Throws: ``FFmpegError`` when libavcodec refuses the data.
    func decode<Result>(_ stream: [UInt8], _ body: (UnsafePointer<AVFrame>) -> Result) throws(FFmpegError) -> Result? {
        defer {
            av_frame_unref(frame.pointer)
            av_packet_unref(packet.pointer)
            avcodec_flush_buffers(context.pointer)
        }
        try check(av_new_packet(packet.pointer, Int32(stream.count)), "av_new_packet")
        stream.withUnsafeBufferPointer { packet.pointer.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        try check(avcodec_send_packet(context.pointer, packet.pointer), "avcodec_send_packet")
        try check(avcodec_send_packet(context.pointer, nil), "avcodec_send_packet")
        let received = avcodec_receive_frame(context.pointer, frame.pointer)
        if received == shim_averror_eof() { return nil }
        try check(received, "avcodec_receive_frame")
        return body(frame.pointer)
    }
}
