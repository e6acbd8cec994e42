internal import CLCMS
import Foundation

/// The conversion of a matrix/TRC RGB profile to sRGB, done here in floating point: three
/// 256-entry curves to linear light, one 3x3 matrix, and a table back to the sRGB curve.
///
/// It is the same arithmetic Little CMS does for such a pair of profiles with the relative
/// colorimetric intent (the colorant tags are already adapted to D50, and black-point
/// compensation is the identity when both black points are zero, as they are for matrix/TRC
/// RGB profiles), but Little CMS 2.14 without its fast-float plugin runs it through a
/// precomputed 3D grid at about 20 ns a pixel: 265 ms for a 12 MP iPhone photo. This runs
/// in a few nanoseconds a pixel. Profiles with lookup tables (A2B) still go to Little CMS.
struct MatrixShaper: Sendable {
    /// Linear light (0…1) of each stored value, per channel.
    private let curves: [[Float]]
    /// Source linear RGB to sRGB linear RGB, row-major.
    private let matrix: [Float]
    /// sRGB-encoded 8-bit values of linear light 0…1 in ``encodingSteps`` steps.
    private let encode: [UInt8]

    /// Steps of the encoding table: 1/16383 of linear light is at most 0.2 of a level after
    /// the sRGB curve, whose steepest slope (12.92, near black) the table must follow.
    static let encodingSteps = 16383

    /// The fast path for a profile, or nil when Little CMS must do it (not a matrix/TRC RGB
    /// profile, or one with lookup tables for the relative colorimetric intent).
    init?(source: ColorProfileHandle, sRGB: ColorProfileHandle) {
        let profile = source.handle
        guard source.colorSpace == cmsSigRgbData, cmsIsMatrixShaper(profile) != 0,
              cmsIsCLUT(profile, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(LCMS_USED_AS_INPUT)) == 0,
              let mine = Self.colorants(profile), let theirs = Self.colorants(sRGB.handle),
              let inverse = Self.inverse(theirs) else { return nil }
        var curves: [[Float]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let curve = cmsReadTag(profile, tag) else { return nil }
            let pointer = OpaquePointer(curve)
            curves.append((0...255).map { cmsEvalToneCurveFloat(pointer, Float($0) / 255) })
        }
        self.curves = curves
        // sRGB linear = inverse(sRGB colorants) · source colorants · source linear.
        var product = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                product[row * 3 + column] = (0..<3).reduce(0) { $0 + inverse[row * 3 + $1] * mine[$1 * 3 + column] }
            }
        }
        matrix = product.map { Float($0) }
        encode = (0...Self.encodingSteps).map { step in
            let linear = Double(step) / Double(Self.encodingSteps)
            let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return UInt8(min(255, max(0, (encoded * 255).rounded())))
        }
    }

    /// The profile's colorants as a 3x3 matrix (columns red, green, blue; rows X, Y, Z).
    private static func colorants(_ profile: cmsHPROFILE) -> [Double]? {
        var matrix = [Double](repeating: 0, count: 9)
        for (column, tag) in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag].enumerated() {
            guard let xyz = cmsReadTag(profile, tag)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee else { return nil }
            matrix[column] = xyz.X
            matrix[3 + column] = xyz.Y
            matrix[6 + column] = xyz.Z
        }
        return matrix
    }

    private static func inverse(_ m: [Double]) -> [Double]? {
        let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
        let determinant = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard abs(determinant) > 1e-9 else { return nil }
        let cofactors = [e * i - f * h, c * h - b * i, b * f - c * e,
                         f * g - d * i, a * i - c * g, c * d - a * f,
                         d * h - e * g, b * g - a * h, a * e - b * d]
        return cofactors.map { $0 / determinant }
    }

    /// Converts `count` pixels in place, `stride` bytes apart (3 for RGB, 4 for RGBA: alpha is kept).
    func apply(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        curves[0].withUnsafeBufferPointer { red in
        curves[1].withUnsafeBufferPointer { green in
        curves[2].withUnsafeBufferPointer { blue in
        encode.withUnsafeBufferPointer { encode in
            let r = red.baseAddress!, g = green.baseAddress!, b = blue.baseAddress!, e = encode.baseAddress!
            let m0 = matrix[0], m1 = matrix[1], m2 = matrix[2], m3 = matrix[3], m4 = matrix[4]
            let m5 = matrix[5], m6 = matrix[6], m7 = matrix[7], m8 = matrix[8]
            let scale = Float(Self.encodingSteps)
            @inline(__always) func index(_ value: Float) -> Int {
                // Clipped to the table (out-of-gamut colours clip, as Little CMS's 8-bit output does).
                Int(min(max(value, 0), 1) * scale + 0.5)
            }
            var p = pixels
            for _ in 0..<count {
                let lr = r[Int(p[0])], lg = g[Int(p[1])], lb = b[Int(p[2])]
                p[0] = e[index(m0 * lr + m1 * lg + m2 * lb)]
                p[1] = e[index(m3 * lr + m4 * lg + m5 * lb)]
                p[2] = e[index(m6 * lr + m7 * lg + m8 * lb)]
                p += stride
            }
        }
        }
        }
        }
    }
}
