import Synchronization
import SlideshowColor
import SlideshowCompositor
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels
import SlideshowPlan
import SlideshowSupport
import SlideshowText
import SlideshowVideo
import SlideshowWriter
import SlideshowFormats

/// What an opening title card is drawn over.
public enum CardBackground: Sendable, Hashable {
    /// The first photo filling the frame, blurred and darkened (like `BlurredBackdrop`).
    case blurredFirstPhoto
    /// A plain colour.
    case color(RGBColor)
}

extension Slideshow {
    /// Frames the opening card lasts: ``ShowText/cardSeconds`` rounded to frames; 0 without a card.
    ///
    /// With a total length (`--duration`, or the music's length) the card's frames are taken
    /// from the photos' time, so the video is exactly as long as asked; with a length per
    /// photo they are added before the photos.
    public var openingCardFrames: Int {
        guard text.openingCard != nil, text.cardSeconds.isFinite, text.cardSeconds > 0 else { return 0 }
        return Int(min(text.cardSeconds * Double(video.framesPerSecond), Double(Timeline.maximumFrames)).rounded())
    }

    /// Frames the closing card lasts, like ``openingCardFrames``; 0 without one.
    public var closingCardFrames: Int {
        guard text.closingCard != nil, text.cardSeconds.isFinite, text.cardSeconds > 0 else { return 0 }
        return Int(min(text.cardSeconds * Double(video.framesPerSecond), Double(Timeline.maximumFrames)).rounded())
    }

    /// The photos' share of a total length once the cards have their frames.
    func photosLength(_ length: SlideshowLength) -> SlideshowLength {
        let cards = openingCardFrames + closingCardFrames
        guard case .total(let seconds) = length, cards > 0 else { return length }
        return .total(seconds: seconds - Double(cards) / Double(video.framesPerSecond))
    }

    /// The card's rules: a duration of 0 or more seconds; with a total length, one that leaves
    /// the photos what they would need without the cards (at least a frame each: the same
    /// problem, ``Timeline/Problem``, named); with a length per photo, one that keeps the whole
    /// video within ``Timeline/maximumFrames``, as a longer show is refused.
    /// - Parameter photoCount: the number of items, nil when unknown (a manifest job whose photos could not be read).
    func checkCard(photoCount: Int?) throws(OptionError) {
        let cards = (text.openingCard == nil ? 0 : 1) + (text.closingCard == nil ? 0 : 1)
        guard cards > 0 else { return }
        try SlideshowOptions.Field.titleCardDuration.setting.check(text.cardSeconds)
        let fps = video.framesPerSecond
        let cardsText = "\(cards) × \(Message.seconds(text.cardSeconds)) s of cards"
        // Cards are clamped to the cap one by one (openingCardFrames): check the seconds themselves.
        if text.cardSeconds * Double(cards * fps) > Double(Timeline.maximumFrames) {
            throw OptionError(.titleCardDuration, "\(cardsText) at \(fps) fps are over \(Timeline.maximumFrames) frames (24 hours at 30 fps), the longest show")
        }
        let cardFrames = openingCardFrames + closingCardFrames
        switch length {
        case .total(let seconds):
            if text.cardSeconds * Double(cards) >= seconds {
                throw OptionError(.titleCardDuration, "\(cardsText) leave nothing of the \(Message.seconds(seconds)) s show for the photos")
            }
            guard let photoCount, case .total(let rest) = photosLength(length) else { return }
            do {
                _ = try Timeline(photoCount: photoCount, length: .total(seconds: rest), framesPerSecond: fps)
            } catch {
                throw OptionError(.titleCardDuration, "\(cardsText) leave the photos \(Message.seconds(rest)) s of the \(Message.seconds(seconds)) s show: \(error.description)")
            }
        case .perSlide, .perPhoto:
            // The photos' own frames were checked against the cap (Timeline); with the cards, the video's.
            guard let photoCount, let timeline = try? Timeline(photoCount: photoCount, length: length, framesPerSecond: fps) else { return }
            if timeline.frameCount + cardFrames > Timeline.maximumFrames {
                throw OptionError(.titleCardDuration, "\(cardsText) and the photos' \(timeline.frameCount) frames at \(fps) fps are over \(Timeline.maximumFrames) frames (24 hours at 30 fps), the longest show")
            }
        case .soundtrack:
            break
        }
    }

    /// The opening card with its second line filled from the photos' capture dates when
    /// ``ShowText/cardDateRange`` asks for it (and none was given).
    func resolvedCard(photos: [PhotoInfo]) -> TitleCard? {
        guard let card = text.openingCard else { return nil }
        guard card.subtitle == nil, text.cardDateRange, let range = DateRange.text(photos.compactMap(\.captureDate)) else { return card }
        return TitleCard(title: card.title, subtitle: range)
    }
}

