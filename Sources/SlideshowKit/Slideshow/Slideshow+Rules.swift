import SlideshowImages
import SlideshowPlan
import SlideshowSupport
import SlideshowWriter

/// A photo's own settings, overriding the show's (a manifest's per-photo objects).
public struct PhotoSettings: Sendable, Hashable {
    /// The transition from this photo to the next; nil for the show's.
    public var transition: TransitionEffect?
    /// This photo's motion; nil for the show's.
    public var motion: MotionStyle?
    /// For a clip, the part that plays; nil plays all of it (ignored for a photo).
    public var clipPart: ClipPart?
    /// This photo's caption; nil for none (or the show's ``SlideshowOptions/captionsFrom``).
    /// Captions are given this way or as a list (``SlideshowOptions/captions``), not both.
    public var caption: String?

    /// Creates per-photo settings; nil means the show's.
    public init(transition: TransitionEffect? = nil, motion: MotionStyle? = nil, clipPart: ClipPart? = nil, caption: String? = nil) {
        self.transition = transition
        self.motion = motion
        self.clipPart = clipPart
        self.caption = caption
    }
}

extension SlideshowOptions {
    /// The rules between settings as they are given, which a ``Slideshow`` cannot hold (it has
    /// one length, one list of captions, music or none): the one owner of each, for the command
    /// line, a manifest and the library alike. ``Slideshow/checkSettings()`` holds the rest.
    /// - Throws: ``OptionError`` naming the setting given second: both durations; a duration of
    ///   `audio` with a number of seconds; a setting that is only for a soundtrack (its entry
    ///   ``Setting/needs`` the music) without an audio file; captions given two ways.
    func checkGivenSettings() throws(OptionError) {
        if duration != nil && slideDuration != nil {
            throw OptionError(field: .slideDuration, reason: "give duration or slideDuration, not both", conflicting: .duration)
        }
        if durationFollowsAudio && (duration != nil || slideDuration != nil) {
            throw OptionError(field: .duration, reason: "give duration 'audio' or a number of seconds, not both")
        }
        if audio == nil, let given = Setting.all.first(where: { $0.needs == .audio && $0.isGiven(in: self) }) {
            throw OptionError(given.field, "is only for a soundtrack: give an audio file too")
        }
        let perPhoto = photoSettings.contains { $0.caption != nil }
        if captionsFile != nil {
            if !captions.isEmpty {
                throw OptionError(field: .captionsFile, reason: "give captions or captionsFile, not both", conflicting: .captions)
            }
            if perPhoto { throw OptionError(.captionsFile, "give captionsFile or a caption in the photo objects, not both") }
        }
        if perPhoto && !captions.isEmpty { throw OptionError(.captions, "give captions or a caption in the photo objects, not both") }
    }
}

extension Setting {
    /// Whether `options` holds another value than the default.
    func isGiven(in options: SlideshowOptions) -> Bool {
        binding.map { $0.describe(options) != $0.describe(SlideshowOptions.defaults) } ?? false
    }

    /// Checks a value against the entry's range.
    /// - Throws: ``OptionError`` on the setting: `2.0 is not between 0 and 1`.
    func check(_ value: Double) throws(OptionError) {
        if let problem = range?.problem(value) { throw OptionError(field, problem) }
    }
}

extension Slideshow {
    /// Checks the settings against the show's rules, without reading a file: the one owner
    /// of each rule (``SlideshowOptions`` parses text into these settings and calls this;
    /// ``validate()`` calls it first).
    ///
    /// The length is checked before the transitions and fades that must fit in it, so that a
    /// negative duration is the duration's fault.
    /// - Throws: ``OptionError`` naming the first setting at fault: no photos, a path with a
    ///   NUL character, an output not named `.mp4`, `.m4v`, `.gif` or `.webp`, a GIF above 50 fps, a size, frame rate, CRF or preset `VideoSettings` refuses, a
    ///   soundtrack setting `Soundtrack` refuses, a clip sound setting out of range, cuts on the beat without a soundtrack, a length that cannot be laid out (or that
    ///   follows music the show does not have), per-photo settings that are not one per photo,
    ///   a transition or fade that is negative or longer than the show, a zoom outside 0…1.
    public func checkSettings() throws(OptionError) {
        try checkSettings(photoCount: photos.count)
    }

