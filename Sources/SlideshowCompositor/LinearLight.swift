import Foundation

/// sRGB ↔ linear light through two tables, for mixing pictures as light mixes.
///
/// Gamma-encoded values mixed directly make a dissolve dip darker in the middle (the mean of
/// two encoded values is darker than the encoded mean of the light); film dissolves mix light.
/// Linear values are 16-bit (0…65535), fine enough that every 8-bit sRGB value comes back
/// unchanged (`encode(decode(v)) == v`, tested over all 256 values).
package enum LinearLight {
    /// sRGB byte → linear, 0…65535.
    package static let decode: [UInt16] = (0..<256).map { value in
        let c = Double(value) / 255
        let linear = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        return UInt16((linear * 65535).rounded())
    }

    /// Linear 0…65535 → the nearest sRGB byte.
    package static let encode: [UInt8] = (0..<65536).map { value in
        let linear = Double(value) / 65535
        let c = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8(max(0, min(255, (c * 255).rounded())))
    }

    /// The weight scale of ``mix(_:_:weight:)``: weights are 0…`one`.
    package static let one: Int32 = 4096

    /// A weight in 0…``one`` for a fraction 0…1.
    package static func weight(_ fraction: Double) -> Int32 {
        Int32((max(0, min(1, fraction)) * Double(one)).rounded())
    }
}
