import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowColor
import SlideshowCompositor
import SlideshowFormats
@testable import SlideshowImages
import SlideshowPixels
import SlideshowPlan

private let gainMapHEIC = TestEnvironment.sharedClip("livephoto_iphone15pro_IMG_4394.HEIC")

/// Ken Burns in an HDR show (issue 35): the lifted picture resampled on its code values.
@Suite("HDR motion: the resample of an HDR picture's code values")
struct HDRResampleTests {
    /// A 64x16 picture: black on the left half, 1,000 cd/m² white on the right (PQ codes).
    static func edge(signal: HDRSignal) -> HDRPixelBuffer {
        let white = signal.encode(1000 / 203, 1000 / 203, 1000 / 203)
        var samples = [UInt16](repeating: 0, count: 64 * 16 * 3)
        for y in 0..<16 {
            for x in 32..<64 {
                let o = (y * 64 + x) * 3
                (samples[o], samples[o + 1], samples[o + 2]) = white
            }
        }
        return HDRPixelBuffer(size: Size(width: 64, height: 16), samples: samples)
    }

    static func resampled(_ source: DeepPlanarPicture, view: (x: Double, y: Double, width: Double, height: Double), to size: Size,
                          plainC: Bool = false) throws -> [UInt16] {
        var frame = [UInt16](repeating: 1, count: size.width * size.height * 3)
        try frame.withUnsafeMutableBufferPointer { buffer in
            try MotionResampler.resample(source, view: view, into: buffer.baseAddress!, frameWidth: size.width, content: Rect(size),
                                         plainC: plainC)
        }
        return frame
    }

    @Test("a zoom over a sharp 1,000 cd/m² edge neither rings nor bands: every sample within the edge's two codes, each row monotone; zimg's SIMD and C kernels agree",
          arguments: HDRTransfer.allCases)
    func edgeDoesNotRing(transfer: HDRTransfer) throws {
        let signal = HDRSignal(transfer)
        let picture = Self.edge(signal: signal)
        let source = DeepPlanarPicture(picture)
        let white = picture[63, 0].red
        // Enlarging (a view of 40.3 pixels onto 48), reducing (64 onto 40), at fractional positions.
        for (view, size) in [((x: 11.7, y: 0.4, width: 40.3, height: 12.1), Size(width: 48, height: 12)),
                             ((x: 0.0, y: 0.0, width: 64.0, height: 16.0), Size(width: 40, height: 10))] {
            let frame = try Self.resampled(source, view: view, to: size)
            #expect(frame.allSatisfy { $0 <= white }, "overshoot above \(white): \(frame.max() ?? 0)")
            for y in 0..<size.height {
                let row = (0..<size.width).map { frame[(y * size.width + $0) * 3 + 1] }
                #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "row \(y) not monotone: \(row)")
                #expect(row.first == 0 && row.last == white)
            }
            // The picture's middle stays where it is: the view's two sides are the source's.
            let plain = try Self.resampled(source, view: view, to: size, plainC: true)
            #expect(plain == frame, "SIMD and C differ")
            // The edge: how far resampling the codes lands from resampling light (printed, not a bound).
            let light = signal.mixingLight
            let edgeCodes = (0..<size.width).map { frame[$0 * 3 + 1] }.filter { $0 > 0 && $0 < white }
            print("HDR \(transfer) resample \(view.width)→\(size.width): edge codes \(edgeCodes), light \(edgeCodes.map { light[Int($0)] / light[Int(white)] }) of white")
        }
    }
}

@Suite("HDR motion: Ken Burns in an HDR show, decoded back by ffmpeg and libde265",
       .enabled(if: which("ffprobe") != nil && which("ffmpeg") != nil, "skipped: no ffmpeg/ffprobe"))
struct HDRMotionShowTests {
    static let size = Size(width: 240, height: 320)   // the HEIC is a portrait (3:4)
    static let zoom = 0.3

