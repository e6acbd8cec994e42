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

    /// A zlib stream of `258 × runs + 1` zero bytes in a fixed-Huffman deflate block: a literal
    /// 0, then `runs` copies of 258 bytes at distance 1 (13 bits each, about 1/160 of what
    /// they inflate to). A text-chunk bomb made in the test, never committed.
    static func zlibZeros(runs: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(runs * 13 / 8 + 16)
        var bits: UInt64 = 0, count = 0
        func put(_ value: UInt64, _ length: Int) {
            bits |= value << UInt64(count)
            count += length
            while count >= 8 {
                out.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                count -= 8
            }
        }
        /// A Huffman code, most significant bit first.
        func code(_ value: UInt64, _ length: Int) {
            var reversed: UInt64 = 0
            for bit in 0..<length where value >> UInt64(bit) & 1 == 1 { reversed |= 1 << UInt64(length - 1 - bit) }
            put(reversed, length)
        }
        put(1, 1)                 // BFINAL
        put(1, 2)                 // fixed Huffman codes
        code(0b0011_0000, 8)      // literal 0
        // Length 258 (code 285, 8 bits 11000101) and distance 1 (code 0, 5 bits): 13 bits, reversed once.
        var run: UInt64 = 0
        for bit in 0..<8 where 0b1100_0101 >> UInt64(bit) & 1 == 1 { run |= 1 << UInt64(7 - bit) }
        for _ in 0..<runs { put(run, 13) }
        code(0, 7)                // end of block
        if count > 0 { put(0, 8 - count) }
        let inflated = 258 * runs + 1
        return out + bigEndian(UInt32(inflated % 65521) << 16 | 1)   // Adler-32 of zeros
    }

    /// The CRC-32 of PNG chunks, a table at a time (for chunks of megabytes).
    static func fastCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    /// A chunk with ``fastCRC32(_:)``.
    static func bigChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(fastCRC32(typed))
    }

    /// `png` with `chunks` inserted right after its IHDR chunk.
    static func inserting(_ chunks: [UInt8], into png: [UInt8]) -> [UInt8] {
        Array(png[..<33]) + chunks + Array(png[33...])
    }
}
