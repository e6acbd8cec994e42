import Glibc

/// A shared library opened while the tool runs (`dlopen`, `RTLD_NOW | RTLD_LOCAL`) rather than
/// linked, and never closed, so that the functions looked up in it stay valid for the process:
/// what only some shows need (libavfilter's graphs, the face detector with OpenCV) is not
/// loaded into every run.
package struct SharedLibrary: @unchecked Sendable {
    // @unchecked: a handle set once and never closed.
    /// The path or file name it was opened by.
    package let path: String
    private let handle: UnsafeMutableRawPointer

    /// What the dynamic loader refused: its call, naming the library (`dlopen(path)`,
    /// `dlsym(path, name)`), and its own message.
    package struct LoadError: Error, Sendable, Equatable {
        package var call: String
        package var reason: String

        package init(call: String, reason: String) {
            self.call = call
            self.reason = reason
        }
    }

    /// Opens `path`; a file name alone is looked for where the dynamic loader looks.
    /// - Throws: ``LoadError`` when it cannot be loaded.
    package init(_ path: String) throws(LoadError) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadError(call: "dlopen(\(path))", reason: Self.loaderMessage() ?? "\(path) cannot be loaded")
        }
        self.path = path
        self.handle = handle
    }

    /// The function `name`, as `type` (a `@convention(c)` function type matching its C declaration).
    /// - Throws: ``LoadError`` when the library has no such symbol.
    package func function<Function>(_ name: String, as type: Function.Type) throws(LoadError) -> Function {
        guard let address = dlsym(handle, name) else {
            throw LoadError(call: "dlsym(\(path), \(name))", reason: Self.loaderMessage() ?? "\(path) has no \(name)")
        }
        return unsafeBitCast(address, to: type)
    }

    /// The dynamic loader's last message (`dlerror`), if any.
    private static func loaderMessage() -> String? {
        guard let message = dlerror() else { return nil }
        return String(cString: message)
    }
}
