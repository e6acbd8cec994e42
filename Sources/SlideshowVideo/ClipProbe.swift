import Glibc
package import CFFmpeg
import SlideshowFFmpeg
import SlideshowMetadata
import SlideshowPixels

/// A clip's colour description, as tagged in the stream (H.273 code points, the values
/// FFmpeg's `AVColor*` enums and zimg's enums share).
public struct ClipColor: Sendable, Hashable {
    /// Matrix coefficients (1 BT.709, 5/6 BT.601, 9 BT.2020 non-constant, 2 unspecified).
    public var matrix: Int
    /// Transfer (1 BT.709, 16 PQ / SMPTE 2084, 18 HLG / ARIB STD-B67, 2 unspecified).
    public var transfer: Int
    /// Primaries (1 BT.709, 9 BT.2020, 12 Display P3, 2 unspecified).
    public var primaries: Int
    /// Full range (0–255 for 8 bits) rather than limited (16–235).
    public var fullRange: Bool

    /// HLG or PQ: tone-mapped to SDR on decode.
    public var isHDR: Bool { transfer == 16 || transfer == 18 }
    /// Primaries other than BT.709/sRGB that are known (BT.2020, P3, …): converted in linear light.
    package var needsPrimariesConversion: Bool { ![1, 2, 5, 6, 7].contains(primaries) && primaries > 0 && primaries < 23 }
}

/// What a clip is, learnt from its content before a render starts.
public struct ClipInfo: Sendable, Hashable {
    /// Where the bytes are.
    public var source: ClipSource
    /// The container as libavformat names it, e.g. `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`,
    /// `avi`, `mpegts`, `mpeg` (MPEG-PS: MPG, VOB) or `dv`.
    public var container: String
    /// The video codec's name as libavcodec gives it: `h264`, `hevc`, `vp9`, `av1`, `prores`,
    /// `mjpeg`, `mpeg4` (Part 2), `h263`, `mpeg2video`, `dvvideo`, ….
    public var codec: String
    /// The coded picture size (before the display matrix turns it).
    public var codedSize: Size
    /// How the display matrix turns the pictures upright.
    public var orientation: ClipOrientation
    /// The display matrix's rotation as `av_display_rotation_get` gives it (degrees,
    /// counter-clockwise; ffprobe's `rotation`), 0 without a matrix.
    public var rotation: Double
    /// The length in seconds (the container's, else the video stream's).
    public var duration: Double
    /// The first timestamp, in seconds: clip time zero.
    public var startTime: Double
    /// The stream's average frame rate, when it states one.
    public var averageFrameRate: Double?
    public var color: ClipColor
    /// The decoded pixel format's name, e.g. `yuv420p10le`.
    public var pixelFormat: String
    /// Whether the clip has an audio stream.
    public var hasAudio: Bool
    /// When it was recorded: the container's `creation_time` tag (UTC), nil without one.
    public var creationTime: CaptureDate? = nil
    /// The video stream's own length in seconds, when it states one: shorter than
    /// ``duration`` when the sound runs on after the pictures (the last picture is held then).
    public var videoDuration: Double? = nil

    /// The width of a coded pixel over its height (the stream's sample aspect ratio): 1 for square
    /// pixels; 16/15 for PAL DV and DVD at 4:3, 4/3 for HDV and AVCHD's 1440×1080.
    public var pixelAspect: Double = 1
    /// How the pictures are scanned, as the stream states it (per-frame flags decide; see
    /// ``ClipReader``).
    public var fieldOrder: ClipFieldOrder = .unknown

    /// The picture size once its pixels are made square (the width scaled by ``pixelAspect``)
    /// and it is turned upright.
    public var displaySize: Size {
        let width = pixelAspect == 1 ? codedSize.width : max(1, Int((Double(codedSize.width) * pixelAspect).rounded()))
        return orientation.upright(Size(width: width, height: codedSize.height))
    }
    /// Whether the display matrix mirrors the picture.
    public var isMirrored: Bool { orientation.isMirrored }
}

