import Dispatch
import Foundation
import Synchronization
import SlideshowAudio
import SlideshowImages
import SlideshowPlan
import SlideshowSupport
import SlideshowText
import SlideshowWriter
import SlideshowFormats

/// A slideshow checked once and laid out once: everything a render needs to know before it
/// decodes a pixel. ``Slideshow/validate()`` makes it; ``render(progress:)`` renders from it
/// without checking or reading anything again.
///
/// ```swift
/// let prepared = try await show.validate()
/// if let warning = prepared.planWarning { print(warning) }
/// let result = try await prepared.render()
/// ```
public struct PreparedSlideshow: Sendable {
    /// The show, as it was validated.
    public let slideshow: Slideshow
    /// When each photo is on screen.
    public let timeline: Timeline
    /// What every frame shows.
    public let plan: FramePlan
    /// Each item's header, in order: size, orientation, format and capture date; for a clip,
    /// its probe (`PhotoInfo/clip`), for a motion photo that plays, its video (`PhotoInfo/motionClip`).
    public let photos: [PhotoInfo]
    /// The music's length after its start in seconds, as its container states it (or as
    /// measured when the show follows it); nil without music or when not stated.
    public let musicLength: Double?
    /// What the music's file is, as the one opening during validation found it.
    let music: AudioFileInfo?
    /// That opening, for the render's pass over the music to go on from (the file stays open
    /// until the show is rendered or dropped).
    let openedMusic: OpenedMusic?
    /// With cuts on the beat asked for (``CutStyle/beats``): the beat found and, when the cuts
    /// stayed even, why; nil otherwise.
    public let beats: BeatCutReport?
    /// The grid the cuts are on, when they are on the beat; nil for even cuts.
    public var beatGrid: BeatGrid? { beats?.fallback == nil ? beats?.grid : nil }
    /// Problems found reading and laying the show out that did not stop it: photos whose
    /// headers had something to ignore (a capture date that cannot be true), photos without a
    /// capture date played last, motion photos whose video cannot play, cuts that stay even (and
    /// why). The render's result repeats them.
    public let warnings: [RenderWarning]
    /// The photos' warnings among ``warnings``: a render does not report them twice.
    var photoWarnings: [PhotoWarning] = []
    /// Each photo's caption, given or from its metadata (``ShowText/resolved(photos:)``);
    /// empty when the show has none.
    public internal(set) var captions: [Caption?] = []
    /// What the user should know about the text: an unknown font family, a caption repaired.
    public internal(set) var textWarnings: [TextWarning] = []
    /// The opening title card, its date range filled in; nil without one.
    public internal(set) var openingCard: TitleCard? = nil
    /// The closing card; nil without one.
    public internal(set) var closingCard: TitleCard? = nil
    /// The clips' sound placed in the show, one per clip with sound (none when muted); the
    /// soundtrack mixes it in under the music.
    public internal(set) var clipSounds: [ClipSound] = []

    /// The warning for a transition that had to be shortened, or nil.
    public var planWarning: String? { slideshow.planWarning(plan) }

    /// Renders the show to its output (see ``Slideshow/render(progress:)``).
    /// - Parameter progress: called as photos are added, from a background thread.
    /// - Throws: ``RenderError``: `.photo` (a photo that cannot be decoded), `.audio`,
    ///   `.output` (the file cannot be written), `.cancelled`.
    public func render(progress: (@Sendable (RenderProgress) -> Void)? = nil) async throws(RenderError) -> RenderResult {
        try await Renderer(prepared: self, progress: progress, started: .now).run()
    }

    /// Renders the show, reporting progress as a stream of events that ends with `.finished`
    /// or an error.
    public func renderEvents() -> AsyncThrowingStream<RenderEvent, any Error> {
        Self.events { progress throws(RenderError) in try await render(progress: progress) }
    }

