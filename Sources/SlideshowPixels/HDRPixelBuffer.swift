/// The transfer function of an HDR show's video (BT.2100): what its 10-bit samples mean in light.
public enum HDRTransfer: String, Sendable, Hashable, CaseIterable {
    /// Perceptual quantiser (SMPTE ST 2084): absolute light, 0 to 10,000 cd/m²; HDR10 with
    /// mastering-display and content-light-level metadata.
    case pq
    /// Hybrid log-gamma (ARIB STD-B67): relative, scene-referred light, shown on a 1,000 cd/m²
    /// display at its nominal peak; SDR reference white (203 cd/m²) sits at 75% of the signal.
    case hlg
}

/// An HDR picture: interleaved 16-bit RGB, BT.2020 primaries, full range (0 to 65535), each
/// sample already encoded with the show's ``HDRTransfer`` (PQ or HLG), rows top to bottom.
///
/// The deep twin of ``PixelBuffer`` for an HDR show: an 8-bit sRGB value cannot hold a
/// highlight three stops above white, nor the 10 bits the video carries. The samples are
/// the transfer's code values rather than linear light, as the 8-bit buffer's are sRGB's:
/// 16 bits of PQ or HLG are finer than any step a viewer sees (10 bits are the video's), and the
/// writer turns them into Y′CbCr with the BT.2020 matrix alone. It is a value (copy-on-write).
public struct HDRPixelBuffer: Sendable, Equatable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The part of the buffer the photo covers; outside it lies the background.
    public var contentRect: Rect
    /// `width * height * 3` samples, R G B for each pixel, row after row with no padding.
    public private(set) var samples: [UInt16]

    /// The size of the buffer.
    public var size: Size { Size(width: width, height: height) }

    /// Bytes from one row to the next.
    public var bytesPerRow: Int { width * 6 }

    /// A buffer over existing samples.
    /// - Precondition: `samples.count == size.width * size.height * 3`.
    public init(size: Size, samples: [UInt16], contentRect: Rect? = nil) {
        precondition(samples.count == size.width * size.height * 3, "sample count does not match the size")
        width = size.width
        height = size.height
        self.samples = samples
        self.contentRect = contentRect ?? Rect(size)
    }

    /// A buffer of `size` with every sample 0.
    public init(size: Size, contentRect: Rect? = nil) {
        self.init(size: size, samples: [UInt16](repeating: 0, count: size.width * size.height * 3), contentRect: contentRect)
    }

    /// The three samples of the pixel at (x, y).
    public subscript(x: Int, y: Int) -> (red: UInt16, green: UInt16, blue: UInt16) {
        let offset = (y * width + x) * 3
        return (samples[offset], samples[offset + 1], samples[offset + 2])
    }

    /// Calls `body` with the samples' bytes (`width * height * 6`, native-endian), valid only inside the call.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        let outcome = samples.withUnsafeBytes { raw in Swift.Result { () throws(Failure) -> Result in try body(raw) } }
        return try outcome.get()
    }

    /// Calls `body` with the samples (`width * height * 3`), to read or write, valid only inside the call.
    public mutating func withUnsafeMutableBufferPointer<Result, Failure: Error>(
        _ body: (UnsafeMutableBufferPointer<UInt16>) throws(Failure) -> Result) throws(Failure) -> Result {
        let outcome = samples.withUnsafeMutableBufferPointer { pointer in
            Swift.Result { () throws(Failure) -> Result in try body(pointer) }
        }
        return try outcome.get()
    }
}