/// The span of the photos' capture dates in words: `12 May 2024`, `12–18 May 2024`,
/// `28 April – 3 May 2024`, `28 December 2023 – 3 January 2024`.
enum DateRange {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]

    /// The range's text; nil without dates.
    static func text(_ dates: [CaptureDate]) -> String? {
        guard let first = dates.min(), let last = dates.max() else { return nil }
        let (a, b) = (first, last)
        func month(_ date: CaptureDate) -> String { months[max(0, min(11, date.month - 1))] }
        if a.year != b.year { return "\(a.day) \(month(a)) \(a.year) – \(b.day) \(month(b)) \(b.year)" }
        if a.month != b.month { return "\(a.day) \(month(a)) – \(b.day) \(month(b)) \(b.year)" }
        if a.day != b.day { return "\(a.day)–\(b.day) \(month(b)) \(b.year)" }
        return "\(a.day) \(month(a)) \(a.year)"
    }
}

extension PreparedSlideshow {
    /// A card's picture: the card drawn over photo `index`, blurred, or a colour; nil without a card.
    /// - Throws: ``RenderError/photo(_:)`` when the photo cannot be decoded,
    ///   ``RenderError/text(_:)`` when the text cannot be drawn.
    func cardPicture(_ card: TitleCard?, photo index: Int) throws(RenderError) -> PixelBuffer? {
        guard let card, slideshow.text.cardSeconds.isFinite, slideshow.text.cardSeconds * Double(slideshow.video.framesPerSecond) >= 0.5 else { return nil }
        let size = slideshow.video.size
        var background: PixelBuffer
        switch slideshow.text.cardBackground {
        case .color(let color):
            background = PixelBuffer(size: size, filledWith: color)
        case .blurredFirstPhoto where index < photos.count && photos[index].clip != nil:
            // A clip: its first picture behind the opening card, its last behind the closing one.
            let clip = photos[index].clip!
            let part = slideshow.photoSettings.indices.contains(index) ? slideshow.photoSettings[index].clipPart : nil
            let seconds = index == 0 && card == openingCard ? part?.start ?? 0 : (part?.end ?? clip.duration) - 1 / Double(slideshow.video.framesPerSecond)
            do throws(ClipError) {
                background = try ClipPlayer.picture(of: clip, at: seconds, filling: size)
            } catch {
                throw .clip(error)
            }
            BlurredBackdrop.blurWhole(&background)
        case .blurredFirstPhoto:
            do throws(PhotoError) {
                background = try ImageManager().requestImage(for: slideshow.photos[index], targetSize: size, contentMode: .aspectFill,
                                                             background: slideshow.background, framing: .center)
            } catch {
                throw .photo(error)
            }
            BlurredBackdrop.blurWhole(&background)
        }
        do throws(TextError) {
            return try TextRenderer(style: slideshow.text.style).draw(card, over: background)
        } catch {
            throw .text(error)
        }
    }
}

extension BlurredBackdrop {
    /// Blurs and darkens a whole frame, as the backdrop around a letterboxed photo is.
    static func blurWhole(_ buffer: inout PixelBuffer) {
        let (width, height) = (buffer.width, buffer.height)
        let whole = Rect(buffer.size)
        buffer.withUnsafeMutableBufferPointer { pixels in
            var small = shrink(UnsafeBufferPointer(pixels), width: width, height: height, content: whole)
            blur(&small)
            for index in small.values.indices {
                small.values[index] = (small.values[index] * brightnessNumerator * 2 + 10) / 20
            }
            enlarge(small, into: pixels, width: width, height: height, except: Rect(x: 0, y: 0, width: 0, height: 0))
        }
        buffer.contentRect = whole
    }
}

/// The render's pictures with the cards around the show's: the opening card first (if any),
/// then the show's pictures, then the closing card (if any).
final class CardFeed: FrameFeed {
    private let opening: PixelBuffer?
    private let closing: PixelBuffer?
    private let inner: any FrameFeed
    private let innerCount: Int
    private let released = Atomic<Int>(0)
    /// An HDR show's transfer: the cards go in at SDR light (their white at reference white).
    private let hdr: HDRTransfer?

    init(opening: PixelBuffer?, closing: PixelBuffer?, inner: any FrameFeed, innerCount: Int, hdr: HDRTransfer? = nil) {
        self.opening = opening
        self.closing = closing
        self.hdr = hdr
        self.inner = inner
        self.innerCount = innerCount
    }

    func start() { inner.start() }

    func take(_ index: Int) -> Result<AppendedPicture, RenderError> {
        let shifted = index - (opening == nil ? 0 : 1)
        if let opening, index == 0 { return .success(picture(opening)) }
        if let closing, shifted == innerCount { return .success(picture(closing)) }
        return inner.take(shifted)
    }

    /// A card as the writer takes it: as drawn, or in an HDR show at SDR light.
    private func picture(_ card: PixelBuffer) -> AppendedPicture {
        guard let hdr else { return .sdr(card) }
        return .hdr(HDRSlide.make(card, gain: nil, curve: nil, signal: HDRSignal(hdr)))
    }

    func release() {
        // The writer consumes the pictures in order; the cards were never the show's feed's.
        let shifted = released.add(1, ordering: .relaxed).oldValue - (opening == nil ? 0 : 1)
        guard shifted >= 0, shifted < innerCount else { return }
        inner.release()
    }

    func cancel() { inner.cancel() }
}
