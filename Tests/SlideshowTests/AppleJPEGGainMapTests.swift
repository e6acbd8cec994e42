import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowColor
import SlideshowFormats
@testable import SlideshowImages
import SlideshowPixels

/// iPhone HDR JPEGs (libavif's test data, UltraHDR/CREDITS.md): a 384x512 Display P3 primary and
/// a 192x256 grey gain map, listed by MPF, with Apple's `HDRGainMap` XMP.
enum AppleJPEGFiles {
    /// The headroom only in the EXIF MakerNote (tags 33 = 1.518932, 48 = 0: 3 stops).
    static let old = UltraHDRFiles.folder.appendingPathComponent("apple_gainmap_old.jpg").path
    /// `HDRGainMap:HDRGainMapHeadroom` 4.532783 in the gain map's XMP.
    static let new = UltraHDRFiles.folder.appendingPathComponent("apple_gainmap_new.jpg").path
}

@Suite("Apple's JPEG gain maps: an iPhone HDR JPEG's MPF gain map with HDRGainMap XMP, the headroom from the XMP or the MakerNote")
struct AppleJPEGGainMapTests {
    @Test("found as exiftool lists it (MPImage2 at 44821, 5921 and 6003 bytes); the headroom: the new file's XMP 4.532783, the old file's MakerNote 2^3",
          arguments: [(AppleJPEGFiles.old, 8.0), (AppleJPEGFiles.new, 4.532783)])
    func found(path: String, headroom: Double) throws {
        let bytes = try UltraHDRFiles.bytes(path)
        let gainMap = try #require(JPEGGainMap.find(in: bytes))
        let length = path == AppleJPEGFiles.new ? 6_003 : 5_921
        #expect(gainMap.source == .apple && gainMap.range == 44_821..<44_821 + length)
        #expect(gainMap.appleHeadroom == (path == AppleJPEGFiles.new ? 4.532783 : nil))
        let exif = try #require(JPEGGainMap.exif(in: bytes))
        // exiftool: [Apple] HDRHeadroom (33) 1.518931985, HDRGain (48) 0: the fourth line, −70·0 + 3 stops.
        #expect(GainCurve.appleHeadroom(exif: exif) == 8)
        let sdr = try ImageManager().requestImage(for: Photo(path: path), targetSize: Size(width: 192, height: 256), contentMode: .aspectFit)
        let fitted = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFit))
        #expect(fitted.curve == .apple(headroom: headroom))
    }

    @Test("the HDR slide: the P3 codes lifted by Apple's formula, 1 + (headroom − 1)·g with g through BT.709's curve, the headroom at most the output's, then P3 → BT.2020, within 1%; the map matches ffmpeg's decode of exiftool's extract",
          .enabled(if: IndependentGainMap.available, "skipped: no exiftool or ffmpeg"),
          arguments: [AppleJPEGFiles.old, AppleJPEGFiles.new])
    func lifted(path: String) throws {
        let folder = try TemporaryFolder()
        let size = Size(width: 192, height: 256)
        let manager = ImageManager()
        var gamut = WideGamut.sRGB
        let (wide, crop) = try manager.requestImageAndCrop(for: Photo(path: path), targetSize: size, contentMode: .aspectFit,
                                                           background: .black, framing: .center, gamut: { gamut = $0 })
        #expect(!gamut.isSRGB, "the iPhone JPEG is Display P3")
        let gain = try #require(try manager.fittedGainMap(for: Photo(path: path), like: wide, contentMode: .aspectFit, crop: crop))
        guard case .apple(let headroom) = gain.curve else { Issue.record("not Apple's curve: \(gain.curve)"); return }
        let independent = try IndependentGainMap.rgb(of: path, size: size, folder: folder)
        let difference = (0..<size.width * size.height).map { abs(Int(gain.buffer.pixels[$0 * 3]) - Int(independent[$0 * 3])) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 1, "mean difference from ffmpeg's map")
        let (slide, gainMapped) = try manager.requestHDRImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit, transfer: .pq)
        #expect(gainMapped)
        let usable = min(headroom, 1000.0 / 203)
        var worst = 0.0, lifted = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let p = wide[x, y]
                let v = Double(gain.buffer[x, y].red) / 255
                let factor = 1 + (usable - 1) * (v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45))
                let linear = [p.red, p.green, p.blue].map { ReferenceLight.sRGBLinear($0) * factor }
                let expected = ReferenceGamut.apply(ReferenceGamut.displayP3ToBT2020, linear).map { min(1000, max(0, 203 * $0)) }
                let got = slide[x, y]
                for (channel, code) in [got.red, got.green, got.blue].enumerated() where expected[channel] > 1 {
                    worst = max(worst, abs(ReferenceLight.pqNits(Double(code) / 65535) - expected[channel]) / expected[channel])
                }
                if factor > 1.5 { lifted += 1 }
            }
        }
        print("Apple JPEG \(URL(fileURLWithPath: path).lastPathComponent): headroom \(headroom), worst \(worst), \(lifted) pixels lifted by more than half a stop")
        #expect(worst < 0.01, "worst \(worst)")
        #expect(lifted > 100, "\(lifted) pixels lifted")
    }

    @Test("an SDR slide ignores Apple's gain map: the same pixels as the primary image alone")
    func sdrIgnores() throws {
        let folder = try TemporaryFolder()
        let primary = folder.path("primary.jpg")
        try Data(try UltraHDRFiles.bytes(AppleJPEGFiles.new).prefix(44_821)).write(to: URL(fileURLWithPath: primary))
        let size = Size(width: 96, height: 128)
        let whole = try ImageManager().requestImage(for: Photo(path: AppleJPEGFiles.new), targetSize: size, contentMode: .aspectFit)
        let alone = try ImageManager().requestImage(for: Photo(path: primary), targetSize: size, contentMode: .aspectFit)
        #expect(whole.pixels == alone.pixels)
    }
}