/// How a clip's pictures are scanned, as its stream states it (libavformat's `field_order`).
public enum ClipFieldOrder: Sendable, Hashable {
    case progressive
    /// Interlaced, the top field first (1080i from most camcorders, 480i DVDs).
    case topFirst
    /// Interlaced, the bottom field first (DV, 576i from many DVD camcorders).
    case bottomFirst
    /// Not stated (many containers leave it to the frames' own flags).
    case unknown

    public var isInterlaced: Bool { self == .topFirst || self == .bottomFirst }
}

/// Recognises a clip by its content and checks it can be played.
///
/// A clip is any file libavformat recognises as a movie (MP4, MOV, 3GP, Matroska, WebM, AVI,
/// MPEG-TS and AVCHD, MPEG-PS, DV, …) whose first video stream libavcodec can decode; only the
/// demuxers that read still images or text as "video" are refused.
public enum ClipProbe {
    /// The codecs clips are known to play in (and the tests play): the phones' and the cameras'.
    /// Any other codec libavcodec decodes plays too.
    public static let supportedCodecs: Set<String> = ["h264", "hevc", "vp9", "av1", "prores", "mjpeg", "mpeg4", "h263", "mpeg2video",
                                                      "mpeg1video", "dvvideo"]

    /// libavformat's demuxers that read a still picture (or text, or a GIF) as a one-stream
    /// "video": such a file is not a clip. Any demuxer whose name ends in `_pipe` is one too.
    package static let stillDemuxers: Set<String> = ["image2", "image2pipe", "gif", "apng", "webp", "ico", "tty", "bin", "xbin", "adf",
                                             "idf", "alias_pix", "brender_pix", "jpegxl_anim", "imagepipe"]

    /// What clips may be, for `slideshow formats`: the containers, the codecs this FFmpeg can
    /// decode (with their decoders' names) and its libavcodec version.
    public static var capabilities: String {
        let codecs: [(String, AVCodecID)] = [("H.264", AV_CODEC_ID_H264), ("HEVC", AV_CODEC_ID_HEVC), ("VP9", AV_CODEC_ID_VP9),
                                             ("AV1", AV_CODEC_ID_AV1), ("ProRes", AV_CODEC_ID_PRORES),
                                             ("MPEG-2", AV_CODEC_ID_MPEG2VIDEO), ("MPEG-4 Part 2", AV_CODEC_ID_MPEG4),
                                             ("H.263", AV_CODEC_ID_H263), ("Motion JPEG", AV_CODEC_ID_MJPEG), ("DV", AV_CODEC_ID_DVVIDEO)]
        let decoded = codecs.compactMap { name, id in avcodec_find_decoder(id).map { "\(name) (\(String(cString: $0.pointee.name)))" } }
        let version = Int(avcodec_version())
        return "MP4, MOV, M4V, MKV, WebM, 3GP, AVI, MPEG-TS/AVCHD, MPEG-PS (MPG, VOB), DV: \(decoded.joined(separator: ", ")) and any other video codec it decodes, by FFmpeg libavcodec \(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF); interlaced video deinterlaced (bwdif); HDR (HLG, PQ) tone-mapped by zimg"
    }

    /// Opens the clip, reads its streams and checks codec, size and length.
    /// - Throws: ``ClipError``: `.missing`, `.unreadable`, `.noVideoStream`,
    ///   `.unsupportedContainer`, `.unsupportedCodec`, `.tooLarge`.
    public static func probe(_ source: ClipSource, limits: ClipLimits = .default) throws(ClipError) -> ClipInfo {
        let input = try open(source)
        return try describe(input, source: source, limits: limits).info
    }

