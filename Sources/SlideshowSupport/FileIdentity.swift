import Foundation

/// A file's device and inode, to tell whether two paths name the same file.
package struct FileIdentity: Equatable {
    package var device: UInt64
    package var inode: UInt64

    package init?(path: String) {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The keys under which a path names a file, whether or not it exists (compared as bytes): its
    /// absolute path with `.` and `..` removed, and, when its folder exists, the folder's device
    /// and inode with the file's name (so a folder reached through a symbolic link is the same folder).
    package static func names(of path: String) -> [[UInt8]] {
        var keys = [Array(URL(fileURLWithPath: path).standardizedFileURL.path.utf8)]
        let name = (path as NSString).lastPathComponent
        var parent = (path as NSString).deletingLastPathComponent
        if parent.isEmpty { parent = "." }
        var info = stat()
        if !name.isEmpty, name != ".", name != "..", PathBytes.withCString(parent, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            keys.append(Array("\u{0}\(info.st_dev):\(info.st_ino)/".utf8) + Array(name.utf8))
        }
        return keys
    }
}
