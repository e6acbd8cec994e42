import SlideshowPixels

/// Where a HEIC's primary image lies as HEVC pictures: one picture, or a grid of tiles (every
/// iPhone photo is 8 x 6 tiles of 512x512), read from the file's boxes by ``HEIFBoxes/hevcLayout(_:)``.
package struct HEVCLayout {
    /// The image's size as stored, before any `irot`: the grid's output size, or the picture's `ispe`.
    package var size: Size
    package var columns: Int
    package var rows: Int
    /// Every tile's size (`ispe`); the tiles on the right and at the bottom may reach past ``size``.
    package var tileSize: Size
    /// The tiles' decoder configuration (`hvcC`), which they share.
    package var configuration: HEVCConfiguration
    /// Each tile's coded data in the file, its extents in order, tiles in raster order.
    package var tiles: [[Range<Int>]]
    /// The tiles' own `colr` nclx (matrix and range), when they have one; otherwise the
    /// bitstream's VUI says. The chroma siting always comes from the VUI.
    package var matrix: YCbCrEncoding?
}
