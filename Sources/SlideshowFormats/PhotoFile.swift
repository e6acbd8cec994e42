#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SlideshowSupport

/// Reads a photo's bytes safely: only regular files, never more than a cap.
///
/// The file is checked with `stat` *before* it is opened, because opening a FIFO blocks until
/// a writer appears and reading a device such as `/dev/zero` never ends. It is then opened
/// with `O_NONBLOCK` and checked again with `fstat` (the path may have been swapped between
/// the two calls), and read up to ``maximumBytes``.
package enum PhotoFile {
    /// The most bytes a photo file may have: 256 MiB.
    ///
    /// Far above any camera JPEG (a 100-megapixel JPEG is 30 to 60 MB) or a sensible PNG;
    /// it keeps a mistaken path (a video, a disk image) from ballooning memory.
    package static let maximumBytes = 256 << 20

    /// The size of a file `stat` describes, when it is a regular file of 1 to ``maximumBytes`` bytes.
    /// - Throws: `PhotoError` `.unreadable` (not a regular file), `.empty` or `.tooLarge`.
    private static func readableSize(_ info: stat, _ path: String) throws(PhotoError) -> Int {
        if let what = nonRegularKind(info.st_mode) {
            throw PhotoError(path: path, kind: .unreadable, reason: "not a regular file (\(what))")
        }
        let size = Int(info.st_size)
        if size == 0 {
            throw PhotoError(path: path, kind: .empty, reason: "the file is empty (0 bytes)")
        }
        if size > maximumBytes {
            throw tooLarge(path, size: size)
        }
        return size
    }

    /// Reads a whole photo file, or at most `limit` bytes from its start.
    /// - Parameters:
    ///   - path: the path as the user gave it, bytes that are not UTF-8 escaped as
    ///     ``PathBytes`` says; errors carry it unchanged.
    ///   - limit: how many bytes to read at most; nil reads the whole file.
    /// - Returns: the bytes read and the file's full size.
    /// - Throws: `PhotoError` `.notFound`, `.unreadable` (not a regular file, no permission,
    ///   read error), `.empty` (zero bytes) or `.tooLarge` (over ``maximumBytes``).
    package static func read(_ path: String, limit: Int? = nil) throws(PhotoError) -> (bytes: [UInt8], fileSize: Int) {
        if limit != nil { ReadProbe.current?.photoHeaders.add(1, ordering: .relaxed) }
        let file = try PhotoFileReader(path)
        try file.read(upTo: limit ?? file.fileSize)
        return (file.bytes, file.fileSize)
    }

    /// Opens a regular photo file as ``read(_:limit:)`` does: `stat` first, then `open` with
    /// `O_NONBLOCK` and `fstat`. - Returns: the descriptor (the caller's to close) and the file's size.
    fileprivate static func openChecked(_ path: String) throws(PhotoError) -> (descriptor: Int32, fileSize: Int) {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR:
                throw PhotoError(path: path, kind: .notFound, reason: "no such file")
            default:
                throw PhotoError(path: path, kind: .unreadable, reason: "cannot read the file (\(describe(errno: code)))")
            }
        }
        _ = try readableSize(info, path)

        // O_NONBLOCK: should the path have become a FIFO since the stat, opening returns at once.
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw PhotoError(path: path, kind: .notFound, reason: "no such file") }
            throw PhotoError(path: path, kind: .unreadable, reason: "cannot open the file (\(describe(errno: code)))")
        }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else {
            let code = errno
            close(descriptor)
            throw PhotoError(path: path, kind: .unreadable, reason: "cannot read the file (\(describe(errno: code)))")
        }
        do {
            return (descriptor, try readableSize(opened, path))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The error for a file over ``maximumBytes``; its size rounds up, so it never reads as the cap itself.
    private static func tooLarge(_ path: String, size: Int) -> PhotoError {
        PhotoError(path: path, kind: .tooLarge,
                   reason: "the file is \((size + (1 << 20) - 1) >> 20) MiB, over the \(maximumBytes >> 20) MiB cap for a photo")
    }

    /// What the file at a path is, in words, when it is there but not a regular file (a folder,
    /// a FIFO, a device); nil for a regular file or no file. `stat`, never `open`: opening a
    /// FIFO blocks until a writer comes.
    package static func nonRegularKind(atPath path: String) -> String? {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        return nonRegularKind(info.st_mode)
    }

    /// A regular file opened for reading (`O_NONBLOCK`, so that a path swapped for a FIFO since
    /// it was looked at cannot block, then checked with `fstat`); nil for anything else, or no file.
    /// The caller owns the descriptor.
    package static func openRegular(_ path: String) -> Int32? {
        let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, nonRegularKind(info.st_mode) == nil else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Whether the path names a regular file (through symbolic links).
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return PathBytes.withCString(path, { stat($0, &info) }) == 0 && nonRegularKind(info.st_mode) == nil
    }

    /// Nil for a regular file; otherwise what the file is, in words.
    private static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }

    /// The C library's message for an errno value.
    package static func describe(errno code: Int32) -> String {
        guard let message = strerror(code) else { return "errno \(code)" }
        return String(cString: message)
    }
}

