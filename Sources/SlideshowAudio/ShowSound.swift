/// A show's sound, a chunk at a time, exactly as long as the show: what ``SoundtrackFeed``
/// appends and the loudness meters measure.
package protocol ShowSound: AnyObject {
    /// The next at most `maxFrames` frames (interleaved stereo); nil once the show's length has been given.
    func next(maxFrames: Int) throws(AudioError) -> [Float]?
    /// Warnings for the user, once the sound is done.
    var warnings: [SoundWarning] { get }
}

extension SoundtrackStream: ShowSound {}
