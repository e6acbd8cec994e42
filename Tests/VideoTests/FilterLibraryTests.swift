import Testing
import SlideshowFFmpeg
import SlideshowVideo

/// libavfilter is not linked: it is loaded when the first filter graph is built (the
/// deinterlacer's, the GIF's), so that a run that needs none does not load it and the 26
/// libraries only it needs.
@Suite("libavfilter: loaded at the first filter graph, one error naming it when it cannot be")
struct FilterLibraryTests {
    @Test("the headers' major version is loaded and builds a graph")
    func loads() throws {
        #expect(FilterLibrary.fileName == "libavfilter.so.8")
        _ = try FilterLibrary.loaded()
        let graph = try OwnedFilterGraph()
        _ = try graph.filter("buffersink", name: "out", arguments: nil)
    }

    @Test("a library that cannot be loaded is named, with the loader's reason")
    func missing() {
        let error = #expect(throws: FFmpegError.self) { try FilterLibrary(fileName: "libavfilter.so.99") }
        #expect(error?.call == "dlopen(libavfilter.so.99)")
        #expect(error.map { "\($0)" } == "dlopen(libavfilter.so.99): libavfilter.so.99: cannot open shared object file: No such file or directory")
    }

    @Test("a library without the functions is named with the one it lacks")
    func notLibavfilter() {
        let error = #expect(throws: FFmpegError.self) { try FilterLibrary(fileName: "libavutil.so.57") }
        #expect(error.map { "\($0)".hasPrefix("dlsym(libavutil.so.57, avfilter_version): ") } == true, "\(String(describing: error))")
    }
}
