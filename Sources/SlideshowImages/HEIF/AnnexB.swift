/// NAL units with length prefixes (what HEIF stores) rewritten with Annex B start codes (what
/// libavcodec's HEVC decoder takes without extradata).
package enum AnnexB {
    package enum Failure: Error {
        /// The data ends inside a NAL unit's length.
        case lengthCutOff
        /// A NAL unit's length runs past the data.
        case runsPastEnd
    }

    /// Appends each NAL unit of `data`, whose lengths are `lengthSize`-byte big-endian numbers,
    /// to `stream` after a start code `00 00 00 01`.
    package static func append<Bytes: RandomAccessCollection<UInt8>>(_ data: Bytes, lengthSize: Int, to stream: inout [UInt8]) throws(Failure)
    where Bytes.Index == Int {
        stream.reserveCapacity(stream.count + data.count + 64)
        var offset = data.startIndex
        while offset < data.endIndex {
            guard data.endIndex - offset >= lengthSize else { throw .lengthCutOff }
            var length = 0
            for index in offset..<offset + lengthSize { length = length << 8 | Int(data[index]) }
            offset += lengthSize
            guard length <= data.endIndex - offset else { throw .runsPastEnd }
            stream += [0, 0, 0, 1]
            stream += data[offset..<offset + length]
            offset += length
        }
    }
}
