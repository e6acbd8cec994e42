import Glibc
import SlideshowSupport

/// The face detector's shared library, `libSlideshowFaceDetection.so`, loaded when faces are
/// first looked for rather than with the tool.
///
/// OpenCV is reached only through the C shim CFaceDetection (three functions). Linking the shim
/// into the tool mapped OpenCV and the libraries only it needs (15 of them: objdetect, imgproc,
/// core, dnn, protobuf, lapack, blas, gfortran, tbb, …: 8.8 MB resident) into every run, faces
/// or not. The shim is built as a library of its own instead (Package.swift's
/// `SlideshowFaceDetection` product, which nothing links), and is looked up here once a process,
/// beside the executable (``candidates``). The handle is never closed (the cascades' code lives in it).
///
/// Only ``CascadeFaceDetector`` calls these functions.
package struct FaceDetectionLibrary: @unchecked Sendable {
    // @unchecked: C function pointers into a library that stays loaded, set once and never written.
    // The types are CFaceDetection.h's: `sfd_cascade *` is an opaque pointer.
    typealias Open = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    typealias Close = @convention(c) (OpaquePointer?) -> Void
    typealias Detect = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32,
                                       UnsafeMutablePointer<Int32>?, Int32) -> Int32

    /// The library's file name, as SwiftPM names the product.
    package static let fileName = "libSlideshowFaceDetection.so"

    let open: Open
    let close: Close
    let detect: Detect

    /// The process's library, loaded at the first use; the same failure every time after a failed load.
    static let shared: Result<FaceDetectionLibrary, FaceDetectionError> = Result { () throws(FaceDetectionError) in
        try FaceDetectionLibrary(paths: candidates)
    }

    /// The loaded library.
    /// - Throws: ``FaceDetectionError`` naming the library and the loader's reason when it
    ///   cannot be loaded or lacks a function.
    package static func loaded() throws(FaceDetectionError) -> FaceDetectionLibrary { try shared.get() }

    /// Where the library is looked for: beside the executable (`/proc/self/exe`, links
    /// resolved, as `$ORIGIN` is): the tool, the benchmark, or the tests' bundle (on Linux an
    /// executable itself), beside each of which SwiftPM builds it; then in `lib` beside the
    /// executable's folder (`/usr/local/bin` → `/usr/local/lib`), then by its name alone, where
    /// the dynamic loader looks (`LD_LIBRARY_PATH`, the system's folders), as packagers install it.
    package static var candidates: [String] {
        guard let executable = resolvedPath("/proc/self/exe") else { return [fileName] }
        let folder = folder(of: executable)
        return [folder + "/" + fileName, Self.folder(of: folder) + "/lib/" + fileName, fileName]
    }

    /// Loads the first of `paths` that loads, and looks each function up (tests give other
    /// paths to see the failure).
    /// - Throws: ``FaceDetectionError``: the first path's loader message when none loads.
    package init(paths: [String]) throws(FaceDetectionError) {
        var library: SharedLibrary?
        var firstFailure: SharedLibrary.LoadError?
        for path in paths where library == nil {
            do throws(SharedLibrary.LoadError) {
                library = try SharedLibrary(path)
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        do throws(SharedLibrary.LoadError) {
            guard let library else {
                throw firstFailure ?? SharedLibrary.LoadError(call: "dlopen(\(Self.fileName))", reason: "no folder to look for it in")
            }
            open = try library.function("sfd_cascade_open", as: Open.self)
            close = try library.function("sfd_cascade_close", as: Close.self)
            detect = try library.function("sfd_cascade_detect", as: Detect.self)
        } catch {
            throw FaceDetectionError(refusal: error)
        }
    }

    /// A path with its links resolved, or nil.
    private static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

/// The face detection library could not be loaded: what the loader refused, e.g.
/// `dlopen(/usr/local/bin/libSlideshowFaceDetection.so): …: cannot open shared object file: No such file or directory`.
package struct FaceDetectionError: Error, Sendable, Equatable {
    /// The loader's call, naming the library, and its own message.
    package var refusal: SharedLibrary.LoadError

    /// The loader's call, naming the library.
    package var call: String { refusal.call }

    /// One line for the user: what was asked of the loader, why it failed, and the way round it.
    package var message: String {
        "face detection: \(refusal.call): \(refusal.reason) (\(FaceDetectionLibrary.fileName) belongs beside the tool; --framing center does without it)"
    }
}
