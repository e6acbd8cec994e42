import Foundation
import SlideshowPixels
import SlideshowSupport
import SlideshowText
import SlideshowWriter

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
    /// The files the show reads, each with what it is (for a message): the photos and clips,
    /// the soundtrack, the font file, ``otherInputs``.
    var readFiles: [(path: String, what: String)] {
        var files = photos.map { (path: $0.path, what: "one of the input photos") }
        if let soundtrack { files.append((soundtrack.path, "the soundtrack's file")) }
        if case .file(let path) = text.style.font { files.append((path, "the font file")) }
        files += otherInputs.map { ($0, "the captions file") }
        return files
    }

    /// The files the show writes, each with its name in a message: the video, the WebVTT file.
    var writtenFiles: [(path: String, what: String)] {
        [(output, "the output")] + (text.webVTT.map { [($0, "the WebVTT file")] } ?? [])
    }

    /// No file the show writes is a file it reads, or another file it writes, before anything
    /// is written: compared as files (device and inode, whatever the spelling or the links),
    /// and, for the written files, which need not exist yet, as paths resolved (absolute, `.`
    /// and `..` removed, the folder by its device and inode: ``FileIdentity/names(of:)``).
    /// - Parameter written: how many of ``writtenFiles`` to check (the video alone first, then
    ///   the WebVTT file once the video's own path has been checked).
    /// - Throws: ``RenderError/invalid(_:)``: `v.vtt: the WebVTT file is the video's file`,
    ///   `out.mp4: the output is one of the input photos`, `x.vtt: the WebVTT file is the font file`.
    func checkWrittenFiles(_ written: Int) throws(RenderError) {
        let outputs = Array(writtenFiles.prefix(written))
        var inputs: [(identity: FileIdentity, what: String)]? = nil
        for (index, (path, what)) in outputs.enumerated() {
            let keys = Set(FileIdentity.names(of: path))
            let identity = FileIdentity(path: path)
            for (earlier, _) in outputs[..<index] {
                if !keys.isDisjoint(with: FileIdentity.names(of: earlier)) || (identity != nil && identity == FileIdentity(path: earlier)) {
                    throw .invalid("\(path): \(what) is the video's file")
                }
            }
            guard let identity else { continue }   // nothing there yet: it is no input
            inputs = inputs ?? readFiles.compactMap { file in FileIdentity(path: file.path).map { ($0, file.what) } }
            if let input = inputs?.first(where: { $0.identity == identity }) {
                throw .invalid("\(path): \(what) is \(input.what)")
            }
        }
    }

    /// The WebVTT file can be written: not the video itself, nor a file the show reads, and a
    /// place ``OutputFile`` would write (checked before anything is rendered).
    /// - Throws: ``RenderError/invalid(_:)`` for a file that is the video or an input,
    ///   ``RenderError/output(_:)`` for one that cannot be written.
    func checkSubtitleFile() throws(RenderError) {
        guard let path = text.webVTT else { return }
        try checkWrittenFiles(2)
        do {
            try OutputFile.check(target: path, overwrite: overwrite)
        } catch {
            throw .output(error)
        }
    }
}
