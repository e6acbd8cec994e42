import Foundation
import Testing
import TestSupport

/// Every codec and container the tool writes, read by MediaInfo, a reader that shares no code
/// with FFmpeg (issue 34): the format, profile, sample entry, exact length, constant frame rate
/// and colour tags of a 3-s show of the samples with music. Skipped, saying so, without
/// `mediainfo` (`make deps` installs it).
@Suite("MediaInfo reads each codec's output: format, profile, tags, exact length", needsBuiltTool)
struct MediaInfoTests {
    struct Output: Sendable, CustomTestStringConvertible {
        var file: String
        var options: [String]
        var format: String
        var profile: String
        /// The MP4 sample entry; nil for WebM, which has none.
        var codecID: String?
        var audio: String
        var testDescription: String { "\(file) \(options.joined(separator: " "))" }
    }

    static let outputs = [
        Output(file: "h264.mp4", options: [], format: "AVC", profile: "High", codecID: "avc1", audio: "AAC"),
        Output(file: "hevc.mp4", options: ["--codec", "hevc"], format: "HEVC", profile: "Main", codecID: "hvc1", audio: "AAC"),
        Output(file: "av1.mp4", options: ["--codec", "av1"], format: "AV1", profile: "Main", codecID: "av01", audio: "AAC"),
        Output(file: "av1.webm", options: ["--codec", "av1"], format: "AV1", profile: "Main", codecID: nil, audio: "Opus"),
        Output(file: "vp9.webm", options: [], format: "VP9", profile: "0", codecID: nil, audio: "Opus"),
    ]

    @Test(arguments: outputs)
    func readBack(_ expected: Output) throws {
        guard let mediainfo = which("mediainfo") else {
            return withKnownIssue("skipped: mediainfo is not installed (make deps installs it)") { throw MediaInfoMissing() }
        }
        let folder = try TemporaryFolder()
        let output = folder.path(expected.file), music = folder.path("tone.wav")
        let ffmpeg = try #require(which("ffmpeg"))
        #expect(try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", music]).status == 0)
        let result = try slideshow(["make"] + samplePhotos + ["--duration", "3", "--size", "320x180", "--audio", music,
                                    "--quiet", "-o", output] + expected.options)
        #expect(result.status == 0, "\(result.stderr)")
        let info = try run(mediainfo, ["--Output=JSON", output])
        let json = try #require(try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])
        let tracks = try #require((json["media"] as? [String: Any])?["track"] as? [[String: Any]])
        let general = try #require(tracks.first { $0["@type"] as? String == "General" })
        let video = try #require(tracks.first { $0["@type"] as? String == "Video" })
        let audio = try #require(tracks.first { $0["@type"] as? String == "Audio" })
        #expect(general["Format"] as? String == (expected.file.hasSuffix(".webm") ? "WebM" : "MPEG-4"))
        #expect(video["Format"] as? String == expected.format)
        #expect((video["Format_Profile"] as? String)?.hasPrefix(expected.profile) == true, "\(video["Format_Profile"] ?? "none")")
        #expect(video["CodecID"] as? String == expected.codecID ?? (expected.format == "VP9" ? "V_VP9" : "V_AV1"))
        #expect(video["Width"] as? String == "320" && video["Height"] as? String == "180")
        #expect(video["FrameRate"] as? String == "30.000")
        #expect(Double(video["Duration"] as? String ?? "") == 3.0, "\(video["Duration"] ?? "none")")
        #expect(video["BitDepth"] as? String == "8")
        #expect(video["ChromaSubsampling"] as? String == "4:2:0")
        #expect(video["colour_primaries"] as? String == "BT.709" && video["transfer_characteristics"] as? String == "BT.709")
        #expect(audio["Format"] as? String == expected.audio)
        if expected.codecID != nil { #expect(video["FrameRate_Mode"] as? String == "CFR") }
    }
}

private struct MediaInfoMissing: Error {}