    /// Opens a clip for reading (used by the readers).
    static func open(_ source: ClipSource) throws(ClipError) -> OwnedInputFormat {
        var status = stat()
        if stat(source.path, &status) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw ClipError(path: source.path, kind: .missing, reason: "no such clip") }
            throw ClipError(path: source.path, kind: .unreadable, reason: "cannot read the clip (\(String(cString: strerror(code))))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw ClipError(path: source.path, kind: .unreadable, reason: "is not a regular file")
        }
        if let range = source.byteRange, range.isEmpty || range.lowerBound < 0 || range.upperBound > Int64(status.st_size) {
            throw ClipError(path: source.path, kind: .unreadable, reason: "the embedded video's byte range \(range) lies outside the file")
        }
        do {
            return try OwnedInputFormat(source)
        } catch {
            throw ClipError(path: source.path, kind: .unreadable,
                            reason: "not a video FFmpeg can read, or a damaged one (\(error.call): \(error.message))")
        }
    }

    /// A `creation_time` tag (`2019-05-18T10:20:30.000000Z`) as a date in UTC; nil without
    /// one, or for the zero date some writers put there.
    package static func creationTime(_ metadata: OpaquePointer?) -> CaptureDate? {
        guard let metadata, let entry = av_dict_get(metadata, "creation_time", nil, 0), let value = entry.pointee.value else { return nil }
        let text = String(cString: value)
        guard let date = CaptureDate(exif: text, offset: "+00:00"), date.year > 1970 else { return nil }
        return date
    }

    /// Movie containers libavformat reads that clips may not come in, by libavformat's name,
    /// with what a message calls them: a file in one of these is a movie in the wrong
    /// container, never "not an image".
    package static let movieContainers = ["avi": "an AVI movie", "mpegts": "an MPEG-TS stream", "mpeg": "an MPEG-PS stream",
                                  "flv": "an FLV movie", "asf": "an ASF (WMV) movie", "ogg": "an Ogg file",
                                  "h264": "a raw H.264 stream", "hevc": "a raw HEVC stream", "mxf": "an MXF file"]

    /// The checks and facts, and the index of the video stream.
    package static func describe(_ input: OwnedInputFormat, source: ClipSource,
                         limits: ClipLimits) throws(ClipError) -> (info: ClipInfo, stream: Int32) {
        let context = input.context
        let path = source.path
        var videoIndex: Int32 = -1
        var hasAudio = false
        for index in 0..<Int(context.pointee.nb_streams) {
            guard let stream = context.pointee.streams[index], let parameters = stream.pointee.codecpar else { continue }
            switch parameters.pointee.codec_type {
            case AVMEDIA_TYPE_VIDEO:
                // Cover art (an MP3's or M4A's attached picture) is not a video.
                if stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 && videoIndex < 0 { videoIndex = Int32(index) }
            case AVMEDIA_TYPE_AUDIO:
                hasAudio = true
            default: break
            }
        }
        guard videoIndex >= 0, let stream = context.pointee.streams[Int(videoIndex)] else {
            throw ClipError(path: path, kind: .noVideoStream, reason: "has no video stream")
        }
        let container = String(cString: context.pointee.iformat.pointee.name)
        guard !container.hasSuffix("_pipe") && !stillDemuxers.contains(container) else {
            throw ClipError(path: path, kind: .unsupportedContainer(container), reason: "is a still picture or text (\(container)), not a video")
        }
        let parameters = stream.pointee.codecpar!
        let codec = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard avcodec_find_decoder(parameters.pointee.codec_id) != nil else {
            throw ClipError(path: path, kind: .unsupportedCodec(codec),
                            reason: undecodableReason(codecID: parameters.pointee.codec_id, tag: parameters.pointee.codec_tag,
                                                      container: context.pointee.iformat))
        }
        let size = Size(width: Int(parameters.pointee.width), height: Int(parameters.pointee.height))
        guard size.width > 0, size.height > 0 else {
            throw ClipError(path: path, kind: .unreadable, reason: "its video stream states no picture size")
        }
        if size.width > limits.maxDimension || size.height > limits.maxDimension || size.width * size.height > limits.maxPixels {
            throw ClipError(path: path, kind: .tooLarge,
                            reason: "its video is \(size), larger than the \(limits.maxDimension)-pixel, \(limits.maxPixels / 1_000_000)-megapixel limit")
        }
        let timeBase = stream.pointee.time_base
        let nopts = shim_av_nopts_value()
        var duration = 0.0
        if context.pointee.duration != nopts && context.pointee.duration > 0 {
            duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
        } else if stream.pointee.duration != nopts && stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * av_q2d(timeBase)
        }
        guard duration > 0 else { throw ClipError(path: path, kind: .unreadable, reason: "its length is unknown (a damaged clip?)") }
        guard duration <= limits.maxDuration else {
            throw ClipError(path: path, kind: .tooLarge,
                            reason: "it lasts \(Int(duration)) s, longer than the \(Int(limits.maxDuration)) s limit")
        }
        let start = context.pointee.start_time != nopts ? Double(context.pointee.start_time) / Double(AV_TIME_BASE) : 0
        var rotation = 0.0
        var orientation = ClipOrientation.upright
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) {
            let matrix = data.withMemoryRebound(to: Int32.self, capacity: 9) { Array(UnsafeBufferPointer(start: $0, count: 9)) }
            let degrees = matrix.withUnsafeBufferPointer { av_display_rotation_get($0.baseAddress!) }
            if !degrees.isNaN { rotation = degrees }
            orientation = ClipOrientation(matrix: matrix) ?? .upright
        }
        let rate = stream.pointee.avg_frame_rate
        let color = ClipColor(matrix: Int(parameters.pointee.color_space.rawValue),
                              transfer: Int(parameters.pointee.color_trc.rawValue),
                              primaries: Int(parameters.pointee.color_primaries.rawValue),
                              fullRange: parameters.pointee.color_range == AVCOL_RANGE_JPEG
                                  || parameters.pointee.format == AV_PIX_FMT_YUVJ420P.rawValue)
        let formatName = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.pointee.format)).map { String(cString: $0) } ?? "unknown"
        var info = ClipInfo(source: source, container: container, codec: codec, codedSize: size, orientation: orientation,
                            rotation: rotation, duration: duration, startTime: start,
                            averageFrameRate: rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil,
                            color: color, pixelFormat: formatName, hasAudio: hasAudio)
        info.creationTime = creationTime(context.pointee.metadata) ?? creationTime(stream.pointee.metadata)
        if stream.pointee.duration != nopts && stream.pointee.duration > 0 {
            info.videoDuration = Double(stream.pointee.duration) * av_q2d(timeBase)
        }
        let aspect = parameters.pointee.sample_aspect_ratio
        if aspect.num > 0 && aspect.den > 0 && aspect.num != aspect.den {
            let ratio = av_q2d(aspect)
            // A stated ratio far from any camera's (a damaged header) is ignored.
            if ratio >= 0.25 && ratio <= 4 { info.pixelAspect = ratio }
        }
        info.fieldOrder = switch parameters.pointee.field_order {
        case AV_FIELD_PROGRESSIVE: .progressive
        case AV_FIELD_TT, AV_FIELD_TB: .topFirst
        case AV_FIELD_BB, AV_FIELD_BT: .bottomFirst
        default: .unknown
        }
        return (info, videoIndex)
    }

    /// The one line for a video stream this FFmpeg cannot decode: that it is a video, in which
    /// container, and its codec (by name, or by the four characters a container gave when
    /// libavcodec does not know them).
    package static func undecodableReason(codecID: AVCodecID, tag: UInt32, container: UnsafePointer<AVInputFormat>) -> String {
        let format = container.pointee.long_name.map { String(cString: $0) } ?? String(cString: container.pointee.name)
        guard codecID != AV_CODEC_ID_NONE else {
            let characters = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
            let printable = characters.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
            let named = tag == 0 ? "" : printable ? " (fourcc '\(String(decoding: characters, as: UTF8.self))')"
                                               : String(format: " (tag 0x%08X)", tag)
            return "is a video (\(format)) in a codec FFmpeg does not know\(named): it cannot be decoded"
        }
        let name = String(cString: avcodec_get_name(codecID))
        let long = avcodec_descriptor_get(codecID)?.pointee.long_name.map { String(cString: $0) }
        return "is a video (\(format)) in \(long.map { "\($0) (\(name))" } ?? name), which this FFmpeg cannot decode"
    }
}
