/// A soft blur for one-channel masks: two box blurs across, then two down (close to a
/// Gaussian of σ ≈ radius·0.8), in place, with edges treated as zero.
enum BoxBlur {
    /// Blurs `height` rows of `width` bytes, `stride` bytes apart, in place.
    /// - Parameters:
    ///   - radius: each box is `2·radius + 1` pixels wide; 0 leaves the mask as it is.
    static func blur(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, radius: Int) {
        guard radius > 0, width > 0, height > 0 else { return }
        var line = [UInt8](repeating: 0, count: max(width, height))
        line.withUnsafeMutableBufferPointer { scratch in
            for _ in 0..<2 {
                for y in 0..<height { pass(data + y * stride, step: 1, count: width, radius: radius, scratch: scratch) }
                for x in 0..<width { pass(data + x, step: stride, count: height, radius: radius, scratch: scratch) }
            }
        }
    }

    /// One box blur along `count` samples `step` bytes apart: a running sum, rounded to nearest.
    private static func pass(_ start: UnsafeMutablePointer<UInt8>, step: Int, count: Int, radius: Int,
                             scratch: UnsafeMutableBufferPointer<UInt8>) {
        for index in 0..<count { scratch[index] = start[index * step] }
        let window = 2 * radius + 1
        var sum = 0
        for index in 0..<min(radius, count) { sum += Int(scratch[index]) }
        for index in 0..<count {
            let entering = index + radius, leaving = index - radius - 1
            if entering < count { sum += Int(scratch[entering]) }
            if leaving >= 0 { sum -= Int(scratch[leaving]) }
            start[index * step] = UInt8((sum + window / 2) / window)
        }
    }
}
