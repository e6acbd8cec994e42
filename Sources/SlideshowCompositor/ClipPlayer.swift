import SlideshowFraming
import SlideshowImages
import SlideshowPixels
import SlideshowVideo

/// One clip (or a motion photo's video) on screen: its frames, one per show frame, chosen by
/// timestamp (``ClipReader``), fitted into the frame (``ClipFit``) and finished as a still slide
/// is (the look, the blurred backdrop, the date imprint, the caption), never moved by Ken Burns.
///
/// Timing, in show frames: the clip's part starts at its cut (``cut``), where clip time is its
/// in-point, and clip time runs with the show from there, through the whole span the item is
/// on screen. In the frames of a transition before the cut, the clip shows what comes before
/// its in-point when it has some, else its first frame held; after its share, what comes after
/// its out-point, else its last frame held. A motion photo plays its video from its cut for
/// ``videoEnd`` − ``cut`` frames, its first frame held in a transition before the cut, then shows
/// its still.
///
/// The reader is opened at the first frame asked for and closed after ``videoEnd``, so only
/// the clips on screen hold a decoder (and its two frames). Frames must be asked for in order.
/// Each new picture of the clip is composed once, into one of a few frame buffers reused in
/// turn (``PixelBufferPool``), so a clip allocates no memory per frame.
///
/// `@unchecked Sendable`: made on the thread that prepares photos and then used only by the
/// composer's one thread, one frame after another; no two threads touch it at once.
package final class ClipPlayer: @unchecked Sendable {
    /// What is played.
    package let info: ClipInfo
    /// Where its pictures go.
    package let fit: ClipFit
    /// The show's frame size and rate.
    package let frameSize: Size
    package let framesPerSecond: Int
    /// The frames the item is on screen (transitions included).
    package let span: Range<Int>
    /// The frame its share starts at, where the in-point shows.
    package let cut: Int
    /// The in-point, seconds of clip time.
    package let inPoint: Double
    /// The first frame after the video: a motion photo's still from here on.
    package let videoEnd: Int
    /// A motion photo's still slide (finished as a hold shows it); nil for a clip.
    package let still: PixelBuffer?
    /// The bars' colour and whether they are the blurred picture instead.
    package let background: RGBColor
    package let blurredBackdrop: Bool
    /// The look, the date imprint and the caption, applied to a frame whose bars are painted.
    package let finish: @Sendable (inout PixelBuffer, _ beforeBackdrop: Bool) -> Void
    /// What the reader noticed (a clip that stopped early, damaged packets), once it is closed.
    package private(set) var warnings: [ClipWarning] = []
    /// Frames the reader decoded, counted when it is closed (what a trimmed clip's seek saves).
    package private(set) var decodedFrames = 0

    private var reader: ClipReader?
    private var opened = false
    /// The show frame of the reader's frame 0.
    private var readerStart = 0
    private var produced = 0
    private var last: PixelBuffer?
    /// Whether the reader moved to another picture since ``last`` was composed.
    private var stale = true
    /// The frames composed, written over in turn: the composer's queue, the writer's frame and
    /// ``last`` are all the frames in flight at once (at most ``Compositor/picturesInFlight`` + 1; one more to spare).
    private var frames: PixelBufferPool
    /// The reader's whole picture when only a crop of it shows (fill), reused.
    private var whole: PixelBuffer?

    /// An HDR show's light, nil in an SDR show.
    package var hdr: HDRFinish?
    private var lastHDR: HDRPixelBuffer?
    /// The current picture alone, instead of ``lastHDR``, when it was last asked for as it is
    /// (``hdrPlacedPicture(at:)``): one of the two is kept, never both.
    private var lastPlaced: HDRPixelBuffer?
    /// The reader's whole HDR picture when only a crop of it shows (fill), reused.
    private var wholeHDR: HDRPixelBuffer?
    private var stillHDR: HDRPixelBuffer?
    /// Pictures composed so far (a new one is a change).
    private var composedPictures = 0

    /// Frame buffers allocated so far: at most the pool's capacity, however long the clip.
    package var allocatedFrames: Int { frames.allocations }

    package init(info: ClipInfo, fit: ClipFit, frameSize: Size, framesPerSecond: Int, span: Range<Int>, cut: Int, inPoint: Double,
         videoEnd: Int, still: PixelBuffer?, background: RGBColor, blurredBackdrop: Bool,
         finish: @escaping @Sendable (inout PixelBuffer, Bool) -> Void) {
        self.info = info
        self.fit = fit
        self.frameSize = frameSize
        self.framesPerSecond = framesPerSecond
        self.span = span
        self.cut = cut
        self.inPoint = inPoint
        self.videoEnd = videoEnd
        self.still = still
        self.background = background
        self.blurredBackdrop = blurredBackdrop
        self.finish = finish
        frames = PixelBufferPool(size: frameSize, capacity: Compositor.picturesInFlight + 2)
    }

    /// The picture of show frame `frame`.
    /// - Throws: ``ClipError`` when the clip cannot be opened, or not one of its frames decoded.
    package func picture(at frame: Int) throws(ClipError) -> PixelBuffer {
        if frame >= videoEnd, let still {
            close()
            return still
        }
        try move(to: frame, composed: last != nil) { reader throws(ClipError) in last = try compose(from: reader) }
        guard let last else {
            throw ClipError(path: info.source.path, kind: .unreadable, reason: "not a single frame of its video could be decoded")
        }
        return last
    }

    /// The picture of show frame `frame` in an HDR show's light (``hdr``): an HDR clip's own
    /// light (PQ or HLG, converted between them, not tone-mapped), its bars at SDR light and
    /// its caption laid over (``HDRFinish/overlay``); an SDR clip's frame composed as in an
    /// SDR show and lifted as an SDR photo is (``HDRFinish/lift``: white at 203 cd/m²). A picture
    /// held by the reader is made once.
    /// - Precondition: the player was made with ``hdr``.
    /// - Throws: ``ClipError`` when the clip cannot be opened, or not one of its frames decoded.
    package func hdrPicture(at frame: Int) throws(ClipError) -> HDRPixelBuffer {
        guard let hdr else { preconditionFailure("an SDR player") }
        if !info.color.isHDR {
            var changed = false
            let picture = try picture(at: frame, changed: &changed)
            if changed || lastHDR == nil { lastHDR = hdr.lift(picture) }
            return lastHDR!
        }
        if frame >= videoEnd, let still {
            close()
            if stillHDR == nil { stillHDR = hdr.lift(still) }
            return stillHDR!
        }
        try move(to: frame, composed: lastHDR != nil || lastPlaced != nil) { reader throws(ClipError) in
            lastHDR = try composeHDR(from: reader, hdr)
            lastPlaced = nil
        }
        if lastHDR == nil, let lastPlaced {
            // The picture held from a frame shown as it is, now mixed or finished: framed once.
            lastHDR = HDRPlacedPicture(picture: lastPlaced, frameSize: frameSize, place: fit.content, bars: placedBars).frame()
            self.lastPlaced = nil
        }
        guard let lastHDR else {
            throw ClipError(path: info.source.path, kind: .unreadable, reason: "not a single frame of its video could be decoded")
        }
        return lastHDR
    }

    /// Whether ``hdrPlacedPicture(at:)`` may be asked for: an HDR clip (not a motion photo)
    /// whose frames have bars and nothing drawn over them (no caption or imprint, no blur fill;
    /// a look only when it changes each pixel by its own values, ``HDRFinish/pictureFinish``).
    package var placesPictures: Bool {
        guard let hdr else { return false }
        return info.color.isHDR && still == nil && (hdr.finish == nil || hdr.pictureFinish != nil) && hdr.overlay == nil
            && fit.content != Rect(frameSize)
    }

    /// The bars' code values of a frame kept as its picture alone: the background's, or what the look leaves of them.
    private var placedBars: (UInt16, UInt16, UInt16) {
        guard let hdr else { preconditionFailure("an SDR player") }
        return hdr.finish == nil ? hdr.background : hdr.pictureFinish!.bars
    }

    /// ``hdrPicture(at:)`` for a frame shown as it is (alone, at full light): the picture alone
    /// and the bars' code values, so that no 16-bit frame of the show's size is made (the
    /// writer makes the rows of the frame as it converts; the code values are the same).
    /// - Precondition: ``placesPictures``.
    /// - Throws: ``ClipError`` when the clip cannot be opened, or not one of its frames decoded.
    package func hdrPlacedPicture(at frame: Int) throws(ClipError) -> HDRPlacedPicture {
        guard let hdr, placesPictures else { preconditionFailure("not a player of HDR frames shown as they are") }
        try move(to: frame, composed: lastHDR != nil || lastPlaced != nil) { reader throws(ClipError) in
            lastPlaced = try composePlaced(from: reader, hdr)
            lastHDR = nil
        }
        if lastPlaced == nil, let lastHDR {
            // The picture held from a mixed frame, now shown as it is: cut out once.
            var picture = HDRPixelBuffer(size: Size(width: fit.content.width, height: fit.content.height))
            Self.copy(fit.content, of: lastHDR, into: &picture, at: Rect(picture.size))
            lastPlaced = picture
            self.lastHDR = nil
        }
        guard let lastPlaced else {
            throw ClipError(path: info.source.path, kind: .unreadable, reason: "not a single frame of its video could be decoded")
        }
        return HDRPlacedPicture(picture: lastPlaced, frameSize: frameSize, place: fit.content, bars: placedBars)
    }

    /// ``picture(at:)``, saying whether the picture is a new one.
    private func picture(at frame: Int, changed: inout Bool) throws(ClipError) -> PixelBuffer {
        let composedBefore = composedPictures
        let made = try picture(at: frame)
        changed = composedPictures != composedBefore || (frame >= videoEnd && still != nil)
        return made
    }

    /// Moves the reader on to show frame `frame`, opening it first, and has the picture composed
    /// (`compose`) when it changed or none was yet (`composed` false); closes it after ``videoEnd``.
    private func move(to frame: Int, composed: Bool, _ compose: (ClipReader) throws(ClipError) -> Void) throws(ClipError) {
        if !opened { try open(at: frame) }
        let wanted = max(0, frame - readerStart)
        var composed = composed
        while produced <= wanted, let reader {
            guard let changed = try reader.advance() else {
                close()
                break
            }
            produced += 1
            stale = stale || changed
            // A picture held by the reader (a clip slower than the show) is composed once.
            if produced > wanted, stale || !composed {
                try compose(reader)
                composedPictures += 1
                composed = true
                stale = false
            }
        }
        if frame + 1 >= videoEnd { close() }
    }

    /// Opens the reader where clip time is ≥ 0 first on screen (its first frame held before).
    /// In an HDR show its decoder runs on one thread: each frame thread holds pictures of its
    /// own (a 1080p HEVC clip's decoder peaked 10 MB higher on two), and x265 in Main 10 keeps
    /// the cores busy anyway.
    private func open(at frame: Int) throws(ClipError) {
        opened = true
        let fps = Double(framesPerSecond)
        // Clip time at show frame f is inPoint + (f − cut) / fps.
        readerStart = max(frame, cut - Int((inPoint * fps).rounded(.down)))
        let start = max(0, inPoint + Double(readerStart - cut) / fps)
        let frames = max(1, videoEnd - readerStart)
        reader = try ClipReader(source: info.source, size: fit.readerSize, framesPerSecond: framesPerSecond,
                                inPoint: MediaTime(value: Int64((start * 1_000_000).rounded()), timescale: 1_000_000),
                                duration: MediaTime(value: Int64(frames), timescale: Int32(framesPerSecond)),
                                threads: hdr != nil ? 1 : nil)
    }

    /// Drops the reader (its decoder and frames), keeping what it noticed.
    private func close() {
        if let reader {
            warnings += reader.warnings
            decodedFrames += reader.decodedFrames
        }
        reader = nil
    }

    /// A frame of the show from the reader's current picture: the bars, the picture (or its crop)
    /// in its place, finished. The frame is one of the pool's, written over in place; the
    /// reader draws the picture straight into it unless only a crop of it shows.
    fileprivate func compose(from reader: ClipReader) throws(ClipError) -> PixelBuffer {
        let (fit, size) = (self.fit, frameSize)
        var picture = frames.take()
        if fit.crop == Rect(fit.readerSize) {
            try reader.draw(into: &picture, at: fit.content)
        } else {
            var whole = self.whole ?? PixelBuffer(size: fit.readerSize)
            self.whole = nil
            try reader.draw(into: &whole, at: Rect(fit.readerSize))
            Self.copy(fit.crop, of: whole, into: &picture, at: fit.content)
            self.whole = whole
        }
        picture.contentRect = fit.content
        if fit.content != Rect(size) {
            let background = self.background
            picture.withUnsafeMutableBufferPointer { frame in
                ImageManager.fillBackground(frame.baseAddress!, size: size, except: fit.content, with: background)
            }
        }
        finish(&picture, true)
        if blurredBackdrop { BlurredBackdrop.fill(&picture) }
        finish(&picture, false)
        frames.recycle(picture)
        return picture
    }

    /// An HDR show's frame from the reader's current picture, in the clip's own light: the bars
    /// at SDR light, the picture (or its crop) in its place, the caption laid over. The frame
    /// is the last one's buffer written over in place (the writer converts each picture when it
    /// is appended and keeps none, so nothing else holds it; were it held, it would be copied),
    /// and a crop's whole picture is kept from frame to frame: a clip allocates no 12 MB frame
    /// a frame.
    private func composeHDR(from reader: ClipReader, _ hdr: HDRFinish) throws(ClipError) -> HDRPixelBuffer {
        let (fit, size) = (self.fit, frameSize)
        var picture = lastHDR ?? HDRPixelBuffer(size: size)
        lastHDR = nil
        picture.contentRect = fit.content
        if fit.content != Rect(size) {
            Self.fillBars(&picture, except: fit.content, with: hdr.background)
        }
        try draw(from: reader, into: &picture, at: fit.content, transfer: hdr.transfer)
        hdr.finish?(&picture)
        hdr.overlay?(&picture)
        return picture
    }

    /// The picture alone of ``composeHDR(from:_:)``'s frame (what lies in its content
    /// rectangle), drawn into the last one's buffer when there is one, the look applied.
    private func composePlaced(from reader: ClipReader, _ hdr: HDRFinish) throws(ClipError) -> HDRPixelBuffer {
        let place = fit.content
        var picture = lastPlaced ?? HDRPixelBuffer(size: Size(width: place.width, height: place.height))
        lastPlaced = nil
        try draw(from: reader, into: &picture, at: Rect(picture.size), transfer: hdr.transfer)
        if hdr.finish != nil { hdr.pictureFinish?.apply(&picture) }
        return picture
    }

    /// The reader's current frame drawn into `picture` at `place` (of the content's size): all
    /// of it, or, where only a crop of it shows (fill), the whole frame drawn into ``wholeHDR``
    /// and the crop copied.
    private func draw(from reader: ClipReader, into picture: inout HDRPixelBuffer, at place: Rect, transfer: HDRTransfer) throws(ClipError) {
        guard fit.crop != Rect(fit.readerSize) else {
            try reader.drawHDR(into: &picture, at: place, transfer: transfer)
            return
        }
        var whole = wholeHDR ?? HDRPixelBuffer(size: fit.readerSize)
        wholeHDR = nil
        try reader.drawHDR(into: &whole, at: Rect(fit.readerSize), transfer: transfer)
        Self.copy(fit.crop, of: whole, into: &picture, at: place)
        wholeHDR = whole
    }

    /// Copies the part `rect` of `frame` into `buffer` at `place` (of `rect`'s size).
    private static func copy(_ rect: Rect, of frame: HDRPixelBuffer, into buffer: inout HDRPixelBuffer, at place: Rect) {
        frame.withUnsafeBytes { bytes in
            let from = bytes.bindMemory(to: UInt16.self).baseAddress!
            let width = buffer.width
            buffer.withUnsafeMutableBufferPointer { out in
                for row in 0..<rect.height {
                    (out.baseAddress! + ((place.y + row) * width + place.x) * 3)
                        .update(from: from + ((rect.y + row) * frame.width + rect.x) * 3, count: rect.width * 3)
                }
            }
        }
    }

    /// Paints every pixel of `picture` outside `content` with the code values `bars`: whole rows
    /// above and below, the left and right bars of the rows between (a look or blur fill on the
    /// frame before may have drawn over them).
    private static func fillBars(_ picture: inout HDRPixelBuffer, except content: Rect, with bars: (UInt16, UInt16, UInt16)) {
        let (width, height) = (picture.width, picture.height)
        picture.withUnsafeMutableBufferPointer { samples in
            func paint(_ row: Int, _ from: Int, _ to: Int) {
                var index = (row * width + from) * 3
                for _ in from..<to {
                    (samples[index], samples[index + 1], samples[index + 2]) = bars
                    index += 3
                }
            }
            for row in 0..<height {
                if row < content.y || row >= content.maxY {
                    paint(row, 0, width)
                } else {
                    paint(row, 0, content.x)
                    paint(row, content.maxX, width)
                }
            }
        }
    }

    /// Copies the part `crop` of `source` into `frame` at `place` (of the crop's size).
    private static func copy(_ crop: Rect, of source: PixelBuffer, into frame: inout PixelBuffer, at place: Rect) {
        let rowBytes = frame.bytesPerRow
        source.withUnsafeBytes { bytes in
            let from = bytes.bindMemory(to: UInt8.self).baseAddress!
            frame.withUnsafeMutableBufferPointer { out in
                for row in 0..<place.height {
                    let line = from + ((crop.y + row) * source.width + crop.x) * 3
                    (out.baseAddress! + (place.y + row) * rowBytes + place.x * 3).update(from: line, count: place.width * 3)
                }
            }
        }
    }
}