    /// The rules, with the photo count's own checks left out when it is nil, and the output's
    /// when it is not known (a manifest job whose photos or output could not be read).
    func checkSettings(photoCount: Int?, outputKnown: Bool = true) throws(OptionError) {
        if photoCount == 0 { throw OptionError(.photos, "no photos given") }
        if let index = photos.firstIndex(where: { $0.path.isEmpty }) { throw OptionError(.photos, "photo \(index) is an empty path") }
        if let index = photos.firstIndex(where: { Message.hasNUL($0.path) }) {
            throw OptionError(.photos, "photo \(index) contains a NUL character, which no file name can")
        }
        if outputKnown && output.isEmpty { throw OptionError(.output, "is an empty path") }
        if Message.hasNUL(output) { throw OptionError(.output, "contains a NUL character, which no file name can") }
        try checkClipParts()
        // Every other path: the music, the WebVTT file, a font file.
        var paths: [(SlideshowOptions.Field, String)] = [(.audio, soundtrack?.path), (.webvtt, text.webVTT)].compactMap { field, path in path.map { (field, $0) } }
        if case .file(let path) = text.style.font { paths.append((.font, path)) }
        for (field, path) in paths {
            if path.isEmpty { throw OptionError(field, "is an empty path") }
            if Message.hasNUL(path) { throw OptionError(field, "contains a NUL character, which no file name can") }
        }
        if let problem = AssetWriter.extensionProblem(outputPath: output) { throw OptionError(.output, problem) }
        if let container = VideoContainer(outputPath: output), !video.codec.containers.contains(container) {
            let name = container == .webm ? "WebM (.webm)" : "MP4 (.mp4, .m4v)"
            let names = VideoCodec.allCases.filter { $0.containers.contains(container) }.map(\.rawValue)
            let others = names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
            throw OptionError(.codec, "\(video.codec.rawValue) is not written in \(name): give \(others), or name the output \(video.codec.containers.map { "." + $0.fileExtensions[0] }.joined(separator: " or "))")
        }
        if let preview = AnimatedFormat(outputPath: output), video.framesPerSecond > preview.maximumFramesPerSecond {
            throw OptionError(.fps, "\(video.framesPerSecond) is more than the \(preview.maximumFramesPerSecond) frames per second a \(preview.rawValue.uppercased()) plays as timed")
        }
        // VideoSettings owns the rules for these; each is checked beside defaults (which pass)
        // so that its problem is known to be that setting's.
        for (field, alone) in [(SlideshowOptions.Field.size, VideoSettings(size: video.size)), (.fps, VideoSettings(framesPerSecond: video.framesPerSecond)),
                               (.crf, VideoSettings(crf: video.crf)), (.preset, VideoSettings(preset: video.preset))] {
            if let problem = alone.problem { throw OptionError(field, problem) }
        }
        try checkHDR()
        // Size and rate together (the H.264 level's macroblock rate).
        if let problem = video.problem { throw OptionError(.size, problem) }
        if let error = soundtrack?.settingError { throw OptionError(error) }
        if let error = clipSound.settingError { throw OptionError(error) }
        if cuts == .beats && soundtrack == nil { throw OptionError(.cuts, "cutting on the beat needs music: give an audio file too") }
        // The length first: the transitions and fades are measured against it.
        if case .soundtrack = length {
            if soundtrack == nil { throw OptionError(.duration, "a duration of 'audio' needs an audio file") }
        } else {
            var count = photoCount ?? 1
            if case .perPhoto(let each) = length, photoCount == nil { count = each.count }
            do {
                _ = try Timeline(photoCount: count, length: length, framesPerSecond: video.framesPerSecond)
            } catch {
                throw OptionError(.duration, error.description)
            }
        }
        if !photoSettings.isEmpty, let photoCount, photoSettings.count != photoCount {
            throw OptionError(.photos, "\(photoSettings.count) per-photo settings for \(photoCount) photos")
        }
        try checkText(photoCount: photoCount)
        try checkCard(photoCount: photoCount)
        // The ranges the table declares for the show's own settings.
        for (field, value) in [(SlideshowOptions.Field.transitionDuration, transitionDuration), (.fadeIn, fadeIn), (.fadeOut, fadeOut), (.zoom, zoom)] {
            try field.setting.check(value)
        }
        let seconds: Double?
        switch length {
        // The fades are the photos' (the cards come before and after them): they must fit in the photos' time.
        case .total(let total): seconds = total - Double(openingCardFrames + closingCardFrames) / Double(video.framesPerSecond)
        case .perSlide(let each): seconds = photoCount.map { each * Double($0) }
        case .perPhoto(let each): seconds = each.reduce(0, +)
        case .soundtrack: seconds = nil
        }
        if let seconds { try checkFits(seconds: seconds, photoCount: photoCount) }
    }

    /// The parts of clips (a manifest's `in` and `out`, the command line's `#t=`): in at 0 s or
    /// later, out after in; whether they fit in their clips is known once they are read
    /// (``clipPart(_:of:)``).
    /// - Throws: ``OptionError`` on the photos, naming the photo.
    func checkClipParts() throws(OptionError) {
        for (index, settings) in photoSettings.enumerated() {
            guard let part = settings.clipPart else { continue }
            if !(part.start.isFinite && part.start >= 0) {
                throw OptionError(.photos, "photo \(index): in: \(Message.seconds(part.start)) is not 0 or more seconds")
            }
            if let end = part.end, !(end.isFinite && end > part.start) {
                throw OptionError(.photos, "photo \(index): out: \(Message.seconds(end)) is not after in (\(Message.seconds(part.start)) s)")
            }
        }
    }

