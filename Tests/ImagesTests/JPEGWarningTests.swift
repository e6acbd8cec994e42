import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels

@Suite("Harmless JPEG warnings")
struct JPEGWarningTests {
    @Test("the camera JPEG with 2 extraneous bytes before a marker decodes whole, exactly as without them",
          .enabled(if: haveSharedMedia, noSharedMedia))
    func extraneousBytesFile() throws {
        let path = media("jpeg_extraneous_bytes_2048x1536.jpg")
        let info = try ImageManager().inspect(Photo(path: path))
        #expect(info.displayedSize == Size(width: 2048, height: 1536))
        var bytes = try PhotoFile.read(path).bytes
        var extraneous = 0
        #expect(JPEGMarkers.scan(bytes, extraneous: &extraneous) { _, _ in true } == .startOfScan)
        #expect(extraneous == 2)
        let size = Size(width: 256, height: 192)
        let accepted = try render(path: path, size)

        // libjpeg's message names the count and the marker: 2 bytes, then FF DB (a quantisation
        // table). Where they are: walked here segment by segment, by their lengths, to the first
        // place a marker should start and none does.
        var stray = 2
        while stray + 4 <= bytes.count, bytes[stray] == 0xFF, bytes[stray + 1] != 0xDA {
            stray += 2 + Int(bytes[stray + 2]) << 8 + Int(bytes[stray + 3])
        }
        #expect(bytes[stray] != 0xFF && bytes[stray + 1] != 0xFF && bytes[stray + 2] == 0xFF && bytes[stray + 3] == 0xDB)
        bytes.removeSubrange(stray..<stray + 2)
        let folder = try TemporaryFolder()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path("clean.jpg")))
        #expect(try render(path: folder.path("clean.jpg"), size).pixels == accepted.pixels)

        // Cut short, the same photo is still refused: only harmless warnings pass.
        try Data(bytes[0..<bytes.count / 2]).write(to: URL(fileURLWithPath: folder.path("cut.jpg")))
        let error = photoError { () throws(PhotoError) in
            _ = try ImageManager().requestImage(for: Photo(path: folder.path("cut.jpg")), targetSize: size, contentMode: .aspectFit)
        }
        #expect(error?.kind == .truncated && error?.reason.contains("Premature end of JPEG file") == true, "\(String(describing: error))")
    }

    @Test("stray bytes between header segments or before the end marker are accepted; the picture is unchanged")
    func strayBytes() throws {
        let original = SyntheticJPEG.grey(width: 16, height: 8, components: 3)
        let dqtEnd = 2 + 4 + 1 + 64
        let inHeader = Array(original[0..<dqtEnd]) + [0x12, 0x34, 0x56] + Array(original[dqtEnd...])
        let beforeEnd = Array(original.dropLast(2)) + [UInt8](repeating: 0x5A, count: 200) + [0xFF, 0xD9]
        let folder = try TemporaryFolder()
        let size = Size(width: 16, height: 8)
        try Data(original).write(to: URL(fileURLWithPath: folder.path("original.jpg")))
        let reference = try render(path: folder.path("original.jpg"), size)
        for (name, bytes) in [("header", inHeader), ("end", beforeEnd)] {
            try Data(bytes).write(to: URL(fileURLWithPath: folder.path("\(name).jpg")))
            let info = try ImageManager().inspect(Photo(path: folder.path("\(name).jpg")))
            #expect(info.storedSize == size)
            #expect(try render(path: folder.path("\(name).jpg"), size).pixels == reference.pixels, "\(name)")
        }
    }

    @Test("the EXIF reader skips stray bytes between markers as libjpeg does")
    func exifAfterStrayBytes() {
        let tiff = SyntheticJPEG.tiff(orientation: 6, littleEndian: true)
        #expect(EXIFOrientation.parse(jpeg: [0xFF, 0xD8, 0x12, 0x34] + SyntheticJPEG.exifSegment(tiff)) == .right)
    }

    @Test("only stray bytes before the end-of-image marker count as harmless at the end of the data")
    func classification() {
        #expect(TurboJPEGDecompressor.isHarmlessAtEnd("Corrupt JPEG data: 3 extraneous bytes before marker 0xd9"))
        #expect(!TurboJPEGDecompressor.isHarmlessAtEnd("Corrupt JPEG data: 3 extraneous bytes before marker 0xd3"))
        #expect(!TurboJPEGDecompressor.isHarmlessAtEnd("Corrupt JPEG data: premature end of data segment"))
        #expect(!TurboJPEGDecompressor.isHarmlessAtEnd("Premature end of JPEG file"))
        #expect(!TurboJPEGDecompressor.isHarmlessAtEnd("Corrupt JPEG data: bad Huffman code"))
    }
}
