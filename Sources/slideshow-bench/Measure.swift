import Foundation
import Synchronization

/// What one run of a program cost: wall time, CPU time (user + system) and peak resident memory.
struct Cost {
    var wall: Double
    var cpu: Double
    var peakRSS: Int  // bytes
    var status: Int32

    /// Cores busy on average.
    var cores: Double { wall > 0 ? cpu / wall : 0 }
}

/// Runs a program with its output discarded and measures it with `wait4`'s resource usage.
func measure(_ executable: String, _ arguments: [String]) -> Cost {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let start = DispatchTime.now()
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else {
        fatalError("cannot start \(executable)")
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime)
    return Cost(wall: wall, cpu: cpu, peakRSS: Int(usage.ru_maxrss) * 1024, status: (status >> 8) & 0xFF)
}

private func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

/// Runs `body` on a task of its own and waits for its result: the bench is synchronous code
/// that drives the library's async API.
func waitFor<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result?>(nil)
    Task.detached {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// Times a block in this process.
func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now()
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func format(_ seconds: Double) -> String { String(format: "%.3f s", seconds) }
func megabytes(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1e6) }

/// Runs a program and returns what it wrote to stdout and stderr (ffprobe's answers, ffmpeg's `ssim` report).
func capture(_ executable: String, _ arguments: [String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    guard (try? process.run()) != nil else { return "" }
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
}

/// A file's size in bytes (0 when it is missing).
func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}