    /// The transitions and fades fit in a show of `seconds`.
    /// - Throws: ``OptionError`` for a transition longer than the show, or fades longer together.
    func checkFits(seconds: Double, photoCount: Int?) throws(OptionError) {
        let cuts = photoSettings.isEmpty ? (photoCount == 1 ? [] : [transition])
            : photoSettings.dropLast().map { $0.transition ?? transition }
        if cuts.contains(where: { $0 != .none }), transitionDuration > seconds {
            throw OptionError(.transitionDuration, "\(Message.seconds(transitionDuration)) s is longer than the show (\(Message.seconds(seconds)) s)")
        }
        if fadeIn + fadeOut > seconds {
            throw OptionError(fadeOut > 0 ? .fadeOut : .fadeIn,
                              "\(Message.seconds(fadeIn)) s + \(Message.seconds(fadeOut)) s of fades are longer than the show (\(Message.seconds(seconds)) s)")
        }
    }

    /// The frame plan the settings give, every item laid out as a photo (nothing is read but
    /// the music, when the show follows it); a render's is ``PreparedSlideshow/plan``.
    /// - Throws: ``RenderError/settings(_:)`` for a setting that breaks a rule,
    ///   ``RenderError/invalid(_:)`` when the length, the transitions, fades or motion cannot
    ///   make one, `.audio` when a length that follows the soundtrack
    ///   cannot be read.
    func framePlan() throws(RenderError) -> FramePlan {
        try layout().plan
    }

    /// The settings checked, the music's length read when the show follows it, and the layout.
    private func layout() throws(RenderError) -> (timeline: Timeline, plan: FramePlan) {
        do {
            try checkSettings()
        } catch {
            throw .settings(error)
        }
        var musicLength: Double? = nil
        if case .soundtrack = length, let soundtrack {
            do {
                musicLength = try soundtrack.open(measuring: true).length
            } catch {
                throw .audio(error)
            }
        }
        return try layout(musicLength: musicLength)
    }

    /// The timeline and the frame plan, the settings already checked and the music's length
    /// after its start known when the show follows it: the one place both are made.
    /// - Parameter moving: moves the cuts of the timeline the length gives (``beatTimeline(_:effects:clips:)``)
    ///   before the one plan is made on it; given the transition at each cut.
    ///   - items: every item's header, when read: clips' lengths and motion photos' videos go into
    ///     the timeline and the plan (``lengthWithClips(_:items:)``); nil lays every item out as a photo.
    func layout(musicLength: Double?, items: [PhotoInfo]? = nil,
                moving: ((Timeline, [TransitionEffect]) -> Timeline)? = nil) throws(RenderError) -> (timeline: Timeline, plan: FramePlan) {
        var length = self.length
        if case .soundtrack = length {
            guard let musicLength else { throw .invalid("the length follows the soundtrack, but its length is not known") }
            length = .total(seconds: musicLength)
        }
        length = photosLength(length)
        if let items {
            try checkClipParts(items: items)
            length = try lengthWithClips(length, items: items)
        }
        let videoFrames: [Int?] = items.map { self.videoFrames(items: $0) } ?? []
        var timeline: Timeline
        do {
            timeline = try Timeline(photoCount: photos.count, length: length, framesPerSecond: video.framesPerSecond)
        } catch {
            throw .invalid(error.description)
        }
        if case .soundtrack = self.length {
            do {
                try checkFits(seconds: timeline.endTime.seconds, photoCount: photos.count)
            } catch {
                throw .settings(error)
            }
        }
        let count = photos.count
        let effects = (0..<max(0, count - 1)).map { photoSettings.isEmpty ? transition : photoSettings[$0].transition ?? transition }
        if let moving { timeline = moving(timeline, effects) }
        ReadProbe.current?.plans.add(1, ordering: .relaxed)
        let fps = Double(video.framesPerSecond)
        let motions = (0..<count).map { index -> MotionPath? in
            // Ken Burns moves photos, not videos.
            if !videoFrames.isEmpty, videoFrames[index] != nil { return nil }
            return (photoSettings.isEmpty ? motion : photoSettings[index].motion ?? motion).path(photo: index, zoom: zoom)
        }
        do {
            let plan = try FramePlan(timeline: timeline, effects: effects,
                                     transitionFrames: Int((transitionDuration * fps).rounded()),
                                     fadeInFrames: Int((fadeIn * fps).rounded()), fadeOutFrames: Int((fadeOut * fps).rounded()),
                                     motions: motions, videoFrames: videoFrames)
            return (timeline, plan)
        } catch {
            throw .invalid(error.description)
        }
    }

    /// The warning for a transition that had to be shortened, or nil.
    public func planWarning(_ plan: FramePlan) -> String? {
        guard let cap = plan.transitionCap else { return nil }
        let seconds = Double(cap.used) / Double(video.framesPerSecond)
        return "transitions shortened from \(Message.seconds(transitionDuration)) s to \(Message.seconds(seconds)) s (\(cap.used) frames) so that every photo is alone on screen for at least half its time"
    }
}
