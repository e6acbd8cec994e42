import Foundation
import SlideshowFormats
import SlideshowPlan
import SlideshowSupport

/// The photos and clips of the inputs a show is given: files as they are, folders walked.
///
/// A folder is walked recursively and its files are taken in natural name order of their
/// paths within it (`img2` before `img10`, ``PhotoOrder/naturalCompare(_:_:)``); the show's
/// own order (``PhotoOrder``) applies afterwards. Inside a folder:
/// - hidden files and folders (a name starting with `.`), sidecars and thumbnails (``ignoredExtensions``,
///   ``ignoredNames``, ``ignoredFolders``) are ignored, silently;
/// - every other file is sniffed by its content (``FormatSniffer``), never its name: an image of
///   a format the tool reads is a photo, an MP4, QuickTime or Matroska/WebM file a clip;
/// - an Apple Live Photo's movie (a `.mov` with the base name of a still beside it) is not an
///   item of its own: it stays paired with its still, which plays it under
///   ``MotionPhotoPlayback/play`` (``MotionPhoto``); motion photos carry their video inside;
/// - a file it cannot read is left out and listed in ``skipped`` (the caller warns once).
///
/// Files named on their own are kept as given, whatever they hold: they fail the render as
/// they always did when they cannot be read.
public struct MediaListing: Sendable, Hashable {
    /// A file left out, with why.
    public struct Skipped: Sendable, Hashable {
        /// The file's path.
        public var path: String
        /// Why, e.g. `not a JPEG, PNG, HEIF, AVIF or WebP image (GIF)`.
        public var reason: String

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// A Live Photo's movie found beside its still.
    public struct Pair: Sendable, Hashable {
        /// The still, an item.
        public var still: String
        /// The movie, not an item: the still plays it.
        public var movie: String

        package init(still: String, movie: String) {
            self.still = still
            self.movie = movie
        }
    }

    /// The items, in order: the files given, and each folder's files in natural name order.
    public var items: [String] = []
    /// Which items are clips by their content (sniffed; a file given on its own is not sniffed).
    public var clips: Set<String> = []
    /// Files in folders that cannot be read, in the items' order.
    public var skipped: [Skipped] = []
    /// Live Photo movies left out beside their stills.
    public var pairs: [Pair] = []
    /// Hidden files, sidecars and thumbnails ignored.
    public var ignored = 0
    /// Whether any input was a folder.
    public var hadFolders = false

    /// The one warning for the files left out, or nil when none was:
    /// `3 files cannot be read and are left out: a.gif (not a … (GIF)), notes.pdf (…), …`.
    public var warning: String? {
        guard !skipped.isEmpty else { return nil }
        let shown = skipped.prefix(5).map { "\($0.path) (\($0.reason))" }.joined(separator: ", ")
        let more = skipped.count > 5 ? ", and \(skipped.count - 5) more" : ""
        return "\(skipped.count) file\(skipped.count == 1 ? "" : "s") cannot be read and \(skipped.count == 1 ? "is" : "are") left out: \(shown)\(more)"
    }
}

/// Lists the photos and clips of inputs that may be folders (see ``MediaListing``).
public enum MediaFolder {
    /// Sidecar and thumbnail extensions, lowercased: never items, never warned about.
    public static let ignoredExtensions: Set<String> = ["xmp", "aae", "thm", "lrv", "json", "ini", "db", "txt", "md", "pp3", "dop", "xml", "lrf", "mie"]
    /// File names ignored whatever their extension.
    public static let ignoredNames: Set<String> = ["Thumbs.db", "desktop.ini", "ZbThumbnail.info"]
    /// Folders not walked: thumbnail caches (hidden ones, `.thumbnails`, are ignored as hidden).
    public static let ignoredFolders: Set<String> = ["@eaDir", "__MACOSX", "Thumbnails", "thumbnails", "#recycle"]

    /// What a file's first bytes say it is.
    package enum Kind { case photo, clip, other(String) }

