import Foundation
import SlideshowPixels

/// The animated formats a show can be written to besides MP4: small previews for a chat or a
/// README, chosen by the output's extension.
public enum AnimatedFormat: String, Sendable, Hashable, CaseIterable {
    /// GIF89a: a palette of its own per scene, through libavfilter's `palettegen`/`paletteuse`
    /// and libavcodec's `gif` encoder and libavformat's `gif` muxer.
    case gif
    /// Animated WebP (lossy), through libwebp's `WebPAnimEncoder`.
    case webp

    /// The format an output's name asks for (`.gif`, `.webp`, in any case), or nil.
    public init?(outputPath: String) {
        let name = outputPath.split(separator: "/").last.map(String.init) ?? outputPath
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(rawValue: name[name.index(after: dot)...].lowercased())
    }

    /// A preview's width when no size is given: 480 pixels, the height following the show's
    /// default shape (480x270 for 16:9).
    public static let defaultWidth = 480
    /// A preview's frame rate when none is given: 10 frames per second, so that a GIF's frames
    /// are exactly 10/100 s (its delays are in hundredths) and a WebP's exactly 100 ms.
    public static let defaultFramesPerSecond = 10

    /// The highest frame rate the format plays as timed: a GIF's delays are in hundredths of a
    /// second, and browsers slow delays under 2/100 s down to 10/100 s, so 50 fps; a WebP's are
    /// in milliseconds.
    public var maximumFramesPerSecond: Int {
        switch self {
        case .gif: 50
        case .webp: 240
        }
    }

    /// The units of one second in the format's frame timing: 100 for GIF, 1000 for WebP.
    public var ticksPerSecond: Int {
        switch self {
        case .gif: 100
        case .webp: 1000
        }
    }

    /// When frame `frame` starts, in the format's ticks: the exact time rounded to the nearest
    /// tick (halves up). Each picture's delay is the difference of two such times, so the
    /// rounding never adds up: a delay is within half a tick of its true length either way,
    /// and the delays of a whole show add up to its length rounded to one tick (10 ms for GIF,
    /// 1 ms for WebP). At 15 fps a GIF's frames are 7, 7, 6, 7, 7, 6 … hundredths.
    public func tick(ofFrame frame: Int, framesPerSecond: Int) -> Int {
        (frame * ticksPerSecond * 2 + framesPerSecond) / (2 * framesPerSecond)
    }
}

/// What a format's encoder takes: pictures by scene, each at its first frame's time.
protocol AnimatedEncoder: AnyObject {
    /// Encodes a scene: one held picture (`still`), or a run of pictures a frame apart.
    func encode(scene: [(buffer: PixelBuffer, frame: Int)], still: Bool) throws(WriterError)
    /// Ends the animation at `endFrame` and writes the file.
    func finish(endFrame: Int) throws(WriterError)
}

/// Writes an animated GIF or WebP from pictures appended at frame numbers, each shown until the
/// next one's frame: the renderer's seam beside ``AssetWriter`` for `.gif` and `.webp` outputs.
///
/// ```swift
/// let writer = try AnimatedImageWriter(outputPath: "show.gif", size: Size(width: 480, height: 270), framesPerSecond: 10)
/// try writer.append(first, atFrame: 0)
/// try writer.append(second, atFrame: 30)
/// try writer.finish(atFrame: 60)   // the file is in place
/// ```
///
/// A held picture is written once, as one frame with a long delay (GIF) or duration (WebP),
/// never as repeated frames. The pictures are grouped into scenes: a held picture is a scene of
/// its own, and a run of pictures one frame apart (a transition, motion) is one scene of up to
/// ``longestRun`` pictures. A GIF gets a palette per scene (``GIFEncoder``).
///
/// Like ``AssetWriter``, the bytes go to a temporary file beside the output and are moved
/// into place by ``finish(atFrame:)``; a failure, ``cancel()`` or a writer dropped unfinished
/// leaves nothing behind. Not thread-safe: one thread appends and finishes.
public final class AnimatedImageWriter {
    /// The output path.
    public let outputPath: String
    /// GIF or WebP.
    public let format: AnimatedFormat
    /// The pictures' size.
    public let size: Size
    /// The frame numbers' rate.
    public let framesPerSecond: Int
    /// Pictures written so far (a held picture counts once).
    public private(set) var pictureCount = 0

    /// The most pictures in one scene of a run: a long run of motion is cut into scenes of
    /// this many (3 s at 10 fps), each with its own palette, so that no more are held at once.
    public static let longestRun = 30

    private let output: OutputFile
    private let encoder: any AnimatedEncoder
    /// The pictures of the run under way, each one frame long.
    private var run: [(buffer: PixelBuffer, frame: Int)] = []
    /// The latest picture, whose length the next append (or the end) tells.
    private var latest: (buffer: PixelBuffer, frame: Int)?
    private var done = false