    /// The events of a render: its progress, then `.finished` or the error; the render is
    /// cancelled when the stream is dropped.
    static func events(of render: @escaping @Sendable (@escaping @Sendable (RenderProgress) -> Void) async throws(RenderError) -> RenderResult)
        -> AsyncThrowingStream<RenderEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let result = try await render { continuation.yield(.progress($0)) }
                    continuation.yield(.finished(result))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension Slideshow {
    /// Checks everything that can be checked before rendering, once: the settings
    /// (``checkSettings()``), the soundtrack (opened once, its first samples decoded), the
    /// timeline and the frame plan, the output path, and every item's header (read once
    /// each, several at once): a photo's, or a clip's probe (`ClipProbe`: its video stream,
    /// codec, size and length), and with ``motionPhotos`` `.play` each motion photo's video.
    /// The clips' lengths (or their parts, ``PhotoSettings/clipPart``) go into the timeline,
    /// and their sound into ``PreparedSlideshow/clipSounds``.
    /// - Returns: the show with its timeline, plan, photo headers and music length, to render.
    /// - Throws: ``RenderError/settings(_:)`` for a setting that breaks a rule,
    ///   ``RenderError/text(_:)`` for a font file that cannot be read, ``RenderError/invalid(_:)``
    ///   for a length that makes no video and written files that are read, ``RenderError/audio(_:)``
    ///   for a soundtrack that cannot be used, ``RenderError/output(_:)`` for an output that
    ///   cannot be written (see `AssetWriter/checkOutput(outputPath:overwrite:)`),
    ///   ``RenderError/photo(_:)`` or ``RenderError/clip(_:)`` for the first item, in order,
    ///   that cannot be read, ``RenderError/usage(_:)`` for a clip's part outside the clip or
    ///   clips that take the whole length, ``RenderError/cancelled`` when the task is cancelled.
    ///
    /// The reading and the analysis run on `BlockingPool` threads, not on the caller's: the
    /// music's opening, the headers (several at once), and the layout with its beat analysis.
    /// A cancelled task stops between these stages, and inside the long ones (the headers, the
    /// song's analysis), and throws ``RenderError/cancelled``.
    @discardableResult
    public func validate() async throws(RenderError) -> PreparedSlideshow {
        try Self.checkCancelled()
        // A show of clips alone lasts as long as they do, whatever its total: a total (or cards)
        // that leave its items no frame is refused only once the items are known to be photos.
        var deferred: OptionError? = nil
        do {
            try checkSettings()
        } catch where error.field == .duration || error.field == .titleCardDuration {
            deferred = error
        } catch {
            throw .settings(error)
        }
        // What the photos' headers had to ignore, for the result.
        let photoLog = PhotoWarningLog()
        // The font and the music: each file opened once, off the cooperative threads.
        let opened = try await Self.offPool { () throws(RenderError) in try self.openInputs() }
        let fontWarnings = opened.fontWarnings, music = opened.music
        try Self.checkCancelled()
        // The headers come first: the order and the clips' lengths need them before the layout.
        // A photo that cannot be read fails here with the order applied; otherwise after the
        // layout's and the output's own checks, as it always did.
        var inspected: (infos: [PhotoInfo], warnings: [RenderWarning])? = nil
        var unreadable: RenderError? = nil
        do throws(RenderError) {
            inspected = try await inspectPhotos(log: photoLog)
        } catch {
            if error == .cancelled || order != .given { throw error }
            unreadable = error
        }
        try Self.checkCancelled()
        if let deferred {
            guard let items = inspected?.infos, items.allSatisfy({ $0.clip != nil }) else { throw .settings(deferred) }
            // Clips alone: the rules again, with their own lengths as the show's.
            var clipsAlone = self
            clipsAlone.length = try lengthWithClips(.perSlide(seconds: 1), items: items)
            do {
                try clipsAlone.checkSettings()
            } catch {
                throw .settings(error)
            }
        }
        var arranged: (show: Slideshow, infos: [PhotoInfo], warning: String?)? = nil
        if order != .given, let inspected { arranged = self.arranged(infos: inspected.infos) }
        let show = arranged?.show ?? self
        let infos = arranged?.infos ?? inspected?.infos
        let warnings = [arranged?.warning].compactMap { $0 }.map { RenderWarning(kind: .order, path: nil, message: $0) }
            + (inspected?.warnings ?? [])
        // The layout (with cuts on the beat, the song's analysis) and the output's checks.
        let laidOut = try await Self.offPool { () throws(RenderError) in
            try show.layOut(musicLength: music?.length, infos: infos, checking: self)
        }
        try Self.checkCancelled()
        if let unreadable { throw unreadable }
        if let problem = show.hdrClipProblem(infos: infos) { throw .usage(problem) }
        if let problem = show.lengthProblem(photoFrames: laidOut.timeline.frameCount) { throw .usage(problem) }
        guard let headers = infos else { throw .cancelled }   // not reached: read, or failed above
        let photoWarnings = photoLog.warnings
        var prepared = PreparedSlideshow(slideshow: show, timeline: laidOut.timeline, plan: laidOut.plan, photos: headers,
                                         musicLength: music?.length, music: music?.info, openedMusic: music?.opened,
                                         beats: laidOut.beats, warnings: photoWarnings.map(RenderWarning.init) + warnings + laidOut.warnings)
        prepared.photoWarnings = photoWarnings
        prepared.captions = show.text.resolved(photos: headers)
        prepared.openingCard = show.resolvedCard(photos: headers)
        prepared.closingCard = show.text.closingCard
        prepared.textWarnings = show.settingWarnings + fontWarnings + (show.text.source == .metadata ? headers.compactMap(\.captionWarning) : [])
        prepared.clipSounds = show.clipSounds(items: headers, timeline: laidOut.timeline)
        return prepared
    }

    /// The font checked and the soundtrack opened (once; to its end when the show follows it):
    /// validation's first stage, on a pool thread.
    private func openInputs() throws(RenderError) -> (fontWarnings: [TextWarning], music: (info: AudioFileInfo, length: Double?, opened: OpenedMusic?)?) {
        let fontWarnings = try checkFont()
        guard let soundtrack else { return (fontWarnings, nil) }
        do {
            return (fontWarnings, try soundtrack.open(measuring: length == .soundtrack))
        } catch {
            throw .audio(error)
        }
    }

    /// The timeline and the plan (the cuts moved to the beat when asked, which analyses the
    /// song), then the written files' checks: validation's last stage, on a pool thread.
    /// - Parameter original: the show as given, whose written files are checked (the same files
    ///   as this arranged show's).
    private func layOut(musicLength: Double?, infos: [PhotoInfo]?, checking original: Slideshow) throws(RenderError)
        -> (timeline: Timeline, plan: FramePlan, beats: BeatCutReport?, warnings: [RenderWarning]) {
        var beats: BeatCutReport? = nil
        var warnings: [RenderWarning] = []
        // Clips keep their own lengths: the cuts around them move to the beat.
        let clips = infos?.map { $0.clip != nil } ?? []
        let (timeline, plan) = try layout(musicLength: musicLength, items: infos, moving: cuts == .beats ? { even, effects in
            let moved = self.beatTimeline(even, effects: effects, clips: clips)
            beats = moved.beats
            if let why = moved.beats?.fallback { warnings.append(RenderWarning(kind: .beats, path: self.soundtrack?.path, message: why.description)) }
            return moved.timeline
        } : nil)
        // A song's analysis stopped by a cancel lays out nothing.
        if Cancellation.isCancelled { throw .cancelled }
        try original.checkWrittenFiles(1)
        do {
            try AssetWriter.checkOutput(outputPath: original.output, overwrite: original.overwrite)
        } catch {
            throw .output(error)
        }
        try original.checkSubtitleFile()
        return (timeline, plan, beats, warnings)
    }

    /// Renders the slideshow to ``output``: ``validate()``, then ``PreparedSlideshow/render(progress:)``.
    ///
    /// The file appears at ``output`` only when it is complete; on any failure or
    /// cancellation nothing is left there, and a file that was there is untouched (unless
    /// ``overwrite`` and the render succeeded).
    /// - Parameter progress: called as photos are added, from a background thread.
    /// - Returns: what was written.
    /// - Throws: ``RenderError``: `.settings` (settings, length), `.invalid` (output path), `.photo` (a photo
    ///   that cannot be read), `.audio`, `.output` (the file cannot be written), `.cancelled`.
    public func render(progress: (@Sendable (RenderProgress) -> Void)? = nil) async throws(RenderError) -> RenderResult {
        // The time counts from here, validation included.
        let started = ContinuousClock.now
        return try await Renderer(prepared: validate(), progress: progress, started: started).run()
    }

    /// Renders the slideshow, reporting progress as a stream of events that ends with
    /// `.finished` or an error.
    public func renderEvents() -> AsyncThrowingStream<RenderEvent, any Error> {
        PreparedSlideshow.events { progress throws(RenderError) in try await render(progress: progress) }
    }

    /// ``RenderError/cancelled`` when the current task is cancelled.
    static func checkCancelled() throws(RenderError) {
        if Task.isCancelled { throw .cancelled }
    }

    /// Runs blocking work on `BlockingPool/shared` with the caller's ``ReadProbe``, and the
    /// photo warnings it finds going to `log`; a task cancelled meanwhile gets
    /// ``RenderError/cancelled``, whatever the work made of it.
    static func offPool<T: Sendable>(photoWarnings log: PhotoWarningLog? = nil,
                                     _ body: @escaping @Sendable () throws(RenderError) -> T) async throws(RenderError) -> T {
        let probe = ReadProbe.current
        let result = await BlockingPool.shared.run { () -> Result<T, RenderError> in
            ReadProbe.$current.withValue(probe) {
                PhotoWarnings.$log.withValue(log) {
                    do throws(RenderError) {
                        return .success(try body())
                    } catch {
                        return .failure(error)
                    }
                }
            }
        }
        try checkCancelled()
        return try result.get()
    }

    /// Every photo's header, read once each, on up to one pool thread per core. Workers take
    /// the photos in order and stop taking new ones past a photo that failed, so the error is
    /// the first photo in order that cannot be read, as a reading one after another would
    /// find; a cancelled task stops them between photos.
    private func inspectPhotos(log: PhotoWarningLog) async throws(RenderError) -> (infos: [PhotoInfo], warnings: [RenderWarning]) {
        let count = photos.count
        let reads = HeaderReads(count: count)
        let photos = self.photos
        let motionPhotos = self.motionPhotos
        let workers = min(count, max(1, ProcessInfo.processInfo.activeProcessorCount))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    _ = try? await Self.offPool(photoWarnings: log) { () throws(RenderError) in
                        while !Cancellation.isCancelled {
                            let index = reads.next.add(1, ordering: .relaxed).oldValue
                            guard index < count, index < reads.firstFailure.load(ordering: .relaxed) else { return }
                            let result: Result<(info: PhotoInfo, warnings: [RenderWarning]), RenderError>
                            do throws(RenderError) {
                                result = .success(try Self.inspectItem(photos[index], motionPhotos: motionPhotos))
                            } catch {
                                result = .failure(error)
                                reads.firstFailure.min(index, ordering: .relaxed)
                            }
                            reads.results.withLock { $0[index] = result }
                        }
                    }
                }
            }
        }
        try Self.checkCancelled()
        return try reads.results.withLock { results throws(RenderError) in
            var infos: [PhotoInfo] = []
            var warnings: [RenderWarning] = []
            infos.reserveCapacity(count)
            for result in results {
                switch result {
                case .success(let item):
                    infos.append(item.info)
                    warnings += item.warnings
                case .failure(let error): throw error
                case nil: throw .cancelled   // not reached: every photo before a failure is read
                }
            }
            return (infos, warnings)
        }
    }
}

/// The headers' results as the workers of ``Slideshow/inspectPhotos()`` fill them in.
private final class HeaderReads: Sendable {
    let results: Mutex<[Result<(info: PhotoInfo, warnings: [RenderWarning]), RenderError>?]>
    /// The next photo to read.
    let next = Atomic<Int>(0)
    /// The first photo, in order, that could not be read.
    let firstFailure = Atomic<Int>(Int.max)

    init(count: Int) {
        results = Mutex(Array(repeating: nil, count: count))
    }
}
