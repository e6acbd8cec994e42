import Foundation
import SlideshowColor
import SlideshowCompositor
import SlideshowPixels

/// A look and blur fill on an HDR clip's frame, as they apply to a gain-mapped photo: the look
/// tints the SDR base, which the gain then lifts.
///
/// Each frame is split like a gain-mapped photo: its base is its SDR rendition (each channel's
/// display light in BT.709, clipped to reference white: what an SDR screen shows of it), its
/// gain the ratio of its light to that base (1 in the SDR range, above 1 only in the
/// highlights). The base, in 8-bit sRGB, goes through the SDR look exactly as an SDR clip's
/// frame does; the result is lifted again by the same gain. So the SDR range of the clip looks
/// as the look makes an SDR picture look, and a highlight keeps its ratio over the tinted
/// white (a sepia look's white, lifted, is a bright sepia, not a bright white). Blur fill is made
/// from the base and stays at SDR light, as a photo's blurred bars do.
///
/// One per clip on screen, reused frame after frame: the base (8-bit, what the look needs whole)
/// and a byte a pixel marking the highlights are kept; the gain is not stored but computed
/// again from the frame's own code values for the highlights alone, and the lifted light is
/// encoded a row at a time, so no frame of floating-point light is ever made.
///
/// `@unchecked Sendable`: made with its clip's player and then used only by the composer's one
/// thread, one frame after another (as ``ClipPlayer`` is); no two threads touch its buffers at once.
final class HDRClipLook: @unchecked Sendable {
    /// BT.2020 to BT.709 primaries, linear light (the inverse of ``HDRSignal/bt709ToBT2020``).
    static let bt2020ToBT709: [Float] = [1.660491, -0.587641, -0.072850,
                                         -0.124550, 1.132900, -0.008349,
                                         -0.018151, -0.100579, 1.118730]

    /// Linear light 0…1 in 4096 steps → sRGB byte.
    static let sRGBBytes: [UInt8] = (0...4096).map { step in
        let x = Double(step) / 4096
        let c = x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
        return UInt8(max(0, min(255, (c * 255).rounded())))
    }

    private let signal: HDRSignal
    private let blur: Bool
    private let look: (inout PixelBuffer) -> Void
    /// Whether the look changes each pixel by its own values alone and there is no blur fill:
    /// a frame's picture can then take it a row at a time (``apply(toPicture:)``).
    let rowByRow: Bool
    /// The frame's SDR base in sRGB bytes, then looked at: kept for the next frame.
    private var base: PixelBuffer?
    /// A bit a pixel (pixel `i` is bit `i % 8` of byte `i / 8`), set where its display light is
    /// over reference white in some channel (its gain is not 1).
    private var highlights: [UInt8] = []
    /// One row's distinct runs of lifted BT.2020 light, three floats each, before they are encoded.
    private var row: [Float] = []
    /// For each pixel of the row, its run in ``row``; and the runs' code values.
    private var slots: [Int32] = []
    private var rowCodes: [UInt16] = []

    /// - Parameters:
    ///   - signal: the show's light.
    ///   - blur: whether blur fill draws the bars.
    ///   - look: the SDR look, applied to the base.
    ///   - pixelwise: whether the look changes each pixel by its own values alone (``Look/isPixelwise``).
    init(signal: HDRSignal, blur: Bool, pixelwise: Bool = false, look: @escaping (inout PixelBuffer) -> Void) {
        self.signal = signal
        self.blur = blur
        self.look = look
        rowByRow = pixelwise && !blur
    }

    /// The display light in BT.709 of the pixel whose samples start at `codes[o]`, in reference
    /// whites, not below 0 (each channel above 1 is the gain of a highlight).
    @inline(__always)
    private static func display(_ codes: UnsafePointer<UInt16>, _ o: Int, light: UnsafePointer<Float>, hlg: Bool,
                                hlgScale: Float, exponent: Float, toSDR m: UnsafePointer<Float>) -> (Float, Float, Float) {
        var (r, g, b) = (light[Int(codes[o])], light[Int(codes[o + 1])], light[Int(codes[o + 2])])
        if hlg {
            let ys = 0.2627 * r + 0.6780 * g + 0.0593 * b
            let factor = ys > 0 ? pow(ys, exponent) * hlgScale : 0
            (r, g, b) = (r * factor, g * factor, b * factor)
        }
        return (max(0, m[0] * r + m[1] * g + m[2] * b), max(0, m[3] * r + m[4] * g + m[5] * b), max(0, m[6] * r + m[7] * g + m[8] * b))
    }

