extension ImageManager {
    /// Reads and decodes a JPEG at the DCT scale a render into `targetSize` would choose, and
    /// does nothing else (no orientation, no resampling): the decoding half of the benchmark's floor.
    /// - Returns: the decoded size.
    /// - Throws: ``PhotoError`` as ``requestImage(for:targetSize:contentMode:background:)`` does.
    @_spi(Benchmark) public func decodeAtChosenScale(_ photo: Photo, targetSize: Size) throws(PhotoError) -> Size {
        let bytes = try PhotoFile.read(photo.path).bytes
        do throws(ImageProblem) {
            let header = try JPEGHeader(parsing: bytes)
            let orientation = header.orientation ?? .up
            let geometry = FitGeometry(source: orientation.displayedSize(of: header.size), target: targetSize, mode: .aspectFit)
            let scale = DCTScale.choose(stored: header.size, orientation: orientation, fitted: geometry.fittedSize)
            let decoder = try TurboJPEGDecompressor()
            let image = try ImageProblem.withBytes(bytes) { (raw) throws(ImageProblem) -> RGBImage in
                try decoder.decompress(raw, header: try decoder.readHeader(raw), scale: scale)
            }
            return image.size
        } catch {
            throw error.error(for: photo.path)
        }
    }
}
