package import CFFmpeg

/// Feeds one stream's packets to its decoder, the loop every reader runs when the decoder
/// asks for input (`EAGAIN`): read packets (other streams' are skipped), send the next one,
/// skip one the decoder refuses as damaged, and at the end of the input put the decoder into
/// draining. Owns the packet.
///
/// What the readers do differently is the caller's: counting or noting damaged packets (the
/// `damaged` callback), and what a read error or a refused packet means (the ``Outcome``).
package struct PacketFeed {
    /// What one call to ``feed(from:to:damaged:)`` did.
    package enum Outcome {
        /// A packet went to the decoder.
        case sent
        /// The decoder was already draining: nothing was read.
        case draining
        /// The input ended (`code` is `AVERROR_EOF`) or could not be read further (any other
        /// code): the decoder now drains what it holds.
        case ended(code: Int32)
        /// The decoder refused a packet for a reason other than damaged data (`code`);
        /// nothing else was done (``end(_:)`` drains the decoder, when the caller wants that).
        case refused(code: Int32)
    }

    /// The index of the stream whose packets are fed.
    package let stream: Int32
    private let packet: OwnedPacket
    /// Whether the decoder has been told the stream ended.
    package private(set) var isDraining = false

    /// - Throws: ``FFmpegError`` (`ENOMEM`) when the packet cannot be allocated.
    package init(stream: Int32) throws(FFmpegError) {
        self.stream = stream
        packet = try OwnedPacket()
    }

    /// Gives the decoder its next packet of the stream, or the end of the stream.
    /// - Parameter damaged: called for each packet the decoder refuses as damaged
    ///   (`AVERROR_INVALIDDATA`); the packet is skipped and the next one read.
    package mutating func feed(from input: UnsafeMutablePointer<AVFormatContext>, to decoder: UnsafeMutablePointer<AVCodecContext>,
                       damaged: () -> Void) -> Outcome {
        if isDraining { return .draining }
        while true {
            let code = av_read_frame(input, packet.pointer)
            if code < 0 {
                end(decoder)
                return .ended(code: code)
            }
            defer { av_packet_unref(packet.pointer) }
            guard packet.pointer.pointee.stream_index == stream else { continue }
            let sent = avcodec_send_packet(decoder, packet.pointer)
            if sent >= 0 { return .sent }
            if sent == shim_averror_invaliddata() {
                damaged()
                continue
            }
            return .refused(code: sent)
        }
    }

    /// Tells the decoder the stream ended, so that it gives what it holds and then `AVERROR_EOF`.
    package mutating func end(_ decoder: UnsafeMutablePointer<AVCodecContext>) {
        isDraining = true
        _ = avcodec_send_packet(decoder, nil)
    }
}
