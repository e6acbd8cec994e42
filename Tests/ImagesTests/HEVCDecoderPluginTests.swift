import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowPixels

/// HEIC pictures decoded by FFmpeg's libavcodec through ``HEVCDecoderPlugin`` instead of
/// libheif's libde265: chosen by libheif, the same pictures, the same refusals.
///
/// Serialized: one test turns the plugin off for a moment to decode with libde265.
@Suite("HEVC decoded by FFmpeg", .serialized, .enabled(if: haveSharedMedia, noSharedMedia))
struct HEVCDecoderPluginTests {
    /// The shared HEVC files: three phone grids (8-bit 4:2:0) and the Sony camera's 10-bit HIF.
    static let files = ["heic_iphone8plus_grid_irot270_exif6_arrow.heic", "heic_iphonexr_grid_landscape.heic",
                        "heic_samsung_s24fe_grid_exif6_no_irot.heic", "hif_sony_a7s3_10bit.hif"]

    @Test("libheif lists the FFmpeg decoder first for HEVC, above libde265, and decodes every tile of a grid with it")
    func chosen() throws {
        #expect(HEVCDecoderPlugin.hevcDecoderIDs == ["slideshow-libavcodec", "libde265"])
        let bytes = try PhotoFile.read(media("heic_iphone8plus_grid_irot270_exif6_arrow.heic")).bytes
        let before = HEVCDecoderPlugin.decodedPictures.load(ordering: .relaxed)
        _ = try HEIFDecoder(bytes, formatName: "HEIF").decode()
        // Its 4032x3024 coded picture is a grid of 8 x 6 tiles of 512x512 (other suites
        // decoding HEICs at the same time can only add to the count).
        #expect(HEVCDecoderPlugin.decodedPictures.load(ordering: .relaxed) - before >= 48)
    }

    @Test("FFmpeg's picture equals libde265's, and the same on a second decode", arguments: files)
    func samePicture(_ name: String) throws {
        let bytes = try PhotoFile.read(media(name)).bytes
        let ours = try HEIFDecoder(bytes, formatName: "HEIF").decode()
        let again = try HEIFDecoder(bytes, formatName: "HEIF").decode()
        HEVCDecoderPlugin.isEnabled.store(false, ordering: .relaxed)
        defer { HEVCDecoderPlugin.isEnabled.store(true, ordering: .relaxed) }
        #expect(HEVCDecoderPlugin.hevcDecoderIDs == ["libde265"])
        let libde265 = try HEIFDecoder(bytes, formatName: "HEIF").decode()
        #expect(ours.image.size == libde265.image.size)
        #expect(ours.image.pixels == libde265.image.pixels)
        #expect(ours.image.pixels == again.image.pixels)
    }

    /// The pictures x265 makes through `heif-enc` (libheif's own encoder tool) of a 67x45 PNG,
    /// odd on both axes: each chroma layout libavcodec hands over, 10 bits, and an alpha plane
    /// (a second, monochrome HEVC picture).
    static let encodings: [(name: String, colorType: Int, bitDepth: Int, options: [String])] = [
        ("4:2:0", 2, 8, ["-p", "chroma=420"]),
        ("4:2:2", 2, 8, ["-p", "chroma=422"]),
        ("4:4:4", 2, 8, ["-p", "chroma=444"]),
        ("monochrome", 0, 8, []),
        ("monochrome, 10 bits", 0, 16, ["-b", "10"]),
        ("4:2:0 with alpha", 6, 8, []),
    ]

