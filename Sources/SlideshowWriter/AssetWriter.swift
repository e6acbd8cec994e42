import Foundation
import Dispatch
import Synchronization
import SlideshowAudio
import SlideshowFFmpeg
import SlideshowPixels


/// Writes a video file from pixel buffers appended at presentation times, in the shape of
/// AVFoundation's `AVAssetWriter`.
///
/// ```swift
/// let writer = try AssetWriter(outputPath: "out.mp4", settings: VideoSettings())
/// let input = AssetWriterInput(settings: writer.settings)
/// let adaptor = PixelBufferAdaptor(assetWriterInput: input)
/// writer.add(input)
/// try writer.startWriting()
/// writer.startSession(atSourceTime: .zero)
/// input.requestMediaDataWhenReady(on: queue) {
///     while input.isReadyForMoreMediaData, let (buffer, time) = nextSlide() {
///         adaptor.append(buffer, withPresentationTime: time)
///     }
///     // when there are no more slides:
///     input.markAsFinished()
///     writer.endSession(atSourceTime: end)
///     writer.finishWriting { … }
/// }
/// ```
///
/// The file is H.264 High (libx264), or HEVC Main (libx265, ``VideoCodec/hevc``), yuv420p, BT.709 limited range and tagged so, at a
/// constant frame rate, in an MP4 with `moov` before `mdat`. A buffer stays on screen until
/// the next buffer's time; ``endSession(atSourceTime:)`` sets when the last one ends, so the
/// last picture gets its full share. Without it, the session ends one frame after the last
/// buffer.
///
/// Bytes go to a temporary file beside the output and are moved into place only by a
/// successful ``finishWriting()``; a failure or ``cancelWriting()`` leaves nothing behind.
///
/// Thread safety: the writer, its input and its adaptor may be called from any thread. An
/// appended buffer is converted to the video's colour space on the appending thread, so
/// that conversion overlaps the encoding of the previous picture; encoding and muxing run
/// on the writer's own serial queue, which owns the encoder and the muxer.
public final class AssetWriter: @unchecked Sendable {
    // @unchecked: every mutable property is behind `state` or `converter`, and the engine
    // (the encoder and muxer) is touched only on `queue`. The sound's side is in
    // AssetWriter+Audio.swift; `state`, `engine` and the failure path are internal for it.

    /// Where a writer is in its life.
    public enum Status: Sendable, Equatable {
        /// Created; ``startWriting()`` not yet called.
        case unknown
        /// Accepting buffers.
        case writing
        /// Finished: the file is in place.
        case completed
        /// Failed: ``error`` says why; nothing was left at the output path.
        case failed
        /// Cancelled; nothing was left at the output path.
        case cancelled
    }

    /// The output path.
    public let outputPath: String
    /// The video's settings.
    public let settings: VideoSettings
    /// Whether an existing file at the output path may be replaced.
    public let overwrite: Bool

    package let queue = DispatchQueue(label: "slideshow.asset-writer")
    package let state = Mutex(State())
    /// Owned by `queue`.
    nonisolated(unsafe) var engine: (any EncodingEngine)?
    /// Converts appended buffers, on the appending thread, one at a time.
    private let converter: Mutex<ColorConverter>
    /// Encodes appended sound, on the appending thread; set by startWriting() when there is an audio input.
    package let audioEncoder = Mutex<(any SoundEncoder)?>(nil)

    package struct State {
        package var status = Status.unknown
        package var error: WriterError?
        package var input: AssetWriterInput?
        package var audioInput: AssetWriterAudioInput?
        package var sessionStart: MediaTime?
        package var sessionEnd: MediaTime?
        package var lastFrame: Int64 = -1
        /// With an audio input: the video input is finished, and its frames were sent to the muxer.
        package var videoInputFinished = false
        package var videoFlushed = false
        /// The temporary file, from startWriting() until it is committed or discarded.
        package var output: OutputFile?
        /// The file's creation time and title.
        package var metadata = MovieMetadata()
    }

