/// A photo's own settings, overriding the show's (a manifest's per-photo objects).
public struct PhotoSettings: Sendable, Hashable {
    /// The transition from this photo to the next; nil for the show's.
    public var transition: TransitionEffect?
    /// This photo's motion; nil for the show's.
    public var motion: MotionStyle?
    /// For a clip, the part that plays; nil plays all of it (ignored for a photo).
    public var clipPart: ClipPart?

    /// Creates per-photo settings; nil means the show's.
    public init(transition: TransitionEffect? = nil, motion: MotionStyle? = nil, clipPart: ClipPart? = nil) {
        self.transition = transition
        self.motion = motion
        self.clipPart = clipPart
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
    ///   NUL character, an output not named `.mp4` or `.m4v`, a size, frame rate, CRF or preset ``VideoSettings`` refuses, a
    ///   soundtrack setting ``Soundtrack`` refuses, a clip sound setting out of range, cuts on the beat without a soundtrack, a length that cannot be laid out (or that
    ///   follows music the show does not have), per-photo settings that are not one per photo,
    ///   a transition or fade that is negative or longer than the show, a zoom outside 0…1.
    public func checkSettings() throws(OptionError) {
        try checkSettings(photoCount: photos.count)
    }

    /// The rules, with the photo count's own checks left out when it is nil (a manifest job
    /// whose photos could not be read).
    func checkSettings(photoCount: Int?) throws(OptionError) {
        if photoCount == 0 { throw OptionError(.photos, "no photos given") }
        if let index = photos.firstIndex(where: { Message.hasNUL($0.path) }) {
            throw OptionError(.photos, "photo \(index) contains a NUL character, which no file name can")
        }
        if Message.hasNUL(output) { throw OptionError(.output, "contains a NUL character, which no file name can") }
        // Every other path: the music, the WebVTT file, a font file.
        var paths: [(SlideshowOptions.Field, String)] = [(.audio, soundtrack?.path), (.webvtt, text.webVTT)].compactMap { field, path in path.map { (field, $0) } }
        if case .file(let path) = text.style.font { paths.append((.font, path)) }
        for (field, path) in paths {
            if path.isEmpty { throw OptionError(field, "is an empty path") }
            if Message.hasNUL(path) { throw OptionError(field, "contains a NUL character, which no file name can") }
        }
        if let problem = AssetWriter.extensionProblem(outputPath: output) { throw OptionError(.output, problem) }
        // VideoSettings owns the rules for these; each is checked beside defaults (which pass)
        // so that its problem is known to be that setting's.
        for (field, alone) in [(SlideshowOptions.Field.size, VideoSettings(size: video.size)), (.fps, VideoSettings(framesPerSecond: video.framesPerSecond)),
                               (.crf, VideoSettings(crf: video.crf)), (.preset, VideoSettings(preset: video.preset))] {
            if let problem = alone.problem { throw OptionError(field, problem) }
        }
        // Size and rate together (the H.264 level's macroblock rate).
        if let problem = video.problem { throw OptionError(.size, problem) }
        if let error = soundtrack?.settingError { throw error }
        if let error = clipSound.settingError { throw error }
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
        for (field, value) in [(SlideshowOptions.Field.transitionDuration, transitionDuration), (.fadeIn, fadeIn), (.fadeOut, fadeOut)]
        where !value.isFinite || value < 0 {
            throw OptionError(field, "\(Message.seconds(value)) is not 0 or more seconds")
        }
        if !zoom.isFinite || zoom < 0 || zoom > 1 {
            throw OptionError(.zoom, "\(zoom) is not between 0 and 1")
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

    /// The timeline the show's length gives, every item laid out as a photo (nothing is read:
    /// ``validate()`` gives clips their own lengths).
    /// - Throws: ``RenderError/settings(_:)`` for a setting that breaks a rule,
    ///   ``RenderError/invalid(_:)`` when the length cannot be laid out, ``RenderError/audio(_:)`` when a length that follows the soundtrack cannot be read
    ///   (its file is opened for it).
    public func timeline() throws(RenderError) -> Timeline {
        try layout().timeline
    }

    /// The frame plan: what every frame shows, every item laid out as a photo (see ``timeline()``).
    /// - Throws: ``RenderError/settings(_:)`` for a setting that breaks a rule,
    ///   ``RenderError/invalid(_:)`` when the length, the transitions, fades or motion cannot make one, `.audio` when a length that follows the soundtrack
    ///   cannot be read.
    public func framePlan() throws(RenderError) -> FramePlan {
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