    @Test("every chroma layout, 10 bits and alpha decode through FFmpeg as through libde265",
          .enabled(if: which("heif-enc") != nil, "skipped: heif-enc (libheif-examples) is not installed"),
          arguments: encodings)
    func layouts(_ name: String, _ colorType: Int, _ bitDepth: Int, _ options: [String]) throws {
        let (width, height) = (67, 45)
        let channels = [0: 1, 2: 3, 6: 4][colorType]!
        let bytesPerSample = bitDepth / 8
        let rows = (0..<height).map { y in
            (0..<width * channels * bytesPerSample).map { UInt8(truncatingIfNeeded: $0 * 7 + y * 13 + ($0 / channels) * y) }
        }
        let folder = try TemporaryFolder()
        try Data(SyntheticPNG.file(width: width, height: height, bitDepth: bitDepth, colorType: colorType, rows: rows))
            .write(to: URL(fileURLWithPath: folder.path("in.png")))
        let encoded = try run(which("heif-enc")!, ["-q", "80"] + options + [folder.path("in.png"), "-o", folder.path("out.heic")])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let bytes = try PhotoFile.read(folder.path("out.heic")).bytes

        let before = HEVCDecoderPlugin.decodedPictures.load(ordering: .relaxed)
        let ours = try HEIFDecoder(bytes, formatName: "HEIF").decode()
        #expect(HEVCDecoderPlugin.decodedPictures.load(ordering: .relaxed) - before >= (colorType == 6 ? 2 : 1))
        HEVCDecoderPlugin.isEnabled.store(false, ordering: .relaxed)
        defer { HEVCDecoderPlugin.isEnabled.store(true, ordering: .relaxed) }
        let libde265 = try HEIFDecoder(bytes, formatName: "HEIF").decode()
        #expect(ours.image.size == Size(width: width, height: height))
        #expect(ours.image.channels == (colorType == 6 ? 4 : 3))
        #expect(ours.image.pixels == libde265.image.pixels)
    }

    @Test("a tile whose NAL unit length runs past its data is refused as corrupt, with the photo's path")
    func damagedLength() throws {
        var bytes = try PhotoFile.read(media("heic_iphone8plus_grid_irot270_exif6_arrow.heic")).bytes
        // Each tile (and the thumbnail) is one coded slice of an IDR picture: a 4-byte length,
        // then the NAL header 0x28 0x01. Every such length is made to run past the data.
        let mdat = try #require(firstIndex(of: Array("mdat".utf8), in: bytes))
        let slices = (mdat..<bytes.count - 6).filter { bytes[$0] == 0 && bytes[$0 + 4] == 0x28 && bytes[$0 + 5] == 0x01 }
        #expect(slices.count >= 48)
        for slice in slices { bytes.replaceSubrange(slice..<slice + 4, with: [0x00, 0xFF, 0xFF, 0xF0]) }
        let folder = try TemporaryFolder()
        let path = folder.path("damaged.heic")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = photoError { () throws(PhotoError) in
            _ = try ImageManager().requestImage(for: Photo(path: path), targetSize: Size(width: 64, height: 64), contentMode: .aspectFit)
        }
        #expect(error?.kind == .corrupt)
        #expect(error?.path == path)
        #expect(error?.reason == "corrupt HEIF data (Decoder plugin generated an error: Unexpected end of file: "
                + "HEVC: a NAL unit runs past the end of the data)", "\(error?.reason ?? "")")
    }

    @Test("NAL units are rewritten with start codes; a cut-off length is refused; data without a picture does not decode")
    func pictureDecoder() throws {
        func failure(_ body: () throws -> Void) -> String? {
            do { try body() } catch let error as HEVCPluginError { return error.message } catch { return "\(error)" }
            return nil
        }
        let decoder = HEVCPictureDecoder()
        let units: [UInt8] = [0, 0, 0, 2, 0x40, 0x01, 0, 0, 0, 1, 0x42]
        try units.withUnsafeBytes { try decoder.push($0) }
        #expect(decoder.stream == [0, 0, 0, 1, 0x40, 0x01, 0, 0, 0, 1, 0x42])
        #expect(failure { try [UInt8]([0, 0, 0]).withUnsafeBytes { try HEVCPictureDecoder().push($0) } }
                == "HEVC: a NAL unit's length is cut off")
        #expect(failure { try [UInt8]([0, 0, 0, 3, 0x40, 0x01]).withUnsafeBytes { try HEVCPictureDecoder().push($0) } }
                == "HEVC: a NAL unit runs past the end of the data")
        // A VPS header and one byte of an SPS: no picture comes out; nothing pushed, neither.
        #expect(failure { _ = try decoder.decode() } == "HEVC: no picture in the data")
        #expect(failure { _ = try HEVCPictureDecoder().decode() } == "HEVC: no picture in the data")
    }
}
