import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowPixels

/// A HEIC slide decoded by ``HEVCTileDecoder``: the grid read from the boxes, the YCbCr tiles
/// pasted into one canvas, and libswscale converting with the picture's own matrix, range and
/// chroma siting while it resamples. The pixels are held against libheif's exact path in
/// ``HEIFScaledDecodeTests``; here, the layouts, the path taken, and each matrix and range.
@Suite("HEIC tiles decoded into one YCbCr canvas", .enabled(if: haveSharedMedia, noSharedMedia))
struct HEVCTileTests {
    @Test("the boxes give each HEIC's grid: output size, tiles, where they lie, and the tiles' own nclx")
    func layouts() throws {
        let arrow = try #require(HEIFBoxes.hevcLayout(try PhotoFile.read(media("heic_iphone8plus_grid_irot270_exif6_arrow.heic")).bytes))
        #expect(arrow.size == Size(width: 4032, height: 3024))
        #expect((arrow.columns, arrow.rows) == (8, 6))
        #expect(arrow.tileSize == Size(width: 512, height: 512))
        #expect(arrow.tiles.count == 48)
        #expect(arrow.tiles[0] == [10033..<22697])
        #expect(arrow.configuration.lengthSize == 4)
        // VPS, SPS, PPS and an SEI, each after a start code; the VPS's NAL header is 0x40 0x01.
        #expect(Array(arrow.configuration.parameterSets.prefix(6)) == [0, 0, 0, 1, 0x40, 0x01])
        #expect(arrow.configuration.parameterSets.count == 78)
        #expect(arrow.matrix == nil)  // the tiles carry no colr: their VUI says

        // The Samsung photo: 8 x 4 tiles cover 4096x2048, cut to 4000x1848; its tiles have an nclx.
        let samsung = try #require(HEIFBoxes.hevcLayout(try PhotoFile.read(media("heic_samsung_s24fe_grid_exif6_no_irot.heic")).bytes))
        #expect(samsung.size == Size(width: 4000, height: 1848))
        #expect((samsung.columns, samsung.rows, samsung.tiles.count) == (8, 4, 32))
        #expect(samsung.matrix == YCbCrEncoding(coefficients: 5, fullRange: true))

        let sony = try #require(HEIFBoxes.hevcLayout(try PhotoFile.read(media("hif_sony_a7s3_10bit.hif")).bytes))
        #expect((sony.columns, sony.rows, sony.tileSize) == (2, 2, Size(width: 2176, height: 1472)))
        #expect(HEIFBoxes.hevcLayout(try PhotoFile.read(media("avif_fox_8bit_420.avif")).bytes) == nil)
        #expect(HEIFBoxes.hevcLayout(Array("not a HEIF file at all".utf8)) == nil)
    }

    @Test("a phone HEIC's slide is decoded tile by tile, with the VUI's matrix, range and chroma siting")
    func tilesDecoded() throws {
        for (name, tiles, encoding) in [
            ("heic_iphone8plus_grid_irot270_exif6_arrow.heic", 48, YCbCrEncoding(coefficients: 2, fullRange: true, chromaLocation: 1)),
            ("heic_iphonexr_grid_landscape.heic", 48, YCbCrEncoding(coefficients: 6, fullRange: true, chromaLocation: 0)),
            ("heic_samsung_s24fe_grid_exif6_no_irot.heic", 32, YCbCrEncoding(coefficients: 5, fullRange: true, chromaLocation: 0)),
        ] {
            let bytes = try PhotoFile.read(media(name)).bytes
            let layout = try #require(HEIFBoxes.hevcLayout(bytes))
            let canvas = try #require(HEVCTileDecoder.decode(layout, from: bytes, threads: 2))
            #expect(canvas.matrix == encoding, "\(name)")
            #expect(canvas.size == layout.size)
            // A slide takes this path: every tile decoded once (other suites can only add).
            let decoder = try HEIFDecoder(bytes, formatName: "HEIF")
            let before = HEVCTileDecoder.decodedTiles.load(ordering: .relaxed)
            let fitted = FitGeometry(source: decoder.displayedSize, target: Size(width: 400, height: 300), mode: .aspectFit).fittedSize
            let slide = try #require(try decoder.decodeScaled(to: fitted, displayed: decoder.displayedSize))
            #expect(HEVCTileDecoder.decodedTiles.load(ordering: .relaxed) - before >= tiles, "\(name)")
            #expect(slide.image.size == fitted)
        }
    }

