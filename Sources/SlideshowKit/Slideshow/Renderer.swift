import Dispatch
import Foundation
import Synchronization
import SlideshowAudio
import SlideshowPixels
import SlideshowSupport
import SlideshowVideo
import SlideshowWriter
import SlideshowMix

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

    func run() async throws(RenderError) -> RenderResult {
        let timeline = prepared.timeline
        let plan = prepared.plan
        var settings = slideshow.video
        // A show of cuts gives x264 only IDRs: none of the composed frames' options apply.
        settings.composesFrames = !plan.isHoldsOnly
        // A clip whose decoder runs on one thread for memory (4K and up) keeps one encoder:
        // its pictures and a motion encoder's lookahead would not both fit in 300 MB.
        settings.motionRuns = !prepared.photos.contains { photo in
            [photo.clip, slideshow.motionPhotos == .play ? photo.motionClip : nil].contains { clip in
                clip.map { ClipReader.isLarge(codedPixels: $0.codedSize.width * $0.codedSize.height) } ?? false
            }
        }
        // The opening card, before the photos: drawn now, shown from frame 0; the closing one after them.
        let card = try prepared.cardPicture(prepared.openingCard, photo: 0)
        let cardFrames = card == nil ? 0 : slideshow.openingCardFrames
        let closing = try prepared.cardPicture(prepared.closingCard, photo: slideshow.photos.count - 1)
        let closingFrames = closing == nil ? 0 : slideshow.closingCardFrames
        let endTime = MediaTime(value: Int64(timeline.frameCount + cardFrames + closingFrames), timescale: Int32(timeline.framesPerSecond))
        let writer: AssetWriter
        do {
            writer = try AssetWriter(outputPath: slideshow.output, settings: settings, overwrite: slideshow.overwrite)
        } catch {
            throw .output(error)
        }
        // The capture dates, from the headers read during validation: the earliest the MP4 can
        // hold is the file's creation time, and each is its slide's imprint.
        var builder = SlideBuilder(slideshow: slideshow, captureDates: prepared.photos.map(\.captureDate))
        builder.items = prepared.photos
        do {
            if slideshow.text.burnIn {
                builder.captions = try CaptionPainter(captions: prepared.captions, style: slideshow.text.style)
            }
        } catch {
            throw .invalid(error.description)
        }
        writer.metadata = MovieMetadata(creationTime: MovieMetadata.creationTime(of: slideshow.photos, dates: builder.captureDates),
                                        title: slideshow.title)
        writer.metadata.subtitles = prepared.subtitleTrack
        let input = AssetWriterInput(settings: settings)
        let adaptor = PixelBufferAdaptor(assetWriterInput: input)
        writer.add(input)
        // The soundtrack (measured first when a loudness is asked for), on its own input.
        let (soundtrack, loudness) = try prepareSoundtrack(frameCount: timeline.frameCount + cardFrames + closingFrames, framesPerSecond: timeline.framesPerSecond)
        if let soundtrack { writer.add(soundtrack.input) }
        // The first photos decode while the encoder opens and the header is written.
        // The plan's pictures: one per photo, held, when nothing is composed (written exactly as
        // a show without transitions always was); otherwise holds and composed frames in order.
        var slides: any FrameFeed
        var showSteps: [(frame: Int, photosDone: Int)]
        // What the clips' readers noticed, once the pictures are all made.
        var clipWarnings: @Sendable () -> [String] = { [] }
        if plan.isHoldsOnly {
            slides = SlidePreparer(builder: builder, workers: Self.workers, budget: Self.budget)
            showSteps = (0..<timeline.photoCount).map { (timeline.frames(ofPhoto: $0).lowerBound, $0 + 1) }
        } else {
            let composer = FrameComposer(builder: builder, plan: plan)
            slides = composer
            clipWarnings = { composer.warnings }
            var done = 0
            showSteps = composer.steps.map { step in
                while done < timeline.photoCount && plan.span(ofPhoto: done).upperBound <= step.frame + 1 { done += 1 }
                return (step.frame, done)
            }
        }
        if card != nil || closing != nil {
            slides = CardFeed(opening: card, closing: closing, inner: slides, innerCount: showSteps.count)
            showSteps = (card == nil ? [] : [(0, 0)]) + showSteps.map { ($0.frame + cardFrames, $0.photosDone) }
                + (closing == nil ? [] : [(cardFrames + timeline.frameCount, timeline.photoCount)])
        }
        let steps = showSteps
        let feedSlides = slides
        input.bufferConsumed = { feedSlides.release() }
        feedSlides.start()
        do {
            try writer.startWriting()
        } catch {
            feedSlides.cancel()
            throw .output(error)
        }
        writer.startSession(atSourceTime: .zero)

        let feed = DispatchQueue(label: "slideshow.feed")
        let outcome = Mutex<RenderError?>(nil)
        let progress = self.progress
        let total = steps.count
        let photoTotal = timeline.photoCount
        let fps = Int32(timeline.framesPerSecond)

        let finished: Result<Void, WriterError> = await withTaskCancellationHandler {
            // The sound's own ready-for-more-data loop runs beside the pictures'; a sound that
            // fails stops the pictures too.
            async let soundEnded: Bool = soundtrack?.run(onFailure: {
                feedSlides.cancel()
                writer.cancelWriting()
            }) ?? true
            let step = await input.feed(on: feed) { index in
                guard index < total else { return .finished }
                switch feedSlides.take(index) {
                case .success(let slide):
                    guard adaptor.append(slide, withPresentationTime: MediaTime(value: Int64(steps[index].frame), timescale: fps)) else {
                        feedSlides.cancel()
                        return .stopped
                    }
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
                return .failure(writer.error ?? WriterError(path: slideshow.output, kind: .cancelled, reason: "cancelled"))
            }
            writer.endSession(atSourceTime: endTime)
            guard await soundEnded else {
                return .failure(writer.error ?? WriterError(path: slideshow.output, kind: .cancelled, reason: "cancelled"))
            }
            return await withCheckedContinuation { continuation in
                writer.finishWriting { continuation.resume(returning: $0) }
            }
        } onCancel: {
            feedSlides.cancel()
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
        try prepared.writeSubtitleFile()
        // stat, not lstat: an output that is a symbolic link was written through.
        var written = stat()
        let bytes = PathBytes.withCString(slideshow.output, { stat($0, &written) }) == 0 ? Int(written.st_size) : 0
        return RenderResult(
            output: slideshow.output, duration: endTime, frames: timeline.frameCount + cardFrames + closingFrames, size: settings.size,
            framesPerSecond: settings.framesPerSecond, look: slideshow.look.name, bytes: bytes,
            seconds: (ContinuousClock.now - started).seconds,
            loudness: loudness,
            warnings: prepared.warnings + prepared.textWarnings.map(\.description) + (soundtrack?.warnings ?? []) + [loudness?.shortfall].compactMap { $0 } + clipWarnings(),
            photos: slideshow.photos.map(\.path),
            photoStarts: (0..<timeline.photoCount).map { MediaTime(value: Int64(cardFrames + timeline.frames(ofPhoto: $0).lowerBound), timescale: Int32(timeline.framesPerSecond)) },
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
    func take(_ index: Int) -> Result<PixelBuffer, RenderError>
    /// The writer has consumed a picture.
    func release()
    /// Stops; anything under way is dropped.
    func cancel()
}
