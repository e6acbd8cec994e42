import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowPixels
import SlideshowPlan
@testable import SlideshowWriter

@Suite("VP9 and AV1: show_existing_frame headers")
struct ShowExistingBitstreamTests {
    @Test("VP9: one byte, frame_marker 2, profile 0, show_existing_frame 1, the slot")
    func vp9() {
        #expect(VP9ShowExisting.frame(slot: 0) == [0x88])
        #expect(VP9ShowExisting.frame(slot: 7) == [0x8F])
        #expect(VP9ShowExisting.isKeyFrame([0x82, 0x49, 0x83, 0x42]))
        #expect(!VP9ShowExisting.isKeyFrame([0x86, 0x00]))
    }

    @Test("AV1: a temporal delimiter and a frame header OBU, show_existing_frame 1 and frame_to_show_map_idx; 5 bytes")
    func av1() {
        #expect(AV1ShowExisting.temporalUnit(slot: 0) == [0x12, 0x00, 0x1A, 0x01, 0x88])
        #expect(AV1ShowExisting.temporalUnit(slot: 2) == [0x12, 0x00, 0x1A, 0x01, 0xA8])
        let units = AV1OBU.split(AV1ShowExisting.temporalUnit(slot: 5))
        #expect(units.map(\.type) == [2, 3] && units[1].payload.first == 0b1101_1000)
    }

    @Test("libaom's sequence header, from its first key frame, is read (no decoder model, no frame ids, 7 bits of order hint)")
    func sequenceHeader() throws {
        let size = Size(width: 320, height: 180)
        let encoder = try ReferenceFrameEncoder(settings: VideoSettings(size: size, codec: .av1), globalHeader: true)
        let picture = try ColorConverter(size: size).convert(gradient(size, seed: 1))
        #expect(try encoder.send(picture.frame, pts: 0, forceKey: true))
        try encoder.sendEndOfStream()
        var packet: [UInt8] = []
        _ = try encoder.receive { packet = Array(UnsafeBufferPointer(start: $0.pointee.data, count: Int($0.pointee.size))) }
        let sequence = try AV1SequenceHeader(obus: packet)
        #expect(!sequence.decoderModelInfoPresent && !sequence.frameIDNumbersPresent)
        #expect(sequence.orderHintBits == 7)
        let header = try #require(AV1FrameHeaderPrefix(packet: packet, sequence: sequence))
        #expect(header.frameType == AV1FrameHeaderPrefix.keyFrame && header.showFrame && !header.showableFrame && header.refreshFrameFlags == 0xFF)
    }
}

@Suite("AV1: libaom's good mode for moving shows, realtime for shows of cuts")
struct AV1SegmentSettingsTests {
    @Test("a moving AV1 show with motion runs, of 1080p's pixels or fewer, goes in segments: good mode, speed 6 at medium, quantizer CRF + 6, a 19-frame look-ahead, no key-frame filtering")
    func segments() {
        var settings = VideoSettings(size: Size(width: 1920, height: 1080), codec: .av1)
        #expect(settings.av1Segments)
        #expect(settings.av1SegmentOptions.map { "\($0.0)=\($0.1)" }
                == ["crf=26", "lag-in-frames=19", "row-mt=1", "usage=good", "aom-params=cpu-used=6:enable-keyframe-filtering=0"])
        settings.preset = "placebo"
        #expect(settings.av1SegmentSpeed == 2)
        settings.motionRuns = false
        #expect(!settings.av1Segments)
        settings.motionRuns = true
        settings.composesFrames = false
        #expect(!settings.av1Segments)
        #expect(settings.referenceCodecOptions.contains { $0.0 == "usage" && $0.1 == "realtime" })
        #expect(!VideoSettings(size: Size(width: 320, height: 180), codec: .vp9).av1Segments)
        // Past 1080p's pixels, the realtime encoder (good mode's look-ahead peaked at 1.2 GB at 4K).
        #expect(VideoSettings(size: Size(width: 1080, height: 1920), codec: .av1).av1Segments)
        #expect(!VideoSettings(size: Size(width: 2560, height: 1440), codec: .av1).av1Segments)
        #expect(!VideoSettings(size: Size(width: 3840, height: 2160), codec: .av1).av1Segments)
    }
}

/// VP9 and AV1 in WebM, AV1 in MP4 (issue 34), read back by ffprobe, FFmpeg (libvpx/libdav1d and
/// libaom) and GStreamer.
@Suite("VP9/AV1 export: read back by ffprobe, FFmpeg and GStreamer", .enabled(if: which("ffprobe") != nil && which("ffmpeg") != nil, "skipped: no ffmpeg/ffprobe"))
struct WebMExportTests {
    static let starts: [Int64] = [0, 20, 45]
    static let endFrame: Int64 = 70
    static let size = Size(width: 320, height: 180)

