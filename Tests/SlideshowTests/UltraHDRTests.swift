import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowColor
import SlideshowFormats
@testable import SlideshowImages
import SlideshowPixels

/// The Ultra HDR JPEGs in `UltraHDR/` beside this file (libavif's test data, CREDITS.md).
enum UltraHDRFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("UltraHDR")
    /// 400x300, a three-channel 400x300 gain map, hdrgm per channel (Photoshop).
    static let seine = folder.appendingPathComponent("seine_sdr_gainmap_srgb.jpg").path
    /// 403x302, a grey 512x384 gain map, little-endian MPF, a Container directory.
    static let paris = folder.appendingPathComponent("paris_exif_xmp_gainmap_littleendian.jpg").path

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The bytes with `inserted` put in at `offset`.
    static func inserting(_ inserted: [UInt8], at offset: Int, into bytes: [UInt8]) -> [UInt8] {
        Array(bytes[..<offset]) + inserted + Array(bytes[offset...])
    }

    /// The first place `pattern` occurs in `bytes` within `range`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], within range: Range<Int>? = nil) -> Int? {
        let range = range ?? 0..<bytes.count
        return bytes[range].firstRange(of: pattern)?.lowerBound
    }
}

/// A gain map as an independent reader sees it: exiftool extracts the second MPF image
/// (`-b -MPImage2`), ffmpeg decodes it (and stretches it to `size`) to RGB.
enum IndependentGainMap {
    static var available: Bool { which("exiftool") != nil && which("ffmpeg") != nil }

    /// - Parameter turn: an ffmpeg filter put before the scale (a `transpose` for an EXIF orientation).
    static func rgb(of path: String, size: Size, folder: TemporaryFolder, turn: String? = nil) throws -> [UInt8] {
        let extracted = try run(try #require(which("exiftool")), ["-b", "-MPImage2", path])
        try #require(extracted.status == 0 && extracted.stdout.count > 100, "\(extracted.stderr)")
        let gainPath = folder.path("gainmap.jpg")
        try extracted.stdout.write(to: URL(fileURLWithPath: gainPath))
        let decoded = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", gainPath, "-vf", (turn.map { $0 + "," } ?? "") + "scale=\(size.width):\(size.height):flags=bicubic",
                                                             "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let pixels = [UInt8](decoded.stdout)
        try #require(pixels.count == size.width * size.height * 3)
        return pixels
    }
}

/// ISO 21496-1's curve written out again here: a gain map sample (0…255) of one channel → the
/// linear factor at the output's headroom (log2 of 1,000 over 203 cd/m²).
func referenceFactor(_ sample: UInt8, channel: Int, metadata: GainMapMetadata) -> Double {
    let curve = metadata.channels[min(channel, metadata.channels.count - 1)]
    let headroom = log2(1000.0 / 203)
    let weight = max(0, min(1, (headroom - metadata.baseHeadroom) / (metadata.alternateHeadroom - metadata.baseHeadroom)))
    let g = pow(Double(sample) / 255, 1 / curve.gamma)
    return exp2((curve.minimum * (1 - g) + curve.maximum * g) * weight)
}

/// An sRGB pixel lifted by its gain map sample (one-channel map), in BT.709 linear light with
/// SDR white at 1: `(SDR + baseOffset) · factor − alternateOffset`, per channel.
func referenceGainMapped(red: UInt8, green: UInt8, blue: UInt8, gain: UInt8, metadata: GainMapMetadata) -> [Double] {
    let curve = metadata.channels[0], factor = referenceFactor(gain, channel: 0, metadata: metadata)
    return [red, green, blue].map { (ReferenceLight.sRGBLinear($0) + curve.baseOffset) * factor - curve.alternateOffset }
}

@Suite("Ultra HDR JPEG: MPF, hdrgm XMP and ISO 21496-1 APP2 read; the gain map applied (issue 35)")
struct UltraHDRTests {
    @Test("seine: MPF's second image is the gain map (114562, 28410 bytes); its hdrgm XMP read per channel, as exiftool reads it")
    func seineMetadata() throws {
        let bytes = try UltraHDRFiles.bytes(UltraHDRFiles.seine)
        let gainMap = try #require(JPEGGainMap.find(in: bytes))
        // exiftool -a -G1 -s: [MPImage2] MPImageStart 114562, MPImageLength 28410.
        #expect(gainMap.range == 114_562..<114_562 + 28_410 && gainMap.source == .xmp)
        // exiftool -b -MPImage2 | exiftool -XMP-hdrgm:all: GainMapMin −0.256907, −0.261365, −0.280284;
        // GainMapMax 1.277177, 1.277203, 1.277969; Gamma 0.953784, 0.941095, 0.919422; offsets 0.015625; capacity 0…1.3.
        let expected = GainMapMetadata(baseHeadroom: 0, alternateHeadroom: 1.3, channels: [
            .init(minimum: -0.256907, maximum: 1.277177, gamma: 0.953784, baseOffset: 0.015625, alternateOffset: 0.015625),
            .init(minimum: -0.261365, maximum: 1.277203, gamma: 0.941095, baseOffset: 0.015625, alternateOffset: 0.015625),
            .init(minimum: -0.280284, maximum: 1.277969, gamma: 0.919422, baseOffset: 0.015625, alternateOffset: 0.015625),
        ], useBaseColorSpace: true)
        #expect(gainMap.metadata == expected)
        // 1.3 stops of capacity, the output has 2.3: the whole gain.
        #expect(gainMap.metadata.weight(forHeadroom: HDRSignal.headroom) == 1)
    }

