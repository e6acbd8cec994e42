import Synchronization

/// Counts what a validation and a render read and lay out, so that tests can hold the
/// library to "once each": bound for a task with `ReadProbe.$current.withValue(probe) { … }`;
/// nil (nothing counted) otherwise.
package final class ReadProbe: Sendable {
    @TaskLocal package static var current: ReadProbe?

    package init() {}

    /// Photo headers read (``PhotoFile`` reads with a limit).
    package let photoHeaders = Atomic<Int>(0)
    /// Photo files opened (``PhotoFileReader``): a header's read and a decode's, each once.
    package let photoOpens = Atomic<Int>(0)
    /// Frame plans laid out.
    package let plans = Atomic<Int>(0)
    /// Times the music's file was opened for checking, measuring or a stream's first pass
    /// (a loop's later passes, on the audio queue, are not counted).
    package let musicOpens = Atomic<Int>(0)
    /// zlib streams inflated (a PNG's compressed text chunks, ``Inflater``).
    package let inflations = Atomic<Int>(0)
    /// Movies opened for their content identifier (the Live Photo scan, ``MotionPhoto``).
    package let movieIdentifierReads = Atomic<Int>(0)
    /// Pictures the render handed to the writer (one per held photo, or per composed frame).
    package let framesAppended = Atomic<Int>(0)
    /// Each time the render's feed loop found it was cancelled and stopped.
    package let feedStops = Atomic<Int>(0)
}
