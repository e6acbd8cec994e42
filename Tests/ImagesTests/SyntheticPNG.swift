/// Writes small PNG files for tests: any colour type and bit depth, uncompressed
/// (stored deflate blocks), so that expected pixels come from the test, not from a decoder.
enum SyntheticPNG {
    /// The CRC-32 of PNG chunks (polynomial 0xEDB88320), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A chunk: length, type, data, CRC of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// zlib around stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + bigEndian(b << 16 | a)
    }

    /// A PNG file.
    /// - Parameters:
    ///   - rows: each row's packed samples, without the filter byte.
    ///   - palette: PLTE entries (RGB triples) for colour type 3.
    ///   - transparency: the tRNS chunk's data, if any.
    static func file(width: Int, height: Int, bitDepth: Int, colorType: Int, rows: [[UInt8]],
                     palette: [UInt8]? = nil, transparency: [UInt8]? = nil) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [UInt8(bitDepth), UInt8(colorType), 0, 0, 0])
        if let palette { bytes += chunk("PLTE", palette) }
        if let transparency { bytes += chunk("tRNS", transparency) }
        bytes += chunk("IDAT", zlibStored(rows.flatMap { [0] + $0 }))
        bytes += chunk("IEND", [])
        return bytes
    }
}
