package import CFFmpeg
import Glibc
import SlideshowSupport

/// libavfilter, loaded when the first filter graph is built rather than with the tool.
///
/// Only two things build filter graphs: the deinterlacer (`bwdif`, interlaced camera clips) and
/// the GIF preview (`palettegen`, `paletteuse`). Linking libavfilter loaded it, and the 26
/// libraries only it needs (libplacebo, rubberband, flite's voices, …: 10.6 MB resident), into
/// every run. The functions the graphs use are looked up here instead, once a process, from the
/// library of the major version the headers describe (`libavfilter.so.8` for FFmpeg 5.1): its
/// structs are the headers' own. The handle is never closed (the graphs' code lives in it).
///
/// Only ``OwnedFilterGraph`` calls these; nothing else in the package may call an `avfilter_*`,
/// `av_buffersrc_*` or `av_buffersink_*` function directly (it would not link).
package struct FilterLibrary: @unchecked Sendable {
    // @unchecked: C function pointers into a library that stays loaded, set once and never written.
    typealias GraphAlloc = @convention(c) () -> UnsafeMutablePointer<AVFilterGraph>?
    typealias GraphFree = @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterGraph>?>?) -> Void
    typealias GetByName = @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVFilter>?
    typealias CreateFilter = @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFilterContext>?>?, UnsafePointer<AVFilter>?,
                                             UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
                                             UnsafeMutablePointer<AVFilterGraph>?) -> Int32
    typealias Link = @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UInt32, UnsafeMutablePointer<AVFilterContext>?, UInt32) -> Int32
    typealias GraphConfig = @convention(c) (UnsafeMutablePointer<AVFilterGraph>?, UnsafeMutableRawPointer?) -> Int32
    typealias AddFrame = @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?, Int32) -> Int32
    typealias GetFrame = @convention(c) (UnsafeMutablePointer<AVFilterContext>?, UnsafeMutablePointer<AVFrame>?) -> Int32
    typealias TimeBase = @convention(c) (UnsafePointer<AVFilterContext>?) -> AVRational
    typealias Version = @convention(c) () -> UInt32

    /// The file asked of the dynamic loader: the headers' major version.
    package static let fileName = "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"

    let graphAlloc: GraphAlloc
    let graphFree: GraphFree
    let getByName: GetByName
    let createFilter: CreateFilter
    let link: Link
    let graphConfig: GraphConfig
    let addFrame: AddFrame
    let getFrame: GetFrame
    let timeBase: TimeBase

    /// The process's libavfilter, loaded at the first use; the same failure every time after a
    /// failed load.
    static let shared: Result<FilterLibrary, FFmpegError> = Result { () throws(FFmpegError) in try FilterLibrary(fileName: fileName) }

    /// The loaded library.
    /// - Throws: ``FFmpegError`` naming the library and the loader's reason when it cannot be
    ///   loaded, lacks a function, or is another major version than the headers.
    package static func loaded() throws(FFmpegError) -> FilterLibrary { try shared.get() }

    /// Loads `fileName` and looks each function up (tests give another name to see the failure).
    package init(fileName: String) throws(FFmpegError) {
        do throws(SharedLibrary.LoadError) {
            let library = try SharedLibrary(fileName)
            let version = try library.function("avfilter_version", as: Version.self)()
            guard Int(version >> 16) == Int(LIBAVFILTER_VERSION_MAJOR) else {
                throw SharedLibrary.LoadError(call: "dlopen(\(fileName))",
                                              reason: "\(fileName) is libavfilter \(version >> 16).\((version >> 8) & 0xFF), not the \(LIBAVFILTER_VERSION_MAJOR) the tool was built for")
            }
            graphAlloc = try library.function("avfilter_graph_alloc", as: GraphAlloc.self)
            graphFree = try library.function("avfilter_graph_free", as: GraphFree.self)
            getByName = try library.function("avfilter_get_by_name", as: GetByName.self)
            createFilter = try library.function("avfilter_graph_create_filter", as: CreateFilter.self)
            link = try library.function("avfilter_link", as: Link.self)
            graphConfig = try library.function("avfilter_graph_config", as: GraphConfig.self)
            addFrame = try library.function("av_buffersrc_add_frame_flags", as: AddFrame.self)
            getFrame = try library.function("av_buffersink_get_frame", as: GetFrame.self)
            timeBase = try library.function("av_buffersink_get_time_base", as: TimeBase.self)
        } catch {
            throw FFmpegError(call: error.call, code: -ENOSYS, reason: error.reason)
        }
    }
}
