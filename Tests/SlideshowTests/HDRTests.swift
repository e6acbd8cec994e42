import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowColor
import SlideshowFormats
@testable import SlideshowImages
import SlideshowPixels
import SlideshowText
import SlideshowWriter

/// The shared iPhone 15 Pro HEIC: an SDR base and an ISO 21496-1 `tmap` gain map (issue 35).
private let gainMapHEIC = TestEnvironment.sharedClip("livephoto_iphone15pro_IMG_4394.HEIC")
private let noGainMapHEIC: Comment = "skipped: ../shared/clips/livephoto_iphone15pro_IMG_4394.HEIC is absent (a fresh clone)"

/// Light as the test reads it back, independent of the code under test: BT.2100's curves and
/// BT.2020's matrix written out again here.
enum ReferenceLight {
    /// PQ's EOTF: signal 0…1 → cd/m².
    static func pqNits(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(max(0, e), 1 / m2)
        return 10000 * pow(max(0, p - c1) / (c2 - c3 * p), 1 / m1)
    }

    /// HLG's inverse OETF: signal → scene light 0…1.
    static func hlgScene(_ e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }

    /// Display light (cd/m²) of HLG R′G′B′ on a 1,000 cd/m² display (BT.2100's EOTF, γ 1.2).
    static func hlgNits(_ rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        let (r, g, b) = (hlgScene(rgb.0), hlgScene(rgb.1), hlgScene(rgb.2))
        let ys = 0.2627 * r + 0.6780 * g + 0.0593 * b
        let gain = 1000 * pow(ys, 0.2)
        return (r * gain, g * gain, b * gain)
    }

    /// 10-bit limited-range BT.2020 Y′CbCr → R′G′B′ 0…1.
    static func rgb(y: Int, cb: Int, cr: Int) -> (Double, Double, Double) {
        let luma = (Double(y) - 64) / 876, u = (Double(cb) - 512) / 896, v = (Double(cr) - 512) / 896
        let r = luma + 1.4746 * v, b = luma + 1.8814 * u
        let g = (luma - 0.2627 * r - 0.0593 * b) / 0.6780
        return (r, g, b)
    }

    static func luminance(_ rgb: (Double, Double, Double)) -> Double { 0.2627 * rgb.0 + 0.6780 * rgb.1 + 0.0593 * rgb.2 }

