import Foundation
import SlideshowAudio
import SlideshowFFmpeg
import SlideshowFormats
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels
import SlideshowPlan
import SlideshowSupport
import SlideshowVideo

/// Clips among the photos, and motion photos that play, as ``Slideshow/validate()`` finds them:
/// each item read once, its kind learnt from its content, its length known before the one
/// frame plan is made.
extension Slideshow {
    /// One item's header: a photo's, or, when the content is not an image but a video, the
    /// clip's probe (`ClipProbe`, with its first picture decoded); for a motion photo under
    /// ``MotionPhotoPlayback/play``, its video checked too.
    ///
    /// Images are sniffed first (``ImageManager/inspect(_:)``); only a file in none of the
    /// image formats, or one larger than a photo may be (``PhotoFile/maximumBytes``, 256 MB: a
    /// long clip), is opened as a clip. Its failure is the clip's when the file is a media
    /// file (no video stream, an unsupported codec, too large, a movie that cannot be read),
    /// the photo's otherwise (a GIF, a PDF, a file of no known kind).
    /// - Returns: the header, and one line per motion photo whose video cannot be played (its still is shown).
    /// - Throws: ``RenderError/photo(_:)`` or ``RenderError/clip(_:)``.
    static func inspectItem(_ photo: Photo, motionPhotos: MotionPhotoPlayback) throws(RenderError) -> (info: PhotoInfo, warnings: [RenderWarning]) {
        do throws(PhotoError) {
            var info = try ImageManager().inspect(photo)
            guard motionPhotos == .play else { return (info, []) }
            var warnings: [ClipWarning] = []
            info.motionClip = MotionPhoto.clip(for: photo.path, warnings: &warnings)?.info
            return (info, warnings.map(RenderWarning.init))
        } catch where error.kind == .notAnImage || error.kind == .tooLarge {
            // Not an image, or a file larger than a photo may be (a long clip is): a clip?
            let photoError = error
            let clip: ClipInfo
            do throws(ClipError) {
                // The probe's checks, and its first picture decoded: a clip whose pictures are
                // all damaged is refused here, not halfway through the render.
                let reader = try ClipReader(source: ClipSource(path: photo.path), size: Size(width: 16, height: 16),
                                            framesPerSecond: 1, duration: MediaTime(value: 1, timescale: 1))
                _ = try reader.nextFrame()
                clip = reader.info
            } catch {
                switch error.kind {
                case .noVideoStream, .unsupportedCodec, .tooLarge, .decodeFailed:
                    throw .clip(error)
                case .unsupportedContainer(let container) where ClipProbe.movieContainers[container] != nil:
                    // H.264 in AVI or MPEG-TS: the container's problem, not "not an image".
                    throw .clip(error)
                case .unreadable where movieKinds.contains(where: { photoError.reason.contains("(\($0))") }):
                    // A movie by its first bytes that libavformat cannot read (truncated before its index).
                    throw .clip(error)
                default:
                    throw .photo(photoError)
                }
            }
            // A clip's creation time is held to a photo's rule: none before 1826 or more than a day after now.
            var info = PhotoInfo(format: .video, storedSize: clip.codedSize, orientation: .up, displayedSize: clip.displaySize,
                                 captureDate: CaptureDate.plausible(clip.creationTime, photo: photo.path))
            info.clip = clip
            return (info, [])
        } catch {
            throw .photo(error)
        }
    }

    /// The sniffer's names of movie files (``FormatSniffer``), as a photo error's reason gives them.
    private static let movieKinds = ["MP4/ISO media", "QuickTime movie", "Matroska/WebM video"]

    /// The part of clip `index` that plays, checked against the clip: in ≥ 0, out > in, out at
    /// most its length.
    /// - Returns: the in-point and the length that plays, in seconds.
    /// - Throws: ``RenderError/usage(_:)`` naming the item.
    func clipPart(_ index: Int, of clip: ClipInfo) throws(RenderError) -> (start: Double, length: Double) {
        let part = index < photoSettings.count ? photoSettings[index].clipPart : nil
        let start = part?.start ?? 0
        let end = part?.end ?? clip.duration
        let path = photos[index].path
        guard start.isFinite, start >= 0, end.isFinite, end > start, end <= clip.duration + 0.0005 else {
            throw .usage(OptionError(.photos, "\(path): the part \(Message.seconds(start))–\(part?.end.map(Message.seconds) ?? "end") s is not within its \(Message.seconds(clip.duration)) s (in ≥ 0, out after in, out at most the clip's end)"))
        }
        return (start, min(end, clip.duration) - start)
    }

    /// A part (`in`, `out`, `#t=`) is given only to clips: one on a photo (a still, or a motion
    /// photo) is a usage error, not ignored.
    /// - Throws: ``RenderError/usage(_:)`` naming the photo.
    func checkClipParts(items: [PhotoInfo]) throws(RenderError) {
        guard items.count == photos.count else { return }
        for (index, item) in items.enumerated() where item.clip == nil && index < photoSettings.count && photoSettings[index].clipPart != nil {
            throw .usage(OptionError(.photos, "\(photos[index].path): a part to play (in and out, or #t=) is for a clip, and this is a photo"))
        }
    }

