import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowColor
import SlideshowFormats
@testable import SlideshowImages
import SlideshowPixels

/// An Ultra HDR JPEG whose base is the HDR rendition, made here from libavif's seine (its gain
/// map's `hdrgm:BaseRenditionIsHDR="False"` made `"True" `, the same length): the same bytes
/// read the other way, the primary an HDR base of 1.3 stops, the gain map taking it down to SDR.
enum HDRBaseFile {
    static func make(in folder: TemporaryFolder) throws -> String {
        var bytes = try UltraHDRFiles.bytes(UltraHDRFiles.seine)
        let at = try #require(UltraHDRFiles.find(Array(#"BaseRenditionIsHDR="False""#.utf8), in: bytes, within: 114_562..<bytes.count))
        bytes.replaceSubrange(at..<at + 26, with: Array(#"BaseRenditionIsHDR="True" "#.utf8))
        let path = folder.path("hdr-base.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The primary image alone (no MPF target, no gain map): its pixels as decoded.
    static func primary(in folder: TemporaryFolder) throws -> String {
        let path = folder.path("primary.jpg")
        try Data(try UltraHDRFiles.bytes(UltraHDRFiles.seine).prefix(114_562)).write(to: URL(fileURLWithPath: path))
        return path
    }
}

@Suite("JPEGs whose base rendition is HDR (ISO 21496-1's backward direction): HDR light in an HDR show, the gain map's SDR rendition in an SDR show")
struct HDRBaseTests {
    @Test("hdrgm BaseRenditionIsHDR True: the base's headroom is HDRCapacityMax, OffsetHDR is added before the gain; the weight is negative, 0 at the base's headroom and above")
    func hdrgmBackward() throws {
        let xmp = #"<x hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2" hdrgm:OffsetSDR="0.01" hdrgm:OffsetHDR="0.02" hdrgm:BaseRenditionIsHDR="True"/>"#
        let metadata = try #require(GainMapMetadata(hdrgm: ArraySlice(xmp.utf8)))
        #expect(metadata == GainMapMetadata(baseHeadroom: 2, alternateHeadroom: 0, channels: [
            .init(minimum: 0, maximum: 2, gamma: 1, baseOffset: 0.02, alternateOffset: 0.01)], useBaseColorSpace: true))
        #expect(metadata.isBaseHDR)
        #expect(metadata.weight(forHeadroom: 2.3) == 0 && metadata.weight(forHeadroom: 0) == -1 && metadata.weight(forHeadroom: 1) == -0.5)
        // An ISO 21496-1 body whose base headroom (2) is over its alternate's (0): the same.
        func be32(_ value: Int) -> [UInt8] { ISOBox.be32(value) }
        let body: [UInt8] = [0, 0, 0, 0, 0x40 | 0x08] + be32(100) + be32(200) + be32(0) + be32(0) + be32(200) + be32(100) + be32(2) + be32(1)
        let iso = try #require(GainMapMetadata(isoJPEG: body))
        #expect(iso.isBaseHDR && iso.baseHeadroom == 2 && iso.weight(forHeadroom: 0) == -1)
    }

    @Test("an SDR show shows the gain map's SDR rendition: (base·2^1.3 + OffsetHDR)·2^(−G) − OffsetSDR, per channel, within 2 codes of the formula here (exiftool's and ffmpeg's gain map)",
          .enabled(if: IndependentGainMap.available, "skipped: no exiftool or ffmpeg"))
    func sdrRendition() throws {
        let folder = try TemporaryFolder()
        let path = try HDRBaseFile.make(in: folder)
        let bytes = try UltraHDRFiles.bytes(path)
        let metadata = try #require(JPEGGainMap.find(in: bytes)?.metadata)
        #expect(metadata.isBaseHDR && metadata.baseHeadroom == 1.3 && metadata.alternateHeadroom == 0)
        let size = Size(width: 400, height: 300)
        let manager = ImageManager()
        let slide = try manager.requestImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit)
        let base = try manager.requestImage(for: Photo(path: try HDRBaseFile.primary(in: folder)), targetSize: size, contentMode: .aspectFit)
        let gain = try IndependentGainMap.rgb(of: path, size: size, folder: folder)
        var worst = 0, off = 0, darkened = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let p = base[x, y], got = slide[x, y]
                for (channel, value) in [p.red, p.green, p.blue].enumerated() {
                    let curve = metadata.channels[channel]
                    let g = pow(Double(gain[(y * size.width + x) * 3 + channel]) / 255, 1 / curve.gamma)
                    let stops = curve.minimum * (1 - g) + curve.maximum * g
                    let light = (ReferenceLight.sRGBLinear(value) * exp2(1.3) + curve.baseOffset) * exp2(-stops) - curve.alternateOffset
                    let c = max(0, min(1, light))
                    let expected = Int(((c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055) * 255).rounded())
                    let measured = Int([got.red, got.green, got.blue][channel])
                    worst = max(worst, abs(measured - expected))
                    if abs(measured - expected) > 2 { off += 1 }
                    if measured < Int(value) - 8 { darkened += 1 }
                }
            }
        }
        print("HDR base, SDR rendition: worst \(worst) codes, \(off) samples over 2 codes off, \(darkened) samples darkened by more than 8 codes")
        #expect(Double(off) <= 0.005 * Double(size.width * size.height * 3), "\(off) samples over 2 codes off (worst \(worst))")
        #expect(slide.pixels != base.pixels)
    }

    @Test("an HDR show shows the base in its own light: its linear light times 2^1.3 (its headroom is under the output's 2.3 stops, so none of the map applies), PQ within 1%; rendered, decoded back by ffmpeg within 10%",
          .enabled(if: which("ffmpeg") != nil, "skipped: no ffmpeg"))
    func hdrLight() async throws {
        let folder = try TemporaryFolder()
        let path = try HDRBaseFile.make(in: folder)
        let size = Size(width: 400, height: 300)
        let manager = ImageManager()
        let (slide, gainMapped) = try manager.requestHDRImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit, transfer: .pq)
        #expect(gainMapped)
        let base = try manager.requestImage(for: Photo(path: try HDRBaseFile.primary(in: folder)), targetSize: size, contentMode: .aspectFit)
        let m = ReferenceGamut.bt709ToBT2020
        func expected(_ x: Int, _ y: Int) -> [Double] {
            let p = base[x, y]
            let linear = [p.red, p.green, p.blue].map { ReferenceLight.sRGBLinear($0) * exp2(1.3) }
            return ReferenceGamut.apply(m, linear).map { min(1000, 203 * $0) }
        }
        var worst = 0.0, bright = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let e = expected(x, y), got = slide[x, y]
                for (channel, code) in [got.red, got.green, got.blue].enumerated() where e[channel] > 1 {
                    worst = max(worst, abs(ReferenceLight.pqNits(Double(code) / 65535) - e[channel]) / e[channel])
                }
                if ReferenceLight.luminance((e[0], e[1], e[2])) > 1.2 * 203 { bright += 1 }
            }
        }
        print("HDR base in a PQ slide: worst \(worst), \(bright) pixels above 1.2x reference white")
        #expect(worst < 0.01, "worst \(worst)")
        #expect(bright > 1000, "\(bright) pixels above reference white")
        // Rendered by the tool, read back by ffmpeg: 4x4 blocks.
        let decoded = try await ReferenceLight.renderedNits(path, size: size, output: folder.path("hdr-base.mp4"))
        var blocks = 0, within = 0
        for by in stride(from: 0, to: size.height, by: 4) {
            for bx in stride(from: 0, to: size.width, by: 4) {
                var reference = 0.0, measured = 0.0
                for y in by..<by + 4 {
                    for x in bx..<bx + 4 {
                        let e = expected(x, y)
                        reference += ReferenceLight.luminance((e[0], e[1], e[2]))
                        measured += ReferenceLight.luminance(decoded[y * size.width + x])
                    }
                }
                guard reference > 16 * 20 else { continue }
                blocks += 1
                if abs(measured - reference) / reference <= 0.10 { within += 1 }
            }
        }
        print("HDR base rendered in PQ: \(within) of \(blocks) blocks within 10%")
        #expect(blocks > 1000 && Double(within) >= 0.95 * Double(blocks), "\(within) of \(blocks)")
    }
}
