import Foundation
import SlideshowColor
import SlideshowFormats
import SlideshowMetadata

/// How a gain map's samples lift the SDR base: ISO 21496-1's curve (a `tmap` item), or
/// Apple's auxiliary gain map with the headroom its MakerNote gives.
package enum GainCurve: Sendable, Equatable {
    /// `HDR = (SDR + baseOffset) · 2^(L·w) − alternateOffset` (``GainMapMetadata``).
    case iso(GainMapMetadata)
    /// `HDR = SDR · (1 + (headroom − 1) · g)`, with `g` the sample taken back through BT.709's
    /// transfer to linear (Apple, "Applying Apple HDR effect to your photos"); `headroom` is
    /// linear, at most the output's (``HDRSignal/headroom``).
    case apple(headroom: Double)

    /// Per channel (red, green, blue): each 8-bit sample's linear factor, then the offsets
    /// added before and taken after it, for a display of `headroom` stops (the output's).
    package func tables(forHeadroom headroom: Double = HDRSignal.headroom) -> (factors: [[Float]], baseOffsets: [Float], alternateOffsets: [Float]) {
        switch self {
        case .iso(let metadata):
            let weight = metadata.weight(forHeadroom: headroom)
            if metadata.isBaseHDR && weight == 0 {
                // The HDR base as it is (no offsets either), as libavif shows it.
                let one = [Float](repeating: 1, count: 256)
                return ([one, one, one], [0, 0, 0], [0, 0, 0])
            }
            var factors: [[Float]] = [], base: [Float] = [], alternate: [Float] = []
            for channel in 0..<3 {
                let curve = metadata.channels[min(channel, metadata.channels.count - 1)]
                factors.append((0..<256).map { value in
                    let g = pow(Double(value) / 255, 1 / curve.gamma)
                    return Float(exp2((curve.minimum * (1 - g) + curve.maximum * g) * weight))
                })
                base.append(Float(curve.baseOffset))
                alternate.append(Float(curve.alternateOffset))
            }
            return (factors, base, alternate)
        case .apple(let headroom):
            let usable = min(headroom, exp2(HDRSignal.headroom))
            let table = (0..<256).map { value in Float(1 + (usable - 1) * Self.bt709Linear(Double(value) / 255)) }
            return ([table, table, table], [0, 0, 0], [0, 0, 0])
        }
    }

    /// The factor on the base's linear light before the gain: 1 for an SDR base; for an HDR
    /// base (``GainMapMetadata/isBaseHDR``, an 8-bit JPEG whose full code is its peak), 2 to
    /// the power of its headroom, so that its light is in SDR reference whites, as the gain's.
    package var baseScale: Float {
        if case .iso(let metadata) = self, metadata.isBaseHDR { return Float(exp2(metadata.baseHeadroom)) }
        return 1
    }

    /// BT.709's OETF inverted: a signal 0…1 to linear 0…1.
    package static func bt709Linear(_ v: Double) -> Double {
        v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
    }

    /// Apple's headroom from its MakerNote's tags 33 and 48 (the formula Apple publishes):
    /// stops from one of four lines, at least 0; the headroom is 2 to that power.
    package static func appleHeadroom(maker33: Double, maker48: Double) -> Double {
        let stops: Double = if maker33 < 1 {
            maker48 <= 0.01 ? -20 * maker48 + 1.8 : -0.101 * maker48 + 1.601
        } else {
            maker48 <= 0.01 ? -70 * maker48 + 3 : -0.303 * maker48 + 2.303
        }
        return exp2(max(stops, 0))
    }

    /// Apple's headroom from an EXIF block (a HEIC's `Exif` item: a 4-byte offset, then TIFF):
    /// its MakerNote (tag 0x927C) of the form `Apple iOS\0`, version, `MM`, then an IFD whose
    /// offsets count from the MakerNote's start; tags 33 and 48 are SRATIONALs. nil when any
    /// of that is missing.
    package static func appleHeadroom(exif: ArraySlice<UInt8>) -> Double? {
        let bytes = Array(exif)
        guard bytes.count > 12 else { return nil }
        let skip = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard skip >= 0, 4 + skip < bytes.count, let tiff = TIFFBlock(bytes, 4 + skip..<bytes.count), let exifIFD = tiff.exifIFD,
              let note = tiff.entry(0x927C, inIFDAt: exifIFD), note.count > 16, note.valueOffset + note.count <= tiff.length
        else { return nil }
        let start = tiff.base + note.valueOffset
        let maker = Array(bytes[start..<start + note.count])
        guard maker.starts(with: Array("Apple iOS\0".utf8)), maker[12] == 0x4D, maker[13] == 0x4D else { return nil }
        func u16(_ at: Int) -> Int? { at + 2 <= maker.count ? Int(maker[at]) << 8 | Int(maker[at + 1]) : nil }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(at), let low = u16(at + 2) else { return nil }
            return high << 16 | low
        }
        guard let count = u16(14) else { return nil }
        var values: [Int: Double] = [:]
        for index in 0..<count {
            let entry = 16 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let offset = u32(entry + 8) else { break }
            guard tag == 33 || tag == 48, type == 10, let numerator = u32(offset), let denominator = u32(offset + 4), denominator != 0 else { continue }
            values[tag] = Double(Int32(truncatingIfNeeded: numerator)) / Double(Int32(truncatingIfNeeded: denominator))
        }
        guard let maker33 = values[33], let maker48 = values[48] else { return nil }
        return appleHeadroom(maker33: maker33, maker48: maker48)
    }
}
