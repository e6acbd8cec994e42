import Dispatch
import Foundation
import Synchronization
import SlideshowAudio
import SlideshowImages
import SlideshowPlan
import SlideshowSupport
import SlideshowText
import SlideshowWriter

/// A slideshow checked once and laid out once: everything a render needs to know before it
/// decodes a pixel. ``Slideshow/validate()`` makes it; ``render(progress:)`` renders from it
/// without checking or reading anything again.
///
/// ```swift
/// let prepared = try show.validate()
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
    /// its probe (``PhotoInfo/clip``), for a motion photo that plays, its video (``PhotoInfo/motionClip``).
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
    /// Problems found laying the show out that did not stop it, one line each: cuts that stay
    /// even (and why), photos without a capture date played last. The render's result repeats them.
    public let warnings: [String]
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
    /// each, several at once): a photo's, or a clip's probe (``ClipProbe``: its video stream,
    /// codec, size and length), and with ``motionPhotos`` `.play` each motion photo's video.
    /// The clips' lengths (or their parts, ``PhotoSettings/clipPart``) go into the timeline,
    /// and their sound into ``PreparedSlideshow/clipSounds``.
    /// - Returns: the show with its timeline, plan, photo headers and music length, to render.
    /// - Throws: ``RenderError/invalid(_:)`` for settings and paths, ``RenderError/audio(_:)``
    ///   for a soundtrack that cannot be used, ``RenderError/output(_:)`` for an output that
    ///   cannot be written (see ``AssetWriter/checkOutput(outputPath:overwrite:)``),
    ///   ``RenderError/photo(_:)`` or ``RenderError/clip(_:)`` for the first item, in order,
    ///   that cannot be read, ``RenderError/usage(_:)`` for a clip's part outside the clip or
    ///   clips that take the whole length.
    @discardableResult
    public func validate() throws(RenderError) -> PreparedSlideshow {
        // A show of clips alone lasts as long as they do, whatever its total: a total (or cards)
        // that leave its items no frame is refused only once the items are known to be photos.
        var deferred: OptionError? = nil
        do {
            try checkSettings()
        } catch where error.field == .duration || error.field == .titleCardDuration {
            deferred = error
        } catch {
            throw .invalid(error.description)
        }
        let fontWarnings = try checkFont()
        var music: (info: AudioFileInfo, length: Double?, opened: OpenedMusic?)? = nil
        if let soundtrack {
            do {
                music = try soundtrack.open(measuring: length == .soundtrack)
            } catch {
                throw .audio(error)
            }
        }
        // The headers come first: the order and the clips' lengths need them before the layout.
        // A photo that cannot be read fails here with the order applied; otherwise after the
        // layout's and the output's own checks, as it always did.
        var inspected: (infos: [PhotoInfo], warnings: [String])? = nil
        var unreadable: RenderError? = nil
        do throws(RenderError) {
            inspected = try inspectPhotos()
        } catch {
            if order != .given { throw error }
            unreadable = error
        }
        if let deferred {
            guard let items = inspected?.infos, items.allSatisfy({ $0.clip != nil }) else { throw .invalid(deferred.description) }
            // Clips alone: the rules again, with their own lengths as the show's.
            var clipsAlone = self
            clipsAlone.length = try lengthWithClips(.perSlide(seconds: 1), items: items)
            do {
                try clipsAlone.checkSettings()
            } catch {
                throw .invalid(error.description)
            }
        }
        var arranged: (show: Slideshow, infos: [PhotoInfo], warning: String?)? = nil
        if order != .given, let inspected { arranged = self.arranged(infos: inspected.infos) }
        let show = arranged?.show ?? self
        let infos = arranged?.infos ?? inspected?.infos
        var warnings = [arranged?.warning].compactMap { $0 } + (inspected?.warnings ?? [])
        var beats: BeatCutReport? = nil
        // Clips keep their own lengths: the cuts around them move to the beat.
        let clips = infos?.map { $0.clip != nil } ?? []
        let (timeline, plan) = try show.layout(musicLength: music?.length, items: infos, moving: cuts == .beats ? { even, effects in
            let moved = show.beatTimeline(even, effects: effects, clips: clips)
            beats = moved.beats
            if let why = moved.beats?.fallback { warnings.append(why.description) }
            return moved.timeline
        } : nil)
        try checkWrittenFiles(1)
        do {
            try AssetWriter.checkOutput(outputPath: output, overwrite: overwrite)
        } catch {
            throw .output(error)
        }
        try checkSubtitleFile()
        if let unreadable { throw unreadable }
        guard let headers = infos else { throw .cancelled }   // not reached: read, or failed above
        var prepared = PreparedSlideshow(slideshow: show, timeline: timeline, plan: plan, photos: headers,
                                         musicLength: music?.length, music: music?.info, openedMusic: music?.opened,
                                         beats: beats, warnings: warnings)
        prepared.captions = show.text.resolved(photos: headers)
        prepared.openingCard = show.resolvedCard(photos: headers)
        prepared.closingCard = show.text.closingCard
        prepared.textWarnings = show.settingWarnings + fontWarnings + (show.text.source == .metadata ? headers.compactMap(\.captionWarning) : [])
        prepared.clipSounds = show.clipSounds(items: headers, timeline: timeline)
        return prepared
    }

    /// Renders the slideshow to ``output``: ``validate()``, then ``PreparedSlideshow/render(progress:)``.
    ///
    /// The file appears at ``output`` only when it is complete; on any failure or
    /// cancellation nothing is left there, and a file that was there is untouched (unless
    /// ``overwrite`` and the render succeeded).
    /// - Parameter progress: called as photos are added, from a background thread.
    /// - Returns: what was written.
    /// - Throws: ``RenderError``: `.invalid` (settings, length, output path), `.photo` (a photo
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

    /// Every photo's header, read once each, on up to one thread per core. Workers take the
    /// photos in order and stop taking new ones past a photo that failed, so the error is the
    /// first photo in order that cannot be read, as a reading one after another would find.
    private func inspectPhotos() throws(RenderError) -> (infos: [PhotoInfo], warnings: [String]) {
        let count = photos.count
        let results = Mutex<[Result<(info: PhotoInfo, warnings: [String]), RenderError>?]>(Array(repeating: nil, count: count))
        let next = Atomic<Int>(0)
        let firstFailure = Atomic<Int>(Int.max)
        let probe = ReadProbe.current
        let photos = self.photos
        let motionPhotos = self.motionPhotos
        DispatchQueue.concurrentPerform(iterations: min(count, max(1, ProcessInfo.processInfo.activeProcessorCount))) { _ in
            ReadProbe.$current.withValue(probe) {
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < count, index < firstFailure.load(ordering: .relaxed) else { return }
                    let result: Result<(info: PhotoInfo, warnings: [String]), RenderError>
                    do throws(RenderError) {
                        result = .success(try Self.inspectItem(photos[index], motionPhotos: motionPhotos))
                    } catch {
                        result = .failure(error)
                        firstFailure.min(index, ordering: .relaxed)
                    }
                    results.withLock { $0[index] = result }
                }
            }
        }
        return try results.withLock { results throws(RenderError) in
            var infos: [PhotoInfo] = []
            var warnings: [String] = []
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

