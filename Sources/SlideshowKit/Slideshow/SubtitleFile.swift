import Foundation

extension PreparedSlideshow {
    /// The captions as timed cues: each from its photo's first frame to the frame after its
    /// last (the timeline's share, so a cue is exact to the frame); photos without a caption
    /// have no cue.
    public var subtitleCues: [SubtitleCue] {
        let fps = Int32(timeline.framesPerSecond)
        let card = openingCard == nil ? 0 : slideshow.openingCardFrames
        return captions.enumerated().compactMap { index, caption in
            guard let caption, index < timeline.photoCount else { return nil }
            let share = timeline.frames(ofPhoto: index)
            let frames = share.lowerBound + card..<share.upperBound + card
            return SubtitleCue(start: MediaTime(value: Int64(frames.lowerBound), timescale: fps),
                               end: MediaTime(value: Int64(frames.upperBound), timescale: fps), text: caption.text)
        }
    }

    /// The MP4's timed-text track: the cues in the show's language, as long as the show;
    /// nil when no photo has a caption.
    public var subtitleTrack: SubtitleTrack? {
        let cues = subtitleCues
        let card = openingCard == nil ? 0 : slideshow.openingCardFrames
        return cues.isEmpty ? nil : SubtitleTrack(cues: cues, language: slideshow.text.language,
                                                  end: MediaTime(value: Int64(timeline.frameCount + card + (closingCard == nil ? 0 : slideshow.closingCardFrames)),
                                                                 timescale: Int32(timeline.framesPerSecond)))
    }

    /// Writes ``ShowText/webVTT``, when asked, as the video is written: a temporary file
    /// beside it, moved into place complete (``OutputFile``).
    /// - Throws: ``RenderError/output(_:)`` naming the file when it cannot be written.
    func writeSubtitleFile() throws(RenderError) {
        guard let path = slideshow.text.webVTT else { return }
        do throws(WriterError) {
            let file = try OutputFile(target: path, overwrite: slideshow.overwrite)
            do {
                try Data(WebVTT.document(subtitleCues).utf8).write(to: URL(fileURLWithPath: file.temporary))
            } catch {
                file.discard()
                throw WriterError(path: path, kind: .notWritable, reason: error.localizedDescription)
            }
            try file.commit()
        } catch {
            throw .output(error)
        }
    }
}

extension Slideshow {
    /// The WebVTT file can be written: not the video itself, nor a photo, and a place
    /// ``OutputFile`` would write (checked before anything is rendered).
    /// - Parameter output: the video's identity, when a file is already there.
    /// - Throws: ``RenderError/invalid(_:)`` for a file that is the video or a photo,
    ///   ``RenderError/output(_:)`` for one that cannot be written.
    func checkSubtitleFile(output: FileIdentity?) throws(RenderError) {
        guard let path = text.webVTT else { return }
        let identity = FileIdentity(path: path)
        if path == self.output || (identity != nil && identity == output) {
            throw .invalid("\(path): the WebVTT file is the video's file")
        }
        if identity != nil, photos.contains(where: { FileIdentity(path: $0.path) == identity }) {
            throw .invalid("\(path): the WebVTT file is one of the input photos")
        }
        do {
            try OutputFile.check(target: path, overwrite: overwrite)
        } catch {
            throw .output(error)
        }
    }
}
