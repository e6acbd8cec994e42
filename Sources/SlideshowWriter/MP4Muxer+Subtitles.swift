internal import CFFmpeg
import SlideshowFFmpeg
import SlideshowPixels
import SlideshowText

/// A timed-text track for the MP4: the captions as `mov_text` samples (3GPP Timed Text,
/// ISO/IEC 14496-17), which players show and hide on request and screen readers can read.
public struct SubtitleTrack: Sendable, Hashable {
    /// The cues, in time order, not overlapping.
    public var cues: [SubtitleCue]
    /// The track's language, ISO 639-2 (three lower-case letters, e.g. `eng`, `deu`); `und`
    /// (undetermined) by default.
    public var language: String
    /// The show's end: the track lasts as long as the video.
    public var end: MediaTime

    /// Creates a track.
    public init(cues: [SubtitleCue], language: String = "und", end: MediaTime) {
        self.cues = cues
        self.language = language
        self.end = end
    }

    /// Whether `code` is a language tag the MP4 can hold: three letters a to z.
    public static func isLanguageCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (0x61...0x7A).contains($0) }
    }

    /// The samples: each cue's text, and an empty sample over every gap before a cue and
    /// after the last, so the track covers the show without holes.
    package var samples: [(start: MediaTime, end: MediaTime, text: String)] {
        var samples: [(MediaTime, MediaTime, String)] = []
        var time = MediaTime.zero
        for cue in cues where cue.end > cue.start && cue.start >= time {
            if cue.start > time { samples.append((time, cue.start, "")) }
            samples.append((cue.start, cue.end, cue.text))
            time = cue.end
        }
        if end > time, !samples.isEmpty { samples.append((time, end, "")) }
        return samples
    }
}

extension MP4Muxer {
    /// Adds the timed-text stream (before ``writeHeader()``), with its language tag.
    package func addSubtitleStream(_ track: SubtitleTrack) throws(FFmpegError) {
        precondition(subtitleStream == nil, "one subtitle stream")
        guard let stream = avformat_new_stream(formatContext, nil) else {
            throw FFmpegError(call: "avformat_new_stream(subtitle)", code: -ENOMEM)
        }
        stream.pointee.time_base = AVRational(num: 1, den: max(1, track.end.timescale))
        stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
        stream.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_MOV_TEXT
        av_dict_set(&stream.pointee.metadata, "language", SubtitleTrack.isLanguageCode(track.language) ? track.language : "und", 0)
        subtitleStream = stream
        formatContext.pointee.max_interleave_delta = 0
    }

    /// Hands every sample to the muxer (after ``writeHeader()``): they wait in its
    /// interleaving queue, a few bytes each, and go into the file in time order among the video's.
    package func write(subtitles track: SubtitleTrack) throws(FFmpegError) {
        guard let stream = subtitleStream else { preconditionFailure("no subtitle stream") }
        let packet = reusablePacket
        for sample in track.samples {
            let text = Array(sample.text.utf8.prefix(65_535))
            let bytes = [UInt8(text.count >> 8), UInt8(text.count & 0xFF)] + text
            try check(av_new_packet(packet, Int32(bytes.count)), "av_new_packet(subtitle)")
            defer { av_packet_unref(packet) }
            packet.pointee.data.update(from: bytes, count: bytes.count)
            let timescale = sample.start.timescale
            packet.pointee.pts = sample.start.value
            packet.pointee.dts = sample.start.value
            packet.pointee.duration = sample.end.converted(to: timescale).value - sample.start.value
            packet.pointee.flags |= AV_PKT_FLAG_KEY
            packet.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(packet, AVRational(num: 1, den: timescale), stream.pointee.time_base)
            try check(av_interleaved_write_frame(formatContext, packet), "av_interleaved_write_frame(subtitle)")
        }
    }
}
