internal import CZlib
import SlideshowSupport

/// zlib's inflater, owned: decompresses one zlib stream (RFC 1950), as PNG's `zTXt` and
/// compressed `iTXt` chunks hold it.
///
/// The `z_stream` belongs to this object alone, which lives inside one call of
/// ``inflate(_:limit:)``; it is never shared between tasks. zlib keeps the stream's address
/// (its state points back at it), so the stream is allocated once, at a stable address, not a
/// stored property passed with `&` (whose address Swift may change from call to call).
package final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>

    /// Makes an inflater; nil when zlib cannot allocate one.
    package init?() {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard shim_inflate_init(stream) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
        self.stream = stream
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The decompressed bytes of a whole zlib stream, or nil when the data is damaged, ends
    /// before the stream does, or would decompress to more than `limit` bytes (a small chunk
    /// that inflates to gigabytes is refused, not followed).
    package static func inflate(_ compressed: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        guard !compressed.isEmpty, let inflater = Inflater() else { return nil }
        ReadProbe.current?.inflations.add(1, ordering: .relaxed)
        return inflater.run(compressed, limit: limit)
    }

    private func run(_ compressed: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        return compressed.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = UInt32(buffer.count)
                    return CZlib.inflate(stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.pointee.avail_out)
                guard output.count + produced <= limit else { return nil }
                output += chunk[0..<produced]
                switch status {
                case Z_STREAM_END: return output
                case Z_OK where produced > 0 || stream.pointee.avail_in > 0: continue
                default: return nil   // damaged (Z_DATA_ERROR…), or the input ended inside the stream
                }
            }
        }
    }
}
