import Dispatch
import Synchronization
import SlideshowAudio
import SlideshowWriter
import SlideshowMix

/// Feeds a show's sound (its music, its clips' sound, or both mixed) to the writer's audio input from its own ready-for-more-data
/// loop, on its own queue, beside the pictures' loop: the input's readiness keeps the sound
/// within a second of the pictures, so only a few chunks of it exist at a time.
final class SoundtrackFeed: @unchecked Sendable {
    // @unchecked: `stream` (which owns the decoder's C objects) is touched only on `queue`,
    // inside the input's block, which never runs twice at once; `error` is behind a Mutex.
    let input: AssetWriterAudioInput
    private let stream: any ShowSound
    private let queue = DispatchQueue(label: "slideshow.audio-feed")
    private let failure = Mutex<AudioError?>(nil)
    /// Whether the loop ended because the writer stopped taking sound.
    private let stopped = Mutex(false)
    /// Frames per appended buffer: 4096 (85 ms).
    static let chunkFrames = 4096

    /// - Parameters:
    ///   - stream: the show's sound: the music alone (``SoundtrackStream``) or mixed with the
    ///     clips' sound (``SoundMix``).
    init(stream: any ShowSound, input: AssetWriterAudioInput) {
        self.stream = stream
        self.input = input
    }

    /// Why the sound stopped, if it failed.
    var error: AudioError? { failure.withLock { $0 } }

    /// Warnings from the decoder, once the feed is done (copied from the stream on its queue
    /// as the loop ends, so that reading them waits for nothing).
    var warnings: [SoundWarning] { ended.withLock { $0 } }
    private let ended = Mutex<[SoundWarning]>([])

    /// Runs the loop until the sound is all appended (true), or the writer stopped or the
    /// sound failed (false; ``error`` says why when the sound failed, and `onFailure` ran).
    func run(onFailure: @escaping @Sendable () -> Void) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            start(done: { [self] in continuation.resume(returning: !stopped.withLock { $0 }) }, failed: {
                onFailure()
                continuation.resume(returning: false)
            })
        }
    }

    /// Starts the loop; `done` is called once, when the input is finished at the end of the
    /// sound or when the writer stopped, or `failed` when the sound cannot go on (``error``
    /// says why).
    func start(done: @escaping @Sendable () -> Void, failed: @escaping @Sendable () -> Void) {
        input.requestMediaDataWhenReady(on: queue) { [self] in
            while input.isReadyForMoreMediaData {
                let chunk: [Float]?
                do throws(AudioError) {
                    chunk = try stream.next(maxFrames: Self.chunkFrames)
                } catch {
                    failure.withLock { $0 = error }
                    ended.withLock { $0 = stream.warnings }
                    failed()
                    return
                }
                guard let chunk else {
                    ended.withLock { $0 = stream.warnings }
                    input.markAsFinished()
                    done()
                    return
                }
                guard input.append(AudioSampleBuffer(samples: chunk)) else {
                    stopped.withLock { $0 = true }
                    ended.withLock { $0 = stream.warnings }
                    input.markAsFinished()
                    done()
                    return
                }
            }
        }
    }
}
