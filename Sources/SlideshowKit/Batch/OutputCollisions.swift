import Foundation
import SlideshowSupport

/// The files a manifest's jobs write and read, to refuse before anything renders a manifest in
/// which two jobs write one file, or a job writes a file that a job reads (its own or another's
/// photo or music, which `--overwrite` would replace with MP4 data). A job writes its `output`
/// and, when it asks for one, its `webvtt` file: both count, each against every other
/// (a job's WebVTT file that is its own video, or another job's video or WebVTT file, is refused).
///
/// Outputs are compared with each other as files, not as spellings, under every key that names
/// the file (``FileIdentity/names(of:)``); an output with the inputs by the file's device and inode
/// (an input that does not exist cannot be overwritten), which costs nothing when no output
/// exists yet. Names are compared as bytes, not as Swift strings: a name in NFC and the same
/// name in NFD are canonically equivalent strings but two different files on Linux.
struct ManifestFiles {
    /// A key under which a path names a file: bytes, compared exactly.
    typealias Key = [UInt8]

    /// A file a job writes: the job, the manifest's spelling and the field naming it (`output`, `webvtt`).
    private typealias Written = (job: Int, spelled: String, field: String)
    /// Each output's keys, to the job that writes it.
    private var outputs: [Key: Written] = [:]
    /// The outputs that exist, by their file's device and inode.
    private var existingOutputs: [Key: Written] = [:]
    /// The files the jobs read, as the manifest spells them, with their place in the job
    /// (`photo 2`, `its music`, `its font`); resolved and looked up only when an output exists.
    private var inputs: [(job: Int, role: String, path: String)] = []
    /// The folder relative paths are relative to.
    private let folder: String?

    /// Files for a manifest whose relative paths are relative to `folder`.
    init(relativeTo folder: String?) {
        self.folder = folder
    }

    /// Records a file a job writes: its output, or its WebVTT file.
    /// - Parameters:
    ///   - spelled: the file as the manifest spells it, for the message.
    ///   - path: the file resolved against the manifest's folder.
    ///   - job: the job's index.
    ///   - field: the field that names it: `output` (the default) or `webvtt`.
    /// - Returns: the problem, on `field`, when a file recorded before is the same file: another
    ///   job's (`job 0 writes a.mp4 too`) or this job's own video (`this job writes a.vtt as its output too`).
    mutating func addOutput(_ spelled: String, at path: String, job: Int, field: String = "output") -> ManifestError? {
        var keys = FileIdentity.names(of: path)
        let file = Self.fileKey(of: path)
        if let file { keys.append(file) }
        if let first = keys.compactMap({ outputs[$0] }).first {
            let writer = first.job == job ? "this job writes \(spelled) as its \(first.field) too" : "job \(first.job) writes \(spelled) too"
            return ManifestError(job: job, field: field, reason: writer)
        }
        for key in keys { outputs[key] = (job, spelled, field) }
        if let file { existingOutputs[file] = (job, spelled, field) }
        return nil
    }

    /// Records the files a job reads: its photos, its music, its font file and its captions
    /// file, as the manifest spells them.
    mutating func addInputs(photos: [String], audio: String?, font: String? = nil, captions: String? = nil, job: Int) {
        for (index, path) in photos.enumerated() { inputs.append((job, "photo \(index)", path)) }
        if let audio { inputs.append((job, "its music", audio)) }
        if let font { inputs.append((job, "its font", font)) }
        if let captions { inputs.append((job, "its captions file", captions)) }
    }

    /// The outputs that are a job's input: one problem for each, on the job that writes it.
    func outputsRead() -> [ManifestError] {
        guard !existingOutputs.isEmpty else { return [] }
        return inputs.compactMap { input in
            guard !input.path.isEmpty, !Message.hasNUL(input.path),
                  let file = Self.fileKey(of: BatchManifest.resolve(input.path, in: folder)), let output = existingOutputs[file] else { return nil }
            let reader = input.job == output.job ? "this job" : "job \(input.job)"
            return ManifestError(job: output.job, field: output.field, reason: "\(output.spelled) is read by \(reader) (\(input.role)): no job may write a file a job reads")
        }
    }

    /// The key of an existing file, whatever names it (a hard or symbolic link): its device and
    /// inode; nil when there is no file at the path.
    static func fileKey(of path: String) -> Key? {
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        return Array("\u{0}\u{0}\(info.st_dev):\(info.st_ino)".utf8)
    }
}
