import Foundation
import Synchronization
import SlideshowSupport

/// The file a render writes: a temporary file beside the target, moved into place only when
/// the video is complete.
///
/// A failed or interrupted render never leaves a partial file, and never touches a file
/// already at the target path. Without `overwrite`, the final step is `link(2)`, which
/// fails atomically if a file appeared at the target meanwhile (two renders racing to one
/// path leave one complete file, never a mix); with it, `rename(2)` replaces the target in
/// one step.
///
/// Rules for the target (``check(target:overwrite:)``, run before anything is decoded):
/// - Only a regular file, or nothing, may be at the target; a folder, device, FIFO or socket
///   is refused whatever `overwrite` says.
/// - A symbolic link to a regular file is written through: with `overwrite`, the file it
///   points to is replaced (beside that file) and the link stays. A link to nothing is refused.
/// - Replacing a file keeps its permission bits; a new file gets the umask's, like any file.
/// - The name must fit the file system (`NAME_MAX`) and the path Linux (`PATH_MAX`); the
///   temporary name is shortened (with a hash of the name) so that it fits wherever the
///   target's does, and a folder path too long for the temporary one is reached through the
///   folder's open descriptor.
///
/// The temporary file is `.<name>.slideshow-<pid>-<n>.partial`, locked (`flock`) while its
/// render runs. A render killed outright (SIGKILL, power loss) leaves it behind; the next
/// render to the same target removes every such file whose lock is free and which has not
/// been written for ``staleAge`` seconds: no live render holds it.
package final class OutputFile: Sendable {
    /// The path the user asked for.
    package let target: String
    /// Where the bytes go until ``commit()``: a path the muxer can open.
    package let temporary: String
    private let overwrite: Bool
    /// The target's folder (after following a symbolic link), open for the `*at` calls.
    private let folder: Int32
    /// The target's name in `folder`.
    private let name: String
    /// The temporary file's name in `folder`.
    private let temporaryName: String
    /// The temporary file, open and locked while the render runs.
    private let lock: Int32
    /// Whether the temporary file may still exist (neither committed nor discarded).
    private let open = Mutex(true)

    /// Seconds a temporary file must have gone unwritten, its lock free, before a later render removes it: 2.
    package static let staleAge: TimeInterval = 2

    /// Where a target resolves: its folder and name, and the mode of a file it replaces.
    package struct Destination: Equatable {
        package var folder: String
        package var name: String
        /// The permission bits of the regular file at the target, nil when there is none.
        package var existingMode: mode_t?
        /// The longest name the folder's file system takes (`NAME_MAX`).
        package var nameMax: Int
    }

    /// Checks that a render could write `target`, touching nothing.
    /// - Throws: ``WriterError``: `.invalidPath` (empty, ends in `/`, a name or path too
    ///   long, a symbolic link to nothing), `.noSuchFolder`, `.outputIsFolder`, `.notAFile`
    ///   (a device, FIFO or socket), `.outputExists` (without `overwrite`), `.notWritable`.
    /// - Returns: the folder and name the file will have.
    @discardableResult
    package static func check(target: String, overwrite: Bool) throws(WriterError) -> Destination {
        func refuse(_ kind: WriterError.Kind, _ reason: String) -> WriterError {
            WriterError(path: target, kind: kind, reason: reason)
        }
        guard !target.isEmpty else { throw refuse(.invalidPath, "the output path is empty") }
        let pathMax = Int(PATH_MAX) - 1
        guard PathBytes.byteCount(target) <= pathMax else {
            throw refuse(.invalidPath, "the path is \(PathBytes.byteCount(target)) bytes, longer than the \(pathMax) Linux allows")
        }
        var info = stat()
        if target.hasSuffix("/") {
            if PathBytes.withCString(target, { stat($0, &info) }) == 0 && info.st_mode & S_IFMT == S_IFDIR {
                throw refuse(.outputIsFolder, "is a folder, not a file")
            }
            throw refuse(.invalidPath, "ends in '/', so it names a folder, not a file")
        }
        var resolved = target
        if PathBytes.withCString(target, { lstat($0, &info) }) == 0 && info.st_mode & S_IFMT == S_IFLNK {
            // Written through: the file the link points to is the output.
            guard PathBytes.withCString(target, { stat($0, &info) }) == 0, let real = PathBytes.withCString(target, { realpath($0, nil) }) else {
                let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: target)) ?? "?"
                throw refuse(.invalidPath, "is a symbolic link to \(destination), which does not exist")
            }
            resolved = PathBytes.string(cString: real)
            free(real)
        }
        let (folder, name) = split(resolved)
        if name == "." || name == ".." { throw refuse(.outputIsFolder, "is a folder, not a file") }
        var folderInfo = stat()
        guard PathBytes.withCString(folder, { stat($0, &folderInfo) }) == 0 else {
            let error = errno
            if error == EACCES { throw refuse(.notWritable, "cannot reach folder \(folder) (\(String(cString: strerror(error))))") }
            throw refuse(.noSuchFolder, "folder \(folder) does not exist")
        }
        guard folderInfo.st_mode & S_IFMT == S_IFDIR else { throw refuse(.noSuchFolder, "\(folder) is not a folder") }
        let nameMax = PathBytes.withCString(folder) { pathconf($0, Int32(_PC_NAME_MAX)) }
        let limit = nameMax > 0 ? Int(nameMax) : 255
        if PathBytes.byteCount(name) > limit {
            throw refuse(.invalidPath, "the name is \(PathBytes.byteCount(name)) bytes, longer than the \(limit) the file system allows")
        }
        var existingMode: mode_t? = nil
        if PathBytes.withCString(resolved, { lstat($0, &info) }) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                guard overwrite else { throw refuse(.outputExists, "already exists (replacing it was not asked for)") }
                existingMode = info.st_mode & 0o7777
            case S_IFDIR:
                throw refuse(.outputIsFolder, "is a folder, not a file")
            default:
                throw refuse(.notAFile, "is \(kindName(info.st_mode)), not a regular file; only a regular file can be replaced")
            }
        }
        if PathBytes.withCString(folder, { access($0, W_OK | X_OK) }) != 0 {
            throw refuse(.notWritable, "cannot create files in folder \(folder) (\(String(cString: strerror(errno))))")
        }
        return Destination(folder: folder, name: name, existingMode: existingMode, nameMax: limit)
    }

    /// Checks the target, removes stale temporary files of earlier renders to it, and
    /// creates and locks a temporary file beside it.
    /// - Throws: ``WriterError``: the cases of ``check(target:overwrite:)``, and
    ///   `.notWritable` when the temporary file cannot be created.
    package init(target: String, overwrite: Bool) throws(WriterError) {
        self.target = target
        self.overwrite = overwrite
        let destination = try Self.check(target: target, overwrite: overwrite)
        name = destination.name
        func failure(_ what: String) -> WriterError {
            let error = errno
            return WriterError(path: target, kind: error == ENOSPC || error == EDQUOT ? .diskFull : .notWritable,
                               reason: "\(what) (\(String(cString: strerror(error))))")
        }
        // O_PATH (0o10000000 on x86-64 and ARM Linux; Glibc's module leaves it out): a folder
        // that may be written but not listed opens too.
        folder = PathBytes.withCString(destination.folder) { Foundation.open($0, 0o10_000_000 | O_DIRECTORY | O_CLOEXEC) }
        guard folder >= 0 else { throw failure("cannot open folder \(destination.folder)") }
        let stem = Self.temporaryStem(for: destination.name, nameMax: destination.nameMax)
        Self.removeStale(stem: stem, in: folder)
        temporaryName = "\(stem)\(getpid())-\(Self.counter.next()).partial"
        let folder = folder
        lock = PathBytes.withCString(temporaryName) { openat(folder, $0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666) }
        guard lock >= 0 else {
            let error = failure("cannot create the file")
            close(folder)
            throw error
        }
        // Held until the file is committed or discarded, and by the kernel no longer than this
        // process lives. Where a file system has no locks, stale files are simply never removed.
        _ = flock(lock, LOCK_EX | LOCK_NB)
        if let mode = destination.existingMode { _ = fchmod(lock, mode) }
        let plain = destination.folder + "/" + temporaryName
        temporary = PathBytes.byteCount(plain) < Int(PATH_MAX) ? plain : "/proc/self/fd/\(folder)/\(temporaryName)"
        UnfinishedOutputs.register(temporary)
    }

    deinit {
        discard()
        close(lock)
        close(folder)
    }

    /// Moves the finished temporary file into place.
    /// - Throws: ``WriterError`` `.outputExists` when a file appeared at the target meanwhile
    ///   and overwriting was not asked for; `.diskFull` or `.notWritable` when it cannot be synced.
    package func commit() throws(WriterError) {
        try sync()
        let failure: Int32? = UnfinishedOutputs.withLock { () -> Int32? in
            if overwrite {
                if Self.renameat(folder, temporaryName, name) != 0 { return errno }
            } else {
                if PathBytes.withCString(temporaryName, { from in PathBytes.withCString(name) { linkat(folder, from, folder, $0, 0) } }) != 0 {
                    let error = errno
                    // Where hard links are not supported, fall back to an existence check and rename.
                    guard error == EPERM || error == ENOTSUP || error == EXDEV else { return error }
                    var existing = stat()
                    if PathBytes.withCString(name, { fstatat(folder, $0, &existing, AT_SYMLINK_NOFOLLOW) }) == 0 { return EEXIST }
                    if Self.renameat(folder, temporaryName, name) != 0 { return errno }
                    return nil
                }
                _ = PathBytes.withCString(temporaryName) { unlinkat(folder, $0, 0) }
            }
            return nil
        }
        if let failure {
            discard()
            if failure == EEXIST {
                throw WriterError(path: target, kind: .outputTaken, reason: "already exists (another render wrote it first)")
            }
            throw WriterError(path: target, kind: .notWritable, reason: String(cString: strerror(failure)))
        }
        open.withLock { $0 = false }
        UnfinishedOutputs.unregister(temporary)
    }

    /// Removes the temporary file, if it is still there. Safe from any thread; the writer
    /// may still hold it open, which is harmless once it is unlinked.
    package func discard() {
        guard open.withLock({ (open: inout Bool) -> Bool in defer { open = false }; return open }) else { return }
        _ = PathBytes.withCString(temporaryName) { unlinkat(folder, $0, 0) }
        UnfinishedOutputs.unregister(temporary)
    }

    /// Flushes the temporary file to the disk, so the renamed file is complete even after a crash.
    private func sync() throws(WriterError) {
        if fsync(lock) != 0 {
            let error = errno
            throw WriterError(path: target, kind: error == ENOSPC ? .diskFull : .notWritable, reason: String(cString: strerror(error)))
        }
    }

    // MARK: Names

    /// The start of every temporary name for a target name, up to the PID:
    /// `.<name>.slideshow-`, with the name cut short and a hash of it added when the whole
    /// temporary name would not fit in the file system's longest name (`NAME_MAX`, 255 bytes on
    /// most).
    package static func temporaryStem(for name: String, nameMax: Int = 255) -> String {
        // The longest tail: ".slideshow-" + a PID (at most 10 digits) + "-" + a counter (at most 20) + ".partial".
        let tailMax = ".slideshow-".utf8.count + 10 + 1 + 20 + ".partial".utf8.count
        let room = nameMax - 1 - tailMax
        if name.utf8.count <= room { return ".\(name).slideshow-" }
        // FNV-1a over the whole name, so that two long names with one prefix stay apart.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digest = String(hash, radix: 16)
        let suffix = "~" + String(repeating: "0", count: 16 - digest.count) + digest
        var prefix = Substring(name)
        while prefix.utf8.count > max(0, room - suffix.utf8.count) { prefix = prefix.dropLast() }
        return ".\(prefix)\(suffix).slideshow-"
    }

    /// Removes the temporary files `<stem><pid>-<n>.partial` in a folder that no render holds:
    /// their lock is free and they have not been written for ``staleAge`` seconds.
    /// - Returns: the names removed.
    @discardableResult
    package static func removeStale(stem: String, in folder: Int32) -> [String] {
        let listing = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard listing >= 0, let directory = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            return []
        }
        defer { closedir(directory) }
        var removed: [String] = []
        while let entry = readdir(directory) {
            // The name in place, up to its NUL: readdir's entry is only as long as its record
            // (d_reclen), so copying the whole 256-byte d_name can read past the end of the
            // listing's buffer (it did, in a large /tmp).
            let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let entryName = PathBytes.string(cString: (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self))
            guard entryName.hasPrefix(stem), entryName.hasSuffix(".partial") else { continue }
            let middle = entryName.dropFirst(stem.count).dropLast(".partial".count).split(separator: "-", omittingEmptySubsequences: false)
            guard middle.count == 2, middle.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { continue }
            let file = PathBytes.withCString(entryName) { openat(folder, $0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
            guard file >= 0 else { continue }
            defer { close(file) }
            var info = stat(), now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                  Double(now.tv_sec - info.st_mtim.tv_sec) >= staleAge,
                  flock(file, LOCK_EX | LOCK_NB) == 0 else { continue }
            // Still the file that was locked (not replaced under the name meanwhile)?
            var current = stat()
            guard PathBytes.withCString(entryName, { fstatat(folder, $0, &current, AT_SYMLINK_NOFOLLOW) }) == 0,
                  current.st_ino == info.st_ino, current.st_dev == info.st_dev else { continue }
            if PathBytes.withCString(entryName, { unlinkat(folder, $0, 0) }) == 0 { removed.append(entryName) }
        }
        return removed
    }

    /// `renameat(2)` of one name to another in one folder, both as ``PathBytes`` says.
    private static func renameat(_ folder: Int32, _ from: String, _ to: String) -> Int32 {
        PathBytes.withCString(from) { from in PathBytes.withCString(to) { Foundation.renameat(folder, from, folder, $0) } }
    }

    /// The folder and the last component of a path (`.` for a bare name).
    package static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// "a character device", "a FIFO", … for a `st_mode`.
    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "something else"
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
package enum UnfinishedOutputs {
    private static let paths = Mutex<Set<String>>([])

    /// Removes every temporary file of a render still under way. Safe to call from any thread.
    package static func removeAll() {
        paths.withLock { paths in
            for path in paths { _ = PathBytes.withCString(path) { unlink($0) } }
            paths.removeAll()
        }
    }

    package static func register(_ path: String) { paths.withLock { _ = $0.insert(path) } }
    package static func unregister(_ path: String) { paths.withLock { _ = $0.remove(path) } }
    package static func withLock<T>(_ body: () -> T) -> T { paths.withLock { _ in body() } }
}