    /// Bilinear sample of a `size` map at (x, y) in pixel centres.
    static func bilinear(_ map: [Double], _ size: Size, _ x: Double, _ y: Double) -> Double {
        let fx = min(max(x, 0), Double(size.width - 1)), fy = min(max(y, 0), Double(size.height - 1))
        let x0 = Int(fx), y0 = Int(fy), x1 = min(x0 + 1, size.width - 1), y1 = min(y0 + 1, size.height - 1)
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let top = map[y0 * size.width + x0] * (1 - ax) + map[y0 * size.width + x1] * ax
        let bottom = map[y1 * size.width + x0] * (1 - ax) + map[y1 * size.width + x1] * ax
        return top * (1 - ay) + bottom * ay
    }

    @Test("zoom-in: the gain-mapped highlights keep their light (within 10% of the formula's, zoomed) at the first and last frames of the move, SDR white at 203 ± 10 cd/m² while it moves, every moving frame differs from the next, held frames ≤ 100 bytes; libde265 decodes every frame",
          .enabled(if: gainMapHEIC != nil, "skipped: ../shared/clips/livephoto_iphone15pro_IMG_4394.HEIC is absent"),
          arguments: HDRTransfer.allCases)
    func zoomIn(transfer: HDRTransfer) async throws {
        let heic = try #require(gainMapHEIC)
        let folder = try TemporaryFolder()
        let white = folder.path("white.png")
        let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-f", "lavfi", "-i", "color=white:s=48x64", "-frames:v", "1", white])
        try #require(made.status == 0, "\(made.stderr)")
        let size = Self.size
        var options = SlideshowOptions(duration: 3, size: "\(size)")
        options.hdr = transfer == .pq ? .pq : .hlg
        options.preset = "ultrafast"
        options.motion = .zoomIn
        options.zoom = Self.zoom
        let output = folder.path("moving.mp4")
        var show = try options.slideshow(photos: [heic, white, TestEnvironment.sample("landscape.jpg")].map(Photo.init(path:)), output: output)
        // The third photo holds still.
        show.photoSettings = [PhotoSettings(), PhotoSettings(), PhotoSettings(motion: MotionStyle.none)]
        _ = try await show.render()
        #expect(try ProbedVideo(path: output).decodedFrames == 90)

        // The reference: the still slide in the photo's own Display P3 codes (an HDR show keeps its
        // gamut) and its gain map through the ISO 21496-1 formula, in cd/m².
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: heic)))
        let sdr = try ImageManager().requestImageAndCrop(for: Photo(path: heic), targetSize: size, contentMode: .aspectFit,
                                                         background: .black, framing: .center, gamut: { _ in }).slide
        let (gain, gainCurve) = try #require(ImageManager.fittedGainMap(bytes, like: sdr, contentMode: .aspectFit))
        guard case .iso(let metadata) = gainCurve else { Issue.record("not the tmap's curve: \(gainCurve)"); return }
        var reference = [Double](repeating: 0, count: size.width * size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let p = sdr[x, y]
                let linear = referenceGainMapped(red: p.red, green: p.green, blue: p.blue, gain: gain[x, y].red, metadata: metadata)
                // BT.2020 luminance of Display P3 light: P3's luminance weights.
                reference[y * size.width + x] = min(1000, 203 * (0.228975 * linear[0] + 0.691739 * linear[1] + 0.079287 * linear[2]))
            }
        }
        func luminance(_ frame: Int) throws -> [Double] {
            try ReferenceLight.firstFrameNits(output, size: size, transfer: transfer, frame: frame).map(ReferenceLight.luminance)
        }
        // Frame f of the first photo's 30 shows the view at motion time (f + ½)/30: scale (1/1.3)^t about the centre.
        for frame in [0, 29] {
            let scale = pow(1 / (1 + Self.zoom), (Double(frame) + 0.5) / 30)
            let (cx, cy) = (Double(size.width) / 2, Double(size.height) / 2)
            let decoded = try luminance(frame)
            var blocks = 0, within = 0
            for by in stride(from: 0, to: size.height, by: 4) {
                for bx in stride(from: 0, to: size.width, by: 4) {
                    var expected = 0.0, measured = 0.0, darkest = Double.infinity
                    for y in by..<by + 4 {
                        for x in bx..<bx + 4 {
                            let r = Self.bilinear(reference, size, cx + (Double(x) + 0.5 - cx) * scale - 0.5,
                                                  cy + (Double(y) + 0.5 - cy) * scale - 0.5)
                            expected += r
                            darkest = min(darkest, r)
                            measured += decoded[y * size.width + x]
                        }
                    }
                    guard darkest > 1.2 * 203 else { continue }
                    blocks += 1
                    if abs(measured - expected) / expected <= 0.10 { within += 1 }
                }
            }
            print("HDR \(transfer) zoom-in frame \(frame): \(within) of \(blocks) highlight blocks within 10%")
            #expect(blocks >= 20, "frame \(frame): \(blocks) highlight blocks")
            #expect(Double(within) >= 0.95 * Double(blocks), "frame \(frame): \(within) of \(blocks) highlight blocks within 10%")
        }
        // The white photo moves (frames 30–59) and stays at reference white: its 48x64 is the frame's 3:4.
        for frame in [30, 59] {
            let decoded = try luminance(frame)
            let mean = decoded.reduce(0, +) / Double(decoded.count)
            #expect(abs(mean - 203) <= 10, "frame \(frame): \(mean) cd/m²")
        }
        // The picture moves: every frame of the gain-mapped photo's zoom differs from the next.
        let ffmpeg = try #require(which("ffmpeg"))
        let raw = try run(ffmpeg, ["-v", "error", "-i", output, "-frames:v", "30", "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-"])
        try #require(raw.status == 0)
        let frameBytes = size.width * size.height * 3
        let frames = stride(from: 0, to: raw.stdout.count - frameBytes + 1, by: frameBytes).map { raw.stdout.subdata(in: $0..<$0 + frameBytes) }
        #expect(frames.count == 30)
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0 != $1 }, "a frame of the zoom repeats the one before")
        // The held photo (frames 60–89): its first frame a picture, the others a few bytes.
        let ffprobe = try #require(which("ffprobe"))
        let packets = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", output])
        let sizes = String(decoding: packets.stdout, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(sizes.count == 90)
        let held = Array(sizes[61...])
        #expect(held.allSatisfy { $0 <= 100 }, "held frames up to \(held.max() ?? -1) bytes")
        #expect(sizes[1..<30].allSatisfy { $0 > 100 }, "moving frames: \(Array(sizes[1..<30]))")
        if LibDe265Check.launcher != nil {
            let decoded = try LibDe265Check.frames(of: output, size: size, folder: folder)
            #expect(decoded.count == 90)
            #expect(Array(decoded.prefix(30)) == frames, "libde265's moving frames are not FFmpeg's")
        }
    }

    @Test("a dissolve between two moving pictures mixes light: halfway from a moving white (203 cd/m²) to a moving black is half the light, in PQ")
    func dissolveBetweenMovingPictures() async throws {
        let folder = try TemporaryFolder()
        var photos: [String] = []
        for colour in ["white", "black"] {
            let path = folder.path("\(colour).png")
            let made = try run(try #require(which("ffmpeg")), ["-v", "error", "-f", "lavfi", "-i", "color=\(colour):s=48x64", "-frames:v", "1", path])
            try #require(made.status == 0)
            photos.append(path)
        }
        var options = SlideshowOptions(duration: 2, size: "\(Self.size)")
        options.hdr = .pq
        options.preset = "ultrafast"
        options.transition = .fade
        options.transitionDuration = 1
        options.motion = .zoomIn
        let output = folder.path("dissolve.mp4")
        _ = try await options.slideshow(photos: photos.map(Photo.init(path:)), output: output).render()
        // The dissolve spans frames 15–44: frame f shows (44.5 − f)/30 of the white.
        for frame in [20, 29, 40] {
            let nits = try ReferenceLight.firstFrameNits(output, size: Self.size, transfer: .pq, frame: frame)
            let measured = nits.map(ReferenceLight.luminance).reduce(0, +) / Double(nits.count)
            let expected = 203 * (44.5 - Double(frame)) / 30
            #expect(abs(measured - expected) / expected < 0.05, "frame \(frame): \(measured) cd/m² against \(expected)")
        }
    }
}
