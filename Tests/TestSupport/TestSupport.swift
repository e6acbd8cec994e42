import Foundation
import Testing

/// Where the tests find things outside the package: the shared photos, ffprobe, the built tool.
public enum TestEnvironment {
    /// The package's root folder (the one holding Package.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `../shared/photos` beside the checkout, or nil in a user's fresh clone that lacks it.
    public static let sharedPhotos = sharedFolder("photos")

    /// `../shared/clips` beside the checkout (clips, motion photos, music), or nil when absent.
    public static let sharedClips = sharedFolder("clips")

    /// The path of a shared clip; nil when `../shared` is absent.
    public static func sharedClip(_ name: String) -> String? {
        sharedClips?.appendingPathComponent(name).path
    }

    /// `../shared/<name>` beside the checkout when it has its MANIFEST.tsv, else nil.
    private static func sharedFolder(_ name: String) -> URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/\(name)")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.tsv").path) ? url : nil
    }

    /// The path of a shared photo; nil when `../shared` is absent.
    public static func sharedPhoto(_ name: String) -> String? {
        sharedPhotos?.appendingPathComponent(name).path
    }

    /// The names of the shared photos that start with a prefix, sorted; empty when `../shared` is absent.
    public static func sharedPhotos(prefix: String) -> [String] {
        guard let folder = sharedPhotos,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The message a test prints when it skips for want of the shared photos.
    public static let noSharedPhotos: Comment = "skipped: ../shared/photos is absent (a fresh clone); the test needs the shared photos"

    /// The project's own sample photos.
    public static func sample(_ name: String) -> String {
        packageRoot.appendingPathComponent("Samples/photos").appendingPathComponent(name).path
    }

    /// The products folder of the build that is running the tests: the folder that holds the
    /// test bundle (`.build/<triple>/<config>/slideshowPackageTests.xctest`), where SwiftPM also
    /// puts the executables it built with it.
    ///
    /// Read from `/proc/self/exe`, the running test binary itself, never from names found by
    /// walking up the tree: a clone named `slideshow` is a directory with the x bit.
    public static let productsDirectory: URL = {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent()
    }()

    /// The built tool named `name` in the products folder of this test run.
    public static func builtTool(_ name: String) -> Result<String, BuiltToolProblem> {
        builtTool(name, in: productsDirectory)
    }

    /// The built tool named `name` in `folder`: a regular file that is executable, or why not.
    /// Nothing outside `folder` is looked at.
    public static func builtTool(_ name: String, in folder: URL) -> Result<String, BuiltToolProblem> {
        let path = folder.appendingPathComponent(name).path
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(.missing(path: path)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile(path: path)) }
        guard access(path, X_OK) == 0 else { return .failure(.notExecutable(path: path)) }
        return .success(path)
    }
}

/// The trait of every suite that runs the built `slideshow`: without the tool its tests are
/// skipped, and the one test `toolIsBuilt()` (CLITests) fails, saying where the tool was expected.
public let needsBuiltTool: ConditionTrait = .enabled(
    if: (try? TestEnvironment.builtTool("slideshow").get()) != nil,
    "the built tool is missing: see the failure of toolIsBuilt()")

/// Why the built tool cannot be run from the tests.
public enum BuiltToolProblem: Error, Equatable, CustomStringConvertible {
    /// Nothing at the expected path.
    case missing(path: String)
    /// The path names a directory, FIFO or device, not a program.
    case notARegularFile(path: String)
    /// A regular file without execute permission.
    case notExecutable(path: String)

    public var description: String {
        let reason = switch self {
        case .missing(let path): "no built tool at \(path)"
        case .notARegularFile(let path): "\(path) is not a regular file"
        case .notExecutable(let path): "\(path) is not executable"
        }
        return "\(reason); build it with `swift build --build-tests` (or `make test`), which puts the tool beside the test bundle"
    }
}

/// A folder of its own for one test, removed when the value goes away.
public final class TemporaryFolder: @unchecked Sendable {
    // @unchecked: the only state is an immutable URL.
    /// The folder.
    public let url: URL