    @Test("paris: little-endian MPF (33487, 14092 bytes); GainMapMax per channel, GainMapMin and Gamma by default; the Container directory finds the same gain map without MPF")
    func parisMetadata() throws {
        var bytes = try UltraHDRFiles.bytes(UltraHDRFiles.paris)
        let gainMap = try #require(JPEGGainMap.find(in: bytes))
        #expect(gainMap.range == 33_487..<33_487 + 14_092 && gainMap.source == .xmp)
        let channels = [3.5, 3.6, 3.7].map { GainMapMetadata.Channel(minimum: 0, maximum: $0, gamma: 1, baseOffset: 0, alternateOffset: 0) }
        #expect(gainMap.metadata == GainMapMetadata(baseHeadroom: 0, alternateHeadroom: 3.5, channels: channels, useBaseColorSpace: true))
        // 2.3 of 3.5 stops: about two thirds of the gain.
        #expect(abs(gainMap.metadata.weight(forHeadroom: HDRSignal.headroom) - log2(1000.0 / 203) / 3.5) < 1e-9)
        // The MPF segment renamed: the primary's Container:Directory (GainMap Item:Length 14092) places it.
        let mpf = try #require(UltraHDRFiles.find(Array("MPF\0".utf8), in: bytes, within: 0..<33_487))
        bytes[mpf + 2] = UInt8(ascii: "X")
        #expect(JPEGGainMap.find(in: bytes)?.range == 33_487..<47_579)
    }

    @Test("the Container directory: the gain map's length and the items after it (a motion photo's video); lengths that overflow are no answer")
    func containerDirectory() {
        func items(_ lengths: [(String, String)]) -> ArraySlice<UInt8> {
            let text = "<Container:Directory><rdf:Seq>" + lengths.map { semantic, length in
                "<rdf:li><Container:Item Item:Semantic=\"\(semantic)\" Item:Mime=\"image/jpeg\"" + (length.isEmpty ? "" : " Item:Length=\"\(length)\"") + "/></rdf:li>"
            }.joined() + "</rdf:Seq></Container:Directory>"
            return ArraySlice(text.utf8)
        }
        #expect(JPEGGainMap.containerGainMap(items([("Primary", ""), ("GainMap", "14092")]))! == (14092, 0))
        #expect(JPEGGainMap.containerGainMap(items([("Primary", ""), ("GainMap", "100"), ("MotionPhoto", "50")]))! == (100, 50))
        #expect(JPEGGainMap.containerGainMap(items([("Primary", ""), ("GainMap", "100"), ("MotionPhoto", "9223372036854775807"), ("Depth", "9223372036854775807")])) == nil)
        #expect(JPEGGainMap.containerGainMap(items([("Primary", ""), ("GainMap", "-5")])) == nil)
        #expect(JPEGGainMap.containerGainMap(items([("Primary", "")])) == nil)
    }