    struct Case: CustomTestStringConvertible, Sendable {
        let codec: VideoCodec
        let container: VideoContainer
        var file: String { "show.\(container.fileExtensions[0])" }
        var testDescription: String { "\(codec.rawValue) in \(container.rawValue)" }
        /// FFmpeg's decoders to read it with: VP9's own, or dav1d and libaom (the native AV1 decoder needs a hardware accelerator).
        var decoders: [String] { codec == .vp9 ? ["vp9", "libvpx-vp9"] : ["libdav1d", "libaom-av1"] }
    }

    static let cases = [Case(codec: .vp9, container: .webm), Case(codec: .av1, container: .webm), Case(codec: .av1, container: .mp4)]

    static func fields(_ path: String, _ entries: String, stream: String = "v:0") throws -> [String: String] {
        let probe = try run(try #require(which("ffprobe")), ["-v", "error", "-select_streams", stream, "-count_frames", "-show_entries", entries, "-of", "default=nw=1", path])
        return Dictionary(probe.stdoutText.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
    }

    /// Every frame a decoder gives, failing on any decoding error.
    static func decode(_ path: String, decoder: String, size: Size) throws -> [Data] {
        let result = try run(try #require(which("ffmpeg")), ["-v", "error", "-xerror", "-c:v", decoder, "-i", path, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(decoder): \(result.stderr)")
        let frameBytes = size.width * size.height * 3 / 2
        return stride(from: 0, to: result.stdout.count - frameBytes + 1, by: frameBytes).map { result.stdout.subdata(in: $0..<$0 + frameBytes) }
    }

    /// GStreamer's libvpx or libaom decoder (vp9dec, av1dec), if installed.
    static func gstreamerFrames(_ path: String, codec: VideoCodec, container: VideoContainer, size: Size, folder: TemporaryFolder) throws -> [Data]? {
        guard let launch = which("gst-launch-1.0"), let inspect = which("gst-inspect-1.0") else { return nil }
        let element = codec == .vp9 ? "vp9dec" : "av1dec"
        guard let found = try? run(inspect, [element], timeout: 60), found.status == 0 else { return nil }
        let output = folder.path(URL(fileURLWithPath: path).lastPathComponent + ".gst.yuv")
        let demux = container == .webm ? "matroskademux" : "qtdemux"
        let parse = codec == .vp9 ? "vp9parse" : "av1parse"
        let result = try run(launch, ["-q", "filesrc", "location=\(path)", "!", demux, "!", parse, "!", element, "!", "video/x-raw,format=I420", "!",
                                      "filesink", "location=\(output)"], timeout: 300)
        #expect(result.status == 0, "gst-launch-1.0: \(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let frameBytes = size.width * size.height * 3 / 2
        return stride(from: 0, to: data.count - frameBytes + 1, by: frameBytes).map { data.subdata(in: $0..<$0 + frameBytes) }
    }

    static func packetSizes(_ path: String) throws -> [Int] {
        let listing = try run(try #require(which("ffprobe")), ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size", "-of", "csv=p=0", path])
        return listing.stdoutText.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    @Test("codec, profile, container, tags, 70 frames at 30/1, 2.333 s; every frame decodes in both FFmpeg decoders and GStreamer; held frames are their picture, at most 100 bytes",
          arguments: cases)
    func heldFrames(_ format: Case) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path(format.file)
        let settings = VideoSettings(size: Self.size, framesPerSecond: 30, preset: "ultrafast", codec: format.codec)
        try await writeVideo(to: path, settings: settings, pictures: (0..<3).map { gradient(Self.size, seed: $0) }, starts: Self.starts, endFrame: Self.endFrame)

        let video = try Self.fields(path, "stream=codec_name,profile,codec_tag_string,nb_read_frames,r_frame_rate,color_space,color_primaries,color_transfer,color_range:format=format_name,duration")
        #expect(video["codec_name"] == format.codec.rawValue)
        #expect(video["profile"] == (format.codec == .vp9 ? "Profile 0" : "Main"))
        #expect(video["format_name"] == (format.container == .webm ? "matroska,webm" : "mov,mp4,m4a,3gp,3g2,mj2"))
        if format.container == .mp4 { #expect(video["codec_tag_string"] == "av01") }
        #expect(video["nb_read_frames"] == "70")
        #expect(video["r_frame_rate"] == "30/1")
        #expect(video["color_space"] == "bt709" && video["color_primaries"] == "bt709" && video["color_transfer"] == "bt709" && video["color_range"] == "tv")
        #expect(video["duration"] == (format.container == .webm ? "2.333000" : "2.333333"))

        let frames = try Self.decode(path, decoder: format.decoders[0], size: Self.size)
        #expect(frames.count == 70)
        guard frames.count == 70 else { return }
        #expect(try Self.decode(path, decoder: format.decoders[1], size: Self.size) == frames, "\(format.decoders[1]) decodes differently")
        let sizes = try Self.packetSizes(path)
        #expect(sizes.count == 70)
        for (index, start) in Self.starts.enumerated() {
            let end = Int(index + 1 < Self.starts.count ? Self.starts[index + 1] : Self.endFrame)
            // AV1 shows again the inter frame after the key frame (a shown key frame cannot be shown again).
            let shown = format.codec == .av1 ? Int(start) + 1 : Int(start)
            for frame in Int(start + 1)..<end {
                #expect(sizes[frame] <= 100, "held frame \(frame): \(sizes[frame]) bytes")
                if frame > shown { #expect(frames[frame] == frames[shown], "frame \(frame) is not frame \(shown)") }
            }
            if format.codec == .av1 { #expect(psnr(frames[Int(start)], frames[shown]) > 45, "the inter copy of frame \(start)") }
        }
        #expect(frames[0] != frames[20] && frames[20] != frames[45])
        if let second = try Self.gstreamerFrames(path, codec: format.codec, container: format.container, size: Self.size, folder: folder) {
            #expect(second == frames, "GStreamer decodes differently from FFmpeg")
        }
    }

    /// A picture panned `shift` steps to the left: a moving run's frame.
    static func panned(_ size: Size, shift: Int) -> PixelBuffer {
        var buffer = PixelBuffer(size: size)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let u = x + shift * 3
                buffer[x, y] = RGBColor(red: UInt8((u * 255 / size.width) % 256), green: UInt8((y * 255 / size.height + u / 7) % 256),
                                        blue: UInt8((u * 5 + y * 3) % 256))
            }
        }
        return buffer
    }

    @Test("AV1, a moving show with holds (libaom's good mode, an encoder a stretch): key frames at each held picture and after each hold only; held frames at most 100 bytes, their copy; every frame decodes alike in dav1d, libaom and GStreamer",
          arguments: [VideoContainer.mp4, .webm])
    func movingShowWithHolds(_ container: VideoContainer) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("moving.\(container.fileExtensions[0])")
        let settings = VideoSettings(size: Self.size, framesPerSecond: 30, preset: "ultrafast", codec: .av1)
        #expect(settings.av1Segments)
        // Frame 0 held until 10, a run of 20 moving frames, frame 30 held until 45, a run of 5.
        let pictures = [gradient(Self.size, seed: 0)] + (1...20).map { Self.panned(Self.size, shift: $0) } + [gradient(Self.size, seed: 2)]
            + (1...5).map { Self.panned(Self.size, shift: 40 + $0) }
        let starts: [Int64] = [0] + (10..<30).map { Int64($0) } + [30] + (45..<50).map { Int64($0) }
        try await writeVideo(to: path, settings: settings, pictures: pictures, starts: starts, endFrame: 50)

        let frames = try Self.decode(path, decoder: "libdav1d", size: Self.size)
        #expect(frames.count == 50)
        guard frames.count == 50 else { return }
        #expect(try Self.decode(path, decoder: "libaom-av1", size: Self.size) == frames, "libaom decodes differently")
        let listing = try run(try #require(which("ffprobe")), ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size,flags", "-of", "csv=p=0", path])
        let packets = listing.stdoutText.split(separator: "\n").map { $0.split(separator: ",") }
        #expect(packets.count == 50)
        let keys = packets.enumerated().filter { $0.element.count > 1 && $0.element[1].hasPrefix("K") }.map(\.offset)
        #expect(keys == [0, 10, 30, 45])
        let sizes = packets.compactMap { Int($0[0]) }
        for (start, end) in [(0, 10), (30, 45)] {
            #expect(psnr(frames[start], frames[start + 1]) > 45, "the inter copy of frame \(start)")
            for frame in start + 2..<end {
                #expect(sizes[frame] <= 100, "held frame \(frame): \(sizes[frame]) bytes")
                #expect(frames[frame] == frames[start + 1], "frame \(frame) is not frame \(start + 1)")
            }
        }
        // The moving frames are each their own picture.
        #expect(Set(frames[10..<30]).count == 20)
        if let second = try Self.gstreamerFrames(path, codec: .av1, container: container, size: Self.size, folder: folder) {
            #expect(second == frames, "GStreamer decodes differently from FFmpeg")
        }
    }

    @Test("a rendered show with music: Opus (48 kHz) in WebM, AAC in AV1's MP4, exactly the show's length in decoded samples; the same bytes twice",
          arguments: cases)
    func renderedShow(_ format: Case) async throws {
        let folder = try TemporaryFolder()
        let music = folder.path("music.wav")
        try Data(SyntheticWAV.silence(frames: 48_000 * 5)).write(to: URL(fileURLWithPath: music))
        var options = SlideshowOptions(duration: 3, size: "\(Self.size.width)x\(Self.size.height)", fps: 30)
        options.codec = format.codec
        options.transition = .fade
        options.transitionDuration = 0.5
        options.audio = music
        let photos = ["landscape.jpg", "portrait-orient6.jpg", "square.jpg"].map { Photo(path: TestEnvironment.sample($0)) }
        var outputs: [Data] = []
        for name in ["a", "b"] {
            let path = folder.path("\(name).\(format.container.fileExtensions[0])")
            _ = try await options.slideshow(photos: photos, output: path).render()
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(outputs[0] == outputs[1], "two renders of the same show differ")
        let path = folder.path("a.\(format.container.fileExtensions[0])")
        let audio = try Self.fields(path, "stream=codec_name,sample_rate,channels", stream: "a:0")
        #expect(audio["codec_name"] == (format.container == .webm ? "opus" : "aac"))
        #expect(audio["sample_rate"] == "48000" && audio["channels"] == "2")
        let decoded = try run(try #require(which("ffmpeg")), ["-v", "error", "-i", path, "-map", "0:a", "-f", "s16le", "-ac", "2", "-ar", "48000", "-"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        if format.container == .webm {
            // CodecDelay drops Opus's pre-skip, DiscardPadding the last packet's padding: exactly 3 s of samples.
            #expect(decoded.stdout.count / 4 == 3 * 48_000, "\(decoded.stdout.count / 4) samples")
        } else {
            // The MP4's edit list gives the AAC track's length (FFmpeg's decoder keeps the last frame's padding).
            let duration = try Self.fields(path, "stream=duration", stream: "a:0")["duration"]
            #expect(duration == "3.000000", "\(duration ?? "none")")
        }
        let frames = try Self.decode(path, decoder: format.decoders[0], size: Self.size)
        #expect(frames.count == 90)
    }
}

@Suite("--codec and the output's extension")
struct CodecChoiceTests {
    @Test(".webm without a codec is VP9; .mp4 is H.264; a codec given wins")
    func byExtension() throws {
        let photos = [Photo(path: "a.jpg")]
        #expect(try SlideshowOptions().slideshow(photos: photos, output: "x.webm").video.codec == .vp9)
        #expect(try SlideshowOptions().slideshow(photos: photos, output: "x.mp4").video.codec == .h264)
        var options = SlideshowOptions()
        options.codec = .av1
        #expect(try options.slideshow(photos: photos, output: "x.webm").video.codec == .av1)
        #expect(try options.slideshow(photos: photos, output: "x.mp4").video.codec == .av1)
    }

    @Test("h264 or hevc with .webm, vp9 with .mp4: the codec's usage error; .mkv: the output's")
    func refusals() {
        let photos = [Photo(path: "a.jpg")]
        for (codec, output) in [(VideoCodec.h264, "x.webm"), (.hevc, "x.webm"), (.vp9, "x.mp4"), (.vp9, "x.m4v")] {
            var options = SlideshowOptions()
            options.codec = codec
            options.given.insert(.codec)
            #expect(throws: OptionError.self) { try options.slideshow(photos: photos, output: output) }
            do {
                _ = try options.slideshow(photos: photos, output: output)
            } catch {
                #expect(error.field == .codec, "\(error)")
            }
        }
        do {
            _ = try SlideshowOptions().slideshow(photos: photos, output: "x.mkv")
            Issue.record("x.mkv was taken")
        } catch {
            #expect(error.field == .output)
        }
    }
}

/// Peak signal-to-noise ratio of two 8-bit planes, in dB (infinity when equal).
func psnr(_ a: Data, _ b: Data) -> Double {
    precondition(a.count == b.count)
    var sum = 0.0
    for index in a.indices { let d = Double(a[index]) - Double(b[index]); sum += d * d }
    return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.count)))
}
