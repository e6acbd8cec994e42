import SlideshowColor
import SlideshowCompositor
import SlideshowFraming
import SlideshowImages
import SlideshowLooks
import SlideshowPixels
import SlideshowPlan
import SlideshowText
import SlideshowVideo
import SlideshowFormats

/// The slide chain for items that play a video: clips, and motion photos under
/// ``MotionPhotoPlayback/play``. Each frame goes as a still's does: decode (the reader's picture
/// fitted, ``ClipFit``) → look → backdrop → date imprint → caption.
extension SlideBuilder {
    /// The video item `index` plays: its clip, or its motion photo's video when motion photos
    /// play; nil for a still photo.
    func video(_ index: Int) -> ClipInfo? {
        guard index < items.count else { return nil }
        return items[index].clip ?? (slideshow.motionPhotos == .play ? items[index].motionClip : nil)
    }

    /// The clip's in-point in seconds (0 for a motion photo, or a clip played whole).
    func inPoint(_ index: Int) -> Double {
        guard items[index].clip != nil, index < slideshow.photoSettings.count else { return 0 }
        return slideshow.photoSettings[index].clipPart?.start ?? 0
    }

    /// Item `index` as the compositor plays it.
    /// - Parameter plan: the show's plan: where the item is on screen and its cut.
    /// - Throws: ``RenderError/photo(_:)`` when a motion photo's still cannot be decoded or a
    ///   caption drawn, ``RenderError/clip(_:)`` when the video cannot be opened.
    /// - Parameter hdr: an HDR show's transfer: the player makes ``ClipPlayer/hdrPicture(at:)``'s
    ///   frames, the caption laid over in linear light after the lift (``HDRFinish``).
    func clipPlayer(_ index: Int, plan: FramePlan, hdr: HDRTransfer? = nil) throws(RenderError) -> ClipPlayer {
        guard let info = video(index) else { preconditionFailure("item \(index) plays no video") }
        let isClip = items[index].clip != nil
        let size = slideshow.video.size
        let span = plan.span(ofPhoto: index)
        let cut = plan.photoStarts[index]
        let shareEnd = index + 1 < plan.photoStarts.count ? plan.photoStarts[index + 1] : plan.frameCount
        let videoEnd = isClip ? span.upperBound : cut + min(plan.videoFrames[index] ?? 0, shareEnd - cut)
        let inPoint = self.inPoint(index)
        let fit = ClipFit(display: info.displaySize, frame: size, mode: slideshow.contentMode, framing: slideshow.framing,
                          faces: try faces(in: info, at: inPoint))
        let still: PixelBuffer?
        let caption: TextOverlay?
        do throws(PhotoError) {
            still = isClip ? nil : try self.still(index)
            caption = try self.caption(index)
        } catch {
            throw .photo(error)
        }
        let builder = self
        let player = ClipPlayer(info: info, fit: fit, frameSize: size, framesPerSecond: slideshow.video.framesPerSecond,
                                span: span, cut: cut, inPoint: inPoint, videoEnd: videoEnd, still: still,
                                background: slideshow.background, blurredBackdrop: slideshow.backdrop == .blur) { buffer, beforeBackdrop in
            if beforeBackdrop {
                builder.look(&buffer, index)
            } else {
                builder.imprint(&buffer, index)
                // An HDR show lays the caption over in linear light, after the lift.
                if hdr == nil, let caption { buffer.composite(caption) }
            }
        }
        if let hdr {
            let signal = HDRSignal(hdr)
            let imprinted = info.color.isHDR ? imprintOverlay(index, content: fit.content) : nil
            var overlay: (@Sendable (inout HDRPixelBuffer) -> Void)?
            if imprinted != nil || caption != nil {
                overlay = { picture in
                    if let imprinted { HDRSlide.overlay(imprinted, on: &picture, signal: signal) }
                    if let caption { HDRSlide.overlay(caption, on: &picture, signal: signal) }
                }
            }
            let background = HDRSlide.codes(of: slideshow.background, signal: signal)
            player.hdr = HDRFinish(transfer: hdr, background: background,
                                   lift: { HDRSlide.make($0, gain: nil, curve: nil, signal: signal, overlay: caption) },
                                   overlay: overlay)
            if info.color.isHDR, slideshow.look.name != Looks.original.name || slideshow.backdrop == .blur {
                let clipLook = HDRClipLook(signal: signal, blur: slideshow.backdrop == .blur, pixelwise: slideshow.look.isPixelwise) {
                    builder.look(&$0, index)
                }
                player.hdr?.finish = { picture in clipLook.apply(to: &picture) }
                if clipLook.rowByRow {
                    player.hdr?.pictureFinish = ({ picture in clipLook.apply(toPicture: &picture) }, clipLook.bars(background))
                }
            }
        }
        return player
    }

