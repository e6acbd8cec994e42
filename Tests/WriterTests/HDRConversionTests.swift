import Foundation
import Testing
import TestSupport
import SlideshowPixels
import SlideshowWriter

/// The HDR pictures' own RGB48 → 10-bit 4:2:0 conversion (``ColorConverter/convert(_:)-(HDRPixelBuffer)``)
/// against the BT.2020 formula computed here in doubles (within one code value), and against
/// libswscale's, which it replaces for speed (ffmpeg's `scale` filter with the same matrix,
/// ranges and flags on the same samples): libswscale's 16-bit path rounds up to 3 code values
/// off the formula on these samples.
@Suite("HDR pictures convert to 10-bit BT.2020 4:2:0 as libswscale does", .enabled(if: which("ffmpeg") != nil, "skipped: no ffmpeg"))
struct HDRConversionTests {
    @Test func sameAsLibswscaleWithinOneCodeValue() throws {
        let size = Size(width: 16, height: 8)
        // Ramps, a bright block and pure primaries: every code value range the video carries.
        var samples: [UInt16] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                switch (x / 4, y / 4) {
                case (0, _): samples += [UInt16(x * 4000 + y * 1000), UInt16(y * 7000), UInt16(x * 3000)]
                case (1, 0): samples += [65535, 0, 0]
                case (1, 1): samples += [0, 65535, 0]
                case (2, _): samples += [0, 0, 65535]
                default: samples += [UInt16(truncatingIfNeeded: x * 4099 + y * 911), 52000, UInt16(truncatingIfNeeded: y * 8191)]
                }
            }
        }
        let converter = try ColorConverter(size: size, hdr: .pq)
        let ours = try converter.convert(HDRPixelBuffer(size: size, samples: samples))
        let ourPlanes = Self.planes16(ours, size: size)

        let folder = try TemporaryFolder()
        let raw = folder.path("in.rgb48"), out = folder.path("out.yuv")
        try Data(samples.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: URL(fileURLWithPath: raw))
        let result = try run(which("ffmpeg")!, ["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb48le", "-s", "\(size.width)x\(size.height)", "-i", raw,
                                                 "-sws_flags", "area+accurate_rnd+full_chroma_inp",
                                                 "-vf", "scale=in_range=pc:out_range=tv:in_color_matrix=bt2020:out_color_matrix=bt2020,format=yuv420p10le",
                                                 "-f", "rawvideo", out])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let values = stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 }
        let lumaCount = size.width * size.height, chromaCount = lumaCount / 4
        let theirPlanes = [Array(values[0..<lumaCount]), Array(values[lumaCount..<(lumaCount + chromaCount)]),
                           Array(values[(lumaCount + chromaCount)...])]
        // The formula: Y' per pixel, Cb and Cr from each 2x2 block's mean R', G', B'.
        let (kr, kb) = (0.2627, 0.0593), kg = 1 - 0.2627 - 0.0593
        func pixel(_ x: Int, _ y: Int) -> (Double, Double, Double) {
            let i = (y * size.width + x) * 3
            return (Double(samples[i]) / 65535, Double(samples[i + 1]) / 65535, Double(samples[i + 2]) / 65535)
        }
        var formula: [[Int]] = [[], [], []]
        for y in 0..<size.height {
            for x in 0..<size.width {
                let (r, g, b) = pixel(x, y)
                formula[0].append(Int((64 + 876 * (kr * r + kg * g + kb * b)).rounded()))
            }
        }
        for y in 0..<(size.height / 2) {
            for x in 0..<(size.width / 2) {
                let block = [pixel(2 * x, 2 * y), pixel(2 * x + 1, 2 * y), pixel(2 * x, 2 * y + 1), pixel(2 * x + 1, 2 * y + 1)]
                let r = block.map(\.0).reduce(0, +) / 4, g = block.map(\.1).reduce(0, +) / 4, b = block.map(\.2).reduce(0, +) / 4
                let luma = kr * r + kg * g + kb * b
                formula[1].append(Int((512 + 896 * (b - luma) / (2 * (1 - kb))).rounded()))
                formula[2].append(Int((512 + 896 * (r - luma) / (2 * (1 - kr))).rounded()))
            }
        }
        for plane in 0..<3 {
            let fromFormula = zip(ourPlanes[plane], formula[plane]).map { abs($0 - $1) }
            #expect(fromFormula.max() ?? 99 <= 1, "plane \(plane): ours \(ourPlanes[plane]) formula \(formula[plane])")
            let fromLibswscale = zip(ourPlanes[plane], theirPlanes[plane]).map { abs($0 - $1) }
            #expect(fromLibswscale.max() ?? 99 <= 3, "plane \(plane): ours \(ourPlanes[plane]) libswscale \(theirPlanes[plane])")
        }
        // Pure red's luma: 64 + 0.2627 × 876.
        #expect(ourPlanes[0][4] == 64 + Int((0.2627 * 876).rounded()))
    }

    /// The benchmark's peer is given exactly the pictures a show gives its x265 by a render with
    /// ``VideoSettings/losslessHEVC``: x265 then codes them losslessly (`lossless=1`, never in a
    /// show), so that ffmpeg decodes each one to the converter's very code values.
    @Test("x265 lossless (the benchmark's exact frames): every frame decodes to the converted picture's code values")
    func losslessFramesDecodeExactly() async throws {
        let size = Size(width: 64, height: 32)
        var settings = VideoSettings(size: size, hold: .encode, codec: .hevc)
        settings.hdr = .pq
        #expect(!settings.x265Parameters.contains("lossless"))
        settings.losslessHEVC = true
        #expect(settings.x265Parameters.hasSuffix(":lossless=1"))
        // Two pictures of fine detail a lossy coder would smooth: a hash of each sample's place.
        let buffers = (0..<2).map { frame in
            HDRPixelBuffer(size: size, samples: (0..<(size.width * size.height * 3)).map { UInt16(truncatingIfNeeded: ($0 &* 2654435761 &+ frame &* 40503) >> 7) })
        }
        let converter = try ColorConverter(size: size, hdr: .pq)
        let expected = try buffers.map { Self.planes16(try converter.convert($0), size: size) }

        let folder = try TemporaryFolder()
        let path = folder.path("lossless.mp4"), out = folder.path("out.yuv")
        let writer = try AssetWriter(outputPath: path, settings: settings, overwrite: true)
        let input = AssetWriterInput(settings: writer.settings)
        let adaptor = PixelBufferAdaptor(assetWriterInput: input)
        writer.add(input)
        try writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let step = await input.feed(on: DispatchQueue(label: "lossless")) { index in
            guard index < buffers.count else { return .finished }
            return adaptor.append(buffers[index], withPresentationTime: MediaTime(value: Int64(index), timescale: 30)) ? .appended : .stopped
        }
        #expect(step == .finished)
        writer.endSession(atSourceTime: MediaTime(value: Int64(buffers.count), timescale: 30))
        try await writer.finishWriting()
        let result = try run(which("ffmpeg")!, ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p10le", out])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        let values = stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 }
        let lumaCount = size.width * size.height, chromaCount = lumaCount / 4, frameCount = lumaCount + 2 * chromaCount
        try #require(values.count == 2 * frameCount, "\(values.count) samples decoded")
        for (frame, planes) in expected.enumerated() {
            let decoded = values[(frame * frameCount)..<((frame + 1) * frameCount)]
            let differing = zip(decoded, planes[0] + planes[1] + planes[2]).filter { $0 != $1 }.count
            #expect(differing == 0, "frame \(frame): \(differing) of \(frameCount) samples differ")
        }
    }

    /// The three planes as 10-bit values, rows without padding.
    static func planes16(_ picture: EncoderPicture, size: Size) -> [[Int]] {
        let frame = picture.frame
        let planes = [(frame.pointee.data.0!, Int(frame.pointee.linesize.0), size.width, size.height),
                      (frame.pointee.data.1!, Int(frame.pointee.linesize.1), size.width / 2, size.height / 2),
                      (frame.pointee.data.2!, Int(frame.pointee.linesize.2), size.width / 2, size.height / 2)]
        return planes.map { data, stride, width, height in
            (0..<height).flatMap { y in
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt16.self)
                return (0..<width).map { Int(row[$0]) }
            }
        }
    }
}
