/// Builds JPEG and EXIF byte streams for tests, so each case says exactly what is in the file.
///
/// Shared by the image tests and the end-to-end tests (which render a 20000x14000 one).
public enum SyntheticJPEG {
    /// A marker segment: FF, marker, big-endian length (payload + 2), payload.
    public static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// An APP1 segment holding `Exif\0\0` and a TIFF block.
    public static func exifSegment(_ tiff: [UInt8]) -> [UInt8] {
        segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
    }

    /// A TIFF block with IFD0 holding `filler` harmless entries, then the orientation entry.
    /// - Parameters:
    ///   - orientation: the value of tag 0x0112.
    ///   - littleEndian: `II` (true) or `MM` byte order.
    ///   - type: the entry's TIFF type (3 = SHORT is right).
    ///   - count: the entry's value count.
    ///   - filler: entries before the orientation one.
    ///   - ifdOffset: where IFD0 starts (8 right after the header); a larger value pads.
    public static func tiff(orientation: Int, littleEndian: Bool, type: Int = 3, count: Int = 1,
                     filler: Int = 2, ifdOffset: Int = 8) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] : [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        func u32(_ value: Int) -> [UInt8] {
            littleEndian ? u16(value & 0xFFFF) + u16(value >> 16 & 0xFFFF) : u16(value >> 16 & 0xFFFF) + u16(value & 0xFFFF)
        }
        var bytes: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        bytes += u16(42) + u32(ifdOffset)
        bytes += [UInt8](repeating: 0xAA, count: ifdOffset - 8)
        bytes += u16(filler + 1)
        for index in 0..<filler {
            // ImageWidth / ImageLength style entries: SHORT, count 1.
            bytes += u16(0x0100 + index) + u16(3) + u32(1) + u16(640) + [0, 0]
        }
        bytes += u16(0x0112) + u16(type) + u32(count) + u16(orientation) + [0, 0]
        bytes += u32(0)  // no next IFD
        return bytes
    }

    /// A complete, decodable JPEG whose every pixel is grey 128.
    ///
    /// One quantisation table of ones, Huffman tables of a single 1-bit code each (DC
    /// difference 0; AC end-of-block), so every 8x8 block costs 2 bits of zeros. With 3
    /// components (all sampled 1x1) it is a YCbCr JPEG of Y = Cb = Cr = 128.
    /// - Parameters:
    ///   - width: the stored width.
    ///   - height: the stored height.
    ///   - before: segments to put right after SOI (e.g. an EXIF APP1).
    ///   - frameMarker: the SOF marker byte (C0 baseline; C1, C2, C3, C9 … to test refusals).
    ///   - precision: the sample precision in the SOF segment.
    ///   - components: 1 (grey) or 3 (YCbCr).
    ///   - data: whether to append the entropy-coded data and EOI.
    public static func grey(width: Int, height: Int, before: [UInt8] = [], frameMarker: UInt8 = 0xC0,
                     precision: UInt8 = 8, components: Int = 1, data: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8] + before
        bytes += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        var frame: [UInt8] = [precision, UInt8(height >> 8), UInt8(height & 0xFF),
                              UInt8(width >> 8), UInt8(width & 0xFF), UInt8(components)]
        var scan: [UInt8] = [UInt8(components)]
        for id in 1...components {
            frame += [UInt8(id), 0x11, 0]
            scan += [UInt8(id), 0x00]
        }
        bytes += segment(frameMarker, frame)
        let oneCode = [UInt8(1)] + [UInt8](repeating: 0, count: 15)
        bytes += segment(0xC4, [0x00] + oneCode + [0x00])  // DC table 0: symbol 0 (difference 0)
        bytes += segment(0xC4, [0x10] + oneCode + [0x00])  // AC table 0: symbol 0x00 (end of block)
        bytes += segment(0xDA, scan + [0, 63, 0])
        if data {
            let blocks = ((width + 7) / 8) * ((height + 7) / 8) * components
            bytes += [UInt8](repeating: 0, count: (blocks * 2 + 7) / 8)
            bytes += [0xFF, 0xD9]
        }
        return bytes
    }

    /// A valid progressive greyscale JPEG of 8x8 grey pixels made of exactly `scans` scans.
    ///
    /// One DC scan, then for each AC coefficient k = 1…63 in turn a first scan (Ss = Se = k,
    /// Ah 0, Al 13) and its thirteen successive-approximation refinements (Ah a, Al a − 1), as
    /// far as `scans` reaches: a legal progression of up to 883 scans, each one 1-bit code (an
    /// end-of-band) padded to a byte. libjpeg decodes it without a warning at any length.
    /// - Parameters:
    ///   - scans: how many scans, 1 to 883.
    public static func progressive(scans: Int) -> [UInt8] {
        precondition((1...883).contains(scans), "1 to 883 scans")
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC2, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
        let oneCode = [UInt8(1)] + [UInt8](repeating: 0, count: 15)
        bytes += segment(0xC4, [0x00] + oneCode + [0x00])  // DC table 0: difference 0
        bytes += segment(0xC4, [0x10] + oneCode + [0x00])  // AC table 0: end of band
        // (Ss, Se, Ah, Al) of each scan, in order.
        var script: [(Int, Int, Int, Int)] = [(0, 0, 0, 0)]
        for k in 1...63 {
            script.append((k, k, 0, 13))
            for a in stride(from: 13, through: 1, by: -1) { script.append((k, k, a, a - 1)) }
        }
        for (ss, se, ah, al) in script.prefix(scans) {
            bytes += segment(0xDA, [1, 1, 0x00, UInt8(ss), UInt8(se), UInt8(ah << 4 | al)])
            bytes.append(0x7F)  // the 1-bit code 0, then 1s to the byte's end
        }
        return bytes + [0xFF, 0xD9]
    }
}
