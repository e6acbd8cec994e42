import Testing
@testable import SlideshowKit
import SlideshowPixels
import SlideshowWriter

/// Issue 25: the encoder's pictures take their planes from a pool (``PicturePool``) instead
/// of fresh pages every frame.
@Suite("The encoder's picture buffers: reused, released, never shared")
struct PicturePoolTests {
    static let size = Size(width: 96, height: 54)

    static func gradient(_ offset: Int) -> PixelBuffer {
        let count = size.width * size.height * 3
        return PixelBuffer(size: size, pixels: (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + offset) })
    }

    @Test("one picture at a time: the pool allocates one buffer, and every picture reuses it")
    func reused() throws {
        let converter = try ColorConverter(size: Self.size)
        var first: UnsafeRawPointer?
        for k in 0..<10 {
            let picture = try converter.convert(Self.gradient(k))
            if let first { #expect(picture.storage == first) } else { first = picture.storage }
        }
        #expect(converter.pool.made == 1)
    }

    @Test("pictures held at once have buffers of their own; released, the buffers come back")
    func neverShared() throws {
        let converter = try ColorConverter(size: Self.size)
        var held = try (0..<3).map { try converter.convert(Self.gradient($0 * 40)) }
        #expect(Set(held.map(\.storage)).count == 3)
        #expect(converter.pool.made == 3)
        // Converting more while they are held does not touch their pixels.
        let before = held.map(\.planes)
        _ = try converter.convert(Self.gradient(200))
        #expect(held.map(\.planes) == before)
        #expect(converter.pool.made == 4)
        let addresses = Set(held.map(\.storage))
        held.removeAll()
        let again = try converter.convert(Self.gradient(1))
        #expect(addresses.contains(again.storage) || converter.pool.made == 4)
        #expect(converter.pool.made == 4)
    }

    @Test("a reused buffer holds the new picture only: the same planes as a fresh converter's")
    func overwritten() throws {
        let converter = try ColorConverter(size: Self.size)
        _ = try converter.convert(Self.gradient(90))
        let reused = try converter.convert(Self.gradient(3))
        let fresh = try ColorConverter(size: Self.size).convert(Self.gradient(3))
        #expect(converter.pool.made == 1)
        #expect(reused.planes == fresh.planes)
    }

    @Test("a picture the encoder was given returns to the pool once both let go")
    func releasedByEncoder() throws {
        let converter = try ColorConverter(size: Self.size)
        let encoder = try H264Encoder(settings: VideoSettings(size: Self.size), globalHeader: true)
        for k in 0..<8 {
            let picture = try converter.convert(Self.gradient(k * 9))
            #expect(try encoder.send(picture.frame, pts: Int64(k), forceKey: k == 0))
            while try encoder.receive({ _ in }) == .packet {}
        }
        try encoder.sendEndOfStream()
        while try encoder.receive({ _ in }) != .endOfStream {}
        // x264 copies each picture in; libavcodec lets go of the frame once it has, so the
        // buffer went back every time (at most one extra while the encoder held a reference).
        #expect(converter.pool.made <= 2)
    }
}
