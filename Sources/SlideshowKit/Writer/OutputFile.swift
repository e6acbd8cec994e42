import Foundation
import Synchronization

/// The file a render writes: a temporary file beside the target, moved into place only when
/// the video is complete.
///
/// A failed or interrupted render never leaves a partial file, and never touches a file
/// already at the target path. Without `overwrite`, the final step is `link(2)`, which
/// fails atomically if a file appeared at the target meanwhile (two renders racing to one
/// path leave one complete file, never a mix); with it, `rename(2)` replaces the target in
/// one step.
final class OutputFile: Sendable {
    /// The path the user asked for.
    let target: String
    /// Where the bytes go until ``commit()``.
    let temporary: String
    private let overwrite: Bool
    /// Whether the temporary file may still exist (neither committed nor discarded).
    private let open = Mutex(true)

    /// Checks the target and picks a temporary path beside it.
    /// - Throws: ``WriterError`` `.noSuchFolder`, `.outputIsFolder`, `.outputExists`.
    init(target: String, overwrite: Bool) throws(WriterError) {
        self.target = target
        self.overwrite = overwrite
        let url = URL(fileURLWithPath: target)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw WriterError(path: target, kind: .noSuchFolder, reason: "folder \(folder) does not exist")
        }
        if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder) {
            if isFolder.boolValue {
                throw WriterError(path: target, kind: .outputIsFolder, reason: "is a folder, not a file")
            }
            if !overwrite {
                throw WriterError(path: target, kind: .outputExists, reason: "already exists (replacing it was not asked for)")
            }
        }
        temporary = folder + "/." + url.lastPathComponent + ".slideshow-\(getpid())-\(Self.counter.next()).partial"
        UnfinishedOutputs.register(temporary)
    }

    deinit { discard() }

    /// Moves the finished temporary file into place.
    /// - Throws: ``WriterError`` `.outputExists` when a file appeared at the target meanwhile
    ///   and overwriting was not asked for; `.diskFull` or `.notWritable` when it cannot be synced.
    func commit() throws(WriterError) {
        try sync()
        let failure: Int32? = UnfinishedOutputs.withLock { () -> Int32? in
            if overwrite {
                if rename(temporary, target) != 0 { return errno }
            } else {
                if link(temporary, target) != 0 {
                    let error = errno
                    // Where hard links are not supported, fall back to an existence check and rename.
                    guard error == EPERM || error == ENOTSUP || error == EXDEV else { return error }
                    if access(target, F_OK) == 0 { return EEXIST }
                    if rename(temporary, target) != 0 { return errno }
                    return nil
                }
                unlink(temporary)
            }
            return nil
        }
        if let failure {
            discard()
            if failure == EEXIST {
                throw WriterError(path: target, kind: .outputExists, reason: "already exists (another render wrote it first)")
            }
            throw WriterError(path: target, kind: .notWritable, reason: String(cString: strerror(failure)))
        }
        open.withLock { $0 = false }
        UnfinishedOutputs.unregister(temporary)
    }

    /// Removes the temporary file, if it is still there. Safe from any thread; the writer
    /// may still hold it open, which is harmless once it is unlinked.
    func discard() {
        guard open.withLock({ (open: inout Bool) -> Bool in defer { open = false }; return open }) else { return }
        unlink(temporary)
        UnfinishedOutputs.unregister(temporary)
    }

    /// Flushes the temporary file to the disk, so the renamed file is complete even after a crash.
    private func sync() throws(WriterError) {
        let descriptor = Foundation.open(temporary, O_RDONLY)
        guard descriptor >= 0 else {
            throw WriterError(path: target, kind: .notWritable, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 {
            let error = errno
            throw WriterError(path: target, kind: error == ENOSPC ? .diskFull : .notWritable, reason: String(cString: strerror(error)))
        }
    }

    private static let counter = Counter()

    private final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int { value.withLock { $0 += 1; return $0 } }
    }
}

/// The temporary files of the renders under way in this process.
///
/// A program that stops on a signal calls ``removeAll()`` before it exits, so an
/// interrupted render leaves nothing behind. Moving a finished file into place holds the
/// same lock, so a signal either finds the temporary file (and removes it) or a complete output.
public enum UnfinishedOutputs {
    private static let paths = Mutex<Set<String>>([])

    /// Removes every temporary file of a render still under way. Safe to call from any thread.
    public static func removeAll() {
        paths.withLock { paths in
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }

    /// The temporary files now registered (for tests).
    public static var count: Int { paths.withLock { $0.count } }

    static func register(_ path: String) { paths.withLock { _ = $0.insert(path) } }
    static func unregister(_ path: String) { paths.withLock { _ = $0.remove(path) } }
    static func withLock<T>(_ body: () -> T) -> T { paths.withLock { _ in body() } }
}
