import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowPixels
import SlideshowWriter

/// Issue 25: a motion run's P frames are encoded without x264's mixed references; the stills
/// encoder's settings are the same in every show.
@Suite("x264's settings for composed frames")
struct EncoderSettingsTests {
    /// Preset medium's mixed references, as x264 had them before issue 25.
    static let medium = "mixed-refs=1"
    static let size = Size(width: 640, height: 360)

    /// Two sample photos letterboxed into 640x360 and `steps` dissolve frames between them (a plain RGB mix).
    static func fade(steps: Int) throws -> (a: PixelBuffer, b: PixelBuffer, between: [PixelBuffer]) {
        let manager = ImageManager()
        let a = try manager.requestImage(for: Photo(path: TestEnvironment.sample("landscape.jpg")), targetSize: size, contentMode: .aspectFit)
        let b = try manager.requestImage(for: Photo(path: TestEnvironment.sample("square.jpg")), targetSize: size, contentMode: .aspectFit)
        let between = (1...steps).map { step in
            let weight = step * 256 / (steps + 1)
            let pixels = zip(a.pixels, b.pixels).map { UInt8((Int($0) * (256 - weight) + Int($1) * weight + 128) >> 8) }
            return PixelBuffer(size: size, pixels: pixels)
        }
        return (a, b, between)
    }

    /// Encodes A (IDR at 0), the dissolve (P frames 1…) and B, and B again as an IDR after a
    /// hold, and returns each packet's bytes by frame.
    static func encode(_ fade: (a: PixelBuffer, b: PixelBuffer, between: [PixelBuffer]), pFrameOptions: String) throws -> [Int64: [UInt8]] {
        let encoder = try H264Encoder(settings: VideoSettings(size: size), globalHeader: true, role: .motion, pFrameOptions: pFrameOptions)
        let converter = try ColorConverter(size: size)
        var packets: [Int64: [UInt8]] = [:]
        func drain() throws {
            while try encoder.receive({ packet in
                packets[packet.pointee.pts] = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
            }) == .packet {}
        }
        let pictures = [fade.a] + fade.between + [fade.b]
        for (index, picture) in pictures.enumerated() {
            let converted = try converter.convert(picture)
            #expect(try encoder.send(converted.frame, pts: Int64(index), forceKey: index == 0))
            try drain()
        }
        let again = try converter.convert(fade.b)
        #expect(try encoder.send(again.frame, pts: 100, forceKey: true))
        try drain()
        try encoder.sendEndOfStream()
        while try encoder.receive({ packet in
            packets[packet.pointee.pts] = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
        }) != .endOfStream {}
        return packets
    }

    /// A packet without its SEI units (x264's settings text), as Annex B.
    static func withoutSEI(_ packet: [UInt8]) -> [[UInt8]] {
        NALUnit.split(annexB: packet).filter { NALUnit.type(of: $0) != 6 }
    }

