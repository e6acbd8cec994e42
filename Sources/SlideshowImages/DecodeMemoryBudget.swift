import Foundation

/// A process-wide budget for the memory of HEIF and AVIF decodes in flight.
///
/// HEVC has no reduced-scale decode, so a 12 MP HEIC costs libheif and its decoder about
/// 50 MB however small its slide is, and two slides prepared at once would hold two. libheif
/// already decodes a grid photo's tiles on every core, so running the decodes one after
/// another costs little time and keeps one such photo's memory alive instead of two. A decode
/// waits until its estimate fits in what the others in flight leave; one larger than the whole
/// budget runs when nothing else holds any.
package final class DecodeMemoryBudget: Sendable {
    /// The budget for all HEIF/AVIF decodes in flight: 64 MiB, one 12 MP photo.
    package static let shared = DecodeMemoryBudget(bytes: 64 << 20)

    /// What a decode of `pixels` coded pixels holds at its peak: libheif's 4:2:0 planes and
    /// the decoder's pictures, about 4 bytes a pixel (measured: 12 MP, 50 MB over the
    /// process's baseline); 8 bytes above 8 bits.
    package static func estimate(pixels: Int, deep: Bool) -> Int { pixels * (deep ? 8 : 4) }

    package let bytes: Int
    private let condition = NSCondition()
    /// Bytes held by decodes in flight; read and written only under `condition`.
    nonisolated(unsafe) private var held = 0

    package init(bytes: Int) { self.bytes = bytes }

    /// Runs `body` once `cost` fits in the budget, holding `cost` while it runs.
    package func withBudget<T, E: Error>(_ cost: Int, _ body: () throws(E) -> T) throws(E) -> T {
        condition.lock()
        while held > 0 && held + cost > bytes { condition.wait() }
        held += cost
        condition.unlock()
        defer {
            condition.lock()
            held -= cost
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// Bytes held by decodes in flight now (for tests).
    package var inFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return held
    }
}
