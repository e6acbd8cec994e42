import Foundation
import SlideshowFormats
import SlideshowSupport

/// Captions given as text (`--caption`, a `--captions` file): text, never paths.
///
/// A path keeps every byte (``PathBytes`` carries one that is not UTF-8 as a private-use
/// escape), but a caption is drawn, written to the WebVTT file and to the subtitle track, so
/// a byte that is not text is U+FFFD there, with a warning, never the escape's glyph.
public enum CaptionFile {
    /// The largest `--captions` file read: 16 MiB (a caption a line; a show has at most
    /// 2,592,000 frames, and a caption needs one): a larger file is refused, not read whole.
    public static let maximumBytes = 16 << 20

    /// Why a captions file cannot be read: one line, without the path.
    public struct Problem: Error, Sendable, Equatable {
        public var reason: String
    }

    /// `text` with each ``PathBytes`` escape (a byte that was not UTF-8 on the command line)
    /// as U+FFFD; and whether there was one.
    public static func replacingPathEscapes(_ text: String) -> (text: String, replaced: Bool) {
        guard text.unicodeScalars.contains(where: { PathBytes.escapedByte($0) != nil }) else { return (text, false) }
        var scalars = String.UnicodeScalarView()
        var previousWasEscape = false
        for scalar in text.unicodeScalars {
            if PathBytes.escapedByte(scalar) != nil {
                // One U+FFFD for a run of bad bytes, as a UTF-8 decoder gives for a bad sequence.
                if !previousWasEscape { scalars.append("\u{FFFD}") }
                previousWasEscape = true
            } else {
                scalars.append(scalar)
                previousWasEscape = false
            }
        }
        return (String(scalars), true)
    }

    /// The text of a captions file's bytes: UTF-8, its byte order mark dropped; UTF-16 (little
    /// or big endian) when its byte order mark says so. Bytes that are not text in that
    /// encoding become U+FFFD.
    /// - Returns: the text, and the problem to warn of when bytes were replaced (nil when none were).
    public static func decode(_ bytes: [UInt8]) -> (text: String, problem: String?) {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let little = bytes[0] == 0xFF
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = 2
            while index + 1 < bytes.count {
                let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
                units.append(little ? a | b << 8 : a << 8 | b)
                index += 2
            }
            var scalars = String.UnicodeScalarView()
            var bad = bytes.count % 2 == 1 ? 1 : 0
            var decoder = UTF16()
            var iterator = units.makeIterator()
            loop: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: break loop
                case .error:
                    scalars.append("\u{FFFD}")
                    bad += 1
                }
            }
            if bytes.count % 2 == 1 { scalars.append("\u{FFFD}") }   // a last byte on its own
            return (String(scalars), bad > 0 ? "not UTF-16 text throughout (\(little ? "little" : "big")-endian, by its byte order mark): what is not is shown as \u{FFFD}" : nil)
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        let text = String(decoding: body, as: UTF8.self)
        let valid = String(validating: body, as: UTF8.self) != nil
        return (text, valid ? nil : "not UTF-8 text throughout: the bytes that are not are shown as \u{FFFD}")
    }

    /// A captions file's bytes: a regular file (a FIFO or a device is refused before it is
    /// opened, so it cannot hang the tool) of at most ``maximumBytes``.
    /// - Throws: ``Problem``.
    public static func read(_ path: String) throws(Problem) -> [UInt8] {
        if let what = PhotoFile.nonRegularKind(atPath: path) { throw Problem(reason: "not a regular file (\(what))") }
        guard let descriptor = PhotoFile.openRegular(path) else {
            throw Problem(reason: "cannot be read (\(PhotoFile.describe(errno: errno == 0 ? ENOENT : errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumBytes + 1) ?? Data() else {
            throw Problem(reason: "cannot be read")
        }
        guard data.count <= maximumBytes else {
            throw Problem(reason: "the file is over \(maximumBytes >> 20) MiB, the most a captions file may be")
        }
        return [UInt8](data)
    }
}
