import Dispatch
import Foundation
import Synchronization
import SlideshowAudio
import SlideshowPixels
import SlideshowSupport
import SlideshowVideo
import SlideshowWriter
import SlideshowMix
import SlideshowFormats
import SlideshowText

/// Drives the asset writer for one slideshow: prepares slides ahead, appends one buffer per
/// photo at its presentation time from the input's ready-for-more-data loop, and ends the
/// session at the timeline's end so the last photo gets its full share.
struct Renderer {
    let prepared: PreparedSlideshow
    let progress: (@Sendable (RenderProgress) -> Void)?
    /// When the render began (with its validation, when it was part of it).
    let started: ContinuousClock.Instant

    var slideshow: Slideshow { prepared.slideshow }

    /// Slides prepared at once before the encoder starts: one per core (up to two), so that
    /// the first photos decode in parallel.
    static let workers = min(2, max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Slides alive at once before the encoder starts, from the start of their preparation
    /// until the writer has converted them: the first photos decode in parallel while the
    /// encoder opens, and a core that finishes a small photo goes on to the next one while
    /// the other is still on a large one. Once the encoder runs, one slide is alive at a
    /// time, so that a long show holds no more at once than a short one (measured: a
    /// 60-photo show peaked 24% above a 3-photo one while two slides were prepared ahead,
    /// 16% with one).
    static let budget = workers + 1

    /// The title cards' pictures and their frames, around the photos'.
    struct Cards: Sendable {
        var opening: PixelBuffer?
        var closing: PixelBuffer?
        var openingFrames: Int
        var closingFrames: Int
    }

    /// The pictures the writer takes, in order, and where each one starts.
    struct Pictures {
        var feed: any FrameFeed
        /// For each picture: its first frame, and how many photos are done once it is appended.
        var steps: [(frame: Int, photosDone: Int)]
        /// What the clips' readers noticed, once the pictures are all made.
        var clipWarnings: @Sendable () -> [ClipWarning]
    }

    /// The render, step by step: the encoder's settings, the cards, the writer and its inputs,
    /// the soundtrack (measured first when a loudness is asked for), the pictures, the feed
    /// loop, the result. The task's cancellation is checked between the steps; once the writer
    /// has started, a cancel stops the feed loop at its next picture and removes the file.
    func run() async throws(RenderError) -> RenderResult {
        if let format = AnimatedFormat(outputPath: slideshow.output) { return try await runPreview(format) }
        try Slideshow.checkCancelled()
        let settings = encoderSettings()
        // The photos' warnings this render finds (validation's are in its warnings already).
        let photoLog = PhotoWarningLog(seen: prepared.photoWarnings)
        let cards = try await Slideshow.offPool(photoWarnings: photoLog) { () throws(RenderError) in try makeCards() }
        // Every frame of the video, cards included: the end of the session and of the sound.
        let frameCount = cards.openingFrames + prepared.timeline.frameCount + cards.closingFrames
        let endTime = MediaTime(value: Int64(frameCount), timescale: Int32(prepared.timeline.framesPerSecond))
        let writer = try makeWriter(settings: settings)
        let builder = try makeBuilder(writer: writer, photoWarnings: photoLog)
        // An HDR show waits with one converted picture instead of two: its composer makes a
        // frame when the writer asks (no composing ahead), and a 1080p 10-bit picture is 6 MB
        // of the 300 MB budget (the moving and dissolve shows were at 296–305 MB with two).
        let input = AssetWriterInput(settings: settings, capacity: settings.hdr == nil ? 2 : 1)
        let adaptor = PixelBufferAdaptor(assetWriterInput: input)
        writer.add(input)
        // The soundtrack (measured first when a loudness is asked for), on its own input.
        let (soundtrack, loudness) = try await Slideshow.offPool { () throws(RenderError) in
            try prepareSoundtrack(frameCount: frameCount, framesPerSecond: prepared.timeline.framesPerSecond)
        }
        if let soundtrack { writer.add(soundtrack.input) }
        try Slideshow.checkCancelled()
        // The first photos decode while the encoder opens and the header is written.
        let pictures = makePictures(builder: builder, cards: cards)
        let slides = pictures.feed
        input.bufferConsumed = { slides.release() }
        slides.start()
        do {
            try await writer.beginWriting()
        } catch {
            slides.cancel()
            throw .output(error)
        }
        writer.startSession(atSourceTime: .zero)
        try await feed(pictures, to: adaptor, input: input, writer: writer, soundtrack: soundtrack, endTime: endTime)
        try prepared.writeSubtitleFile()
        let shortfall = loudness?.shortfall.map { RenderWarning(kind: .loudness, path: slideshow.soundtrack?.path, message: $0) }
        return result(frameCount: frameCount, endTime: endTime, settings: settings, cards: cards, loudness: loudness,
                      warnings: photoLog.warnings.map(RenderWarning.init) + prepared.textWarnings.map(RenderWarning.init)
                        + (soundtrack?.warnings ?? []).map(RenderWarning.init) + [shortfall].compactMap { $0 }
                        + pictures.clipWarnings().map(RenderWarning.init))
    }

    /// The show's encoder settings: composed-frame options only when frames are composed, and
    /// one encoder (no motion runs) when a large clip's decoder or an HDR show needs the memory.
    private func encoderSettings() -> VideoSettings {
        var settings = slideshow.video
        // A show of cuts gives x264 only IDRs: none of the composed frames' options apply.
        settings.composesFrames = !prepared.plan.isHoldsOnly
        // A clip whose decoder runs on one thread for memory (4K and up) keeps one encoder:
        // its pictures and a motion encoder's lookahead would not both fit in 300 MB.
        settings.motionRuns = !prepared.photos.contains { photo in
            [photo.clip, slideshow.motionPhotos == .play ? photo.motionClip : nil].contains { clip in
                clip.map { ClipReader.isLarge(codedPixels: $0.codedSize.width * $0.codedSize.height) } ?? false
            }
        }
        // An HDR show's 16-bit pictures and a Main 10 x265 with a lookahead and B-frames beside
        // the stills encoder took a 1080p dissolve show to 542 MB, against 332 MB with the one
        // encoder (issue 35's budget: 300 MB).
        if settings.hdr != nil { settings.motionRuns = false }
        return settings
    }

    /// The opening card, before the photos: drawn now, shown from frame 0; the closing one
    /// after them. A card over a blurred photo decodes that photo: on a pool thread.
    private func makeCards() throws(RenderError) -> Cards {
        let opening = try prepared.cardPicture(prepared.openingCard, photo: 0)
        let closing = try prepared.cardPicture(prepared.closingCard, photo: slideshow.photos.count - 1)
        return Cards(opening: opening, closing: closing,
                     openingFrames: opening == nil ? 0 : slideshow.openingCardFrames,
                     closingFrames: closing == nil ? 0 : slideshow.closingCardFrames)
    }

    private func makeWriter(settings: VideoSettings) throws(RenderError) -> AssetWriter {
        do {
            return try AssetWriter(outputPath: slideshow.output, settings: settings, overwrite: slideshow.overwrite)
        } catch {
            throw .output(error)
        }
    }

    /// What makes each slide, with the captions' painter when they are burnt in; the movie's
    /// creation time and title set on the writer.
    private func makeBuilder(writer: AssetWriter, photoWarnings: PhotoWarningLog) throws(RenderError) -> SlideBuilder {
        let builder = try makeSlideBuilder(photoWarnings: photoWarnings)
        let creationTime = PhotoWarnings.collecting(into: photoWarnings) {
            MovieMetadata.creationTime(of: slideshow.photos, dates: builder.captureDates)
        }
        writer.metadata = MovieMetadata(creationTime: creationTime, title: slideshow.title)
        writer.metadata.subtitles = prepared.subtitleTrack
        return builder
    }

    /// What makes each slide, with the captions' painter when they are burnt in.
    private func makeSlideBuilder(photoWarnings: PhotoWarningLog) throws(RenderError) -> SlideBuilder {
        // The capture dates, from the headers read during validation: the earliest the MP4 can
        // hold is the file's creation time, and each is its slide's imprint.
        var builder = SlideBuilder(slideshow: slideshow, captureDates: prepared.photos.map(\.captureDate))
        builder.items = prepared.photos
        builder.photoWarnings = photoWarnings
        if slideshow.text.burnIn {
            do throws(TextError) {
                builder.captions = try CaptionPainter(captions: prepared.captions, style: slideshow.text.style)
            } catch {
                throw .text(error)
            }
        }
        return builder
    }

    /// The render of an animated preview (`.gif`, `.webp`): the same pictures at the same
    /// frames as the video's, each appended once to an ``AnimatedImageWriter`` (a held photo is
    /// one frame with a long delay), on a pool thread. A preview has no sound: music and the
    /// clips' sound are left out, with a warning when there is music.
    private func runPreview(_ format: AnimatedFormat) async throws(RenderError) -> RenderResult {
        try Slideshow.checkCancelled()
        let settings = slideshow.video
        let photoLog = PhotoWarningLog(seen: prepared.photoWarnings)
        let cards = try await Slideshow.offPool(photoWarnings: photoLog) { () throws(RenderError) in try makeCards() }
        let frameCount = cards.openingFrames + prepared.timeline.frameCount + cards.closingFrames
        let endTime = MediaTime(value: Int64(frameCount), timescale: Int32(prepared.timeline.framesPerSecond))
        let builder = try makeSlideBuilder(photoWarnings: photoLog)
        let writer: AnimatedImageWriter
        do {
            writer = try AnimatedImageWriter(outputPath: slideshow.output, format: format, size: settings.size,
                                             framesPerSecond: settings.framesPerSecond, overwrite: slideshow.overwrite)
        } catch {
            throw .output(error)
        }
        let pictures = makePictures(builder: builder, cards: cards)
        let slides = pictures.feed
        let steps = pictures.steps
        let progress = self.progress
        let photoTotal = prepared.timeline.photoCount
        let box = PreviewWriterBox(writer)
        let previewPath = slideshow.output
        slides.start()
        try await Slideshow.offPool(photoWarnings: photoLog) { () throws(RenderError) in
            let writer = box.writer
            for index in steps.indices {
                if Cancellation.isCancelled {
                    slides.cancel()
                    writer.cancel()
                    throw .cancelled
                }
                switch slides.take(index) {
                case .success(let picture):
                    // Previews are SDR (an HDR show's preview is refused by checkSettings).
                    guard case .sdr(let slide) = picture else {
                        slides.cancel()
                        writer.cancel()
                        throw .output(WriterError(path: previewPath, kind: .invalidState, reason: "an HDR picture in an animated preview"))
                    }
                    do throws(WriterError) {
                        try writer.append(slide, atFrame: steps[index].frame)
                    } catch {
                        slides.cancel()
                        throw .output(error)
                    }
                    slides.release()
                    if index + 1 == steps.count || steps[index + 1].photosDone != steps[index].photosDone {
                        progress?(RenderProgress(completedPhotos: index + 1 == steps.count ? photoTotal : steps[index].photosDone, totalPhotos: photoTotal))
                    }
                case .failure(let error):
                    writer.cancel()
                    throw error
                }
            }
            do throws(WriterError) {
                try writer.finish(atFrame: frameCount)
            } catch {
                throw .output(error)
            }
        }
        try prepared.writeSubtitleFile()
        let silent = slideshow.soundtrack.map { music in
            RenderWarning(kind: .music, path: music.path,
                          message: "\(music.path): not in \(slideshow.output): an animated \(format.rawValue.uppercased()) has no sound")
        }
        return result(frameCount: frameCount, endTime: endTime, settings: settings, cards: cards, loudness: nil,
                      warnings: photoLog.warnings.map(RenderWarning.init) + prepared.textWarnings.map(RenderWarning.init)
                        + [silent].compactMap { $0 } + pictures.clipWarnings().map(RenderWarning.init))
    }

    /// The plan's pictures: one per photo, held, when nothing is composed (written exactly as
    /// a show without transitions always was); otherwise holds and composed frames in order;
    /// the cards around them.
    private func makePictures(builder: SlideBuilder, cards: Cards) -> Pictures {
        let timeline = prepared.timeline
        let plan = prepared.plan
        var pictures: Pictures
        if plan.isHoldsOnly {
            pictures = Pictures(feed: SlidePreparer(builder: builder, workers: Self.workers, budget: Self.budget),
                                steps: (0..<timeline.photoCount).map { (timeline.frames(ofPhoto: $0).lowerBound, $0 + 1) },
                                clipWarnings: { [] })
        } else if let transfer = slideshow.video.hdr {
            let composer = HDRComposer(builder: builder, plan: plan, transfer: transfer)
            var done = 0
            let steps = composer.steps.map { step in
                while done < timeline.photoCount && plan.span(ofPhoto: done).upperBound <= step.frame + 1 { done += 1 }
                return (step.frame, done)
            }
            pictures = Pictures(feed: composer, steps: steps, clipWarnings: { composer.warnings })
        } else {
            let composer = FrameComposer(builder: builder, plan: plan)
            var done = 0
            let steps = composer.steps.map { step in
                while done < timeline.photoCount && plan.span(ofPhoto: done).upperBound <= step.frame + 1 { done += 1 }
                return (step.frame, done)
            }
            pictures = Pictures(feed: composer, steps: steps, clipWarnings: { composer.warnings })
        }
        if cards.opening != nil || cards.closing != nil {
            pictures.feed = CardFeed(opening: cards.opening, closing: cards.closing, inner: pictures.feed, innerCount: pictures.steps.count,
                                     hdr: slideshow.video.hdr)
            pictures.steps = (cards.opening == nil ? [] : [(0, 0)]) + pictures.steps.map { ($0.frame + cards.openingFrames, $0.photosDone) }
                + (cards.closing == nil ? [] : [(cards.openingFrames + timeline.frameCount, timeline.photoCount)])
        }
        return pictures
    }

    /// The feed loop: each picture appended at its time from the input's ready-for-more-data
    /// loop, the sound's own loop beside it, then the session ended and the file finished. A
    /// cancel stops both loops before their next append and removes the file.
    private func feed(_ pictures: Pictures, to adaptor: PixelBufferAdaptor, input: AssetWriterInput, writer: AssetWriter,
                      soundtrack: SoundtrackFeed?, endTime: MediaTime) async throws(RenderError) {
        let queue = DispatchQueue(label: "slideshow.feed")
        let outcome = Mutex<RenderError?>(nil)
        let progress = self.progress
        let slides = pictures.feed
        let steps = pictures.steps
        let total = steps.count
        let photoTotal = prepared.timeline.photoCount
        let fps = Int32(prepared.timeline.framesPerSecond)
        let output = slideshow.output
        let probe = ReadProbe.current
        let cancelled = Cancellation()

        let finished: Result<Void, WriterError> = await withTaskCancellationHandler {
            // The sound's own ready-for-more-data loop runs beside the pictures'; a sound that
            // fails stops the pictures too.
            async let soundEnded: Bool = soundtrack?.run(onFailure: {
                slides.cancel()
                writer.cancelWriting()
            }) ?? true
            let step = await input.feed(on: queue) { index in
                guard index < total else { return .finished }
                guard !cancelled.cancelled else {
                    probe?.feedStops.add(1, ordering: .relaxed)
                    slides.cancel()
                    return .stopped
                }
                switch slides.take(index) {
                case .success(let slide):
                    guard adaptor.assetWriterInput.append(slide, at: MediaTime(value: Int64(steps[index].frame), timescale: fps)) else {
                        slides.cancel()
                        return .stopped
                    }
                    probe?.framesAppended.add(1, ordering: .relaxed)
                    if index + 1 == total || steps[index + 1].photosDone != steps[index].photosDone {
                        progress?(RenderProgress(completedPhotos: index + 1 == total ? photoTotal : steps[index].photosDone, totalPhotos: photoTotal))
                    }
                    return .appended
                case .failure(let error):
                    outcome.withLock { $0 = $0 ?? error }
                    writer.cancelWriting()
                    return .stopped
                }
            }
            guard step == .finished else {
                _ = await soundEnded
                return .failure(writer.error ?? WriterError(path: output, kind: .cancelled, reason: "cancelled"))
            }
            writer.endSession(atSourceTime: endTime)
            guard await soundEnded else {
                return .failure(writer.error ?? WriterError(path: output, kind: .cancelled, reason: "cancelled"))
            }
            return await withCheckedContinuation { continuation in
                writer.finishWriting { continuation.resume(returning: $0) }
            }
        } onCancel: {
            cancelled.cancel()
            slides.cancel()
            writer.cancelWriting()
        }

        if let error = outcome.withLock({ $0 }) { throw error }
        if let error = soundtrack?.error { throw .audio(error) }
        switch finished {
        case .success:
            break
        case .failure(let error) where error.kind == .cancelled:
            throw .cancelled
        case .failure(let error):
            throw .output(error)
        }
    }

    /// What was written, from the file's size and the plan.
    private func result(frameCount: Int, endTime: MediaTime, settings: VideoSettings, cards: Cards,
                        loudness: LoudnessReport?, warnings: [RenderWarning]) -> RenderResult {
        let timeline = prepared.timeline
        // stat, not lstat: an output that is a symbolic link was written through.
        var written = stat()
        let bytes = PathBytes.withCString(slideshow.output, { stat($0, &written) }) == 0 ? Int(written.st_size) : 0
        return RenderResult(
            output: slideshow.output, duration: endTime, frames: frameCount, size: settings.size,
            framesPerSecond: settings.framesPerSecond, look: slideshow.look.name, bytes: bytes,
            seconds: (ContinuousClock.now - started).seconds,
            loudness: loudness,
            draft: slideshow.draft,
            warnings: prepared.warnings + warnings,
            photos: slideshow.photos.map(\.path),
            photoStarts: (0..<timeline.photoCount).map { MediaTime(value: Int64(cards.openingFrames + timeline.frames(ofPhoto: $0).lowerBound), timescale: Int32(timeline.framesPerSecond)) },
            beats: prepared.beats)
    }

    /// The soundtrack's stream, exactly the show's length, and its feed; the loudness
    /// measured when one is asked for. The measuring is a pass of its own over the music
    /// (the gain must be known before the first sample is encoded), so with a loudness the
    /// file is opened a second time for it; the render's own pass goes on from the opening that
    /// validation made (``OpenedMusic``). Runs before the writer
    /// starts, so a soundtrack that cannot be used stops the render before any video is encoded.
    ///
    /// With clips that have sound (``PreparedSlideshow/clipSounds``, none when muted) the
    /// sound is the ``SoundMix`` of the music (if any) and the clips, the loudness measured on
    /// the mix; a show without music then has a track of the clips' sound alone. A show
    /// without such clips has the music's stream, exactly as before the mixer.
    private func prepareSoundtrack(frameCount: Int, framesPerSecond: Int) throws(RenderError) -> (SoundtrackFeed?, LoudnessReport?) {
        var music = slideshow.soundtrack
        // Cut on the beat, the music enters and loops as the cuts were laid out: its beats on
        // the frames, its seams keeping the beat.
        if let layout = prepared.beats?.music {
            music?.entry = layout.entry
            music?.seam = layout.beatSeam
        }
        // With the show as long as the music, the music does not loop: a rounding to whole
        // frames may leave a few milliseconds of silence at the end, under the fade-out.
        if case .soundtrack = slideshow.length { music?.loops = false }
        let clips = slideshow.clipSound.muted ? [] : prepared.clipSounds
        guard music != nil || !clips.isEmpty else { return (nil, nil) }
        let totalFrames = Int(MediaTime.rescale(Int64(frameCount), from: Int32(framesPerSecond),
                                                to: Int32(AudioFormat.sampleRate)))
        do {
            guard let soundtrack = music, clips.isEmpty else {
                let (mix, loudness) = try SoundMix.prepare(music: music, opened: prepared.openedMusic, clips: clips,
                                                           settings: slideshow.clipSound, totalFrames: totalFrames)
                let input = AssetWriterAudioInput(bitrate: music?.bitrate ?? Soundtrack.defaults.bitrate)
                return (SoundtrackFeed(stream: mix, input: input), loudness)
            }
            let loudness = try soundtrack.measureLoudness(totalFrames: totalFrames)
            // The render's pass goes on from the reader validation opened.
            let stream = try SoundtrackStream(soundtrack: soundtrack, totalFrames: totalFrames, gainDecibels: loudness?.gain ?? 0,
                                              opened: prepared.openedMusic?.take())
            return (SoundtrackFeed(stream: stream, input: AssetWriterAudioInput(bitrate: soundtrack.bitrate)), loudness)
        } catch {
            throw .audio(error)
        }
    }
}

/// The pictures a render appends, in order: what the feed loop takes from.
protocol FrameFeed: Sendable {
    /// Starts preparing.
    func start()
    /// Waits for picture `index` and takes it.
    func take(_ index: Int) -> Result<AppendedPicture, RenderError>
    /// The writer has consumed a picture.
    func release()
    /// Stops; anything under way is dropped.
    func cancel()
}

/// The preview's writer, handed to the pool thread that alone uses it.
private final class PreviewWriterBox: @unchecked Sendable {
    let writer: AnimatedImageWriter
    init(_ writer: AnimatedImageWriter) { self.writer = writer }
}
