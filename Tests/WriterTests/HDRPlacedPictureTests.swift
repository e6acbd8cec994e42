import Testing
import SlideshowPixels
import SlideshowWriter

/// A clip's frame shown as it is reaches the writer as its picture alone and the bars' code
/// values (``HDRPlacedPicture``): the writer makes each row of the frame as it converts, to
/// exactly the planes of the whole frame, however the picture's edges cut the 2x2 chroma blocks.
@Suite("An HDR picture kept apart from its bars converts to the planes of its whole frame")
struct HDRPlacedPictureTests {
    @Test("the same 10-bit planes as the whole frame, code for code", arguments: [
        Rect(x: 3, y: 1, width: 9, height: 7),    // odd edges: blocks half bars, half picture
        Rect(x: 4, y: 2, width: 8, height: 8),    // even edges, the bottom row the frame's
        Rect(x: 0, y: 0, width: 20, height: 9),   // the whole width, one row of bars below
    ])
    func samePlanes(place: Rect) throws {
        let frameSize = Size(width: 20, height: 10)
        let samples = (0..<(place.width * place.height * 3)).map { UInt16(truncatingIfNeeded: $0 &* 40_503 &+ 7_919) }
        let placed = HDRPlacedPicture(picture: HDRPixelBuffer(size: Size(width: place.width, height: place.height), samples: samples),
                                      frameSize: frameSize, place: place, bars: (9_000, 31_000, 52_000))
        let whole = placed.frame()
        // The frame: the bars everywhere, the picture at its place.
        #expect(whole[0, 9] == (place.maxY <= 9 ? (9_000, 31_000, 52_000) : whole[0, 9]))
        #expect(whole[place.x, place.y] == (samples[0], samples[1], samples[2]))
        let converter = try ColorConverter(size: frameSize, hdr: .hlg)
        let fromRows = HDRConversionTests.planes16(try converter.convert(placed), size: frameSize)
        let fromFrame = HDRConversionTests.planes16(try converter.convert(whole), size: frameSize)
        #expect(fromRows == fromFrame)
    }
}
