import Testing
@testable import SlideshowKit
import SlideshowColor
import SlideshowLooks
import SlideshowPixels

/// A look that changes each pixel by its own values (sepia) on an HDR clip's picture alone, a
/// row at a time (``HDRClipLook/apply(toPicture:)``), gives the code values the whole frame's
/// two passes give (``HDRClipLook/apply(to:)``), and ``HDRClipLook/bars(_:)`` the bars' ones.
@Suite("The HDR clip look a row at a time: the whole frame's code values")
struct HDRClipLookRowTests {
    @Test("sepia on the picture alone equals sepia on the frame, highlights and bars included", arguments: HDRTransfer.allCases)
    func sameCodes(transfer: HDRTransfer) {
        let signal = HDRSignal(transfer)
        let (frameSize, place) = (Size(width: 24, height: 12), Rect(x: 5, y: 2, width: 13, height: 9))
        let bars = HDRSlide.codes(of: RGBColor(red: 40, green: 90, blue: 160), signal: signal)
        // The picture: flat runs, ramps and highlights far above reference white.
        var picture = HDRPixelBuffer(size: Size(width: place.width, height: place.height))
        picture.withUnsafeMutableBufferPointer { samples in
            for i in 0..<samples.count { samples[i] = i % 7 < 2 ? 30_000 : UInt16(truncatingIfNeeded: i &* 9_973 &+ 1_201) }
        }
        var frame = HDRPlacedPicture(picture: picture, frameSize: frameSize, place: place, bars: bars).frame()
        #expect(Looks.sepia.isPixelwise && !Looks.vignette.isPixelwise && LookChain([Looks.sepia]).isPixelwise)
        let look = { (buffer: inout PixelBuffer) in Looks.sepia.apply(to: &buffer, slideIndex: 0) }
        HDRClipLook(signal: signal, blur: false, pixelwise: true, look: look).apply(to: &frame)
        let rows = HDRClipLook(signal: signal, blur: false, pixelwise: true, look: look)
        #expect(rows.rowByRow)
        rows.apply(toPicture: &picture)
        let placed = HDRPlacedPicture(picture: picture, frameSize: frameSize, place: place, bars: rows.bars(bars)).frame()
        #expect(placed.samples == frame.samples)
    }
}
