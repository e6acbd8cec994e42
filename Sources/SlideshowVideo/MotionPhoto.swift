import Foundation
import Synchronization
internal import CFFmpeg
import SlideshowFFmpeg
import SlideshowFormats
import SlideshowPixels
import SlideshowSupport

/// The video a motion photo carries, found by reading the photo's structure; the video's
/// bytes are then read in place (``ClipSource/byteRange``), never copied out.
public struct MotionPhotoVideo: Sendable, Hashable {
    /// How the video was found.
    public enum Kind: Sendable, Hashable {
        /// Samsung and Google HEIC: an `mpvd` box after the HEIF boxes.
        case heifMotionPhotoBox
        /// Google JPEG: XMP `Container:Directory`, the video item's length counted from the end.
        case googleContainer
        /// Older Google/Samsung JPEG: XMP `GCamera:MicroVideoOffset`, counted from the end.
        case microVideoOffset
        /// Samsung JPEG: the MP4 after the `MotionPhoto_Data` marker of the SEF trailer.
        case samsungTrailer
        /// Apple Live Photo: a QuickTime movie beside the photo.
        case livePhotoMovie
    }

    public var kind: Kind
    /// The video (a byte range of the photo, or a whole movie file for a Live Photo).
    public var source: ClipSource
    /// The still's moment in the video, in microseconds, when the photo states it.
    public var presentationTimestampMicroseconds: Int64?
}

/// Finds motion photos' videos.
public enum MotionPhoto {
    /// What a photo's structure says of an embedded video.
    package enum Embedded: Equatable {
        /// A video: how it was found, its byte range in the photo, the still's moment.
        case video(MotionPhotoVideo.Kind, Range<Int64>, timestamp: Int64?)
        /// The structure says there is a video (or cannot be walked), but its numbers are
        /// impossible: a box or offset outside the file, a video cut short. The reason.
        case damaged(String)
        /// No embedded video.
        case none
    }

    /// Where a photo's motion is, from its structure alone (nothing is decoded); nil for a plain
    /// still, and for a photo whose structure is damaged (``clip(for:limits:warnings:)`` warns of it).
    public static func locate(photo path: String) -> MotionPhotoVideo? {
        if case .success(let video)? = search(photo: path) { return video }
        return nil
    }