    /// The date imprint of item `index` as an overlay, for an HDR clip's frames (laid over in
    /// linear light at SDR light, as captions are): drawn once on black and once on white
    /// pictures with the clip's content rectangle, each pixel's opacity read from the two
    /// (on black the imprint's premultiplied colour, on white that plus the white left showing).
    /// The digits are exact; the glow, a screen blend, becomes an over blend of the same light
    /// on black. Nil without an imprint or a capture date.
    func imprintOverlay(_ index: Int, content: Rect) -> TextOverlay? {
        guard slideshow.dateImprint != nil, index < captureDates.count, captureDates[index] != nil else { return nil }
        let size = slideshow.video.size
        var black = PixelBuffer(size: size), white = PixelBuffer(size: size)
        white.withUnsafeMutableBufferPointer { pixels in pixels.update(repeating: 255) }
        black.contentRect = content
        white.contentRect = content
        imprint(&black, index)
        imprint(&white, index)
        let (b, w) = (black.pixels, white.pixels)
        var (x0, y0, x1, y1) = (size.width, size.height, 0, 0)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let at = (y * size.width + x) * 3
                if b[at] != 0 || b[at + 1] != 0 || b[at + 2] != 0 || w[at] != 255 || w[at + 1] != 255 || w[at + 2] != 255 {
                    (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x + 1), max(y1, y + 1))
                }
            }
        }
        guard x0 < x1, y0 < y1 else { return nil }
        let rect = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let at = ((rect.y + y) * size.width + rect.x + x) * 3, out = (y * rect.width + x) * 4
                // Opacity 1 − (white − black) / 255, the most opaque channel's (the digits' core is opaque).
                let shown = (0..<3).map { Int(w[at + $0]) - Int(b[at + $0]) }.min()!
                let alpha = UInt8(max(0, min(255, 255 - shown)))
                for c in 0..<3 { pixels[out + c] = min(b[at + c], alpha) }
                pixels[out + 3] = alpha
            }
        }
        return TextOverlay(rect: rect, pixels: pixels)
    }

    /// The faces in the clip's picture at its in-point, in its upright pixels, when fill with
    /// face framing crops it; empty otherwise (or when the picture cannot be read here: the
    /// render's own reader reports that).
    /// - Throws: ``RenderError/clip(_:)`` (`decodeFailed`, the loader's reason) when the face
    ///   detection library cannot be loaded.
    private func faces(in info: ClipInfo, at inPoint: Double) throws(RenderError) -> [Rect] {
        let display = info.displaySize
        guard slideshow.contentMode == .aspectFill, slideshow.framing == .faces,
              ClipFit.cropsAway(display: display, frame: slideshow.video.size) else { return [] }
        do throws(FaceDetectionError) {
            guard try FaceFraming.detector.get() != nil else { return [] }
        } catch {
            throw .clip(ClipError(path: info.source.path, kind: .decodeFailed, reason: error.message))
        }
        let small = ClipFit.detectionSize(display: display)
        guard let reader = try? ClipReader(source: info.source, size: small, framesPerSecond: 1,
                                           inPoint: MediaTime(value: Int64((inPoint * 1_000_000).rounded()), timescale: 1_000_000),
                                           duration: MediaTime(value: 1, timescale: 1)),
              let picture = try? reader.nextFrame() else { return [] }
        let faces = FaceFraming.faces(in: RGBImage(width: small.width, height: small.height, channels: 3, pixels: picture.pixels))
        return faces.map {
            Rect(x: $0.x * display.width / small.width, y: $0.y * display.height / small.height,
                 width: $0.width * display.width / small.width, height: $0.height * display.height / small.height)
        }
    }
}