    /// What lifts a tinted row back to HDR: the tables and buffers both passes share
    /// (``apply(to:)`` over the whole frame, ``apply(toPicture:)`` a row at a time).
    private struct RowLifter {
        let light: UnsafePointer<Float>, toSDR: UnsafePointer<Float>, linear: UnsafePointer<Float>, toHDR: [Float]
        let hlg: Bool, hlgScale: Float, exponent: Float
        let signal: HDRSignal
        /// The row's distinct runs in BT.2020 light, which run each pixel is, and the runs' code values.
        let lifted: UnsafeMutablePointer<Float>, slots: UnsafeMutablePointer<Int32>, encoded: UnsafeMutablePointer<UInt16>

        /// The tinted row lifted by the gain where `gained(x)` (computed again from the row's code
        /// values), in BT.2020 light, then encoded over `codes`. A pixel with no gain and the same
        /// tinted bytes as the one before has the same codes: only the row's distinct runs are encoded.
        @inline(__always)
        func lift(_ tinted: UnsafePointer<UInt8>, over codes: UnsafeMutablePointer<UInt16>, width: Int, gained: (Int) -> Bool) {
            var runs = 0
            var lastKey = -1
            for x in 0..<width {
                let o = x * 3
                let gained = gained(x)
                let key = Int(tinted[o]) << 16 | Int(tinted[o + 1]) << 8 | Int(tinted[o + 2])
                if !gained && key == lastKey {
                    slots[x] = Int32(runs - 1)
                    continue
                }
                var (r, g, b) = (linear[Int(tinted[o])], linear[Int(tinted[o + 1])], linear[Int(tinted[o + 2])])
                if gained {
                    // The gain: the light above the clipped base (1 in the SDR range).
                    let gain = HDRClipLook.display(UnsafePointer(codes), o, light: light, hlg: hlg, hlgScale: hlgScale,
                                                   exponent: exponent, toSDR: toSDR)
                    r *= max(1, gain.0); g *= max(1, gain.1); b *= max(1, gain.2)
                }
                let l = runs * 3
                lifted[l] = toHDR[0] * r + toHDR[1] * g + toHDR[2] * b
                lifted[l + 1] = toHDR[3] * r + toHDR[4] * g + toHDR[5] * b
                lifted[l + 2] = toHDR[6] * r + toHDR[7] * g + toHDR[8] * b
                slots[x] = Int32(runs)
                runs += 1
                lastKey = gained ? -1 : key
            }
            signal.encode(lifted, pixels: runs, into: encoded)
            for x in 0..<width {
                let (o, e) = (x * 3, Int(slots[x]) * 3)
                (codes[o], codes[o + 1], codes[o + 2]) = (encoded[e], encoded[e + 1], encoded[e + 2])
            }
        }
    }