    /// Creates the temporary output and the encoder.
    /// - Parameters:
    ///   - outputPath: the `.gif` or `.webp` file to write.
    ///   - format: the format; by default the output's extension's.
    ///   - size: the pictures' size.
    ///   - framesPerSecond: the rate of the frame numbers given to ``append(_:atFrame:)``.
    ///   - overwrite: whether a file already at `outputPath` may be replaced.
    /// - Throws: ``WriterError``: `.invalidSettings` (not a `.gif` or `.webp` name, a size or
    ///   rate the format cannot take), the output's own (``AssetWriter/checkOutput(outputPath:overwrite:)``),
    ///   `.encoderFailed`.
    public init(outputPath: String, format: AnimatedFormat? = nil, size: Size, framesPerSecond: Int,
                overwrite: Bool = false) throws(WriterError) {
        guard let format = format ?? AnimatedFormat(outputPath: outputPath) else {
            throw WriterError(path: outputPath, kind: .invalidSettings, reason: "is not named .gif or .webp")
        }
        guard (1...format.maximumFramesPerSecond).contains(framesPerSecond) else {
            throw WriterError(path: outputPath, kind: .invalidSettings,
                              reason: "\(framesPerSecond) fps is not between 1 and \(format.maximumFramesPerSecond), the most a \(format.rawValue.uppercased()) plays as timed")
        }
        guard (1...16383).contains(size.width), (1...16383).contains(size.height) else {
            throw WriterError(path: outputPath, kind: .invalidSettings, reason: "size \(size) is not between 1 and 16383 pixels a side")
        }
        self.outputPath = outputPath
        self.format = format
        self.size = size
        self.framesPerSecond = framesPerSecond
        output = try OutputFile(target: outputPath, overwrite: overwrite)
        do throws(WriterError) {
            switch format {
            case .gif: encoder = try GIFEncoder(path: output.temporary, target: outputPath, size: size, framesPerSecond: framesPerSecond)
            case .webp: encoder = try WebPAnimationEncoder(path: output.temporary, target: outputPath, size: size, framesPerSecond: framesPerSecond)
            }
        } catch {
            output.discard()
            throw error
        }
    }

    deinit { output.discard() }

    /// Appends a picture shown from `frame` until the next picture's frame (or the end).
    /// The first picture is at frame 0.
    /// - Throws: ``WriterError``: `.invalidTime` (the first not at 0, or not after the last),
    ///   `.invalidSettings` (another size), `.invalidState` (after the end), `.encoderFailed`;
    ///   the file is then removed.
    public func append(_ buffer: PixelBuffer, atFrame frame: Int) throws(WriterError) {
        try failing { () throws(WriterError) in
            guard !done else { throw WriterError(path: outputPath, kind: .invalidState, reason: "a picture appended after the end") }
            guard buffer.size == size else {
                throw WriterError(path: outputPath, kind: .invalidSettings, reason: "a picture of \(buffer.size) in a \(size) animation")
            }
            if let latest {
                guard frame > latest.frame else {
                    throw WriterError(path: outputPath, kind: .invalidTime, reason: "frame \(frame) is not after frame \(latest.frame)")
                }
                try place(latest, length: frame - latest.frame)
            } else if frame != 0 {
                throw WriterError(path: outputPath, kind: .invalidTime, reason: "the first picture is at frame \(frame), not 0")
            }
            latest = (buffer, frame)
        }
    }

    /// Ends the last picture at `endFrame`, writes the file and moves it into place.
    /// - Throws: ``WriterError``: `.invalidTime` (no picture, or the end not after the last),
    ///   `.encoderFailed`, `.diskFull`, `.notWritable`, `.outputTaken`; nothing is left behind.
    public func finish(atFrame endFrame: Int) throws(WriterError) {
        try failing { () throws(WriterError) in
            guard !done else { throw WriterError(path: outputPath, kind: .invalidState, reason: "finished twice") }
            guard let latest, endFrame > latest.frame else {
                throw WriterError(path: outputPath, kind: .invalidTime, reason: "the end at frame \(endFrame) is not after the last picture")
            }
            try place(latest, length: endFrame - latest.frame)
            self.latest = nil
            try flushRun()
            done = true
            try encoder.finish(endFrame: endFrame)
            try output.commit()
        }
    }

    /// Stops; the temporary file is removed.
    public func cancel() {
        done = true
        output.discard()
    }

    private func failing(_ body: () throws(WriterError) -> Void) throws(WriterError) {
        do {
            try body()
        } catch {
            done = true
            output.discard()
            throw error
        }
    }

    /// A picture whose length is known: into the run when it lasts one frame, else a scene of
    /// its own after the run so far.
    private func place(_ picture: (buffer: PixelBuffer, frame: Int), length: Int) throws(WriterError) {
        if length == 1 {
            run.append(picture)
            if run.count >= Self.longestRun { try flushRun() }
        } else {
            try flushRun()
            try encoder.encode(scene: [picture], still: true)
            pictureCount += 1
        }
    }

    private func flushRun() throws(WriterError) {
        guard !run.isEmpty else { return }
        let scene = run
        run = []
        try encoder.encode(scene: scene, still: scene.count == 1)
        pictureCount += scene.count
    }
}
