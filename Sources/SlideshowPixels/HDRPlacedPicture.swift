/// An HDR frame kept as its picture alone: the picture at `place` in a frame of `frameSize`,
/// every pixel outside it the code values `bars`.
///
/// What a clip's frame shown as it is (no look, no caption, no dissolve) is handed to the
/// writer as: the writer makes each row of the frame from it as it converts
/// (``HDRPixelBuffer``'s rows are the same code values), so a portrait clip in a landscape
/// show has no 16-bit frame of the show's size (12.4 MB at 1080p) but one of its picture's
/// (3.9 MB for a 608x1080 picture).
package struct HDRPlacedPicture: Sendable {
    /// The picture, of `place`'s size.
    package var picture: HDRPixelBuffer
    /// The frame's size.
    package var frameSize: Size
    /// Where the picture lies in the frame.
    package var place: Rect
    /// The code values of every pixel outside `place`.
    package var bars: (UInt16, UInt16, UInt16)

    /// - Precondition: `picture` is of `place`'s size, and `place` lies inside the frame.
    package init(picture: HDRPixelBuffer, frameSize: Size, place: Rect, bars: (UInt16, UInt16, UInt16)) {
        precondition(picture.width == place.width && picture.height == place.height && place.x >= 0 && place.y >= 0
                     && place.maxX <= frameSize.width && place.maxY <= frameSize.height, "the picture is not of its place's size")
        self.picture = picture
        self.frameSize = frameSize
        self.place = place
        self.bars = bars
    }

    /// The whole frame, its bars painted: the buffer a look, a caption or a dissolve works on.
    package func frame() -> HDRPixelBuffer {
        var frame = HDRPixelBuffer(size: frameSize, contentRect: place)
        frame.withUnsafeMutableBufferPointer { out in
            withRows { row, line in (out.baseAddress! + row * frameSize.width * 3).update(from: line, count: frameSize.width * 3) }
        }
        return frame
    }

    /// Calls `body` with each row of the frame in turn, top to bottom: its index and its
    /// `frameSize.width * 3` samples, valid only inside that call.
    ///
    /// Rows wholly in the bars are one row of the bars; the others are made in one of two
    /// rows painted with the bars once, the picture's row copied between them (a row and the
    /// one after it are never the same memory, so two rows in turn can be read at once).
    package func withRows(_ body: (Int, UnsafePointer<UInt16>) -> Void) {
        let rowSamples = frameSize.width * 3
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 3 * rowSamples) { rows in
            let start = rows.baseAddress!
            for x in 0..<(3 * frameSize.width) {
                start[3 * x] = bars.0
                start[3 * x + 1] = bars.1
                start[3 * x + 2] = bars.2
            }
            picture.withUnsafeBytes { raw in
                let samples = raw.bindMemory(to: UInt16.self).baseAddress!
                let pictureRow = place.width * 3
                for row in 0..<frameSize.height {
                    guard row >= place.y, row < place.maxY else {
                        body(row, UnsafePointer(start))
                        continue
                    }
                    let line = start + (1 + (row & 1)) * rowSamples
                    (line + place.x * 3).update(from: samples + (row - place.y) * pictureRow, count: pictureRow)
                    body(row, UnsafePointer(line))
                }
            }
        }
    }
}
