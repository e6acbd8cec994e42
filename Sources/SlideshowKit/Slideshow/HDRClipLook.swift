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
enum HDRClipLook {
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

    /// Applies `look` (and blur fill when `blur`) to an HDR frame whose content rectangle holds the clip.
    static func apply(to picture: inout HDRPixelBuffer, signal: HDRSignal, blur: Bool, look: (inout PixelBuffer) -> Void) {
        let (width, height) = (picture.width, picture.height)
        let count = width * height * 3
        let light = signal.mixingLight
        let hlg = signal.transfer == .hlg
        let hlgScale = Float(HDRSignal.peak / HDRSignal.referenceWhite), exponent = Float(HDRSignal.hlgGamma - 1)
        let toSDR = bt2020ToBT709, toHDR = HDRSignal.bt709ToBT2020
        let content = picture.contentRect
        // Display light in BT.709, reference whites; and the base bytes.
        var display = [Float](repeating: 0, count: count)
        var bytes = [UInt8](repeating: 0, count: count)
        picture.withUnsafeBytes { raw in
            let codes = raw.bindMemory(to: UInt16.self)
            for pixel in 0..<width * height {
                let o = pixel * 3
                var (r, g, b) = (light[Int(codes[o])], light[Int(codes[o + 1])], light[Int(codes[o + 2])])
                if hlg {
                    let ys = 0.2627 * r + 0.6780 * g + 0.0593 * b
                    let factor = ys > 0 ? pow(ys, exponent) * hlgScale : 0
                    (r, g, b) = (r * factor, g * factor, b * factor)
                }
                let values = (max(0, toSDR[0] * r + toSDR[1] * g + toSDR[2] * b),
                              max(0, toSDR[3] * r + toSDR[4] * g + toSDR[5] * b),
                              max(0, toSDR[6] * r + toSDR[7] * g + toSDR[8] * b))
                (display[o], display[o + 1], display[o + 2]) = values
                bytes[o] = sRGBBytes[Int(min(1, values.0) * 4096 + 0.5)]
                bytes[o + 1] = sRGBBytes[Int(min(1, values.1) * 4096 + 0.5)]
                bytes[o + 2] = sRGBBytes[Int(min(1, values.2) * 4096 + 0.5)]
            }
        }
        let base = PixelBuffer(size: picture.size, pixels: bytes, contentRect: content)
        var looked = base
        look(&looked)
        if blur { BlurredBackdrop.fill(&looked) }
        let linear = HDRSignal.sRGBLinear
        // The tinted base lifted by the gain, in BT.2020 light, over `display`; then encoded in one pass.
        looked.withUnsafeBytes { raw in
            let tinted = raw.bindMemory(to: UInt8.self)
            display.withUnsafeMutableBufferPointer { lifted in
                for y in 0..<height {
                    let inside = y >= content.y && y < content.maxY
                    for x in 0..<width {
                        let o = (y * width + x) * 3
                        var (r, g, b) = (linear[Int(tinted[o])], linear[Int(tinted[o + 1])], linear[Int(tinted[o + 2])])
                        if inside && x >= content.x && x < content.maxX {
                            // The gain: the light above the clipped base (1 in the SDR range).
                            r *= max(1, lifted[o]); g *= max(1, lifted[o + 1]); b *= max(1, lifted[o + 2])
                        }
                        lifted[o] = toHDR[0] * r + toHDR[1] * g + toHDR[2] * b
                        lifted[o + 1] = toHDR[3] * r + toHDR[4] * g + toHDR[5] * b
                        lifted[o + 2] = toHDR[6] * r + toHDR[7] * g + toHDR[8] * b
                    }
                }
            }
        }
        display.withUnsafeBufferPointer { lifted in
            picture.withUnsafeMutableBufferPointer { out in
                signal.encode(lifted.baseAddress!, pixels: width * height, into: out.baseAddress!)
            }
        }
    }
}
