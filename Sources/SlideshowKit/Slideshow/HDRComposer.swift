import Synchronization
import SlideshowColor
import SlideshowPixels
import SlideshowPlan
import SlideshowWriter

/// The pictures of an HDR show with composed frames: a held still once per hold, and every
/// frame of a dissolve (`fade`, `fadeblack`, `fadewhite`) or a fade in or out, mixed in linear
/// light from the photos' HDR slides (``SlideBuilder/hdrStill(_:transfer:)``).
///
/// The HDR counterpart of ``FrameComposer`` for what an HDR show may hold: no motion, no wipes
/// (``Slideshow/checkHDR()`` refuses them). Light mixes as light does: PQ's display light, HLG's
/// scene light (``HDRSignal/mixingLight``). Pictures are made when the writer asks for them,
/// on its feed queue; each photo's slide is made once and dropped when the show has moved past it.
final class HDRComposer: FrameFeed {
    let steps: [FrameComposer.Step]
    private let builder: SlideBuilder
    private let plan: FramePlan
    private let signal: HDRSignal
    private let state = Mutex(State())

    private struct State {
        var slides: [Int: HDRPixelBuffer] = [:]
        var cancelled = false
    }

    init(builder: SlideBuilder, plan: FramePlan, transfer: HDRTransfer) {
        self.builder = builder
        self.plan = plan
        signal = HDRSignal(transfer)
        steps = plan.segments.flatMap { segment -> [FrameComposer.Step] in
            switch segment {
            case .hold(let photo, let frames): [FrameComposer.Step(frame: frames.lowerBound, hold: photo)]
            case .single(_, let frames), .transition(_, let frames): frames.map { FrameComposer.Step(frame: $0, hold: nil) }
            }
        }
    }

    func start() {}

    func take(_ index: Int) -> Result<AppendedPicture, RenderError> {
        guard !state.withLock({ $0.cancelled }), index < steps.count else { return .failure(.cancelled) }
        let step = steps[index]
        do throws(PhotoError) {
            if let photo = step.hold {
                let picture = try slide(photo)
                forget(before: photo)
                return .success(.hdr(picture))
            }
            let recipe = plan.recipe(at: step.frame)
            forget(before: recipe.photo)
            let base = try slide(recipe.photo)
            var mixed = base.samples.map { signal.mixingLight[Int($0)] }
            if let incoming = recipe.incoming {
                let next = try slide(incoming.photo).samples
                mix(&mixed, with: next, effect: incoming.effect, progress: Float(incoming.progress))
            }
            if recipe.visibility < 1 {
                let visibility = Float(recipe.visibility)
                for index in mixed.indices { mixed[index] *= visibility }
            }
            return .success(.hdr(HDRPixelBuffer(size: base.size, samples: mixed.map { signal.code(mixingLight: $0) }, contentRect: base.contentRect)))
        } catch {
            return .failure(.photo(error))
        }
    }

    func release() {}

    func cancel() { state.withLock { $0.cancelled = true } }

    /// The photo's HDR slide, made once.
    private func slide(_ photo: Int) throws(PhotoError) -> HDRPixelBuffer {
        if let made = state.withLock({ $0.slides[photo] }) { return made }
        let made = try builder.hdrStill(photo, transfer: signal.transfer)
        state.withLock { $0.slides[photo] = made }
        return made
    }

    private func forget(before photo: Int) {
        state.withLock { state in state.slides = state.slides.filter { $0.key >= photo } }
    }

    /// Mixes the incoming photo's light into `light` at `progress` (0…1) of a dissolve: straight
    /// across (`fade`), or through black or reference white (the outgoing photo to it in the
    /// first half, the incoming one from it in the second).
    private func mix(_ light: inout [Float], with codes: [UInt16], effect: TransitionEffect, progress: Float) {
        let table = signal.mixingLight
        switch effect {
        case .fadeblack, .fadewhite:
            let through: Float = effect == .fadeblack ? 0 : signal.mixingWhite
            if progress < 0.5 {
                let w = progress * 2
                for index in light.indices { light[index] = light[index] * (1 - w) + through * w }
            } else {
                let w = progress * 2 - 1
                for index in light.indices { light[index] = through * (1 - w) + table[Int(codes[index])] * w }
            }
        default:
            for index in light.indices { light[index] = light[index] * (1 - progress) + table[Int(codes[index])] * progress }
        }
    }
}
