import Foundation
import SlideshowAudio
import SlideshowPicking
import SlideshowPlan

/// The items a show plays, from what it was given: folders listed (`MediaFolder`) and, with
/// ``SlideshowOptions/pick``, the picks (`Picker`), each input's fate explained (`PickReport`).
///
/// ```swift
/// var options = SlideshowOptions(duration: 36)
/// options.pick = .auto                       // 12 photos, about 3 s each
/// let selection = try options.select(["trip/"], output: "trip.mp4")
/// let show = try options.slideshow(photos: selection.photos.map(Photo.init), output: "trip.mp4")
/// ```
public struct PhotoSelection: Sendable {
    /// The items to play: the picks in capture order, or every item listed in its order.
    public var photos: [String]
    /// The folders' listing: items, files left out, Live Photo pairs.
    public var listing: MediaListing
    /// With a pick asked for: every input's fate.
    public var report: PickReport?
    /// Files that cannot be read, left out: the listing's, and with a pick the analysis's.
    public var skipped: [MediaListing.Skipped]

    /// The one warning for every file left out because it cannot be read; nil when none was.
    public var warning: String? {
        var all = listing
        all.skipped = skipped
        return all.warning
    }
}

extension SlideshowOptions {
    /// Lists the inputs' folders and, with ``pick``, picks the photos to show.
    ///
    /// Folders are walked as `MediaFolder` says; files named on their own are kept. With a
    /// pick, every item (a file named on its own too) is analysed (`PhotoAnalysis`): one that
    /// cannot be read is left out like a folder's, a Live Photo movie named beside its still
    /// counts with it, and `Picker` chooses. `auto` aims at the show's length over
    /// `PickRules/secondsPerPick` (the cards' time taken off): the ``duration``, or the music's
    /// length after ``audioStart`` with ``durationFollowsAudio``; with a ``slideDuration`` every
    /// good moment is picked.
    /// - Parameters:
    ///   - inputs: files and folders, in order.
    ///   - output: the show's output, never listed from a folder.
    /// - Throws: ``OptionError`` on ``Field/photos`` when nothing readable is left, on
    ///   ``Field/pick`` for `auto` without a length or with per-photo settings, on ``Field/audio``
    ///   when `auto` needs the music's length and it cannot be read.
    public func select(_ inputs: [String], output: String? = nil) throws(OptionError) -> PhotoSelection {
        let listing = MediaFolder.list(inputs, excluding: output)
        guard let pick else {
            guard !listing.items.isEmpty else { throw nothingReadable(inputs, listing) }
            return PhotoSelection(photos: listing.items, listing: listing, report: nil, skipped: listing.skipped)
        }
        if !photoSettings.isEmpty || photoDurations.contains(where: { $0 != nil }) || !captions.isEmpty || captionsFile != nil {
            throw OptionError(.pick, "per-photo settings (captions, durations, clip parts) cannot go with a pick: which photos play is not known until they are picked")
        }
        let (target, why) = try pickTarget(pick)
        // A Live Photo movie named beside its still counts with it.
        let stills = Dictionary(listing.items.filter { ($0 as NSString).pathExtension.lowercased() != "mov" }
            .map { (($0 as NSString).deletingPathExtension, $0) }, uniquingKeysWith: { first, _ in first })
        var movies: [String: String] = [:]
        for item in listing.items where (item as NSString).pathExtension.lowercased() == "mov" {
            if let still = stills[(item as NSString).deletingPathExtension] { movies[item] = still }
        }
        let analysed = listing.items.filter { movies[$0] == nil }
        let results = PhotoAnalysis.summarize(analysed, clips: listing.clips)
        var summaries: [PhotoSummary] = []
        var skipped = listing.skipped
        for result in results {
            switch result {
            case .success(let summary): summaries.append(summary)
            case .failure(let problem): skipped.append(MediaListing.Skipped(path: problem.path, reason: problem.reason))
            }
        }
        guard !summaries.isEmpty else {
            var empty = listing
            empty.skipped = skipped
            throw nothingReadable(inputs, empty)
        }
        let choice = Picker.pick(summaries, target: target)
        // Every input in the listing's order, with the Live Photo movies and unreadable files.
        var byPath: [String: PickDecision] = [:]
        for decision in choice.decisions { byPath[decision.path] = decision }
        for file in skipped { byPath[file.path] = PickDecision(path: file.path, reason: .unreadable(file.reason)) }
        for (movie, still) in movies { byPath[movie] = PickDecision(path: movie, reason: .livePhotoMovie(of: still)) }
        for pair in listing.pairs { byPath[pair.movie] = PickDecision(path: pair.movie, reason: .livePhotoMovie(of: pair.still)) }
        var seen: Set<String> = []
        let everything = (listing.items + listing.skipped.map(\.path) + listing.pairs.map(\.movie))
            .sorted { PhotoOrder.naturalCompare($0, $1) == .orderedAscending }
        let decisions = everything.compactMap { path in seen.insert(path).inserted ? byPath[path] : nil }
        let picked = choice.picked.map { summaries[$0].path }
        let report = PickReport(asked: pick, target: target, why: why, picked: picked, decisions: decisions,
                                moments: choice.moments, clusters: choice.clusters)
        return PhotoSelection(photos: picked, listing: listing, report: report, skipped: skipped)
    }

    /// How many places a pick aims at, and how that was chosen, in words.
    func pickTarget(_ pick: PickCount) throws(OptionError) -> (Int?, String) {
        switch pick {
        case .count(let number):
            return (number, "asked for \(number)")
        case .auto:
            let cards = (titleCard != nil ? titleCardDuration : 0) + (closingCard != nil ? titleCardDuration : 0)
            let each = PickRules.seconds(PickRules.secondsPerPick)
            if slideDuration != nil {
                return (nil, "every good moment, \(PickRules.seconds(slideDuration!)) s each (slide duration)")
            }
            var seconds: Double
            var source: String
            if durationFollowsAudio {
                let music: Soundtrack?
                music = try soundtrack()
                guard let music else { throw OptionError(.pick, "auto with the music's length needs the music (audio)") }
                do {
                    seconds = try music.open(measuring: true).length ?? 0
                } catch {
                    throw OptionError(.audio, error.description)
                }
                source = "the music's \(PickRules.seconds(seconds)) s"
            } else if let duration {
                seconds = duration
                source = "\(PickRules.seconds(duration)) s"
            } else {
                throw OptionError(.pick, "auto needs the show's length: a duration (seconds, or audio for the music's) or a slide duration")
            }
            if cards > 0 {
                seconds -= cards
                source += " less \(PickRules.seconds(cards)) s of cards"
            }
            let count = max(1, Int((seconds / PickRules.secondsPerPick).rounded()))
            return (count, "\(source) at about \(each) s a photo")
        }
    }

    private func nothingReadable(_ inputs: [String], _ listing: MediaListing) -> OptionError {
        let names = inputs.prefix(3).joined(separator: ", ") + (inputs.count > 3 ? ", …" : "")
        let unreadable = listing.skipped.isEmpty ? "" : " (\(listing.warning!))"
        return OptionError(.photos, "\(names): no photo or clip that can be read\(unreadable)")
    }
}