    @Test("the canvas and the slide are the same bytes on 1 or 3 threads, whatever the machine's cores")
    func sameBytesOnAnyThreads() throws {
        let bytes = try PhotoFile.read(media("heic_iphonexr_grid_landscape.heic")).bytes
        let layout = try #require(HEIFBoxes.hevcLayout(bytes))
        func slide(_ threads: Int) throws -> (canvas: [UInt8], slide: [UInt8]) {
            let canvas = try #require(HEVCTileDecoder.decode(layout, from: bytes, threads: threads))
            let (planes, strides) = canvas.planes
            let rows = [layout.size.height, layout.size.height / 2, layout.size.height / 2]
            let copied = (0..<3).flatMap { Array(UnsafeBufferPointer(start: planes[$0], count: strides[$0] * rows[$0])) }
            let target = Size(width: 400, height: 300)
            var output = [UInt8](repeating: 0, count: target.width * target.height * 3)
            let resampler = try SlicedResampler(from: layout.size, format: SlicedResampler.yuv420, to: target, threads: threads, matrix: canvas.matrix)
            try output.withUnsafeMutableBufferPointer { out in
                try resampler.scale(planes: planes.map { UnsafePointer($0) } + [nil], strides: strides.map { Int32($0) } + [0],
                                    into: out.baseAddress!, stride: target.width * 3)
            }
            return (copied, output)
        }
        let one = try slide(1), three = try slide(3)
        #expect(one.canvas == three.canvas)
        #expect(one.slide == three.slide)
        #expect(Set(one.slide).count > 200)
    }

    @Test("a 10-bit HEIF's tiles are left to libheif, and so is a tile that does not decode")
    func leftToLibheif() throws {
        let sony = try PhotoFile.read(media("hif_sony_a7s3_10bit.hif")).bytes
        #expect(HEVCTileDecoder.decode(try #require(HEIFBoxes.hevcLayout(sony)), from: sony, threads: 2) == nil)
        // The arrow with its tile 5's data overwritten: the canvas is not made.
        var bytes = try PhotoFile.read(media("heic_iphone8plus_grid_irot270_exif6_arrow.heic")).bytes
        let layout = try #require(HEIFBoxes.hevcLayout(bytes))
        let tile = layout.tiles[5][0]
        bytes.replaceSubrange(tile.lowerBound..<tile.lowerBound + 4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(HEVCTileDecoder.decode(layout, from: bytes, threads: 2) == nil)
    }

    /// libheif 1.15's full-range YCbCr → RGB (`Op_YCbCr_to_RGB`, in floating point) for one sample.
    static func libheifRGB(_ y: Int, _ cb: Int, _ cr: Int, kr: Double, kb: Double) -> [Int] {
        let (luma, blue, red) = (Double(y), Double(cb - 128), Double(cr - 128))
        let g = luma - 2 * kb * (1 - kb) / (1 - kb - kr) * blue - 2 * kr * (1 - kr) / (1 - kb - kr) * red
        return [luma + 2 * (1 - kr) * red, g, luma + 2 * (1 - kb) * blue].map { Int(min(255, max(0, $0)).rounded()) }
    }

    /// The matrices a HEIC's nclx or VUI can state, with their Kr and Kb (as libheif takes
    /// them; 2, unspecified, is BT.601).
    static let encodings: [(matrix: Int, kr: Double, kb: Double)] = [
        (1, 0.2126, 0.0722), (2, 0.299, 0.114), (5, 0.299, 0.114), (6, 0.299, 0.114), (9, 0.2627, 0.0593),
        (10, 0.2627, 0.0593), (4, 0.30, 0.11), (7, 0.212, 0.087),
    ]

    @Test("each full-range matrix converts as libheif converts it, within 1 level, on 2 slice threads; limited range is libheif's",
          arguments: encodings)
    func matrices(_ matrix: Int, _ kr: Double, _ kb: Double) throws {
        // Flat 64x48 pictures of one YCbCr each, resampled to 24x18: every output pixel is the
        // conversion alone. Y, Cb and Cr over their whole range, in steps of 17, 51 and 51.
        let source = Size(width: 64, height: 48), target = Size(width: 24, height: 18)
        let encoding = YCbCrEncoding(coefficients: matrix, fullRange: true)
        let resampler = try SlicedResampler(from: source, format: SlicedResampler.yuv420, to: target, threads: 2, matrix: encoding)
        let samples = stride(from: 0, through: 255, by: 17).flatMap { y in
            stride(from: 0, through: 255, by: 51).flatMap { cb in stride(from: 0, through: 255, by: 51).map { cr in (y, cb, cr) } }
        }
        var mismatches = 0
        for (y, cb, cr) in samples {
            let planes = [[UInt8](repeating: UInt8(y), count: 64 * 48), [UInt8](repeating: UInt8(cb), count: 32 * 24),
                          [UInt8](repeating: UInt8(cr), count: 32 * 24)]
            var output = [UInt8](repeating: 0, count: target.width * target.height * 3)
            try planes[0].withUnsafeBufferPointer { luma in
                try planes[1].withUnsafeBufferPointer { blue in
                    try planes[2].withUnsafeBufferPointer { red in
                        try output.withUnsafeMutableBufferPointer { out in
                            try resampler.scale(planes: [luma.baseAddress, blue.baseAddress, red.baseAddress, nil], strides: [64, 32, 32, 0],
                                                into: out.baseAddress!, stride: target.width * 3)
                        }
                    }
                }
            }
            let expected = Self.libheifRGB(y, cb, cr, kr: kr, kb: kb)
            for pixel in stride(from: 0, to: output.count, by: 3) where zip(output[pixel..<pixel + 3], expected).contains(where: { abs(Int($0) - $1) > 1 }) {
                if mismatches < 3 { Issue.record("YCbCr \((y, cb, cr)): \(Array(output[pixel..<pixel + 3])), libheif \(expected)") }
                mismatches += 1
            }
        }
        #expect(samples.count == 576)
        #expect(mismatches == 0)
        // Limited range stays with libheif, which clips what libswscale 5.1 wraps.
        #expect(YCbCrEncoding(coefficients: matrix, fullRange: false).swscaleColorspace == nil)
        #expect(throws: ImageProblem.self) {
            try SlicedResampler(from: source, format: SlicedResampler.yuv420, to: target, threads: 2,
                                matrix: YCbCrEncoding(coefficients: matrix, fullRange: false))
        }
    }