    static func sRGBLinear(_ byte: UInt8) -> Double {
        let c = Double(byte) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// A one-photo HDR show (PQ unless `hdr` says HLG) of `size`, 1 s, x265 ultrafast, rendered
    /// into `output` with `change` made to its options, and its first frame in cd/m².
    static func renderedNits(_ photo: String, size: Size, hdr: HDRSetting = .pq, output: String,
                             change: (inout SlideshowOptions) -> Void = { _ in }) async throws -> [(Double, Double, Double)] {
        var options = SlideshowOptions(duration: 1, size: "\(size)")
        options.hdr = hdr
        options.preset = "ultrafast"
        change(&options)
        _ = try await options.slideshow(photos: [Photo(path: photo)], output: output).render()
        return try firstFrameNits(output, size: size, transfer: try #require(hdr.transfer))
    }

    /// The first frame of a video (or frame `frame`) in cd/m², BT.2020 linear, one triple a
    /// pixel, decoded by ffmpeg to 10-bit 4:2:0 and converted here. With `scaled`, ffmpeg turns
    /// it upright and scales it to `size` first (bicubic, in Y′CbCr, as the render's zimg does);
    /// with `clip`, light is clipped at the show's 1,000 cd/m² peak.
    static func firstFrameNits(_ path: String, size: Size, transfer: HDRTransfer, frame: Int = 0,
                               scaled: Bool = false, clip: Bool = false) throws -> [(Double, Double, Double)] {
        let ffmpeg = try #require(which("ffmpeg"))
        let scale = scaled ? ",scale=\(size.width):\(size.height):flags=bicubic" : ""
        let result = try run(ffmpeg, ["-v", "error", "-i", path, "-vf", "select=eq(n\\,\(frame))" + scale, "-frames:v", "1",
                                      "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-"])
        try #require(result.status == 0, "\(result.stderr)")
        let data = [UInt8](result.stdout)
        let (w, h) = (size.width, size.height)
        try #require(data.count == w * h * 3, "\(data.count) bytes")
        func sample(_ index: Int) -> Int { Int(data[index * 2]) | Int(data[index * 2 + 1]) << 8 }
        let chroma = w * h, chromaPlane = (w / 2) * (h / 2)
        var out: [(Double, Double, Double)] = []
        out.reserveCapacity(w * h)
        for y in 0..<h {
            for x in 0..<w {
                let c = (y / 2) * (w / 2) + x / 2
                let rgb = Self.rgb(y: sample(y * w + x), cb: sample(chroma + c), cr: sample(chroma + chromaPlane + c))
                let light = transfer == .pq ? (pqNits(rgb.0), pqNits(rgb.1), pqNits(rgb.2))
                    : hlgNits((max(0, rgb.0), max(0, rgb.1), max(0, rgb.2)))
                out.append(clip ? (min(1000, light.0), min(1000, light.1), min(1000, light.2)) : light)
            }
        }
        return out
    }
}

@Suite("HDR: gain maps, light and the HDR signal")
struct HDRLightTests {
    @Test("the shared HEIC's tmap reads as ISO 21496-1: one channel, base headroom 0, alternate 1.749733 stops")
    func tmapMetadata() throws {
        let path = try #require(gainMapHEIC, noGainMapHEIC)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let gainMap = try #require(HEIFGainMap.find(in: bytes))
        let metadata = try #require(gainMap.metadata)
        #expect(metadata.baseHeadroom == 0 && metadata.alternateHeadroom == 1.749733)
        #expect(metadata.useBaseColorSpace && metadata.channels.count == 1)
        #expect(metadata.channels[0] == GainMapMetadata.Channel(minimum: -0.734375, maximum: 1.749733, gamma: 1.112305,
                                                               baseOffset: 0.00001, alternateOffset: 0.00001))
        // The output's 2.3 stops of headroom are more than the map's 1.75: the whole gain.
        #expect(metadata.weight(forHeadroom: HDRSignal.headroom) == 1)
        #expect(metadata.weight(forHeadroom: 0.874_866_5) == 0.5)
        // A 2016x1512 grid of 4 x 3 tiles, turned by the same irot as the photo.
        #expect(gainMap.layout.size == Size(width: 2016, height: 1512) && gainMap.layout.columns == 4 && gainMap.layout.rows == 3)
        #expect(gainMap.rotation == 3 && gainMap.otherTransformations.isEmpty)
    }