extension ClipPlayer {
    /// One picture of a clip filling a frame (centre crop): what a card is drawn over when the
    /// show starts or ends with a clip.
    /// - Parameters:
    ///   - info: the clip.
    ///   - seconds: the clip time of the picture (the last frame at or before it).
    ///   - frame: the frame size.
    /// - Throws: ``ClipError`` when the clip cannot be opened or no frame decoded.
    package static func picture(of info: ClipInfo, at seconds: Double, filling frame: Size) throws(ClipError) -> PixelBuffer {
        let fit = ClipFit(display: info.displaySize, frame: frame, mode: .aspectFill, framing: .center)
        let reader = try ClipReader(source: info.source, size: fit.readerSize, framesPerSecond: 1,
                                    inPoint: MediaTime(value: Int64((max(0, seconds) * 1_000_000).rounded()), timescale: 1_000_000),
                                    duration: MediaTime(value: 1, timescale: 1))
        guard try reader.advance() != nil else {
            throw ClipError(path: info.source.path, kind: .unreadable, reason: "not a single frame of its video could be decoded")
        }
        let player = ClipPlayer(info: info, fit: fit, frameSize: frame, framesPerSecond: 1, span: 0..<1, cut: 0, inPoint: 0,
                                videoEnd: 1, still: nil, background: .black, blurredBackdrop: false) { _, _ in }
        return try player.compose(from: reader)
    }
}

