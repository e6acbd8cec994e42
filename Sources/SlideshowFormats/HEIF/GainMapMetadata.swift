/// An ISO 21496-1 gain map's metadata: how its samples turn the SDR base image into its HDR
/// rendition, and for which display headroom (Adobe's gain map and Android's Ultra HDR are the
/// same model). Headrooms and gains are log2 values (stops).
///
/// The rendition for a display of headroom `H` (log2 of its peak over SDR white):
///
///     w   = clamp((H − baseHeadroom) / (alternateHeadroom − baseHeadroom), 0, 1)
///     G′  = G^(1/gamma)                    G: the gain map's sample, 0…1
///     L   = min·(1 − G′) + max·G′          stops, per channel
///     HDR = (SDR + baseOffset) · 2^(L·w) − alternateOffset      linear light, SDR white = 1
///
/// ISO 21496-1 §5.2 and §6.3; libavif `avifRGBImageApplyGainMap`, libultrahdr `applyGain`.
///
/// The base may be the HDR rendition (``isBaseHDR``: its headroom above the alternate's, ISO's
/// backward direction, Adobe's `BaseRenditionIsHDR`): the gains still say how much brighter
/// HDR is than SDR (log2 of HDR over SDR), so the weight is negative and the map darkens the
/// base towards SDR (libavif's `avifGetGainMapWeight`).
public struct GainMapMetadata: Sendable, Equatable {
    /// One channel's curve (or all three's when the map is single-channel).
    public struct Channel: Sendable, Equatable {
        /// The gain, in stops, of a sample of 0.
        public var minimum: Double
        /// The gain, in stops, of a sample of 1.
        public var maximum: Double
        /// The encoding gamma of the samples.
        public var gamma: Double
        /// Added to the SDR base's linear value before the gain.
        public var baseOffset: Double
        /// Taken from the result after the gain.
        public var alternateOffset: Double

        public init(minimum: Double, maximum: Double, gamma: Double, baseOffset: Double, alternateOffset: Double) {
            self.minimum = minimum
            self.maximum = maximum
            self.gamma = gamma
            self.baseOffset = baseOffset
            self.alternateOffset = alternateOffset
        }
    }

    /// The headroom (stops) of the base image: 0 for an SDR base.
    public var baseHeadroom: Double
    /// The headroom (stops) at which the whole gain applies.
    public var alternateHeadroom: Double
    /// One channel, or red, green and blue.
    public var channels: [Channel]
    /// Whether the gain applies in the base image's colour space (else the alternate's).
    public var useBaseColorSpace: Bool

    public init(baseHeadroom: Double, alternateHeadroom: Double, channels: [Channel], useBaseColorSpace: Bool) {
        self.baseHeadroom = baseHeadroom
        self.alternateHeadroom = alternateHeadroom
        self.channels = channels
        self.useBaseColorSpace = useBaseColorSpace
    }

    /// Whether the base image is the HDR rendition and the alternate the SDR one (the base's
    /// headroom is the larger).
    public var isBaseHDR: Bool { alternateHeadroom < baseHeadroom }

    /// How much of the gain a display of `headroom` stops shows: 0 (the base) to 1 (the whole
    /// gain); negative (0 to −1) when the base is HDR (``isBaseHDR``), the gain then taken away.
    public func weight(forHeadroom headroom: Double) -> Double {
        let span = alternateHeadroom - baseHeadroom
        guard span != 0 else { return headroom >= alternateHeadroom ? 1 : 0 }
        let weight = max(0, min(1, (headroom - baseHeadroom) / span))
        return isBaseHDR ? -weight : weight
    }

    /// Reads the binary form (ISO 21496-1 §C.2, a HEIF `tmap` item's data): version 0, then
    /// the body ``init(isoJPEG:)`` reads. nil when the data is cut short, of another version,
    /// or unreadable as the body is.
    public init?<Bytes: RandomAccessCollection<UInt8>>(iso bytes: Bytes) where Bytes.Index == Int {
        guard bytes.first == 0 else { return nil }
        self.init(isoJPEG: bytes.dropFirst())
    }