    /// Creates a fresh, empty folder under the system's temporary folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("slideshow-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names of the files in the folder, sorted.
    public func contents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The result of running a program.
public struct ProcessResult: Sendable {
    /// The exit status (or 128 + signal).
    public var status: Int32
    /// What it wrote on standard output.
    public var stdout: Data
    /// What it wrote on standard error, as text.
    public var stderr: String
    /// Standard output as text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}

/// Runs a program to its end and collects its output.
/// - Parameters:
///   - timeout: seconds after which the program is killed (SIGKILL, status 137), so that a test
///     of "does not hang" fails instead of hanging; nil waits for ever.
///   - currentDirectory: the program's working folder; this process's by default.
@discardableResult
public func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
                timeout: Double? = nil, currentDirectory: URL? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = input
    try process.run()
    let watchdog = timeout.map { seconds in
        let pid = process.processIdentifier
        let item = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: item)
        return item
    }
    defer { watchdog?.cancel() }
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try? input.fileHandleForWriting.close()
    // Read both pipes concurrently so neither fills up and blocks the child.
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    return ProcessResult(status: status, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
}

/// What ``runMeasuringMemory(_:_:)`` saw of a program's run.
public struct MeasuredRun: Sendable {
    /// The exit status (or 128 + signal).
    public var status: Int32
    /// The program's peak resident set size (GNU time's `%M`), in bytes.
    public var peakResidentBytes: Int
    /// What it wrote on standard error.
    public var stderr: String
}

/// Runs a program to its end under GNU time (`/usr/bin/time -f %M`), which reports the
/// program's own peak resident memory.
///
/// Not `wait4`'s `ru_maxrss` on a child the test runner spawns: when a process execs, Linux
/// records the peak of the memory it had before into its `maxrss`, and a child made by
/// `posix_spawn` (or `fork`) starts with the runner's memory, so the figure would be the
/// runner's peak (600 MB in a full test run) rather than the program's. GNU time is a small
/// process, so the program it starts begins small.
/// - Throws: ``ProbeError/noGNUTime`` when `/usr/bin/time` is missing (`make deps` installs it).
public func runMeasuringMemory(_ executable: String, _ arguments: [String]) throws -> MeasuredRun {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { throw ProbeError.noGNUTime }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("slideshow-time-\(UUID().uuidString)").path
    defer { unlink(report) }
    let result = try run(time, ["-f", "%M", "-o", report, executable] + arguments)
    // The last line is %M in KiB; a line before it may say "Command exited with non-zero status 1".
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    guard let kibibytes = text.split(separator: "\n").last.flatMap({ Int($0) }) else {
        throw ProbeError.unreadable("GNU time wrote \(text)")
    }
    return MeasuredRun(status: result.status, peakResidentBytes: kibibytes * 1024, stderr: result.stderr)
}

/// Finds a program on the PATH.
public func which(_ name: String) -> String? {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(folder)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// What ffprobe, the independent reader, says of a video file.
public struct ProbedVideo: Sendable {
    /// `format.duration`, as ffprobe prints it (e.g. "3.000000").
    public var formatDuration: String
    /// The video stream's `duration`.
    public var streamDuration: String
    /// Frames counted by decoding (`-count_frames`).
    public var decodedFrames: Int
    /// The stream's `codec_name`, `profile`, `pix_fmt`, `width`, `height`, `r_frame_rate`,
    /// `avg_frame_rate`, `color_range`, `color_space`, `color_transfer`, `color_primaries`,
    /// `has_b_frames`.
    public var stream: [String: String]

    /// Reads a file with ffprobe.
    public init(path: String) throws {
        guard let ffprobe = which("ffprobe") else { throw ProbeError.noFFprobe }
        let result = try run(ffprobe, ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                       "-show_entries", "format=duration:stream", "-of", "json", path])
        guard result.status == 0,
              let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
              let format = json["format"] as? [String: Any],
              let streams = json["streams"] as? [[String: Any]], let stream = streams.first
        else { throw ProbeError.unreadable(result.stderr) }
        formatDuration = format["duration"] as? String ?? ""
        streamDuration = stream["duration"] as? String ?? ""
        decodedFrames = Int(stream["nb_read_frames"] as? String ?? "") ?? -1
        var fields: [String: String] = [:]
        for (key, value) in stream {
            if let text = value as? String { fields[key] = text } else if let number = value as? NSNumber { fields[key] = number.stringValue }
        }
        self.stream = fields
    }
}

/// Why ffprobe could not read a file.
public enum ProbeError: Error {
    /// ffprobe is not installed.
    case noFFprobe
    /// GNU time (`/usr/bin/time`, Debian's `time` package) is not installed.
    case noGNUTime
    /// ffprobe failed, with its message.
    case unreadable(String)
}

/// Decodes frames of a video with ffmpeg into raw pixels.
public enum FrameDecoder {
    /// Every frame of the first video stream as `pixelFormat` ("gray", "rgb24" or "yuv420p"), one `Data` a frame.
    public static func frames(of path: String, pixelFormat: String, width: Int, height: Int) throws -> [Data] {
        guard let ffmpeg = which("ffmpeg") else { throw ProbeError.noFFprobe }
        let result = try run(ffmpeg, ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
        guard result.status == 0 else { throw ProbeError.unreadable(result.stderr) }
        let frameBytes: Int
        switch pixelFormat {
        case "gray": frameBytes = width * height
        case "rgb24": frameBytes = width * height * 3
        case "yuv420p": frameBytes = width * height * 3 / 2
        default: fatalError("unsupported pixel format \(pixelFormat)")
        }
        let data = result.stdout
        return stride(from: 0, to: data.count - frameBytes + 1, by: frameBytes).map { offset in
            data.subdata(in: offset..<offset + frameBytes)
        }
    }
}

/// The mean absolute difference of two equally long byte strings (decoded frames, planes).
public func meanAbsoluteDifference(_ a: Data, _ b: Data) -> Double {
    precondition(a.count == b.count)
    var total = 0
    a.withUnsafeBytes { a in
        b.withUnsafeBytes { b in
            for index in 0..<a.count { total += abs(Int(a[index]) - Int(b[index])) }
        }
    }
    return Double(total) / Double(max(a.count, 1))
}

/// A deterministic random source (SplitMix64), so that a fuzz failure or a shuffle reproduces.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Writes a JSON-array manifest of `jobs` (each a JSON object's text) into a folder.
/// - Returns: its path.
public func writeManifest(_ jobs: [String], in folder: TemporaryFolder, name: String = "jobs.json") throws -> String {
    let path = folder.path(name)
    try Data("[\n\(jobs.joined(separator: ",\n"))\n]\n".utf8).write(to: URL(fileURLWithPath: path))
    return path
}