    @Test("Apple's auxiliary gain map: the headroom from the MakerNote (tags 33 and 48) is the XMP's and the tmap's; applied as 1 + (headroom − 1)·g")
    func appleGainMap() throws {
        let path = try #require(gainMapHEIC, noGainMapHEIC)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let exif = try #require(HEIFBoxes.metadataItems(bytes).exif)
        let headroom = try #require(GainCurve.appleHeadroom(exif: exif))
        // MakerNote 33 = 1058986/1048501, 48 = 173256/94889: −0.303·48 + 2.303 stops.
        #expect(abs(headroom - exp2(-0.303 * (173256.0 / 94889) + 2.303)) < 1e-12)
        #expect(abs(headroom - 3.362963) < 1e-3)   // the gain map's XMP HDRGainMapHeadroom
        #expect(abs(log2(headroom) - 1.749733) < 1e-4)   // the tmap's alternate headroom
        // The same file with its tmap item hidden (its type renamed): Apple's gain map is found.
        var renamed = 0
        var index = 0
        while let range = bytes[index...].firstRange(of: Array("\0tmap".utf8)) {
            bytes[range.lowerBound + 4] = UInt8(ascii: "X")
            renamed += 1
            index = range.upperBound
        }
        #expect(renamed >= 1)
        let gainMap = try #require(HEIFGainMap.find(in: bytes))
        #expect(gainMap.metadata == nil && gainMap.layout.size == Size(width: 2016, height: 1512))
        let size = Size(width: 96, height: 128)
        let sdr = try ImageManager().requestImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit)
        let (gain, curve) = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFit))
        #expect(curve == .apple(headroom: headroom))
        let slide = HDRSlide.make(sdr, gain: gain, curve: curve, signal: HDRSignal(.pq))
        let m = [0.627404, 0.329283, 0.043313, 0.069097, 0.919540, 0.011362, 0.016391, 0.088013, 0.895595]
        var worst = 0.0, lifted = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let v = Double(gain[x, y].red) / 255
                let g = v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
                let factor = 1 + (headroom - 1) * g
                let p = sdr[x, y]
                let linear = [p.red, p.green, p.blue].map { ReferenceLight.sRGBLinear($0) * factor }
                let got = slide[x, y]
                for (channel, code) in [got.red, got.green, got.blue].enumerated() {
                    let expected = min(1000, max(0, 203 * (m[channel * 3] * linear[0] + m[channel * 3 + 1] * linear[1] + m[channel * 3 + 2] * linear[2])))
                    let measured = ReferenceLight.pqNits(Double(code) / 65535)
                    if expected > 1 { worst = max(worst, abs(measured - expected) / expected) }
                }
                if factor > 1.5 { lifted += 1 }
            }
        }
        #expect(worst < 0.01, "worst relative error \(worst)")
        #expect(lifted > 100, "\(lifted) pixels lifted by more than half a stop")
    }

    @Test("a fill crop is taken over by the gain map, in proportion: the centred crop of the photo is the gain map's own")
    func fillCropFollowed() throws {
        let path = try #require(gainMapHEIC, noGainMapHEIC)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let size = Size(width: 160, height: 90)
        let (sdr, crop) = try ImageManager().requestImageAndCrop(for: Photo(path: path), targetSize: size, contentMode: .aspectFill,
                                                                 background: .black, framing: .center)
        // A portrait photo filling a landscape frame: its whole width, a centred band of its height.
        #expect(crop.x == 0 && crop.width == 1 && abs(crop.height - 0.421875) < 0.01 && abs(crop.y - (1 - crop.height) / 2) < 0.01,
                "\(crop)")
        let followed = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFill, crop: crop))
        let own = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFill))
        let difference = zip(followed.buffer.pixels, own.buffer.pixels).map { abs(Int($0) - Int($1)) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 2, "mean difference \(Double(difference.reduce(0, +)) / Double(difference.count))")
        // Another part of the photo gives another map.
        let top = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFill, crop: (0, 0, 1, crop.height)))
        #expect(top.buffer.pixels != own.buffer.pixels)
    }

    @Test("reference white: PQ 203 cd/m² and HLG 75%; the curves' tables within a code of the exact curves")
    func signal() {
        let pq = HDRSignal(.pq), hlg = HDRSignal(.hlg)
        #expect(pq.encode(1, 1, 1).0 == UInt16((HDRSignal.pq(nits: 203) * 65535).rounded()))
        #expect(abs(Int(hlg.encode(1, 1, 1).0) - Int((0.75 * 65535).rounded())) <= 8)
        for relative in stride(from: Float(0.001), through: 4.9, by: 0.0137) {
            let code = Double(pq.encode(relative, relative, relative).0)
            let exact = HDRSignal.pq(nits: Double(relative) * 203) * 65535
            #expect(abs(code - exact) <= 2, "\(relative): \(code) against \(exact)")
        }
    }

    @Test("a caption's white stays at reference white over a lifted picture; its soft edge mixes in linear light")
    func captionAtReferenceWhite() {
        let size = Size(width: 8, height: 4)
        let sdr = PixelBuffer(size: size, filledWith: RGBColor(red: 200, green: 200, blue: 200))
        let gain = PixelBuffer(size: size, filledWith: RGBColor(red: 255, green: 255, blue: 255))
        let metadata = GainMapMetadata(baseHeadroom: 0, alternateHeadroom: 2, channels: [.init(minimum: 0, maximum: 2, gamma: 1, baseOffset: 0, alternateOffset: 0)],
                                       useBaseColorSpace: true)
        // A white caption over the left half: opaque in column 0–2, half covered in column 3.
        var pixels: [UInt8] = []
        for _ in 0..<4 { for x in 0..<4 { pixels += x < 3 ? [255, 255, 255, 255] : [128, 128, 128, 128] } }
        let overlay = TextOverlay(rect: Rect(x: 0, y: 0, width: 4, height: 4), pixels: pixels)
        let slide = HDRSlide.make(sdr, gain: gain, curve: .iso(metadata), signal: HDRSignal(.pq), overlay: overlay)
        let white = ReferenceLight.pqNits(Double(slide[1, 1].green) / 65535)
        #expect(abs(white - 203) < 0.5, "\(white)")
        // The picture beside it lifted by 2 stops (the whole gain: the output's 2.3 stops of headroom are more).
        let lifted = ReferenceLight.pqNits(Double(slide[6, 1].green) / 65535)
        let expected = 4 * 203 * ReferenceLight.sRGBLinear(200)
        #expect(abs(lifted - expected) / expected < 0.01, "\(lifted) against \(expected)")
        // Half covered: half the text's light and half the picture's.
        let edge = ReferenceLight.pqNits(Double(slide[3, 1].green) / 65535)
        #expect(abs(edge - (0.502 * 203 + 0.498 * expected)) / edge < 0.01, "\(edge)")
    }

    @Test("the gain map applied pixel by pixel as the ISO 21496-1 formula gives it, computed again here")
    func gainMapApplied() throws {
        let path = try #require(gainMapHEIC, noGainMapHEIC)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let size = Size(width: 96, height: 128)
        let sdr = try ImageManager().requestImage(for: Photo(path: path), targetSize: size, contentMode: .aspectFit)
        let (gain, gainCurve) = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFit))
        guard case .iso(let metadata) = gainCurve else { Issue.record("not the tmap's curve: \(gainCurve)"); return }
        #expect(gain.contentRect == sdr.contentRect)
        let slide = HDRSlide.make(sdr, gain: gain, curve: gainCurve, signal: HDRSignal(.pq))
        let m = [0.627404, 0.329283, 0.043313, 0.069097, 0.919540, 0.011362, 0.016391, 0.088013, 0.895595]
        var worst = 0.0, lifted = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                let pixel = sdr[x, y]
                let linear = referenceGainMapped(red: pixel.red, green: pixel.green, blue: pixel.blue, gain: gain[x, y].red, metadata: metadata)
                let nits = (0..<3).map { row in 203 * (m[row * 3] * linear[0] + m[row * 3 + 1] * linear[1] + m[row * 3 + 2] * linear[2]) }
                let got = slide[x, y]
                for (channel, code) in [got.red, got.green, got.blue].enumerated() {
                    let expected = min(1000, max(0, nits[channel]))
                    let measured = ReferenceLight.pqNits(Double(code) / 65535)
                    if expected > 1 { worst = max(worst, abs(measured - expected) / expected) }
                }
                if referenceFactor(gain[x, y].red, channel: 0, metadata: metadata) > 1.5 { lifted += 1 }
            }
        }
        #expect(worst < 0.01, "worst relative error \(worst)")
        #expect(lifted > 100, "\(lifted) pixels lifted by more than half a stop")
    }
}