/// `read(2)`, under a name that does not clash with ``PhotoFile/read(_:limit:)``.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(descriptor, buffer, count)
    #elseif canImport(Musl)
    return Musl.read(descriptor, buffer, count)
    #else
    return Darwin.read(descriptor, buffer, count)
    #endif
}

/// A photo file opened once and read in parts: its first bytes, then, only when the format
/// needs them (a HEIF's boxes, a header longer than the prefix), the rest, from the same
/// opening. Owned: the descriptor it opened is closed once, in deinit.
package final class PhotoFileReader {
    package let path: String
    /// The file's size when it was opened.
    package let fileSize: Int
    private let descriptor: Int32
    /// The bytes read so far, from the file's start.
    package private(set) var bytes: [UInt8] = []
    /// Whether the file's end was reached (it may have shrunk since it was opened).
    package private(set) var atEnd = false

    /// Opens the file (see ``PhotoFile/read(_:limit:)``).
    /// - Throws: `PhotoError` `.notFound`, `.unreadable`, `.empty` or `.tooLarge`.
    package init(_ path: String) throws(PhotoError) {
        ReadProbe.current?.photoOpens.add(1, ordering: .relaxed)
        self.path = path
        (descriptor, fileSize) = try PhotoFile.openChecked(path)
    }

    deinit { close(descriptor) }

    /// Whether every byte of the file has been read.
    package var isWhole: Bool { atEnd || bytes.count >= fileSize }

    /// Reads on until ``bytes`` holds `limit` bytes (or the file ends).
    /// - Throws: `PhotoError` `.unreadable` for a read error, `.empty` when the file holds nothing.
    package func read(upTo limit: Int) throws(PhotoError) {
        let wanted = min(fileSize, limit) - bytes.count
        guard wanted > 0, !atEnd else { return }
        var failure: Int32 = 0
        var reachedEnd = false
        let more = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
            count = 0
            while count < wanted {
                let got = systemRead(descriptor, buffer.baseAddress! + count, wanted - count)
                if got > 0 {
                    count += got
                } else if got == 0 {
                    reachedEnd = true
                    break  // the file shrank since fstat: keep what there is
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 {
            throw PhotoError(path: path, kind: .unreadable, reason: "cannot read the file (\(PhotoFile.describe(errno: failure)))")
        }
        if bytes.isEmpty { bytes = more } else { bytes += more }
        atEnd = reachedEnd
        if bytes.isEmpty {
            throw PhotoError(path: path, kind: .empty, reason: "the file is empty (0 bytes)")
        }
    }

    /// Reads the rest of the file. - Returns: the whole file's bytes.
    package func readWhole() throws(PhotoError) -> [UInt8] {
        try read(upTo: fileSize)
        return bytes
    }
}