    /// Lists the inputs' items.
    /// - Parameters:
    ///   - inputs: files and folders, in order.
    ///   - excluding: a path never listed from a folder (the show's own output, which may be inside it).
    /// - Returns: the listing; a file named on its own is always an item.
    public static func list(_ inputs: [String], excluding: String? = nil) -> MediaListing {
        var listing = MediaListing()
        let excluded = excluding.flatMap(FileIdentity.init(path:))
        for input in inputs {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue else {
                listing.items.append(input)
                continue
            }
            listing.hadFolders = true
            var visited: [FileIdentity] = []
            var files: [String] = []
            walk(input, into: &files, ignored: &listing.ignored, visited: &visited)
            files.sort { PhotoOrder.naturalCompare($0, $1) == .orderedAscending }
            if let excluded { files.removeAll { FileIdentity(path: $0) == excluded } }
            // Sniffed in parallel: a few bytes each.
            let kinds = parallelMap(files) { sniff($0) }
            // Stills by folder and base name, for their Live Photo movies.
            var stills: [String: String] = [:]
            for (file, kind) in zip(files, kinds) {
                if case .photo = kind { stills[baseKey(file)] = stills[baseKey(file)] ?? file }
            }
            for (file, kind) in zip(files, kinds) {
                switch kind {
                case .photo:
                    listing.items.append(file)
                case .clip:
                    if (file as NSString).pathExtension.lowercased() == "mov", let still = stills[baseKey(file)] {
                        listing.pairs.append(MediaListing.Pair(still: still, movie: file))
                    } else {
                        listing.items.append(file)
                        listing.clips.insert(file)
                    }
                case .other(let reason):
                    listing.skipped.append(MediaListing.Skipped(path: file, reason: reason))
                }
            }
        }
        return listing
    }

    /// The folder and the name without its extension: a still and its Live Photo movie share it.
    private static func baseKey(_ path: String) -> String {
        (path as NSString).deletingPathExtension
    }

    /// The files under `folder`, depth first; symbolic links to folders are followed once each.
    private static func walk(_ folder: String, into files: inout [String], ignored: inout Int, visited: inout [FileIdentity]) {
        if let identity = FileIdentity(path: folder) {
            if visited.contains(identity) { return }
            visited.append(identity)
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            let path = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if name.hasPrefix(".") || ignoredNames.contains(name) {
                ignored += 1
            } else if isFolder.boolValue {
                if ignoredFolders.contains(name) { ignored += 1 } else { walk(path, into: &files, ignored: &ignored, visited: &visited) }
            } else if ignoredExtensions.contains((name as NSString).pathExtension.lowercased()) {
                ignored += 1
            } else {
                files.append(path)
            }
        }
    }

    /// A file's kind from its first bytes (``FormatSniffer``), or why it cannot be read.
    package static func sniff(_ path: String) -> Kind {
        let bytes: [UInt8]
        do {
            bytes = try PhotoFile.read(path, limit: 64).bytes
        } catch where error.kind == .tooLarge {
            // Over a photo's cap: a long clip, when its bytes say so.
            guard let handle = FileHandle(forReadingAtPath: path), let head = try? handle.read(upToCount: 64) else {
                return .other(error.reason)
            }
            try? handle.close()
            return isMovie(Array(head)) ? .clip : .other(error.reason)
        } catch {
            return .other(error.reason)
        }
        switch FormatSniffer.sniff(bytes) {
        case .supported(.video): return .clip
        case .supported: return .photo
        case .other(let name):
            if isMovie(bytes) { return .clip }
            return .other(FormatSniffer.problem(for: name).reason)
        }
    }

    /// MP4, QuickTime or Matroska/WebM by their first bytes.
    private static func isMovie(_ bytes: [UInt8]) -> Bool {
        if case .other(let name?) = FormatSniffer.sniff(bytes) {
            return ["MP4/ISO media", "QuickTime movie", "Matroska/WebM video"].contains(name)
        }
        // A QuickTime file without `ftyp` (older cameras) starts with `moov`, `mdat`, `wide` or `free`.
        guard bytes.count >= 8 else { return false }
        let box = String(decoding: bytes[4..<8], as: UTF8.self)
        return ["moov", "mdat", "wide", "free", "skip"].contains(box)
    }
}

/// `transform` over `items` on every core, the results in the items' order.
package func parallelMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
    guard items.count > 1 else { return items.map(transform) }
    let results = ResultSlots<R>(count: items.count)
    DispatchQueue.concurrentPerform(iterations: items.count) { index in
        results.set(index, transform(items[index]))
    }
    return results.values
}

/// One slot per result, each written once by one task.
private final class ResultSlots<R: Sendable>: @unchecked Sendable {
    // @unchecked: `slots` is only touched under `lock`.
    private var slots: [R?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: R) { lock.withLock { slots[index] = value } }
    var values: [R] { lock.withLock { slots.map { $0! } } }
}
