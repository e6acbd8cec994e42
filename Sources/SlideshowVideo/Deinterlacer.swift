package import CFFmpeg
import SlideshowFFmpeg

/// Deinterlaces a clip's decoded frames with libavfilter's `bwdif` (buffer → bwdif → buffersink).
///
/// Each frame is deinterlaced by its own flag (`deint=interlaced`), so a stream that mixes
/// progressive and interlaced pictures has only the interlaced ones filtered (the others pass
/// through unchanged), and each field order by the frame's own `top_field_first`
/// (`parity=auto`). Two rates:
/// - ``Rate/frame``: one picture per field pair (a 50i clip in a 25-fps show), the first field
///   kept and the second interpolated from it and its neighbours in time;
/// - ``Rate/field``: one picture per field (double rate: a 50i clip in a 50- or 60-fps show), the
///   second field's picture timed half a frame after the first.
///
/// `bwdif` looks one frame ahead: a frame comes out once the next one went in, and the last ones
/// after ``end()``. Its timestamps are in ``timeBase``, half the stream's ticks (`bwdif` doubles
/// them so that a field's time is whole). The graph holds three frames (before, now, after).
package final class Deinterlacer {
    /// One picture per frame (field pair), or one per field.
    package enum Rate: Sendable, Equatable {
        case frame
        case field
    }

    /// What came out of ``receive(into:)``.
    package enum Output: Equatable {
        case frame
        case needsInput
        case endOfStream
    }

    /// The pictures a graph is built for (a change of size or format rebuilds it).
    package struct Key: Equatable {
        package var width: Int32, height: Int32, format: Int32
    }

    package let key: Key
    /// The time base of the frames given: the stream's with twice the ticks.
    package let timeBase: AVRational
    private let graph: OwnedFilterGraph
    /// Filters owned by `graph` (freed with it).
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// Builds the graph for frames like `frame`.
    /// - Parameters:
    ///   - frame: a decoded frame (its size, format and sample aspect ratio).
    ///   - timeBase: the time base of the frames' `pts`.
    ///   - rate: one picture per frame or per field.
    ///   - threads: slice threads for `bwdif`.
    /// - Throws: ``FFmpegError`` when libavfilter refuses the graph (no `bwdif`, a format it does not take).
    package init(frame: UnsafePointer<AVFrame>, timeBase: AVRational, rate: Rate, threads: Int) throws(FFmpegError) {
        let key = Key(width: frame.pointee.width, height: frame.pointee.height, format: frame.pointee.format)
        let graph = try OwnedFilterGraph()
        graph.pointer.pointee.nb_threads = Int32(threads)
        let aspect = frame.pointee.sample_aspect_ratio
        let arguments = "video_size=\(key.width)x\(key.height):pix_fmt=\(key.format):time_base=\(timeBase.num)/\(timeBase.den)"
            + ":pixel_aspect=\(max(aspect.num, 0))/\(max(aspect.den, 1))"
        let source = try graph.filter("buffer", name: "in", arguments: arguments)
        let bwdif = try graph.filter("bwdif", name: "deinterlace",
                                     arguments: "mode=\(rate == .field ? "send_field" : "send_frame"):parity=auto:deint=interlaced")
        let sink = try graph.filter("buffersink", name: "out", arguments: nil)
        try graph.link(source, 0, to: bwdif, 0)
        try graph.link(bwdif, 0, to: sink, 0)
        try graph.configure()
        self.key = key
        self.graph = graph
        self.source = source
        self.sink = sink
        self.timeBase = graph.timeBase(of: sink)
    }

    /// Gives the graph one frame (its `pts` in the time base the graph was built with); the
    /// frame is left as it is (the graph takes a reference of its own).
    /// - Throws: ``FFmpegError`` when the graph refuses it.
    package func send(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        try check(graph.add(frame, to: source, flags: Int32(AV_BUFFERSRC_FLAG_KEEP_REF)), "av_buffersrc_add_frame_flags")
    }

    /// Tells the graph no more frames come: the ones it holds come out.
    package func end() {
        // It fails only on a source already ended.
        _ = graph.add(nil, to: source, flags: 0)
    }

    /// The next deinterlaced picture into `frame` (unreferenced first), if one is ready.
    package func receive(into frame: UnsafeMutablePointer<AVFrame>) -> Output {
        av_frame_unref(frame)
        let code = graph.take(from: sink, into: frame)
        if code >= 0 { return .frame }
        return code == shim_averror_eagain() ? .needsInput : .endOfStream
    }
}