    /// Creates a writer.
    /// - Parameters:
    ///   - outputPath: the MP4 file to write.
    ///   - settings: size, frame rate and encoder settings.
    ///   - overwrite: whether a file already at `outputPath` may be replaced (when the render succeeds).
    /// - Throws: ``WriterError`` `.invalidSettings` when the settings cannot make a video.
    public init(outputPath: String, settings: VideoSettings, overwrite: Bool = false) throws(WriterError) {
        var settings = settings
        if settings.container == nil { settings.container = VideoContainer(outputPath: outputPath) }
        if let problem = settings.problem {
            throw WriterError(path: outputPath, kind: .invalidSettings, reason: problem)
        }
        self.outputPath = outputPath
        self.settings = settings
        self.overwrite = overwrite
        do {
            converter = Mutex(try ColorConverter(size: settings.size, hdr: settings.hdr))
        } catch {
            throw WriterError(path: outputPath, kind: .encoderFailed, reason: error.description)
        }
    }

    /// Checks, touching nothing, that a writer could write `outputPath`: only a regular file
    /// (or nothing) may be there, a symbolic link is followed to an existing file, the folder
    /// must exist and be writable, and the name and path must fit. ``startWriting()`` checks
    /// the same; a render checks first, before it decodes anything.
    /// - Throws: ``WriterError``: `.invalidPath`, `.noSuchFolder`, `.outputIsFolder`,
    ///   `.notAFile`, `.outputExists` (without `overwrite`), `.notWritable`.
    public static func checkOutput(outputPath: String, overwrite: Bool) throws(WriterError) {
        try OutputFile.check(target: outputPath, overwrite: overwrite)
    }

    /// The file name extensions of an output, compared without case: the video is always MP4
    /// (H.264 and AAC), and these are the names players expect of MP4 data.
    public static let fileExtensions = VideoContainer.allCases.flatMap(\.fileExtensions)

    /// The container the file is written in: the settings', or the output's extension's (MP4 by default).
    public var container: VideoContainer { settings.container ?? .mp4 }