@Suite("HDR shows: HEVC Main 10 read back by ffprobe, FFmpeg and libde265",
       .enabled(if: which("ffprobe") != nil && which("ffmpeg") != nil, "skipped: no ffmpeg/ffprobe"))
struct HDRShowTests {
    static let size = Size(width: 320, height: 240)

    /// A white PNG made by ffmpeg's lavfi, independent of the code under test.
    static func whitePhoto(in folder: TemporaryFolder) throws -> String { try solidPhoto("white", in: folder) }

    /// A 64x48 PNG of one colour (an ffmpeg colour name), made by ffmpeg's lavfi.
    static func solidPhoto(_ colour: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path("\(colour).png")
        let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-f", "lavfi", "-i", "color=\(colour):s=64x48", "-frames:v", "1", path])
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    static func render(_ photos: [String], transfer: HDRTransfer, folder: TemporaryFolder) async throws -> String {
        let output = folder.path("hdr-\(transfer.rawValue).mp4")
        var options = SlideshowOptions(duration: Double(photos.count), size: "\(size)")
        options.hdr = transfer == .pq ? .pq : .hlg
        options.preset = "ultrafast"
        let show = try options.slideshow(photos: photos.map(Photo.init(path:)), output: output)
        #expect(show.video.codec == .hevc && show.video.hdr == transfer)
        _ = try await show.render()
        return output
    }

    @Test("the stream: HEVC Main 10, hvc1, 10-bit 4:2:0, BT.2020, PQ or HLG; PQ's mastering display and light level; held frames ≤ 100 bytes",
          arguments: HDRTransfer.allCases)
    func stream(transfer: HDRTransfer) async throws {
        let folder = try TemporaryFolder()
        let output = try await Self.render([try Self.whitePhoto(in: folder), TestEnvironment.sample("landscape.jpg")], transfer: transfer, folder: folder)
        let probed = try ProbedVideo(path: output)
        #expect(probed.decodedFrames == 60)
        #expect(probed.stream["codec_name"] == "hevc" && probed.stream["profile"] == "Main 10")
        #expect(probed.stream["codec_tag_string"] == "hvc1" && probed.stream["pix_fmt"] == "yuv420p10le")
        #expect(probed.stream["color_space"] == "bt2020nc" && probed.stream["color_primaries"] == "bt2020")
        #expect(probed.stream["color_transfer"] == (transfer == .pq ? "smpte2084" : "arib-std-b67"))
        #expect(probed.stream["color_range"] == "tv")
        // The MP4's colr nclx: primaries 9, transfer 16 or 18, matrix 9, limited range.
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
        let colr = try #require(file.firstRange(of: Array("colrnclx".utf8)))
        #expect(Array(file[colr.upperBound..<colr.upperBound + 7]) == [0, 9, 0, transfer == .pq ? 16 : 18, 0, 9, 0])
        // The first frame's side data: HDR10's static metadata, from x265's SEI.
        let ffprobe = try #require(which("ffprobe"))
        let frames = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_frames",
                                       "-show_entries", "frame=key_frame:side_data", "-of", "default=nw=1", output])
        let text = String(decoding: frames.stdout, as: UTF8.self)
        if transfer == .pq {
            #expect(text.contains("side_data_type=Mastering display metadata") && text.contains("max_luminance=10000000/10000"))
            #expect(text.contains("red_x=34000/50000") && text.contains("white_point_x=15635/50000"))
            #expect(text.contains("side_data_type=Content light level metadata") && text.contains("max_content=1000") && text.contains("max_average=400"))
        } else {
            #expect(!text.contains("Mastering display"))
        }
        // Two IDRs; every other packet a held frame of a few bytes.
        let packets = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size,flags", "-of", "csv=p=0", output])
        let rows = String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n").map { $0.split(separator: ",") }
        #expect(rows.count == 60)
        let held = rows.filter { !$0[1].hasPrefix("K") }.compactMap { Int($0[0]) }
        #expect(held.count == 58 && held.allSatisfy { $0 <= 100 }, "\(held.max() ?? -1) bytes")
        // MediaInfo, a second reader of the tags (installed by make deps; skipped without it).
        if let mediainfo = which("mediainfo") {
            let info = try run(mediainfo, ["--Output=JSON", output])
            let json = try #require(try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])
            let tracks = try #require((json["media"] as? [String: Any])?["track"] as? [[String: Any]])
            let video = try #require(tracks.first { $0["@type"] as? String == "Video" })
            #expect(video["Format"] as? String == "HEVC" && video["Format_Profile"] as? String == "Main 10" && video["CodecID"] as? String == "hvc1")
            #expect(video["BitDepth"] as? String == "10" && video["colour_primaries"] as? String == "BT.2020")
            #expect(video["matrix_coefficients"] as? String == "BT.2020 non-constant")
            #expect(video["transfer_characteristics"] as? String == (transfer == .pq ? "PQ" : "HLG"))
            if transfer == .pq {
                #expect(video["MasteringDisplay_ColorPrimaries"] as? String == "Display P3")
                #expect(video["MasteringDisplay_Luminance"] as? String == "min: 0.0001 cd/m2, max: 1000 cd/m2")
                #expect(video["MaxCLL"] as? String == "1000 cd/m2" && video["MaxFALL"] as? String == "400 cd/m2")
            }
        }
    }

    @Test("an SDR photo's white decodes back to 203 ± 10 cd/m², in PQ and in HLG", arguments: HDRTransfer.allCases)
    func referenceWhite(transfer: HDRTransfer) async throws {
        let folder = try TemporaryFolder()
        let output = try await Self.render([try Self.whitePhoto(in: folder)], transfer: transfer, folder: folder)
        let nits = try ReferenceLight.firstFrameNits(output, size: Self.size, transfer: transfer)
        // The photo fills the frame (64x48 is 4:3, as 320x240).
        let mean = nits.map(ReferenceLight.luminance).reduce(0, +) / Double(nits.count)
        #expect(abs(mean - 203) <= 10, "\(mean) cd/m²")
        // Held frames are the picture exactly.
        let last = try ReferenceLight.firstFrameNits(output, size: Self.size, transfer: transfer, frame: 29)
        #expect(last.map(ReferenceLight.luminance) == nits.map(ReferenceLight.luminance))
    }

    @Test("the gain-mapped HEIC's highlights decode back within 10% of the formula's light, in PQ and HLG; libde265 decodes every frame",
          .enabled(if: gainMapHEIC != nil, noGainMapHEIC), arguments: HDRTransfer.allCases)
    func gainMappedHighlights(transfer: HDRTransfer) async throws {
        let path = try #require(gainMapHEIC)
        let folder = try TemporaryFolder()
        let size = Size(width: 240, height: 320)  // the photo is a portrait
        let output = folder.path("gain.mp4")
        let decoded = try await ReferenceLight.renderedNits(path, size: size, hdr: transfer == .pq ? .pq : .hlg, output: output)
        // The reference: the slide in the photo's own Display P3 codes (an HDR show keeps its
        // gamut: HDRGamutTests) and the fitted gain map, through the formula here.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var gamut = WideGamut.sRGB
        let sdr = try ImageManager().requestImageAndCrop(for: Photo(path: path), targetSize: size, contentMode: .aspectFit,
                                                         background: .black, framing: .center, gamut: { gamut = $0 }).slide
        #expect(!gamut.isSRGB, "the iPhone photo is Display P3")
        let (gain, gainCurve) = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFit))
        guard case .iso(let metadata) = gainCurve else { Issue.record("not the tmap's curve: \(gainCurve)"); return }
        func referenceLuminance(_ x: Int, _ y: Int) -> Double {
            let p = sdr[x, y]
            // BT.2020 luminance of Display P3 light: P3's luminance weights (SMPTE EG 432-1, D65).
            let linear = referenceGainMapped(red: p.red, green: p.green, blue: p.blue, gain: gain[x, y].red, metadata: metadata)
            return min(1000, 203 * (0.228975 * linear[0] + 0.691739 * linear[1] + 0.079287 * linear[2]))
        }
        // 4x4 blocks wholly in the highlights (over 1.2 x reference white: light an SDR photo cannot hold).
        var blocks = 0, within = 0, sdrBlocks = 0, sdrWithin = 0, errors: [Double] = []
        for by in stride(from: 0, to: size.height, by: 4) {
            for bx in stride(from: 0, to: size.width, by: 4) {
                var reference = 0.0, measured = 0.0, brightest = 0.0, darkest = Double.infinity
                for y in by..<by + 4 {
                    for x in bx..<bx + 4 {
                        let r = referenceLuminance(x, y)
                        reference += r
                        brightest = max(brightest, r)
                        darkest = min(darkest, r)
                        measured += ReferenceLight.luminance(decoded[y * size.width + x])
                    }
                }
                if darkest > 1.2 * 203 {
                    blocks += 1
                    errors.append(abs(measured - reference) / reference)
                    if abs(measured - reference) / reference <= 0.10 { within += 1 }
                } else if darkest > 20, brightest < 203 {
                    sdrBlocks += 1
                    if abs(measured - reference) / reference <= 0.10 { sdrWithin += 1 }
                }
            }
        }
        errors.sort()
        print("HDR \(transfer) highlights: \(within) of \(blocks) blocks within 10%, median error \(errors.isEmpty ? 0 : errors[errors.count / 2]), worst \(errors.last ?? 0); SDR range \(sdrWithin) of \(sdrBlocks)")
        #expect(blocks >= 20, "\(blocks) highlight blocks")
        #expect(Double(within) >= 0.95 * Double(blocks), "\(within) of \(blocks) highlight blocks within 10%")
        #expect(Double(sdrWithin) >= 0.95 * Double(sdrBlocks), "\(sdrWithin) of \(sdrBlocks) SDR-range blocks within 10%")
        if LibDe265Check.launcher != nil {
            let frames = try LibDe265Check.frames(of: output, size: size, folder: folder)
            #expect(frames.count == 30)
            #expect(frames.dropFirst().allSatisfy { $0 == frames[0] }, "libde265's held frames are its first")
        }
    }

    @Test("a dissolve mixes light: halfway from white (203 cd/m²) to black is half the light, in PQ; a fade out ends in black")
    func dissolveInLinearLight() async throws {
        let folder = try TemporaryFolder()
        let black = folder.path("black.png")
        let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-f", "lavfi", "-i", "color=black:s=64x48", "-frames:v", "1", black])
        try #require(made.status == 0)
        var options = SlideshowOptions(duration: 2, size: "\(Self.size)")
        options.hdr = .pq
        options.preset = "ultrafast"
        options.transition = .fade
        options.transitionDuration = 1
        options.fadeIn = 0.5
        let output = folder.path("dissolve.mp4")
        _ = try await options.slideshow(photos: [Photo(path: try Self.whitePhoto(in: folder)), Photo(path: black)], output: output).render()
        #expect(try ProbedVideo(path: output).decodedFrames == 60)
        func mean(_ frame: Int) throws -> Double {
            let nits = try ReferenceLight.firstFrameNits(output, size: Self.size, transfer: .pq, frame: frame)
            return nits.map(ReferenceLight.luminance).reduce(0, +) / Double(nits.count)
        }
        // The dissolve spans frames 15–44, centred on the cut at 30: frame f shows (44.5 − f)/30 of the white.
        for frame in [20, 29, 30, 40] {
            let expected = 203 * (44.5 - Double(frame)) / 30
            let measured = try mean(frame)
            #expect(abs(measured - expected) / expected < 0.05, "frame \(frame): \(measured) cd/m² against \(expected)")
        }
        // The fade in: frame 7 of 15 shows half the light (7.5 / 15).
        let faded = try mean(7)
        #expect(abs(faded - 203 * 7.5 / 15) / (203 * 7.5 / 15) < 0.05, "\(faded)")
        #expect(try mean(50) < 0.5)
    }

    @Test("an HDR show refuses what it cannot hold yet, naming the setting; SDR stays H.264")
    func refusals() throws {
        var options = SlideshowOptions()
        #expect(try options.slideshow(photos: [Photo(path: "a.jpg")], output: "a.mp4").video.codec == .h264)
        options.hdr = .hlg
        options.transition = .fade
        options.fadeIn = 1
        #expect(try options.slideshow(photos: [Photo(path: "a.jpg"), Photo(path: "b.jpg")], output: "a.mp4").video.hdr == .hlg)
        options.fadeIn = 0
        // Wipes, slides, circles and the date stamp are drawn (HDRTransitionTests).
        options.transition = .wipeleft
        options.dateStamp = true
        #expect(try options.slideshow(photos: [Photo(path: "a.jpg"), Photo(path: "b.jpg")], output: "a.mp4").video.hdr == .hlg)
        options.transition = .none
        options.dateStamp = false
        // Motion moves the lifted picture (HDRMotionTests).
        options.motion = .kenburns
        #expect(try options.slideshow(photos: [Photo(path: "a.jpg")], output: "a.mp4").video.hdr == .hlg)
        options.motion = .none
        // Motion photos play as clips do (HDRCLITests).
        options.motionPhotos = .play
        #expect(try options.slideshow(photos: [Photo(path: "a.jpg")], output: "a.mp4").video.hdr == .hlg)
        options.motionPhotos = .still
        #expect(throws: OptionError.self) { try options.slideshow(photos: [Photo(path: "a.jpg")], output: "a.gif") }
        // Looks, blur fill, captions and cards are the SDR slide's, lifted.
        options.filter = "sepia"
        options.fit = .blur
        options.captions = ["Lisbon"]
        options.titleCard = "Summer"
        #expect(try options.slideshow(photos: [Photo(path: "a.jpg")], output: "a.mp4").video.hdr == .hlg)
    }
}