    /// The show's length once the clips' own are known (``ImageFormat/video`` items), in whole
    /// frames: a clip's share is its part's length rounded to the nearest frame (at least one).
    ///
    /// - `SlideshowLength/total(seconds:)` (or the music's length): the photos share the frames
    ///   the clips leave, as ``Timeline`` shares a show's (photo k of n of R frames gets
    ///   `⌊(k+1)R/n⌋ − ⌊kR/n⌋`); a show of clips alone lasts as long as they do, whatever the total.
    /// - `SlideshowLength/perSlide(seconds:)`: each photo that long, each clip its own length.
    /// - `SlideshowLength/perPhoto(seconds:)` (a manifest's durations): as given; a clip
    ///   without one plays its own length, and the photos without one share what is left.
    /// - Throws: ``RenderError/usage(_:)`` when the clips alone take the whole total (or more),
    ///   or a clip's part is outside it.
    func lengthWithClips(_ length: SlideshowLength, items: [PhotoInfo]) throws(RenderError) -> SlideshowLength {
        guard items.count == photos.count, items.contains(where: { $0.clip != nil }) else { return length }
        let fps = Double(video.framesPerSecond)
        var clipFrames: [Int?] = []
        var clipsSeconds = 0.0
        for (index, item) in items.enumerated() {
            guard let clip = item.clip else {
                clipFrames.append(nil)
                continue
            }
            let seconds = try clipPart(index, of: clip).length
            clipsSeconds += seconds
            clipFrames.append(max(1, Int((seconds * fps).rounded())))
        }
        let photoCount = clipFrames.count { $0 == nil }
        func seconds(_ frames: Int) -> Double { Double(frames) / fps }
        switch length {
        case .total(let total):
            if photoCount == 0 { return .perPhoto(seconds: clipFrames.map { seconds($0!) }) }
            let left = Int((total * fps).rounded()) - clipFrames.reduce(0) { $0 + ($1 ?? 0) }
            guard left >= photoCount else {
                throw .usage(OptionError(.duration, "the clips alone last \(Message.seconds(clipsSeconds)) s of the \(Message.seconds(total)) s show, which leaves the \(photoCount) photo\(photoCount == 1 ? "" : "s") no time: give a longer duration"))
            }
            var photo = 0
            return .perPhoto(seconds: clipFrames.map { frames in
                if let frames { return seconds(frames) }
                defer { photo += 1 }
                return seconds((photo + 1) * left / photoCount - photo * left / photoCount)
            })
        case .perSlide(let each):
            return .perPhoto(seconds: clipFrames.map { $0.map(seconds) ?? each })
        case .perPhoto:
            // Durations of a manifest's photos: a clip without one plays its own length, and the
            // photos without one share what is left (or take the length per slide).
            guard let given = givenDurations, given.given.count == clipFrames.count else { return length }
            let sharing = clipFrames.indices.filter { given.given[$0] == nil && clipFrames[$0] == nil }
            var each = 0.0
            switch given.rest {
            case .perSlide(let seconds): each = seconds
            case .total(let total) where !sharing.isEmpty:
                let taken = clipFrames.indices.reduce(0.0) { sum, index in
                    sum + (given.given[index] ?? clipFrames[index].map(seconds) ?? 0)
                }
                each = (total - taken) / Double(sharing.count)
                guard each * fps >= 1 else {
                    throw .usage(OptionError(.duration, "the clips and the photos' own durations take \(Message.seconds(taken)) s of the \(Message.seconds(total)) s show, which leaves the other \(sharing.count) photo\(sharing.count == 1 ? "" : "s") no time: give a longer duration"))
                }
            default: break
            }
            return .perPhoto(seconds: clipFrames.indices.map { given.given[$0] ?? clipFrames[$0].map(seconds) ?? each })
        case .soundtrack:
            return length
        }
    }

    /// How many frames each item's video plays from its cut: every frame of a clip's span
    /// (``Int/max``), a playing motion photo's video length; nil for a still.
    func videoFrames(items: [PhotoInfo]) -> [Int?] {
        guard items.count == photos.count, items.contains(where: { $0.clip != nil || ($0.motionClip != nil && motionPhotos == .play) }) else { return [] }
        return items.map { item in
            if item.clip != nil { return .max }
            guard motionPhotos == .play, let motion = item.motionClip else { return nil }
            return max(1, Int((motion.duration * Double(video.framesPerSecond)).rounded()))
        }
    }

    /// The clips' sound in the show: one per clip with an audio stream, unless muted; from its
    /// cut (after the opening card) for its share, from its in-point. Motion photos' sound is
    /// not played.
    func clipSounds(items: [PhotoInfo], timeline: Timeline) -> [ClipSound] {
        guard items.count == timeline.photoCount else { return [] }
        let fps = Int32(timeline.framesPerSecond)
        return items.indices.compactMap { index in
            guard let clip = items[index].clip, clip.hasAudio else { return nil }
            let frames = timeline.frames(ofPhoto: index)
            let start = index < photoSettings.count ? photoSettings[index].clipPart?.start ?? 0 : 0
            return clipSound.sound(of: clip.source, start: MediaTime(value: Int64(openingCardFrames + frames.lowerBound), timescale: fps),
                                   inPoint: MediaTime(value: Int64((start * 1_000_000).rounded()), timescale: 1_000_000),
                                   duration: MediaTime(value: Int64(frames.count), timescale: fps))
        }
    }
}