/// How a clip's frames are made for an HDR show (``ClipPlayer/hdrPicture(at:)``).
package struct HDRFinish: Sendable {
    /// The show's transfer.
    package var transfer: HDRTransfer
    /// The bars' code values: the background at SDR light.
    package var background: (UInt16, UInt16, UInt16)
    /// An SDR frame, finished as an SDR show's (the look, the backdrop; no caption), to the
    /// show's light with its caption laid over; an HDR clip's still (a motion photo) too.
    package var lift: @Sendable (PixelBuffer) -> HDRPixelBuffer
    /// The caption (and date imprint) laid over an HDR clip's frame, in linear light; nil for none.
    package var overlay: (@Sendable (inout HDRPixelBuffer) -> Void)?
    /// The look and the blurred backdrop on an HDR clip's frame (its bars painted), before the overlay; nil for none.
    package var finish: (@Sendable (inout HDRPixelBuffer) -> Void)?
    /// ``finish`` on a frame's picture alone, and the code values it leaves in the bars, when
    /// the look changes each pixel by its own values (no blur fill): a frame shown as it is is
    /// then kept as its picture alone (``ClipPlayer/hdrPlacedPicture(at:)``); nil otherwise.
    package var pictureFinish: (apply: @Sendable (inout HDRPixelBuffer) -> Void, bars: (UInt16, UInt16, UInt16))?

    package init(transfer: HDRTransfer, background: (UInt16, UInt16, UInt16), lift: @escaping @Sendable (PixelBuffer) -> HDRPixelBuffer,
                 overlay: (@Sendable (inout HDRPixelBuffer) -> Void)?, finish: (@Sendable (inout HDRPixelBuffer) -> Void)? = nil) {
        self.transfer = transfer
        self.background = background
        self.lift = lift
        self.overlay = overlay
        self.finish = finish
    }
}