    /// What the photo holds: its video, the damage found where a video should be, or nothing.
    package static func search(photo path: String) -> Result<MotionPhotoVideo, Damage>? {
        // Only a regular file is opened: a FIFO would block the open (and the read) for ever.
        guard let descriptor = PhotoFile.openRegular(path) else { return livePhotoMovie(for: path).map { .success($0) } }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? file.close() }
        guard let size = try? file.seekToEnd(), size > 16, let fileSize = Int64(exactly: size) else { return nil }
        let embedded = embeddedVideo(size: fileSize) { offset, count in
            guard offset >= 0, offset < fileSize, count > 0, (try? file.seek(toOffset: UInt64(offset))) != nil else { return Data() }
            return (try? file.read(upToCount: count)) ?? Data()
        }
        switch embedded {
        case .video(let kind, let range, let timestamp):
            return .success(MotionPhotoVideo(kind: kind, source: ClipSource(path: path, byteRange: range), presentationTimestampMicroseconds: timestamp))
        case .damaged(let reason):
            return livePhotoMovie(for: path).map { .success($0) } ?? .failure(Damage(reason: reason))
        case .none:
            return livePhotoMovie(for: path).map { .success($0) }
        }
    }

    /// Why a photo's embedded video cannot be found.
    package struct Damage: Error, Equatable {
        package var reason: String
    }

    /// The embedded video of a photo of `size` bytes, read through `read(offset, count)` (which
    /// gives at most `count` bytes from `offset`, fewer at the end, none outside the file).
    ///
    /// Every offset, length and size is read from the file, so every sum and difference of
    /// them is checked (``Int64/addingReportingOverflow(_:)``): a value no file can hold (a box
    /// of 2⁶³ − 1 bytes, an offset of −2⁶³) is damage, never a trap. The fuzz target `header`
    /// runs this on every input.
    package static func embeddedVideo(size fileSize: Int64, read: (Int64, Int) -> Data) -> Embedded {
        guard fileSize > 16 else { return .none }
        let head = read(0, 512 * 1024)
        var xmp = XMPMotionFields(head)
        var timestamp = xmp.presentationTimestamp.flatMap { $0 >= 0 ? $0 : nil }
        // HEIF: walk the top-level boxes for `mpvd`.
        if head.count >= 12, head[4..<8] == Data("ftyp".utf8), head[8..<12] != Data("qt  ".utf8) {
            var offset: Int64 = 0
            while fileSize - offset >= 8 {
                let header = read(offset, 16)
                guard header.count >= 8 else { break }
                let type = String(decoding: header[header.startIndex + 4..<header.startIndex + 8].map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
                var boxSize = Int64(header.bigEndian32(at: 0)), headerSize: Int64 = 8
                if boxSize == 1 {
                    guard header.count >= 16 else { return .damaged("its '\(type)' box at byte \(offset) is cut short") }
                    // A 64-bit size over Int64.max is no size a file can have.
                    guard let large = Int64(exactly: header.bigEndian64(at: 8)) else {
                        return .damaged("its '\(type)' box at byte \(offset) says \(header.bigEndian64(at: 8)) bytes, more than any file holds")
                    }
                    boxSize = large
                    headerSize = 16
                }
                if boxSize == 0 { boxSize = fileSize - offset }
                guard boxSize >= headerSize else {
                    return .damaged("its '\(type)' box at byte \(offset) says \(boxSize) bytes, less than its own header")
                }
                // `boxSize <= fileSize - offset`, never `offset + boxSize <= fileSize`: the sum of two numbers read from the file may overflow.
                guard boxSize <= fileSize - offset else {
                    let what = type == "mpvd" ? "its motion photo video is cut short: the 'mpvd' box"
                        : "its '\(type)' box"
                    return .damaged("\(what) at byte \(offset) says \(boxSize) bytes, but the file ends \(fileSize - offset) bytes after it starts")
                }
                if type == "mpvd" {
                    // HEIF keeps its XMP as an item, often at the end of `mdat`, just before this box.
                    if xmp.presentationTimestamp == nil {
                        xmp = XMPMotionFields(read(max(offset - 256 * 1024, 0), Int(min(offset, 256 * 1024))))
                        timestamp = xmp.presentationTimestamp.flatMap { $0 >= 0 ? $0 : nil }
                    }
                    return .video(.heifMotionPhotoBox, offset + headerSize..<offset + boxSize, timestamp: timestamp)
                }
                offset += boxSize   // at most fileSize: checked above
            }
            return .none
        }
        guard head.count >= 2, head[head.startIndex] == 0xFF, head[head.startIndex + 1] == 0xD8 else { return .none }
        // JPEG: the end of the video is the start of Samsung's SEF trailer, when there is one.
        var end = fileSize
        let tail = read(fileSize - 8, 8)
        if tail.count == 8, tail[tail.startIndex + 4..<tail.startIndex + 8] == Data("SEFT".utf8) {
            let directory = Int64(tail.littleEndian32(at: 0))   // at most 2³² − 1: no overflow
            let sefh = fileSize - 8 - directory
            if sefh > 0, read(sefh, 4) == Data("SEFH".utf8) { end = sefh }
        }
        /// The start of a video `distance` bytes before the file's end, when that is inside the file.
        func start(fromEnd distance: Int64) -> Int64? {
            let (start, overflow) = fileSize.subtractingReportingOverflow(distance)
            return !overflow && start > 0 && start < end ? start : nil
        }
        func isMP4(at start: Int64) -> Bool { read(start + 4, 4) == Data("ftyp".utf8) }
        if let length = xmp.containerVideoLength {
            guard let start = start(fromEnd: length) else {
                return .damaged("its XMP says the motion photo video is the last \(length) bytes, but the file has \(fileSize)")
            }
            if isMP4(at: start) { return .video(.googleContainer, start..<end, timestamp: timestamp) }
        }
        if let offset = xmp.microVideoOffset {
            guard let start = start(fromEnd: offset) else {
                return .damaged("its XMP says the motion photo video starts \(offset) bytes before the file's end, outside its \(fileSize) bytes")
            }
            if isMP4(at: start) { return .video(.microVideoOffset, start..<end, timestamp: timestamp) }
        }
        if let marker = findLast(Data("MotionPhoto_Data".utf8), size: end, read: read) {
            let start = marker + 16
            if start < end, isMP4(at: start) { return .video(.samsungTrailer, start..<end, timestamp: timestamp) }
        }
        return .none
    }

    /// A motion photo's video checked as a clip; nil (with a warning) when it is damaged, nil
    /// (without one) for a plain still.
    public static func clip(for photo: String, limits: ClipLimits = .default,
                            warnings: inout [ClipWarning]) -> (video: MotionPhotoVideo, info: ClipInfo)? {
        let video: MotionPhotoVideo
        switch search(photo: photo) {
        case nil: return nil
        case .failure(let damage)?:
            warnings.append(ClipWarning(path: photo, kind: .damagedMotionVideo,
                                        message: "its motion photo video cannot be played (\(damage.reason)): showing the still"))
            return nil
        case .success(let found)?: video = found
        }
        do {
            let info = try ClipProbe.probe(video.source, limits: limits)
            // A video whose frames cannot be decoded is damaged too: try the first one.
            let reader = try ClipReader(source: video.source, size: Size(width: 16, height: 16), framesPerSecond: 1,
                                        duration: MediaTime(value: 1, timescale: 1), limits: limits)
            _ = try reader.nextFrame()
            return (video, info)
        } catch {
            warnings.append(ClipWarning(path: photo, kind: .damagedMotionVideo,
                                        message: "its motion photo video cannot be played (\(error.reason)): showing the still"))
            return nil
        }
    }

    /// An Apple Live Photo's movie: a `.MOV`/`.mov` beside the photo with the same base name,
    /// else one whose content identifier equals the photo's (Apple maker note tag 0x11).
    package static func livePhotoMovie(for photo: String) -> MotionPhotoVideo? {
        let url = URL(fileURLWithPath: photo)
        let folder = url.deletingLastPathComponent()
        let base = url.deletingPathExtension().lastPathComponent
        for ext in ["MOV", "mov", "Mov"] {
            let candidate = folder.appendingPathComponent(base + "." + ext).path
            // Only a regular file: a FIFO named like a movie would block libavformat's open for ever.
            if candidate != photo, PhotoFile.isRegularFile(candidate) {
                return MotionPhotoVideo(kind: .livePhotoMovie, source: ClipSource(path: candidate), presentationTimestampMicroseconds: nil)
            }
        }
        guard let identifier = appleContentIdentifier(photo: photo),
              let movie = moviesByIdentifier(in: folder.path)[identifier] else { return nil }
        return MotionPhotoVideo(kind: .livePhotoMovie, source: ClipSource(path: movie), presentationTimestampMicroseconds: nil)
    }

    /// Each folder's movies by content identifier, as last scanned, with the folder's
    /// modification time then (a file added, removed or renamed changes it, and the folder is
    /// scanned again).
    private static let scannedFolders = Mutex<[String: (modified: timespec, movies: [String: String])]>([:])

    /// The `*.mov` files of a folder by their content identifier (the first in name order for
    /// an identifier two share), each movie opened once however many photos ask: a folder of
    /// P photos and M movies costs M opens, not P × M. Only regular files are opened.
    package static func moviesByIdentifier(in folder: String) -> [String: String] {
        var info = stat()
        let modified = PathBytes.withCString(folder, { stat($0, &info) }) == 0 ? info.st_mtim : timespec()
        if let known = scannedFolders.withLock({ $0[folder] }), known.modified.tv_sec == modified.tv_sec, known.modified.tv_nsec == modified.tv_nsec {
            return known.movies
        }
        var movies: [String: String] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where name.lowercased().hasSuffix(".mov") {
            let movie = (folder as NSString).appendingPathComponent(name)
            guard PhotoFile.isRegularFile(movie), let identifier = movieContentIdentifier(movie), movies[identifier] == nil else { continue }
            movies[identifier] = movie
        }
        scannedFolders.withLock { $0[folder] = (modified, movies) }
        return movies
    }

    /// The photo's content identifier: the Apple maker note's tag 0x11 (`MediaGroupUUID`).
    package static func appleContentIdentifier(photo: String) -> String? {
        guard let descriptor = PhotoFile.openRegular(photo) else { return nil }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? file.close() }
        guard let data = try? file.read(upToCount: 2 * 1024 * 1024),
              let note = data.range(of: Data("Apple iOS\0".utf8))?.lowerBound else { return nil }
        // "Apple iOS\0", version (2 bytes), "MM", then an IFD at note + 14; offsets count from `note`.
        let ifd = note + 14
        guard ifd + 2 <= data.count, data[note + 12] == 0x4D else { return nil }
        let count = Int(data.bigEndian16(at: ifd))
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard at + 12 <= data.count else { break }
            guard data.bigEndian16(at: at) == 0x11, data.bigEndian16(at: at + 2) == 2 else { continue }
            let length = Int(data.bigEndian32(at: at + 4)), offset = note + Int(data.bigEndian32(at: at + 8))
            guard length > 4, offset + length <= data.count else { return nil }
            return String(decoding: data[offset..<offset + length].prefix { $0 != 0 }, as: UTF8.self)
        }
        return nil
    }

    /// A QuickTime movie's `com.apple.quicktime.content.identifier`.
    package static func movieContentIdentifier(_ path: String) -> String? {
        ReadProbe.current?.movieIdentifierReads.add(1, ordering: .relaxed)
        guard let input = try? OwnedInputFormat(ClipSource(path: path)),
              let entry = av_dict_get(input.context.pointee.metadata, "com.apple.quicktime.content.identifier", nil, 0),
              let value = entry.pointee.value else { return nil }
        return String(cString: value)
    }

    /// The offset of the last occurrence of `needle` before `size`, read in 1 MiB chunks from the end.
    private static func findLast(_ needle: Data, size: Int64, read: (Int64, Int) -> Data) -> Int64? {
        let chunk: Int64 = 1 << 20
        var end = size
        while end > 0 {
            let start = max(end - chunk, 0)
            let data = read(start, Int(min(end - start + Int64(needle.count) - 1, size - start)))
            if data.isEmpty { return nil }
            if let found = data.range(of: needle, options: .backwards) { return start + Int64(found.lowerBound - data.startIndex) }
            end = start
        }
        return nil
    }
}