    @Test("the stills encoder's x264-params: no lookahead, sliced threads, whether frames are composed or not; x264's defaults when every frame is encoded")
    func parameters() {
        #expect(VideoSettings().x264Parameters
                == "bframes=0:threads=2:rc-lookahead=0:sync-lookahead=0:mbtree=0:scenecut=0:sliced-threads=1")
        #expect(VideoSettings(hold: .encode).x264Parameters == "bframes=0:threads=2")
        // Without motion runs (a show with a 4K clip) the one encoder takes the moving frames as P frames.
        var oneEncoder = VideoSettings()
        oneEncoder.motionRuns = false
        #expect(oneEncoder.x264Parameters == "bframes=0:threads=2:rc-lookahead=0:sync-lookahead=0:mbtree=0:scenecut=0:sliced-threads=1:mixed-refs=0")
        var cuts = VideoSettings()
        cuts.composesFrames = false
        #expect(cuts.x264Parameters == "bframes=0:threads=2:rc-lookahead=0:sync-lookahead=0:mbtree=0:scenecut=0:sliced-threads=1")
    }

    @Test("the file's own record of x264's settings says no mixed references (mixed_ref=0), the rest as medium/stillimage has it")
    func recordedInFile() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("fade.mp4")
        let fade = try Self.fade(steps: 6)
        try await writeVideo(to: path, settings: VideoSettings(size: Self.size), pictures: [fade.a] + fade.between + [fade.b],
                             starts: Array(0...7).map { Int64($0) }, endFrame: 12)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(text.contains(" mixed_ref=0 "))
        #expect(text.contains(" analyse=0x3:0x113 "))
        #expect(text.contains(" ref=3 ") && text.contains(" subme=7 ") && text.contains(" psy_rd=2.00:0.70 ") && text.contains(" sliced_threads=1 "))
    }

    @Test("held pictures in a show that composes frames are coded as in a show of cuts: the first the same bytes, the others within 5%")
    func heldPicturesAsInCuts() async throws {
        let fade = try Self.fade(steps: 3)
        let folder = try TemporaryFolder()
        // A held 0–39, a dissolve 40–42, B held 43–99, C held 100–129; and the same holds as cuts.
        var composing = VideoSettings(size: Self.size)
        composing.composesFrames = true
        try await writeVideo(to: folder.path("composing.mp4"), settings: composing, pictures: [fade.a] + fade.between + [fade.b, fade.a],
                             starts: [0, 40, 41, 42, 43, 100], endFrame: 130)
        var cuts = composing
        cuts.composesFrames = false
        try await writeVideo(to: folder.path("cuts.mp4"), settings: cuts, pictures: [fade.a, fade.b, fade.a], starts: [0, 43, 100], endFrame: 130)
        func keyPackets(_ name: String) throws -> [Int: Int] {
            let ffprobe = try #require(which("ffprobe"))
            let listing = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,size,flags",
                                            "-of", "csv=p=0", folder.path(name)])
            var sizes: [Int: Int] = [:]
            for line in String(decoding: listing.stdout, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: ",")
                if fields[2].hasPrefix("K"), let time = Double(fields[0]), let size = Int(fields[1]) { sizes[Int((time * 30).rounded())] = size }
            }
            return sizes
        }
        let held = try keyPackets("composing.mp4"), alone = try keyPackets("cuts.mp4")
        #expect(Set(held.keys) == [0, 40, 43, 100] && Set(alone.keys) == [0, 43, 100])
        // The first packet carries each file's settings text: 8 bytes apart at most.
        #expect(abs(try #require(held[0]) - (try #require(alone[0]))) <= 8)
        // The copy of A that ends its hold (WriterEngine.endHold, an IDR not written, lasting a
        // second on the stills encoder's clock) is one more picture in x264's rate history:
        // the next held pictures' quantisers move a little.
        for frame in [43, 100] {
            let (a, b) = (try #require(held[frame]), try #require(alone[frame]))
            #expect(abs(a - b) * 20 <= b, "frame \(frame): \(a) bytes composing, \(b) in cuts")
        }
    }

    @Test("the dissolve's P frames: within 1% of the bytes without mixed references, and the show within its bounds of size and SSIM")
    func dissolveBytesAndQuality() async throws {
        let fade = try Self.fade(steps: 10)
        let now = try Self.encode(fade, pFrameOptions: H264Encoder.pFrameOptions)
        let before = try Self.encode(fade, pFrameOptions: Self.medium)
        let pFrames = (1...11).map(Int64.init)
        let ours = pFrames.reduce(0) { $0 + (now[$1]?.count ?? 0) }
        let medium = pFrames.reduce(0) { $0 + (before[$1]?.count ?? 0) }
        #expect(now.count == 13 && before.count == 13)
        #expect(abs(ours - medium) * 100 <= medium, "P frames: \(ours) bytes without mixed references, \(medium) with")

        // The written show against its own pictures (ffmpeg's ssim filter, the pictures
        // converted to BT.709 limited range by ffmpeg): picture i shown at frame i, B held to 20.
        guard let ffmpeg = which("ffmpeg") else { throw ProbeError.noFFprobe }
        let folder = try TemporaryFolder()
        let path = folder.path("fade.mp4"), reference = folder.path("reference.rgb")
        let pictures = [fade.a] + fade.between + [fade.b]
        try await writeVideo(to: path, settings: VideoSettings(size: Self.size), pictures: pictures,
                             starts: pictures.indices.map { Int64($0) }, endFrame: 20)
        let frames = pictures + Array(repeating: fade.b, count: 20 - pictures.count)
        try Data(frames.flatMap(\.pixels)).write(to: URL(fileURLWithPath: reference))
        let result = try run(ffmpeg, ["-hide_banner", "-nostats", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "640x360", "-r", "30", "-i", reference,
                                      "-lavfi", "[1:v]scale=out_color_matrix=bt709:out_range=tv,format=yuv420p[r];[0:v][r]ssim", "-f", "null", "-"])
        let all = result.stderr.split(separator: "\n").last { $0.contains("SSIM Y:") }?
            .split(separator: " ").first { $0.hasPrefix("All:") }.flatMap { Double($0.dropFirst(4)) }
        let ssim = try #require(all)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let bytes = try #require(attributes[.size] as? Int)
        #expect(ssim >= 0.975, "SSIM \(ssim)")  // 0.9779: the conversions of ffmpeg and ours differ slightly too
        #expect(bytes <= 141_500, "\(bytes) bytes")  // 140,409
    }
}