/// libde265's own decoder (`libde265-dec265`, Debian's libde265-examples): a second HEVC
/// decoder, independent of libavcodec, that decodes Main 10. (GStreamer's `libde265dec` offers
/// 8-bit I420 alone and aborts on 10-bit streams with moving pictures: "corrupted size vs.
/// prev_size" on a 10-frame 320x240 stream of ffmpeg's own libx265.)
enum LibDe265Check {
    static let launcher: String? = which("libde265-dec265")

    /// Every frame libde265 decodes, 10-bit 4:2:0 (two bytes a sample, as FFmpeg's
    /// `yuv420p10le`): the MP4's stream taken out as Annex B by FFmpeg (no decoding), then decoded.
    static func frames(of path: String, size: Size, folder: TemporaryFolder) throws -> [Data] {
        let stream = folder.path("de265.265"), output = folder.path("de265.yuv")
        let extracted = try run(try #require(which("ffmpeg")), ["-v", "error", "-y", "-i", path, "-map", "0:v:0", "-c", "copy",
                                                                "-bsf:v", "hevc_mp4toannexb", "-f", "hevc", stream])
        try #require(extracted.status == 0, "ffmpeg: \(extracted.stderr)")
        let result = try run(try #require(launcher), ["-q", "-o", output, stream], timeout: 300)
        try #require(result.status == 0, "libde265-dec265: \(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let frameBytes = size.width * size.height * 3
        return stride(from: 0, to: data.count - frameBytes + 1, by: frameBytes).map { data.subdata(in: $0..<$0 + frameBytes) }
    }
}