    @Test("chroma siting: H.273's six locations, in 1/256 of a luma sample")
    func chromaPositions() {
        let positions = (0...6).map { YCbCrEncoding(coefficients: 1, fullRange: true, chromaLocation: $0).chromaPosition }
        #expect(positions.map(\.horizontal) == [0, 128, 0, 128, 0, 128, 0])
        #expect(positions.map(\.vertical) == [128, 128, 0, 0, 256, 256, 128])
        // libheif's own conversions: identity, YCgCo and the chromaticity-derived matrices are not libswscale's.
        #expect([0, 8, 12, 13].allSatisfy { YCbCrEncoding(coefficients: $0, fullRange: true).swscaleColorspace == nil })
        #expect(YCbCrEncoding(coefficients: 2, fullRange: true).swscaleColorspace == YCbCrEncoding(coefficients: 6, fullRange: true).swscaleColorspace)
    }

    @Test("an hvcC cut short or without NAL units is not taken; NAL units are rewritten with start codes")
    func configuration() throws {
        var hvcC = [UInt8](repeating: 0, count: 23)
        hvcC[21] = 3  // 4-byte lengths
        #expect(HEVCConfiguration(hvcC[...]) == nil)  // no arrays
        hvcC[22] = 1
        hvcC += [0x20, 0, 1, 0, 2, 0x40, 0x01]  // one VPS of 2 bytes
        let configuration = try #require(HEVCConfiguration(hvcC[...]))
        #expect(configuration.parameterSets == [0, 0, 0, 1, 0x40, 0x01])
        #expect(HEVCConfiguration(hvcC.dropLast()) == nil)
        hvcC[21] = 2  // 3-byte lengths do not exist
        #expect(HEVCConfiguration(hvcC[...]) == nil)

        var stream: [UInt8] = []
        try AnnexB.append([0, 2, 0x26, 0x01, 0, 1, 0x28], lengthSize: 2, to: &stream)
        #expect(stream == [0, 0, 0, 1, 0x26, 0x01, 0, 0, 0, 1, 0x28])
        #expect(throws: AnnexB.Failure.runsPastEnd) { try AnnexB.append([0, 3, 1], lengthSize: 2, to: &stream) }
        #expect(throws: AnnexB.Failure.lengthCutOff) { try AnnexB.append([0], lengthSize: 2, to: &stream) }
    }
}
