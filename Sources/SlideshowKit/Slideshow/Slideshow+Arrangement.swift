import Foundation
import SlideshowAudio
import SlideshowImages
import SlideshowPlan
import SlideshowSupport

/// What ``Slideshow/validate()`` decides beyond the settings: the photos' order and where the
/// cuts fall on the music. Both are applied once, at validation, from what it already read
/// (the photos' headers, the music's length) and before the one frame plan is made.
extension Slideshow {
    /// The show with its photos in ``order``, from their headers (read once, in the order given).
    ///
    /// A photo's own settings (``photoSettings``, a `SlideshowLength/perPhoto(seconds:)`
    /// duration) move with it. Names compare by path in natural order (`PhotoOrder`), so that
    /// photos of one folder stay together and `img2` plays before `img10`.
    /// - Returns: the show and the headers in play order, and for `PhotoOrder/date` with
    ///   photos that give no capture date, the warning naming them.
    func arranged(infos: [PhotoInfo]) -> (show: Slideshow, infos: [PhotoInfo], warning: String?) {
        precondition(infos.count == photos.count, "one header per photo")
        let items = zip(photos, infos).map { PhotoOrder.Item(name: $0.path, date: $1.captureDate) }
        let arrangement = order.arrange(items)
        guard arrangement.order != Array(photos.indices) || !arrangement.undated.isEmpty else { return (self, infos, nil) }
        let order = arrangement.order
        var show = self
        show.photos = order.map { photos[$0] }
        if !photoSettings.isEmpty { show.photoSettings = order.map { photoSettings[$0] } }
        if !text.captions.isEmpty { show.text.captions = order.map { text.captions[$0] } }
        if case .perPhoto(let seconds) = length { show.length = .perPhoto(seconds: order.map { seconds[$0] }) }
        if let given = givenDurations { show.givenDurations = (order.map { given.given[$0] }, given.rest) }
        let warning = arrangement.undated.isEmpty ? nil : Self.undatedWarning(arrangement.undated)
        return (show, order.map { infos[$0] }, warning)
    }

    /// `no capture date in a.jpg and b.png: they play last, in name order`.
    static func undatedWarning(_ names: [String]) -> String {
        let list = names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        return Message.oneLine("no capture date in \(list): \(names.count == 1 ? "it plays" : "they play") last, in name order")
    }

    /// The cuts on the music's beat (``CutStyle/beats``), or the even timeline with the reason.
    ///
    /// The music's part that the show uses (from its start, the show's length) is analysed
    /// (``BeatAnalysis``); `BeatCutPlanner` moves the even cuts to its beats, keeping the even
    /// plan's transition lengths (capped as `FramePlan` caps them) so that they still fit, and
    /// the clips' lengths (a clip may end a quarter of a beat early, on one). Never fails: music
    /// whose beats cannot be read falls back to even cuts like music without a beat.
    ///
    /// The music starts with the video: under an opening card, whose frames come before the
    /// photos' timeline, so the part analysed is the card's and the photos' length, and the
    /// beats are moved into the photos' time by the card's length (``MusicLayout/lead``).
    /// - Parameters:
    ///   - even: the timeline the show's length gives.
    ///   - effects: the transition at each cut, as the plan will use them.
    ///   - clips: for each item, whether it is a clip (which keeps its length); empty for photos only.
    /// - Returns: the timeline to plan on, and what the beat analysis found and did.
    func beatTimeline(_ even: Timeline, effects: [TransitionEffect], clips: [Bool] = []) -> (timeline: Timeline, beats: BeatCutReport?) {
        guard cuts == .beats, let soundtrack else { return (even, nil) }
        let fps = even.framesPerSecond
        let showLength = even.endTime.seconds
        let lead = Double(openingCardFrames) / Double(fps)
        // One photo has no cut to move; a show shorter than a few bars has too few beats to find a steady one.
        guard even.photoCount > 1 else { return (even, nil) }
        guard showLength >= BeatAnalysis.minimumLength else { return (even, BeatCutReport(grid: nil, fallback: .showTooShort)) }
        let grid: BeatGrid?, heard: Double
        do {
            (grid, heard) = try BeatAnalysis.analyse(soundtrack, showLength: lead + showLength)
        } catch {
            return (even, BeatCutReport(grid: nil, fallback: .unreadableMusic(error.description)))
        }
        let bounds = (0..<even.photoCount).map { even.frames(ofPhoto: $0).lowerBound } + [even.frameCount]
        let resolved = effects.enumerated().map { $1.resolved(cut: $0) }
        let length = FramePlan.transitionLength(bounds: bounds, effects: resolved,
                                                requested: Int((transitionDuration * Double(fps)).rounded()))
        // The music loops where its decoded samples end, which the analysis has just measured,
        // each pass a whole number of beats after the one before.
        let music = MusicLayout(soundtrack: soundtrack, grid: grid, musicLength: soundtrack.start + heard, showLength: showLength, lead: lead,
                                framesPerSecond: fps)
        switch BeatCutPlanner.place(frameCount: even.frameCount, framesPerSecond: fps, evenCuts: Array(bounds.dropFirst().dropLast()),
                                    transitionFrames: resolved.map { $0 == .none ? 0 : length }, clips: clips, grid: grid, music: music) {
        case .success(let cuts):
            guard let timeline = try? Timeline(photoCount: even.photoCount, length: .perPhoto(seconds: cuts.durations(framesPerSecond: fps)),
                                               framesPerSecond: fps),
                  (0..<even.photoCount).map({ timeline.frames(ofPhoto: $0).lowerBound }) == cuts.photoStarts,
                  timeline.frameCount == even.frameCount else {
                return (even, BeatCutReport(grid: grid, fallback: .noSteadyBeat))   // not reached: durations give back the cuts
            }
            return (timeline, BeatCutReport(grid: grid, fallback: nil, music: music))
        case .failure(let why):
            return (even, BeatCutReport(grid: grid, fallback: why, music: music))
        }
    }
}

/// What cutting on the beat (``CutStyle/beats``) found in the music and did with it.
public struct BeatCutReport: Sendable, Hashable {
    /// The beat found in the music; nil when it has none (or could not be read, or the show is
    /// too short to find one).
    public var grid: BeatGrid?
    /// Why the cuts stayed even; nil when they are on the beat.
    public var fallback: BeatCutFallback?
    /// How the music lies under the cuts: where the show enters it (``MusicLayout/entry``, less
    /// than a frame after `--audio-start`, its beats on the frames) and the overlap at its
    /// seams that keeps its beat (``MusicLayout/beatSeam``, ``Soundtrack/seam``); nil without music.
    package var music: MusicLayout? = nil

    /// Creates a report.
    public init(grid: BeatGrid?, fallback: BeatCutFallback?) {
        self.grid = grid
        self.fallback = fallback
    }

    package init(grid: BeatGrid?, fallback: BeatCutFallback?, music: MusicLayout?) {
        self.init(grid: grid, fallback: fallback)
        self.music = music
    }
}
