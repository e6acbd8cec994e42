import Foundation

/// The files a manifest's jobs write and read, to refuse before anything renders a manifest in
/// which two jobs write one file, or a job writes a file that a job reads (its own or another's
/// photo or music, which `--overwrite` would replace with MP4 data).
///
/// Paths are compared as files, not as spellings, under every key that names the file
/// (``identities(of:)``); and as bytes, not as Swift strings: a name in NFC and the same name
/// in NFD are canonically equivalent strings but two different files on Linux.
struct ManifestFiles {
    /// A key under which a path names a file: bytes, compared exactly.
    typealias Key = [UInt8]

    /// Each output's keys, to the job that writes it.
    private var outputs: [Key: (job: Int, spelled: String)] = [:]
    /// Each input's keys, with the job that reads it and what it is to that job.
    private var inputs: [(job: Int, role: String, keys: [Key])] = []

    /// Records a job's output.
    /// - Parameters:
    ///   - spelled: the output as the manifest spells it, for the message.
    ///   - path: the output resolved against the manifest's folder.
    ///   - job: the job's index.
    /// - Returns: the problem when an earlier job writes the same file.
    mutating func addOutput(_ spelled: String, at path: String, job: Int) -> ManifestError? {
        let keys = Self.identities(of: path)
        if let first = keys.compactMap({ outputs[$0] }).first {
            return ManifestError(job: job, field: "output", reason: "job \(first.job) writes \(spelled) too")
        }
        for key in keys { outputs[key] = (job, spelled) }
        return nil
    }

    /// Records the files a job reads: its photos and its music, resolved against the manifest's folder.
    mutating func addInputs(photos: [String], audio: String?, job: Int) {
        for (index, path) in photos.enumerated() where !path.isEmpty && !Message.hasNUL(path) {
            inputs.append((job, "photo \(index)", Self.identities(of: path)))
        }
        if let audio, !audio.isEmpty, !Message.hasNUL(audio) {
            inputs.append((job, "its music", Self.identities(of: audio)))
        }
    }

    /// The outputs that are a job's input: one problem for each, on the job that writes it.
    func outputsRead() -> [ManifestError] {
        inputs.compactMap { input in
            guard let output = input.keys.lazy.compactMap({ outputs[$0] }).first else { return nil }
            let reader = input.job == output.job ? "this job" : "job \(input.job)"
            return ManifestError(job: output.job, field: "output", reason: "\(output.spelled) is read by \(reader) (\(input.role)): no job may write a file a job reads")
        }
    }

    /// The keys under which a path is the same file as another: its absolute path with `.` and
    /// `..` removed; when its folder exists, the folder's device and inode with the file's name
    /// (so a folder reached through a symbolic link is the same folder); and when the file
    /// exists, its own device and inode (so a hard or symbolic link to it is the same file).
    static func identities(of path: String) -> [Key] {
        var keys = [Array(URL(fileURLWithPath: path).standardizedFileURL.path.utf8)]
        let name = (path as NSString).lastPathComponent
        var parent = (path as NSString).deletingLastPathComponent
        if parent.isEmpty { parent = "." }
        var info = stat()
        if !name.isEmpty, name != ".", name != "..", stat(parent, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            keys.append(Array("\u{0}\(info.st_dev):\(info.st_ino)/".utf8) + Array(name.utf8))
        }
        if stat(path, &info) == 0 {
            keys.append(Array("\u{0}\u{0}\(info.st_dev):\(info.st_ino)".utf8))
        }
        return keys
    }
}
