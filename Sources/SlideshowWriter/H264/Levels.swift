import SlideshowPixels

/// The H.264 levels' limits that a frame size and rate must fit (ITU-T H.264 Table A-1).
///
/// libx264 picks the lowest level that fits the frame size, the macroblock rate and the
/// decoded picture buffer on its own; these limits let the settings be refused up front when
/// no level fits (beyond level 6.2 a decoder owes the stream nothing).
package struct H264Level: Sendable, Hashable {
    /// `level_idc`: 10 × the level's number (9 for level 1b is not used here).
    package var idc: Int
    /// MaxMBPS: macroblocks a second.
    package var maxMacroblocksPerSecond: Int
    /// MaxFS: macroblocks a frame.
    package var maxFrameMacroblocks: Int
    /// MaxDpbMbs: macroblocks in the decoded picture buffer.
    package var maxDPBMacroblocks: Int

    /// Table A-1, lowest level first.
    package static let all: [H264Level] = [
        H264Level(idc: 10, maxMacroblocksPerSecond: 1_485, maxFrameMacroblocks: 99, maxDPBMacroblocks: 396),
        H264Level(idc: 11, maxMacroblocksPerSecond: 3_000, maxFrameMacroblocks: 396, maxDPBMacroblocks: 900),
        H264Level(idc: 12, maxMacroblocksPerSecond: 6_000, maxFrameMacroblocks: 396, maxDPBMacroblocks: 2_376),
        H264Level(idc: 13, maxMacroblocksPerSecond: 11_880, maxFrameMacroblocks: 396, maxDPBMacroblocks: 2_376),
        H264Level(idc: 20, maxMacroblocksPerSecond: 11_880, maxFrameMacroblocks: 396, maxDPBMacroblocks: 2_376),
        H264Level(idc: 21, maxMacroblocksPerSecond: 19_800, maxFrameMacroblocks: 792, maxDPBMacroblocks: 4_752),
        H264Level(idc: 22, maxMacroblocksPerSecond: 20_250, maxFrameMacroblocks: 1_620, maxDPBMacroblocks: 8_100),
        H264Level(idc: 30, maxMacroblocksPerSecond: 40_500, maxFrameMacroblocks: 1_620, maxDPBMacroblocks: 8_100),
        H264Level(idc: 31, maxMacroblocksPerSecond: 108_000, maxFrameMacroblocks: 3_600, maxDPBMacroblocks: 18_000),
        H264Level(idc: 32, maxMacroblocksPerSecond: 216_000, maxFrameMacroblocks: 5_120, maxDPBMacroblocks: 20_480),
        H264Level(idc: 40, maxMacroblocksPerSecond: 245_760, maxFrameMacroblocks: 8_192, maxDPBMacroblocks: 32_768),
        H264Level(idc: 41, maxMacroblocksPerSecond: 245_760, maxFrameMacroblocks: 8_192, maxDPBMacroblocks: 32_768),
        H264Level(idc: 42, maxMacroblocksPerSecond: 522_240, maxFrameMacroblocks: 8_704, maxDPBMacroblocks: 34_816),
        H264Level(idc: 50, maxMacroblocksPerSecond: 589_824, maxFrameMacroblocks: 22_080, maxDPBMacroblocks: 110_400),
        H264Level(idc: 51, maxMacroblocksPerSecond: 983_040, maxFrameMacroblocks: 36_864, maxDPBMacroblocks: 184_320),
        H264Level(idc: 52, maxMacroblocksPerSecond: 2_073_600, maxFrameMacroblocks: 36_864, maxDPBMacroblocks: 184_320),
        H264Level(idc: 60, maxMacroblocksPerSecond: 4_177_920, maxFrameMacroblocks: 139_264, maxDPBMacroblocks: 696_320),
        H264Level(idc: 61, maxMacroblocksPerSecond: 8_355_840, maxFrameMacroblocks: 139_264, maxDPBMacroblocks: 696_320),
        H264Level(idc: 62, maxMacroblocksPerSecond: 16_711_680, maxFrameMacroblocks: 139_264, maxDPBMacroblocks: 696_320),
    ]

    /// The highest level, 6.2.
    package static let highest = all[all.count - 1]

    /// Macroblocks (16x16) in a frame of a size.
    package static func macroblocks(in size: Size) -> Int { ((size.width + 15) / 16) * ((size.height + 15) / 16) }

    /// Whether a frame of `size` at `framesPerSecond` fits this level: the frame's macroblocks,
    /// each side's (at most √(8 × MaxFS) macroblocks), and the macroblock rate.
    package func fits(_ size: Size, framesPerSecond: Int) -> Bool {
        let frame = Self.macroblocks(in: size)
        let side = Int(Double(8 * maxFrameMacroblocks).squareRoot())
        return frame <= maxFrameMacroblocks && (size.width + 15) / 16 <= side && (size.height + 15) / 16 <= side
            && frame * framesPerSecond <= maxMacroblocksPerSecond
    }

    /// The lowest level a frame size and rate fit, or nil when not even level 6.2 does.
    package static func lowest(fitting size: Size, framesPerSecond: Int) -> H264Level? {
        all.first { $0.fits(size, framesPerSecond: framesPerSecond) }
    }
}