    @Test("an ISO 21496-1 APP2 in the gain map is preferred to its XMP; common denominator, three channels")
    func isoPreferred() throws {
        var bytes = try UltraHDRFiles.bytes(UltraHDRFiles.seine)
        func be32(_ value: Int) -> [UInt8] { ISOBox.be32(value) }
        // Minimum and writer version 0; flags: multichannel, base colour space, common denominator.
        var body: [UInt8] = [0, 0, 0, 0, 0x80 | 0x40 | 0x08] + be32(1_000_000) + be32(0) + be32(2_500_000)
        for maximum in [2_500_000, 2_000_000, 1_500_000] {
            body += be32(Int(UInt32(bitPattern: -500_000))) + be32(maximum) + be32(1_000_000) + be32(15_625) + be32(15_625)
        }
        let payload = Array("urn:iso:std:iso:ts:21496:-1".utf8) + [0] + body
        let segment: [UInt8] = [0xFF, 0xE2] + ISOBox.be16(payload.count + 2) + payload
        // After the gain map's SOI; its MPF length (big-endian, in the primary's MPF) grows by as much.
        let mpf = try #require(UltraHDRFiles.find(Array("MPF\0".utf8), in: bytes, within: 0..<114_562))
        let length = try #require(UltraHDRFiles.find(be32(28_410), in: bytes, within: mpf..<mpf + 120))
        bytes.replaceSubrange(length..<length + 4, with: be32(28_410 + segment.count))
        bytes = UltraHDRFiles.inserting(segment, at: 114_562 + 2, into: bytes)
        let gainMap = try #require(JPEGGainMap.find(in: bytes))
        #expect(gainMap.source == .iso && gainMap.range == 114_562..<114_562 + 28_410 + segment.count)
        let channels = [2.5, 2.0, 1.5].map { GainMapMetadata.Channel(minimum: -0.5, maximum: $0, gamma: 1, baseOffset: 0.015625, alternateOffset: 0.015625) }
        #expect(gainMap.metadata == GainMapMetadata(baseHeadroom: 0, alternateHeadroom: 2.5, channels: channels, useBaseColorSpace: true))
        // The primary's version-only APP2, and one with the draft's backward_direction flag, are no curve
        // (an HDR base is said by its headrooms: HDRBaseTests).
        #expect(GainMapMetadata(isoJPEG: [0, 0, 0, 0]) == nil)
        #expect(GainMapMetadata(isoJPEG: [0, 0, 0, 0, 0x04] + body.dropFirst(5)) == nil)
        // The same fractions with their own denominators (a tmap's form after its version byte).
        var separate: [UInt8] = [0, 0, 0, 0, 0x00] + be32(0) + be32(1) + be32(5) + be32(2)
        separate += be32(Int(UInt32(bitPattern: -1))) + be32(2) + be32(5) + be32(2) + be32(1) + be32(1) + be32(1) + be32(64) + be32(1) + be32(64)
        #expect(GainMapMetadata(isoJPEG: separate) == GainMapMetadata(
            baseHeadroom: 0, alternateHeadroom: 2.5,
            channels: [.init(minimum: -0.5, maximum: 2.5, gamma: 1, baseOffset: 0.015625, alternateOffset: 0.015625)], useBaseColorSpace: false))
        #expect(GainMapMetadata(iso: [0] + separate) == GainMapMetadata(isoJPEG: separate))
    }

    @Test("hdrgm XMP: attributes or elements, any prefix bound to the namespace; what is refused",
          arguments: [
            (#"<rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2"/>"#, true),
            (#"<rdf:Description xmlns:g='http://ns.adobe.com/hdr-gain-map/1.0/' g:Version='1.0'><g:GainMapMax> 2 </g:GainMapMax><g:HDRCapacityMax>2</g:HDRCapacityMax></rdf:Description>"#, true),
            (#"<x hdrgm:Version="1.0" hdrgm:GainMapMax="2"/>"#, false),
            (#"<x hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2"/>"#, false),
            (#"<x hdrgm:Version="1.0" hdrgm:GainMapMax="two" hdrgm:HDRCapacityMax="2"/>"#, false),
            (#"<x hdrgm:Version="1.0" hdrgm:HDRCapacityMax="2"><hdrgm:GainMapMax><rdf:Seq><rdf:li>1</rdf:li><rdf:li>2</rdf:li></rdf:Seq></hdrgm:GainMapMax></x>"#, false),
            (#"<x hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:Gamma="0" hdrgm:HDRCapacityMax="2"/>"#, false),
            (#"<x hdrgm:Version="1.0" hdrgm:GainMapMin="3" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2"/>"#, false),
            (#"<x hdrgm:Version="1.0" hdrgm:GainMapMax="2" hdrgm:HDRCapacityMin="2" hdrgm:HDRCapacityMax="2"/>"#, false),
          ])
    func hdrgm(xmp: String, reads: Bool) {
        let metadata = GainMapMetadata(hdrgm: ArraySlice(xmp.utf8))
        #expect((metadata != nil) == reads)
        if reads {
            #expect(metadata == GainMapMetadata(baseHeadroom: 0, alternateHeadroom: 2, channels: [
                .init(minimum: 0, maximum: 2, gamma: 1, baseOffset: 1.0 / 64, alternateOffset: 1.0 / 64)], useBaseColorSpace: true))
        }
    }

    @Test("the gain map applied as the formula gives it, with the gain map exiftool extracts and ffmpeg decodes: highlights within 10%, the base within 2% where the gain is 1",
          .enabled(if: IndependentGainMap.available, "skipped: no exiftool or ffmpeg"),
          arguments: ["seine", "paris", "paris turned by EXIF orientation 6"])
    func formula(name: String) throws {
        let folder = try TemporaryFolder()
        var path = name == "seine" ? UltraHDRFiles.seine : UltraHDRFiles.paris
        var bytes = try UltraHDRFiles.bytes(path)
        let turned = name.hasSuffix("6")
        if turned {
            // IFD0's Orientation (little-endian SHORT, value 1) made 6: the primary turns a quarter
            // clockwise, and its gain map with it.
            let tag = try #require(UltraHDRFiles.find([0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00], in: bytes, within: 0..<2_000))
            bytes[tag + 8] = 6
            path = folder.path("turned.jpg")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        // The photos' own size (paris: 403x302 into 400x300): seine's map is not resampled, so
        // that the two readers' resamplers do not differ at its edges.
        let size = turned ? Size(width: 300, height: 400) : Size(width: 400, height: 300)
        let sdr = try ImageManager().requestImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit)
        let (gain, curve) = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFit))
        guard case .iso(let metadata) = curve else { Issue.record("not an ISO curve: \(curve)"); return }
        #expect(metadata == JPEGGainMap.find(in: bytes)?.metadata)
        let slide = HDRSlide.make(sdr, gain: gain, curve: curve, signal: HDRSignal(.pq))
        let content = sdr.contentRect
        let independent = try IndependentGainMap.rgb(of: path, size: Size(width: content.width, height: content.height), folder: folder,
                                                     turn: turned ? "transpose=clock" : nil)
        var highlights: [Double] = [], base: [Double] = []
        for y in content.y..<content.maxY {
            for x in content.x..<content.maxX {
                let p = sdr[x, y]
                let index = ((y - content.y) * content.width + (x - content.x)) * 3
                var factors: [Double] = []
                let linear = [p.red, p.green, p.blue].enumerated().map { channel, value in
                    let curve = metadata.channels[min(channel, metadata.channels.count - 1)]
                    let factor = referenceFactor(independent[index + channel], channel: channel, metadata: metadata)
                    factors.append(factor)
                    return (ReferenceLight.sRGBLinear(value) + curve.baseOffset) * factor - curve.alternateOffset
                }
                let expected = min(1000, max(0, 203 * (0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2])))
                let got = slide[x, y]
                let nits = [got.red, got.green, got.blue].map { ReferenceLight.pqNits(Double($0) / 65535) }
                let measured = ReferenceLight.luminance((nits[0], nits[1], nits[2]))
                if expected > 1.2 * 203 {
                    highlights.append(abs(measured - expected) / expected)
                } else if expected > 20, factors.allSatisfy({ abs($0 - 1) < 0.01 }) {
                    base.append(abs(measured - expected) / expected)
                }
            }
        }
        highlights.sort()
        base.sort()
        print("Ultra HDR \(name): highlights \(highlights.count) px, median error \(highlights.isEmpty ? 0 : highlights[highlights.count / 2]), 95th \(highlights.isEmpty ? 0 : highlights[highlights.count * 95 / 100]), worst \(highlights.last ?? 0); base (gain 1) \(base.count) px, worst \(base.last ?? 0)")
        #expect(highlights.count >= 100, "\(highlights.count) highlight pixels")
        #expect(Double(highlights.filter { $0 <= 0.10 }.count) >= 0.95 * Double(highlights.count), "95th \(highlights.isEmpty ? 0 : highlights[highlights.count * 95 / 100])")
        #expect(base.allSatisfy { $0 <= 0.02 }, "base worst \(base.last ?? 0) over \(base.count) pixels")
    }

    @Test("a rendered show's first frame, read back by ffmpeg: 4x4 highlight blocks within 10% of the formula's light (exiftool's and ffmpeg's gain map), PQ and HLG",
          .enabled(if: IndependentGainMap.available, "skipped: no exiftool or ffmpeg"), arguments: HDRTransfer.allCases)
    func rendered(transfer: HDRTransfer) async throws {
        let folder = try TemporaryFolder()
        let path = UltraHDRFiles.seine
        let size = Size(width: 400, height: 300)
        let decoded = try await ReferenceLight.renderedNits(path, size: size, hdr: transfer == .pq ? .pq : .hlg, output: folder.path("uhdr.mp4"))
        let metadata = try #require(JPEGGainMap.find(in: try UltraHDRFiles.bytes(path))?.metadata)
        let sdr = try ImageManager().requestImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit)
        #expect(sdr.contentRect == Rect(size))
        let gain = try IndependentGainMap.rgb(of: path, size: size, folder: folder)
        func reference(_ x: Int, _ y: Int) -> Double {
            let p = sdr[x, y], index = (y * size.width + x) * 3
            let linear = [p.red, p.green, p.blue].enumerated().map { channel, value in
                let curve = metadata.channels[min(channel, metadata.channels.count - 1)]
                return (ReferenceLight.sRGBLinear(value) + curve.baseOffset) * referenceFactor(gain[index + channel], channel: channel, metadata: metadata) - curve.alternateOffset
            }
            return min(1000, 203 * (0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]))
        }
        var errors: [Double] = []
        for by in stride(from: 0, to: size.height, by: 4) {
            for bx in stride(from: 0, to: size.width, by: 4) {
                var expected = 0.0, measured = 0.0, darkest = Double.infinity
                for y in by..<by + 4 {
                    for x in bx..<bx + 4 {
                        let r = reference(x, y)
                        expected += r
                        darkest = min(darkest, r)
                        measured += ReferenceLight.luminance(decoded[y * size.width + x])
                    }
                }
                if darkest > 1.2 * 203 { errors.append(abs(measured - expected) / expected) }
            }
        }
        errors.sort()
        let within = errors.filter { $0 <= 0.10 }.count
        print("Ultra HDR show \(transfer): \(within) of \(errors.count) highlight blocks within 10%, median error \(errors.isEmpty ? 0 : errors[errors.count / 2]), worst \(errors.last ?? 0)")
        #expect(errors.count >= 100, "\(errors.count) highlight blocks")
        #expect(Double(within) >= 0.95 * Double(errors.count), "\(within) of \(errors.count) highlight blocks within 10%")
    }

    @Test("a fill crop is taken over by the stretched gain map: the centred crop is the map's own; another part gives another map",
          arguments: [UltraHDRFiles.seine, UltraHDRFiles.paris])
    func fillCrop(path: String) throws {
        let bytes = try UltraHDRFiles.bytes(path)
        let size = Size(width: 160, height: 90)
        let (sdr, crop) = try ImageManager().requestImageAndCrop(for: Photo(path: path), targetSize: size, contentMode: .aspectFill,
                                                                 background: .black, framing: .center)
        // A 4:3 photo filling 16:9: its whole width, a centred band of 3/4 of its height.
        #expect(crop.x == 0 && crop.width == 1 && abs(crop.height - 0.75) < 0.01, "\(crop)")
        let followed = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFill, crop: crop))
        let own = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFill))
        #expect(followed.buffer.contentRect == sdr.contentRect)
        let difference = zip(followed.buffer.pixels, own.buffer.pixels).map { abs(Int($0) - Int($1)) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 2)
        let top = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFill, crop: (0, 0, 1, crop.height)))
        #expect(top.buffer.pixels != own.buffer.pixels)
    }

    @Test("an SDR slide ignores the gain map: the same pixels as the primary image alone")
    func sdrIgnoresGainMap() throws {
        let folder = try TemporaryFolder()
        let primary = folder.path("primary.jpg")
        try Data(try UltraHDRFiles.bytes(UltraHDRFiles.seine).prefix(114_562)).write(to: URL(fileURLWithPath: primary))
        let manager = ImageManager(), size = Size(width: 160, height: 90)
        for mode in [ContentMode.aspectFit, .aspectFill] {
            let whole = try manager.requestImage(for: Photo(path: UltraHDRFiles.seine), targetSize: size, contentMode: mode)
            let alone = try manager.requestImage(for: Photo(path: primary), targetSize: size, contentMode: mode)
            #expect(whole.pixels == alone.pixels && whole.contentRect == alone.contentRect)
        }
    }

    @Test("malformed MPF, XMP or gain map data: no gain map, the photo at SDR light, no crash",
          arguments: ["mpf-past-end", "mpf-renamed", "no-version", "bad-number", "gain-map-corrupt", "gain-map-cut"])
    func malformed(damage: String) throws {
        var bytes = try UltraHDRFiles.bytes(UltraHDRFiles.seine)
        let mpf = try #require(UltraHDRFiles.find(Array("MPF\0".utf8), in: bytes, within: 0..<114_562))
        switch damage {
        case "mpf-past-end":
            // The gain map's length, one past the end of the file.
            let length = try #require(UltraHDRFiles.find(ISOBox.be32(28_410), in: bytes, within: mpf..<mpf + 120))
            bytes.replaceSubrange(length..<length + 4, with: ISOBox.be32(28_411))
        case "mpf-renamed":
            bytes[mpf + 2] = UInt8(ascii: "X")   // and seine has no Container directory
        case "no-version", "bad-number":
            let name = damage == "no-version" ? "hdrgm:Version=" : "<rdf:li>1.277177"
            let at = try #require(UltraHDRFiles.find(Array(name.utf8), in: bytes, within: 114_562..<bytes.count))
            bytes[at + (damage == "no-version" ? 6 : 9)] = UInt8(ascii: "x")
        case "gain-map-corrupt":
            // The gain map's entropy-coded data overwritten with a marker it cannot hold.
            for offset in stride(from: bytes.count - 8_000, to: bytes.count - 7_000, by: 2) { bytes[offset] = 0xFF; bytes[offset + 1] = 0xC4 }
        default:
            bytes.removeLast(10_000)
        }
        let folder = try TemporaryFolder()
        let path = folder.path("damaged.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let size = Size(width: 80, height: 60)
        if damage == "gain-map-cut" {
            // The primary image is whole, its MPF points past the end.
            #expect(JPEGGainMap.find(in: bytes) == nil)
        }
        let manager = ImageManager()
        let (slide, gainMapped) = try manager.requestHDRImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit, transfer: .pq)
        #expect(!gainMapped)
        let sdr = try manager.requestImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit)
        #expect(slide.samples == HDRSlide.make(sdr, gain: nil, curve: nil, signal: HDRSignal(.pq)).samples)
    }
}