    /// Applies the look (and blur fill) to an HDR frame whose content rectangle holds the clip, in place.
    func apply(to picture: inout HDRPixelBuffer) {
        let (width, height) = (picture.width, picture.height)
        let pixels = width * height
        let hlg = signal.transfer == .hlg
        let hlgScale = Float(HDRSignal.peak / HDRSignal.referenceWhite), exponent = Float(HDRSignal.hlgGamma - 1)
        let content = picture.contentRect
        var base = self.base ?? PixelBuffer(size: picture.size)
        self.base = nil
        if highlights.count != (pixels + 7) / 8 { highlights = [UInt8](repeating: 0, count: (pixels + 7) / 8) }
        if row.count != width * 3 { row = [Float](repeating: 0, count: width * 3) }
        let light = signal.mixingLight
        let toSDR = Self.bt2020ToBT709, toHDR = HDRSignal.bt709ToBT2020, sRGB = Self.sRGBBytes
        // The base bytes, and where the gain is not 1.
        light.withUnsafeBufferPointer { light in
            toSDR.withUnsafeBufferPointer { toSDR in
                sRGB.withUnsafeBufferPointer { sRGB in
                    picture.withUnsafeBytes { raw in
                        let codes = raw.bindMemory(to: UInt16.self).baseAddress!
                        base.withUnsafeMutableBufferPointer { bytes in
                            highlights.withUnsafeMutableBufferPointer { marks in
                                var highlight = false
                                for pixel in 0..<pixels {
                                    let o = pixel &* 3
                                    // A pixel of the same code values as the one before (the bars, flat
                                    // areas) has the same base and gain: copied, not computed again.
                                    if pixel == 0 || codes[o] != codes[o - 3] || codes[o + 1] != codes[o - 2] || codes[o + 2] != codes[o - 1] {
                                        let values = Self.display(codes, o, light: light.baseAddress!, hlg: hlg, hlgScale: hlgScale,
                                                                  exponent: exponent, toSDR: toSDR.baseAddress!)
                                        bytes[o] = sRGB[Int(min(1, values.0) * 4096 + 0.5)]
                                        bytes[o + 1] = sRGB[Int(min(1, values.1) * 4096 + 0.5)]
                                        bytes[o + 2] = sRGB[Int(min(1, values.2) * 4096 + 0.5)]
                                        highlight = values.0 > 1 || values.1 > 1 || values.2 > 1
                                    } else {
                                        (bytes[o], bytes[o + 1], bytes[o + 2]) = (bytes[o - 3], bytes[o - 2], bytes[o - 1])
                                    }
                                    let bit = UInt8(1) << UInt8(pixel & 7)
                                    if highlight {
                                        marks[pixel >> 3] |= bit
                                    } else {
                                        marks[pixel >> 3] &= ~bit
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        base.contentRect = content
        look(&base)
        if blur { BlurredBackdrop.fill(&base) }
        let linear = HDRSignal.sRGBLinear
        // Row by row: the tinted base lifted by the gain where the marks say it is not 1 (``RowLifter``).
        if slots.count != width { slots = [Int32](repeating: 0, count: width) }
        if rowCodes.count != width * 3 { rowCodes = [UInt16](repeating: 0, count: width * 3) }
        base.withUnsafeBytes { raw in
            let tinted = raw.bindMemory(to: UInt8.self).baseAddress!
            light.withUnsafeBufferPointer { light in
                toSDR.withUnsafeBufferPointer { toSDR in
                    linear.withUnsafeBufferPointer { linear in
                        highlights.withUnsafeBufferPointer { marks in
                            row.withUnsafeMutableBufferPointer { lifted in
                                slots.withUnsafeMutableBufferPointer { slots in
                                    rowCodes.withUnsafeMutableBufferPointer { encoded in
                                        picture.withUnsafeMutableBufferPointer { samples in
                                            let codes = samples.baseAddress!
                                            let lifter = RowLifter(light: light.baseAddress!, toSDR: toSDR.baseAddress!, linear: linear.baseAddress!, toHDR: toHDR,
                                                                   hlg: hlg, hlgScale: hlgScale, exponent: exponent, signal: signal,
                                                                   lifted: lifted.baseAddress!, slots: slots.baseAddress!, encoded: encoded.baseAddress!)
                                            for y in 0..<height {
                                                let inside = y >= content.y && y < content.maxY
                                                let first = y * width
                                                lifter.lift(tinted + first * 3, over: codes + first * 3, width: width) { x in
                                                    inside && x >= content.x && x < content.maxX
                                                        && marks[(first + x) >> 3] & (1 << UInt8((first + x) & 7)) != 0
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.base = base
    }

    /// The code values ``apply(to:)`` leaves in the bars that were `bars`: the bars go through
    /// the SDR base and back, untouched by the look (outside the content) and with no gain.
    func bars(_ bars: (UInt16, UInt16, UInt16)) -> (UInt16, UInt16, UInt16) {
        var picture = HDRPixelBuffer(size: Size(width: 1, height: 1), samples: [bars.0, bars.1, bars.2])
        encodeRows(of: &picture, looked: false)
        return picture[0, 0]
    }

    /// ``apply(to:)`` on a frame's picture alone (its content rectangle, the bars apart: ``bars(_:)``),
    /// in place, a row at a time: the look changes each pixel by its own values and a pixel's
    /// gain is its own, so each row gets the code values the whole frame gets there, with no
    /// 8-bit base of the frame nor marks kept (6.5 MB at 1080p).
    /// - Precondition: ``rowByRow``.
    func apply(toPicture picture: inout HDRPixelBuffer) {
        precondition(rowByRow, "the look needs the whole frame")
        // What the whole frame's look kept (a dissolve's frames) is spent.
        base = nil
        highlights = []
        encodeRows(of: &picture, looked: true)
    }

    /// Each row of `picture` through the base, the look (when `looked`: the whole row is
    /// content) and the gain, encoded over itself: ``apply(to:)``'s two passes, a row at a time.
    private func encodeRows(of picture: inout HDRPixelBuffer, looked: Bool) {
        let (width, height) = (picture.width, picture.height)
        let hlg = signal.transfer == .hlg
        let hlgScale = Float(HDRSignal.peak / HDRSignal.referenceWhite), exponent = Float(HDRSignal.hlgGamma - 1)
        var rowBase = PixelBuffer(size: Size(width: width, height: 1))
        var marks = [Bool](repeating: false, count: width)
        if row.count != width * 3 { row = [Float](repeating: 0, count: width * 3) }
        if slots.count != width { slots = [Int32](repeating: 0, count: width) }
        if rowCodes.count != width * 3 { rowCodes = [UInt16](repeating: 0, count: width * 3) }
        let light = signal.mixingLight, linear = HDRSignal.sRGBLinear
        let toSDR = Self.bt2020ToBT709, toHDR = HDRSignal.bt709ToBT2020, sRGB = Self.sRGBBytes
        light.withUnsafeBufferPointer { light in
          toSDR.withUnsafeBufferPointer { toSDR in
            sRGB.withUnsafeBufferPointer { sRGB in
              linear.withUnsafeBufferPointer { linear in
                row.withUnsafeMutableBufferPointer { lifted in
                  slots.withUnsafeMutableBufferPointer { slots in
                    rowCodes.withUnsafeMutableBufferPointer { encoded in
                      picture.withUnsafeMutableBufferPointer { samples in
                        let lifter = RowLifter(light: light.baseAddress!, toSDR: toSDR.baseAddress!, linear: linear.baseAddress!, toHDR: toHDR,
                                               hlg: hlg, hlgScale: hlgScale, exponent: exponent, signal: signal,
                                               lifted: lifted.baseAddress!, slots: slots.baseAddress!, encoded: encoded.baseAddress!)
                        for y in 0..<height {
                            let codes = samples.baseAddress! + y * width * 3
                            // The row's base bytes, and where the gain is not 1.
                            rowBase.withUnsafeMutableBufferPointer { bytes in
                                for x in 0..<width {
                                    let o = x &* 3
                                    let values = Self.display(UnsafePointer(codes), o, light: light.baseAddress!, hlg: hlg, hlgScale: hlgScale,
                                                              exponent: exponent, toSDR: toSDR.baseAddress!)
                                    bytes[o] = sRGB[Int(min(1, values.0) * 4096 + 0.5)]
                                    bytes[o + 1] = sRGB[Int(min(1, values.1) * 4096 + 0.5)]
                                    bytes[o + 2] = sRGB[Int(min(1, values.2) * 4096 + 0.5)]
                                    marks[x] = values.0 > 1 || values.1 > 1 || values.2 > 1
                                }
                            }
                            if looked { look(&rowBase) }
                            // The tinted row lifted by the gain (the whole row is content), as in ``apply(to:)``.
                            rowBase.withUnsafeBytes { raw in
                                let tinted = raw.bindMemory(to: UInt8.self).baseAddress!
                                lifter.lift(tinted, over: codes, width: width) { looked && marks[$0] }
                            }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
    }
}