    /// Reads ISO 21496-1's metadata as an Ultra HDR JPEG's APP2 carries it after its
    /// `urn:iso:std:iso:ts:21496:-1\0` namespace (and a `tmap` item after its version byte):
    /// minimum version (0) and writer version (16 bits each), flags (multichannel, use base
    /// colour space, backward direction, common denominator), the two headrooms and each
    /// channel's five fractions, big-endian; with the common-denominator flag, one denominator
    /// first and then numerators only. nil when the data is cut short, of another minimum
    /// version, has a zero denominator or a gamma that is not positive, is version-only (the
    /// primary image's APP2), or sets the draft's `backward_direction` flag (0x04, which
    /// libultrahdr refuses too). An HDR base is said by its headrooms (``isBaseHDR``).
    public init?<Bytes: RandomAccessCollection<UInt8>>(isoJPEG bytes: Bytes) where Bytes.Index == Int {
        var cursor = bytes.startIndex
        func u8() -> UInt8? {
            guard cursor < bytes.endIndex else { return nil }
            defer { cursor += 1 }
            return bytes[cursor]
        }
        func u16() -> UInt16? {
            guard bytes.endIndex - cursor >= 2 else { return nil }
            defer { cursor += 2 }
            return UInt16(bytes[cursor]) << 8 | UInt16(bytes[cursor + 1])
        }
        func u32() -> UInt32? {
            guard bytes.endIndex - cursor >= 4 else { return nil }
            defer { cursor += 4 }
            return (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[cursor + $1]) }
        }
        guard u16() == 0, u16() != nil, let flags = u8(), flags & 0x04 == 0 else { return nil }
        let common: UInt32? = flags & 0x08 != 0 ? u32() : nil
        if flags & 0x08 != 0, common == nil || common == 0 { return nil }
        func fraction(signed: Bool) -> Double? {
            guard let numerator = u32(), let denominator = common ?? u32(), denominator != 0 else { return nil }
            let top = signed ? Double(Int32(bitPattern: numerator)) : Double(numerator)
            return top / Double(denominator)
        }
        guard let base = fraction(signed: false), let alternate = fraction(signed: false) else { return nil }
        var channels: [Channel] = []
        for _ in 0..<(flags & 0x80 != 0 ? 3 : 1) {
            guard let minimum = fraction(signed: true), let maximum = fraction(signed: true),
                  let gamma = fraction(signed: false), gamma > 0,
                  let baseOffset = fraction(signed: true), let alternateOffset = fraction(signed: true) else { return nil }
            channels.append(Channel(minimum: minimum, maximum: maximum, gamma: gamma, baseOffset: baseOffset, alternateOffset: alternateOffset))
        }
        self.init(baseHeadroom: base, alternateHeadroom: alternate, channels: channels, useBaseColorSpace: flags & 0x40 != 0)
    }
}

/// Where a HEIC's gain map lies: a `tmap` item (ISO 21496-1 in HEIF, iOS 18 and Android) whose
/// `dimg` references are the base image (the primary item) and the gain map image; else
/// Apple's auxiliary image of the primary item (`auxl`, `auxC`
/// `urn:com:apple:photo:2020:aux:hdrgainmap`, iPhones since iOS 14), whose curve is the
/// headroom its EXIF MakerNote gives (read in the Images layer).
package struct HEIFGainMap {
    /// The `auxC` type of Apple's gain map.
    package static let appleAuxiliaryType = "urn:com:apple:photo:2020:aux:hdrgainmap"

    /// The gain map image's HEVC pictures (one, or a grid).
    package var layout: HEVCLayout
    /// The gain map image's `irot`, in quarter turns anticlockwise.
    package var rotation: Int
    /// The gain map image's other transformations (`imir`, `clap`), which the decoder does not apply.
    package var otherTransformations: [String]
    /// The `tmap` item's metadata; nil for Apple's auxiliary gain map.
    package var metadata: GainMapMetadata?

    /// The primary item's `tmap` gain map; nil when the file has none, or its gain map is not
    /// HEVC, or the metadata cannot be read.
    package static func find(in bytes: [UInt8]) -> HEIFGainMap? {
        guard let meta = HEIFBoxes.Meta(bytes) else { return nil }
        if let tmap = meta.itemTypes.keys.sorted().first(where: { meta.itemTypes[$0] == "tmap" }),
           let inputs = meta.tiles[tmap], inputs.count == 2, inputs[0] == meta.primary,
           let data = meta.data(of: tmap), let metadata = GainMapMetadata(iso: Array(data)),
           let found = gainMap(item: inputs[1], in: meta, metadata: metadata) {
            return found
        }
        // Apple's auxiliary image of the primary item.
        let auxiliaries = meta.references.filter { $0.type == "auxl" && $0.to.contains(meta.primary) }.map(\.from)
        for item in auxiliaries {
            guard let auxC = meta.properties(of: item)?.first(where: { $0.type == "auxC" && $0.payload.count > 4 }) else { continue }
            let urn = String(decoding: bytes[auxC.payload.lowerBound + 4..<auxC.payload.upperBound].prefix { $0 != 0 }, as: UTF8.self)
            if urn == appleAuxiliaryType, let found = gainMap(item: item, in: meta, metadata: nil) { return found }
        }
        return nil
    }

    private static func gainMap(item: Int, in meta: HEIFBoxes.Meta, metadata: GainMapMetadata?) -> HEIFGainMap? {
        guard let layout = HEIFBoxes.hevcLayout(meta, item: item), let properties = meta.properties(of: item) else { return nil }
        let transformations = properties.map(\.type).filter(HEIFBoxes.Meta.transformations.contains)
        let rotation = properties.first { $0.type == "irot" && $0.payload.count >= 1 }.map { Int(meta.bytes[$0.payload.lowerBound] & 3) } ?? 0
        return HEIFGainMap(layout: layout, rotation: rotation, otherTransformations: transformations.filter { $0 != "irot" },
                           metadata: metadata)
    }
}
