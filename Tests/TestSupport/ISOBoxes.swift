/// ISO BMFF boxes built byte by byte (HEIF and MP4 share them), for files no encoder makes.
public enum ISOBox {
    /// A big-endian 16-bit value.
    public static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    /// A big-endian 32-bit value.
    public static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }
    /// A box: 32-bit size, type, payload.
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }
    /// A full box: a box whose payload starts with a version and 24 bits of flags (0).
    public static func full(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + payload) }
}