    /// Why a render would not write `outputPath`'s container, or nil: an output named `.mkv`,
    /// `.mov`, `.jpg` or with no extension would get MP4 data under a name that says otherwise,
    /// so it is refused before anything renders. `.gif` and `.webp` are taken too: the
    /// renderer writes them with ``AnimatedImageWriter`` instead.
    ///
    /// An empty path, one ending in `/` and an existing folder are left to
    /// ``checkOutput(outputPath:overwrite:)``, which says what is wrong with them more precisely.
    public static func extensionProblem(outputPath: String) -> String? {
        var isFolder: ObjCBool = false
        if outputPath.isEmpty || outputPath.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: outputPath, isDirectory: &isFolder) && isFolder.boolValue) {
            return nil
        }
        let name = outputPath.split(separator: "/").last.map(String.init) ?? outputPath
        let dot = name.lastIndex(of: ".")
        let suffix = dot.map { name[name.index(after: $0)...].lowercased() }
        if let suffix, dot != name.startIndex, fileExtensions.contains(suffix) || AnimatedFormat(rawValue: suffix) != nil { return nil }
        return "'\(outputPath)' must end in .mp4 or .m4v (MP4: H.264, HEVC or AV1 with AAC), .webm (WebM: VP9 or AV1 with Opus) or "
            + "\(AnimatedFormat.allCases.map { "." + $0.rawValue }.joined(separator: " or ")) (an animated preview)"
    }

    /// The writer's status.
    public var status: Status { state.withLock { $0.status } }

    /// Why the writer failed, once ``status`` is `.failed`.
    public var error: WriterError? { state.withLock { $0.error } }

    /// The file's creation time and title, set before ``startWriting()`` (later changes are
    /// ignored); none by default.
    public var metadata: MovieMetadata {
        get { state.withLock { $0.metadata } }
        set { state.withLock { $0.metadata = newValue } }
    }

    /// Adds the video input. A writer takes one input.
    public func add(_ input: AssetWriterInput) {
        state.withLock { state in
            precondition(state.input == nil, "an AssetWriter takes one input")
            precondition(state.status == .unknown, "inputs are added before startWriting()")
            state.input = input
        }
        input.attach(to: self)
    }

    /// Adds the audio input, beside the video input. A writer takes at most one.
    public func add(_ input: AssetWriterAudioInput) {
        state.withLock { state in
            precondition(state.audioInput == nil, "an AssetWriter takes one audio input")
            precondition(state.status == .unknown, "inputs are added before startWriting()")
            state.audioInput = input
        }
        input.attach(to: self)
    }

    /// Creates the temporary output, opens the encoder and writes the file's header.
    ///
    /// Blocks the calling thread while it does: from an async context, call ``beginWriting()``
    /// instead, which does the same work on the writer's queue without holding a cooperative thread.
    /// - Throws: ``WriterError``: `.invalidPath`, `.noSuchFolder`, `.outputIsFolder`, `.notAFile`,
    ///   `.outputExists`, `.notWritable`, `.encoderFailed`, `.invalidState`.
    public func startWriting() throws(WriterError) {
        try checkCanStart()
        try started(queue.sync { open() })
    }

    /// ``startWriting()`` for async callers: the output created, the encoder opened and the
    /// header written on the writer's queue; the caller is resumed when it is done.
    /// - Throws: as ``startWriting()``.
    public func beginWriting() async throws(WriterError) {
        try checkCanStart()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WriterError>, Never>) in
            queue.async { continuation.resume(returning: self.open()) }
        }
        try started(result)
    }

    private func checkCanStart() throws(WriterError) {
        let input = state.withLock { $0.input }
        guard input != nil, status == .unknown else {
            throw WriterError(path: outputPath, kind: .invalidState, reason: "startWriting() needs one input and a new writer")
        }
    }

    /// The output and the encoder opened, the header written: on ``queue``.
    private func open() -> Result<Void, WriterError> {
        let audioInput = state.withLock { $0.audioInput }
        do {
            let output = try OutputFile(target: outputPath, overwrite: overwrite)
            do {
                let bitrate = audioInput?.bitrate
                let metadata = self.metadata
                try audioEncoder.withLock { encoder throws(FFmpegError) in
                    let container = container
                    if settings.codec.showsExistingFrames {
                        // Opus in WebM; AV1 in MP4 keeps AAC.
                        encoder = try bitrate.map { bitrate throws(FFmpegError) -> any SoundEncoder in
                            container == .webm ? try OpusEncoder(bitrate: bitrate) : try AACEncoder(bitrate: bitrate)
                        }
                        engine = try ShowExistingEngine(path: output.temporary, settings: settings, container: container,
                                                        audio: encoder, metadata: metadata)
                    } else {
                        let aac = try bitrate.map { bitrate throws(FFmpegError) in try AACEncoder(bitrate: bitrate) }
                        encoder = aac
                        engine = try WriterEngine(path: output.temporary, settings: settings, audio: aac, metadata: metadata)
                    }
                }
            } catch {
                output.discard()
                throw error
            }
            state.withLock { $0.output = output }
            return .success(())
        } catch let error as WriterError {
            return .failure(error)
        } catch {
            return .failure(describe(error))
        }
    }

    private func started(_ result: Result<Void, WriterError>) throws(WriterError) {
        switch result {
        case .success:
            state.withLock { $0.status = .writing }
        case .failure(let error):
            state.withLock {
                $0.status = .failed
                $0.error = error
            }
            throw error
        }
    }

    /// Starts the session: appended times are taken relative to `time`.
    public func startSession(atSourceTime time: MediaTime) {
        state.withLock { $0.sessionStart = time }
    }

    /// Ends the session at `time`: the last appended buffer stays on screen until then.
    public func endSession(atSourceTime time: MediaTime) {
        state.withLock { $0.sessionEnd = time }
        flushVideoIfFinished()
    }

    /// Encodes what is still queued, holds the last buffer until the session's end, writes the
    /// trailer and moves the file into place.
    /// - Throws: the ``WriterError`` that failed the writer, or `.outputExists` if a file
    ///   appeared at the output path meanwhile (without overwrite).
    public func finishWriting() async throws(WriterError) {
        let result: Result<Void, WriterError> = await withCheckedContinuation { continuation in
            finishWriting { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// ``finishWriting()`` with a completion handler, called on the writer's queue.
    public func finishWriting(completionHandler: @escaping @Sendable (Result<Void, WriterError>) -> Void) {
        let (endFrame, status) = state.withLock { state -> (Int64, Status) in
            let end = state.sessionEnd.map { frameIndex(of: $0, start: state.sessionStart ?? .zero) } ?? state.lastFrame + 1
            return (max(end, state.lastFrame + 1), state.status)
        }
        guard status == .writing else {
            completionHandler(.failure(error ?? WriterError(path: outputPath, kind: .invalidState, reason: "finishWriting() while not writing")))
            return
        }
        state.withLock { $0.input }?.markAsFinished()
        // An audio input not yet finished ends here; its last packets are queued before the trailer.
        state.withLock { $0.audioInput }?.markAsFinished()
        queue.async { [self] in
            // Appends queued before this block have been encoded, in order.
            guard self.status == .writing, let engine, let output = state.withLock({ $0.output }) else {
                completionHandler(.failure(error ?? cancelledError))
                return
            }
            do {
                try engine.finish(endFrame: endFrame)
                self.engine = nil
                try output.commit()
                state.withLock {
                    $0.output = nil
                    $0.status = .completed
                }
                completionHandler(.success(()))
            } catch {
                fail(describe(error))
                completionHandler(.failure(self.error ?? describe(error)))
            }
        }
    }

    /// Stops writing and removes the temporary file; nothing is left at the output path.
    public func cancelWriting() {
        stop(status: .cancelled, error: cancelledError)
    }

    // MARK: For the input

    private var cancelledError: WriterError {
        WriterError(path: outputPath, kind: .cancelled, reason: "cancelled")
    }

    /// The frame a presentation time falls on (rounded to the nearest frame).
    package func frameIndex(of time: MediaTime, start: MediaTime) -> Int64 {
        let fps = Int32(settings.framesPerSecond)
        return MediaTime.rescale(time.value, from: time.timescale, to: fps) - MediaTime.rescale(start.value, from: start.timescale, to: fps)
    }

    /// Accepts a buffer from the input: checks its time and queues it for encoding.
    /// - Returns: false, with ``error`` set, when the buffer cannot be appended.
    package func enqueue(_ buffer: AppendedPicture, at time: MediaTime, done: @escaping @Sendable () -> Void) -> Bool {
        let verdict = state.withLock { state -> Result<Int64, WriterError> in
            guard state.status == .writing else {
                return .failure(state.error ?? WriterError(path: outputPath, kind: .invalidState, reason: "append before startWriting()"))
            }
            guard let start = state.sessionStart else {
                return .failure(WriterError(path: outputPath, kind: .invalidState, reason: "append before startSession(atSourceTime:)"))
            }
            let index = frameIndex(of: time, start: start)
            guard index > state.lastFrame else {
                return .failure(WriterError(path: outputPath, kind: .invalidTime,
                                            reason: "time \(time) is not after the previous buffer's frame \(state.lastFrame)"))
            }
            if let end = state.sessionEnd, index >= frameIndex(of: end, start: start) {
                return .failure(WriterError(path: outputPath, kind: .invalidTime, reason: "time \(time) is at or after the session's end"))
            }
            state.lastFrame = index
            return .success(index)
        }
        guard case .success(let index) = verdict else {
            if case .failure(let error) = verdict, error.kind != .invalidState || status == .writing {
                fail(error)
            }
            return false
        }
        guard buffer.size == settings.size else {
            fail(WriterError(path: outputPath, kind: .invalidState, reason: "buffer of size \(buffer.size) in a \(settings.size) video"))
            return false
        }
        guard buffer.isHDR == (settings.hdr != nil) else {
            fail(WriterError(path: outputPath, kind: .invalidState,
                             reason: buffer.isHDR ? "an HDR buffer in an SDR video" : "an SDR buffer in an HDR video"))
            return false
        }
        let picture: EncoderPicture
        do {
            picture = try converter.withLock { converter throws(FFmpegError) -> EncoderPicture in
                switch buffer {
                case .sdr(let pixels): try converter.convert(pixels)
                case .hdr(let samples): try converter.convert(samples)
                case .hdrPlaced(let placed): try converter.convert(placed)
                }
            }
        } catch {
            fail(describe(error))
            return false
        }
        state.withLock { $0.audioInput }?.videoReached(frame: index + 1, framesPerSecond: settings.framesPerSecond)
        let slot = PictureSlot(picture)
        queue.async { [self] in
            defer { done() }
            guard status == .writing, let engine else { return }
            do {
                try engine.append(slot.take(), at: index)
            } catch {
                fail(describe(error))
            }
        }
        return true
    }

    /// Fails the writer: removes the temporary file and wakes the input so its block sees the failure.
    package func fail(_ error: WriterError) {
        stop(status: .failed, error: error)
    }

    /// Ends writing early: the temporary file goes at once, the C objects when the queue gets to them.
    private func stop(status: Status, error: WriterError) {
        let stopped = state.withLock { state -> (OutputFile?, AssetWriterInput?, AssetWriterAudioInput?)? in
            guard state.status == .writing || (status == .cancelled && state.status == .unknown) else { return nil }
            state.status = status
            state.error = error
            defer { state.output = nil }
            return (state.output, state.input, state.audioInput)
        }
        guard let (output, input, audioInput) = stopped else { return }
        output?.discard()
        queue.async { [self] in engine = nil }
        input?.writerStopped()
        audioInput?.writerStopped()
    }

    /// A ``WriterError`` for a lower layer's failure.
    package func describe(_ error: any Error) -> WriterError {
        switch error {
        case let error as WriterError:
            return error
        case let error as FFmpegError where error.isNoSpace:
            return WriterError(path: outputPath, kind: .diskFull, reason: "no space left for the video (\(error.message))")
        case let error as FFmpegError where error.call == "avio_open":
            return WriterError(path: outputPath, kind: .notWritable, reason: "cannot create the file (\(error.message))")
        case let error as FFmpegError:
            return WriterError(path: outputPath, kind: .encoderFailed, reason: error.description)
        default:
            return WriterError(path: outputPath, kind: .encoderFailed, reason: "\(error)")
        }
    }
}

/// Carries a converted picture to the writer's queue, which takes it out.
private final class PictureSlot: @unchecked Sendable {
    // @unchecked: filled before the block is queued, emptied once on the writer's queue.
    private var picture: EncoderPicture?

    init(_ picture: EncoderPicture) { self.picture = picture }

    func take() -> EncoderPicture {
        defer { picture = nil }
        return picture!
    }
}

/// A picture an input appends: an SDR video's 8-bit buffer or an HDR video's 16-bit one, whole
/// or as its picture and the bars' code values (a clip's frame shown as it is).
package enum AppendedPicture: Sendable {
    case sdr(PixelBuffer)
    case hdr(HDRPixelBuffer)
    case hdrPlaced(HDRPlacedPicture)

    package var size: Size {
        switch self {
        case .sdr(let buffer): buffer.size
        case .hdr(let buffer): buffer.size
        case .hdrPlaced(let placed): placed.frameSize
        }
    }

    package var isHDR: Bool { if case .sdr = self { false } else { true } }
}
