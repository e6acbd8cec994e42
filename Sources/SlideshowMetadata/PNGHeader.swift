import SlideshowColor
import SlideshowPixels
import SlideshowFormats

/// What a PNG file's chunks say: size, bit depth, colour type, colour chunks and (rarely) EXIF.
package struct PNGHeader: Sendable, Equatable {
    /// The stored size.
    package var size: Size
    /// Bits per sample: 1, 2, 4, 8 or 16.
    package var bitDepth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA.
    package var colorType: Int
    /// What the `eXIf` chunk before the image data says (orientation, capture date), read
    /// during the same walk of the chunks (``MetadataBlocks/take(pngChunk:payload:in:)``).
    package var metadata = PhotoMetadata()
    /// The orientation from an `eXIf` chunk before the image data, nil when there is none.
    package var orientation: Orientation? { metadata.orientation }
    /// What the `sRGB`, `gAMA` and `cHRM` chunks before the image data say (an `iCCP`
    /// profile, which takes precedence, comes from the decoder); ``EmbeddedColor/sRGB`` without them.
    package var colorChunks: EmbeddedColor = .sRGB
    /// Whether an `iCCP` chunk comes before the image data.
    package var hasICCProfile = false
    /// The bytes of the `IDAT` chunks read (all of them when parsed `complete`).
    package var imageDataBytes = 0

    /// Bytes per pixel of the decoded frame libavcodec will produce (at least 1).
    package var decodedBytesPerPixel: Int {
        let channels: Int
        switch colorType {
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: channels = 1
        }
        return max(1, channels * bitDepth / 8)
    }

    /// Parses the chunks of a PNG file.
    /// - Parameters:
    ///   - bytes: the file's bytes, or a prefix of them.
    ///   - complete: whether `bytes` is the whole file. When true, every chunk is walked to
    ///     IEND so that a truncated file is caught before decoding; when false, parsing stops
    ///     at the first IDAT chunk.
    /// - Throws: `.truncated` when the data ends too soon, `.corrupt` for a bad IHDR or chunk structure.
    ///   - exifOnly: read only what the EXIF block says (the orientation): a decode, whose
    ///     photo's XMP and IPTC the check before it has read, takes no other text chunk.
    package init(parsing bytes: [UInt8], complete: Bool, exifOnly: Bool = false) throws(ImageProblem) {
        func u32(_ offset: Int) -> Int {
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        var offset = 8
        var header: (size: Size, depth: Int, type: Int)?
        var blocks = MetadataBlocks(exifOnly: exifOnly)
        var sawImageData = false
        var sRGBChunk = false, iccChunk = false
        var gamma: Double?
        var chromaticities: EmbeddedColor.Chromaticities?
        while true {
            guard offset + 8 <= bytes.count else {
                if !complete && header != nil && sawImageData { break }
                throw ImageProblem(.truncated, "truncated PNG data (the file ends before its IEND chunk)")
            }
            let length = u32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard length <= Int(Int32.max) else { throw ImageProblem(.corrupt, "corrupt PNG data (bad chunk length)") }
            let dataStart = offset + 8
            let chunkEnd = dataStart + length + 4  // data, then CRC
            if header == nil && type != "IHDR" {
                throw ImageProblem(.corrupt, "corrupt PNG data (the first chunk is not IHDR)")
            }
            guard chunkEnd <= bytes.count else {
                if !complete && header != nil && (type == "IDAT" || sawImageData) { break }
                throw ImageProblem(.truncated, "truncated PNG data (the file ends inside its \(type) chunk)")
            }
            switch type {
            case "IHDR":
                guard header == nil, length == 13 else { throw ImageProblem(.corrupt, "corrupt PNG data (bad IHDR chunk)") }
                let width = u32(dataStart), height = u32(dataStart + 4)
                let depth = Int(bytes[dataStart + 8]), colorType = Int(bytes[dataStart + 9])
                guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
                    throw ImageProblem(.corrupt, "corrupt PNG data (size \(width)x\(height))")
                }
                let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
                guard allowed[colorType]?.contains(depth) == true else {
                    throw ImageProblem(.corrupt, "corrupt PNG data (bit depth \(depth) with colour type \(colorType))")
                }
                guard bytes[dataStart + 10] == 0, bytes[dataStart + 11] == 0, bytes[dataStart + 12] <= 1 else {
                    throw ImageProblem(.corrupt, "corrupt PNG data (unknown compression, filter or interlace method)")
                }
                header = (Size(width: width, height: height), depth, colorType)
            case "eXIf" where !sawImageData, "iTXt" where !sawImageData, "zTXt" where !sawImageData, "tEXt" where !sawImageData:
                blocks.take(pngChunk: type, payload: dataStart..<dataStart + length, in: bytes)
            case "sRGB" where !sawImageData:
                sRGBChunk = true
            case "iCCP" where !sawImageData:
                iccChunk = true
            case "gAMA" where !sawImageData && length == 4:
                gamma = Double(u32(dataStart)) / 100_000
            case "cHRM" where !sawImageData && length == 32:
                func xy(_ index: Int) -> (x: Double, y: Double) {
                    (Double(u32(dataStart + index * 8)) / 100_000, Double(u32(dataStart + index * 8 + 4)) / 100_000)
                }
                chromaticities = EmbeddedColor.Chromaticities(white: xy(0), red: xy(1), green: xy(2), blue: xy(3))
            case "IDAT":
                sawImageData = true
                imageDataBytes += length
            case "IEND":
                guard sawImageData else { throw ImageProblem(.corrupt, "corrupt PNG data (no image data)") }
            default:
                break
            }
            if type == "IEND" { break }
            if sawImageData && !complete { break }
            offset = chunkEnd
        }
        guard let header else { throw ImageProblem(.corrupt, "corrupt PNG data (no IHDR chunk)") }
        size = header.size
        bitDepth = header.depth
        colorType = header.type
        metadata = PhotoMetadata(blocks)
        colorChunks = EmbeddedColor.png(hasSRGBChunk: sRGBChunk, gamma: gamma, chromaticities: chromaticities)
        hasICCProfile = iccChunk
    }

    /// The most bytes the PNG decode path holds at once, for a file of `fileBytes` bytes.
    ///
    /// Every buffer alive at the same time, stage by stage (``PNGDecoder``):
    /// 1. the file's bytes, and the decoder's packet they are copied into (the array is then
    ///    released): `2 × file`;
    /// 2. the packet and libavcodec's decoded frame (its rows padded for alignment) with its
    ///    row buffers (the previous and current rows of unfiltering, zlib's window);
    /// 3. the frame and its conversion to RGB or RGBA (4 bytes a pixel are assumed, as a
    ///    `tRNS` chunk gives any colour type alpha), which is then composited in place;
    /// 4. the converted image and its upright copy, when an orientation turns it.
    /// The slide itself is not counted: it is bounded by the frame size, not by the photo.
    package func decodeMemory(fileBytes: Int) -> Int {
        let pixels = size.width * size.height
        let frameRow = (size.width * decodedBytesPerPixel + 63) / 64 * 64 + 64
        let frame = frameRow * (size.height + 2)
        let rows = 3 * (size.width * decodedBytesPerPixel + 64) + (64 << 10)
        let converted = pixels * 4 + ImageLimits.rowPadding
        let upright = (orientation ?? .up) == .up ? 0 : pixels * 3 + ImageLimits.rowPadding
        return max(2 * fileBytes, fileBytes + frame + rows, frame + converted, converted + upright)
    }
}