/// The XMP fields motion photos use, read from the photo's first bytes.
package struct XMPMotionFields {
    package var microVideoOffset: Int64?
    package var containerVideoLength: Int64?
    package var presentationTimestamp: Int64?

    package init(_ head: Data) {
        guard let start = head.range(of: Data("<x:xmpmeta".utf8)),
              let end = head.range(of: Data("</x:xmpmeta>".utf8), in: start.upperBound..<head.count) else { return }
        let text = String(decoding: head[start.lowerBound..<end.upperBound], as: UTF8.self)
        microVideoOffset = Self.number(named: "MicroVideoOffset", in: text)
        presentationTimestamp = Self.number(named: "MotionPhotoPresentationTimestampUs", in: text)
            ?? Self.number(named: "MicroVideoPresentationTimestampUs", in: text)
        // The Container directory: the item whose Semantic is MotionPhoto, its Length.
        for item in text.components(separatedBy: "Container:Item").dropFirst() {
            let attributes = item.prefix { $0 != ">" }
            if attributes.contains("Semantic=\"MotionPhoto\""), let length = Self.number(named: "Length", in: String(attributes)), length > 0 {
                containerVideoLength = length
            }
        }
    }

    /// The value of `…:name="123"` (any namespace prefix) or `<…:name>123<`.
    package static func number(named name: String, in text: String) -> Int64? {
        for form in [":\(name)=\"", ":\(name)>"] {
            if let range = text.range(of: form) {
                let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "-" }
                if let value = Int64(digits) { return value }
            }
        }
        return nil
    }
}

fileprivate extension Data {
    func bigEndian16(at offset: Int) -> UInt16 {
        UInt16(self[startIndex + offset]) << 8 | UInt16(self[startIndex + offset + 1])
    }
    func bigEndian32(at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(self[startIndex + offset + $1]) }
    }
    func bigEndian64(at offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 << 8 | UInt64(self[startIndex + offset + $1]) }
    }
    func littleEndian32(at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(self[startIndex + offset + $1]) << (8 * $1) }
    }
}

