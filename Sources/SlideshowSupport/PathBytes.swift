/// File paths as Linux has them, bytes, carried in Swift `String`s without loss.
///
/// A name on Linux is any bytes but `/` and NUL; many are not UTF-8 (`bad\xff.jpg`, a Latin-1
/// name from an old archive). Swift's `CommandLine.arguments` and its `String`-to-C bridging
/// would turn such a byte into U+FFFD and then into the three bytes `EF BF BD`: a different
/// name. So, like Python's `surrogateescape`, each byte that is not part of valid UTF-8 is
/// carried as a scalar of its own in the private-use plane, **U+10FF00 + the byte**
/// (U+10FF80 to U+10FFFF, as only bytes from 0x80 up can be invalid), and turned back into
/// that byte wherever the path reaches the system (``withCString(_:_:)``). A name that is
/// valid UTF-8 is carried unchanged; one that happens to hold the escape scalars themselves
/// has their bytes escaped one by one, so every byte string round-trips exactly.
///
/// Messages print the escapes as `\xFF` (``Message/oneLine(_:)``). A batch manifest is JSON,
/// whose strings are Unicode: it names such a file with the same convention, the scalar
/// U+10FF00 + byte (`"bad\uDBFF\uDFFF.jpg"` for `bad\xff.jpg`).
package enum PathBytes {
    /// The first scalar of the escapes: U+10FF00 (+ 0x80 … 0xFF for the bytes that carry them).
    package static let escapeBase: UInt32 = 0x10FF00

    /// The scalar a byte that is not valid UTF-8 is carried as, nil for any other scalar.
    @inline(__always)
    package static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= escapeBase + 0x80 && scalar.value <= escapeBase + 0xFF ? UInt8(scalar.value - escapeBase) : nil
    }

    /// A path's bytes as a string: valid UTF-8 as it is, every other byte escaped.
    package static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String where Bytes.Index == Int {
        var scalars = String.UnicodeScalarView()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let (scalar, length) = decode(bytes, at: index)
            if let scalar, escapedByte(scalar) == nil {
                scalars.append(scalar)
            } else {
                // Invalid, or a literal escape scalar: each byte on its own.
                for offset in index..<index + length { scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[offset]))!) }
            }
            index += length
        }
        return String(scalars)
    }

    /// A NUL-terminated path from the system (`argv`, `readdir`, `realpath`) as a string.
    package static func string(cString: UnsafePointer<CChar>) -> String {
        let length = strlenOf(cString)
        return cString.withMemoryRebound(to: UInt8.self, capacity: length) { string(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// The program's arguments (`argv` after the program's name), every byte kept: Swift's
    /// `CommandLine.arguments` turns a byte that is not UTF-8 into U+FFFD.
    package static var commandLineArguments: [String] {
        (1..<Int(CommandLine.argc)).compactMap { CommandLine.unsafeArgv[$0].map { string(cString: $0) } }
    }

    /// The exact bytes a path string stands for.
    package static func bytes(_ path: String) -> [UInt8] {
        guard path.unicodeScalars.contains(where: { escapedByte($0) != nil }) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = escapedByte(scalar) { bytes.append(byte) } else { bytes += String(scalar).utf8 }
        }
        return bytes
    }

    /// How many bytes the path is on the system.
    package static func byteCount(_ path: String) -> Int { bytes(path).count }

    /// Lends a path to a system call as the NUL-terminated bytes it stands for.
    package static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard path.unicodeScalars.contains(where: { escapedByte($0) != nil }) else { return try path.withCString(body) }
        let terminated = bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try terminated.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The scalar of the UTF-8 sequence at `index` and its length; a nil scalar and length 1
    /// when the byte there does not start a valid sequence (overlong forms, surrogates and
    /// values past U+10FFFF are invalid).
    private static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Int) -> (Unicode.Scalar?, Int) where Bytes.Index == Int {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return (nil, 1)
        }
        guard bytes.endIndex - index >= length else { return (nil, 1) }
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return (nil, 1) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (nil, 1) }
        return (scalar, length)
    }

    private static func strlenOf(_ string: UnsafePointer<CChar>) -> Int {
        var length = 0
        while string[length] != 0 { length += 1 }
        return length
    }
}
