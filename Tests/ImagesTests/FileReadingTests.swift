import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowPixels

@Suite("Reading photo files")
struct FileReadingTests {
    let manager = ImageManager()

    func bothKinds(_ path: String) -> (inspect: PhotoError?, request: PhotoError?) {
        let manager = self.manager
        let inspected = photoError { () throws(PhotoError) in try manager.inspect(Photo(path: path)) }
        let requested = photoError { () throws(PhotoError) in
            try manager.requestImage(for: Photo(path: path), targetSize: Size(width: 64, height: 36), contentMode: .aspectFit)
        }
        return (inspected, requested)
    }

    @Test("a FIFO is refused before it is opened, without hanging", .timeLimit(.minutes(1)))
    func fifo() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("pipe.jpg")
        #expect(mkfifo(path, 0o600) == 0)
        let (inspected, requested) = bothKinds(path)
        #expect(inspected?.kind == .unreadable && requested?.kind == .unreadable)
        #expect(inspected?.reason.contains("FIFO") == true, "\(inspected?.reason ?? "")")
        #expect(inspected?.path == path)
    }

    @Test("folders and devices are refused", arguments: ["/dev/zero", "/dev/null", "/tmp", "/"])
    func notRegular(_ path: String) {
        let (inspected, requested) = bothKinds(path)
        #expect(inspected?.kind == .unreadable && requested?.kind == .unreadable)
        #expect(requested?.path == path)
    }

    @Test("a missing file is .notFound, also under a path through a file")
    func missing() throws {
        let folder = try TemporaryFolder()
        let plain = folder.path("plain.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: plain))
        for path in [folder.path("missing.jpg"), plain + "/below.jpg", "relative/missing.jpg"] {
            let (inspected, requested) = bothKinds(path)
            #expect(inspected?.kind == .notFound && requested?.kind == .notFound, "\(path)")
            #expect(inspected?.path == path && requested?.path == path)
        }
    }

    @Test("a zero-byte file is .empty")
    func empty() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("empty.jpg")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let (inspected, requested) = bothKinds(path)
        #expect(inspected?.kind == .empty && requested?.kind == .empty)
    }

    @Test("text named .jpg is not an image; a JPEG named .png is a JPEG")
    func byContent() throws {
        let folder = try TemporaryFolder()
        let text = folder.path("notes.jpg")
        try Data("these are not pixels\n".utf8).write(to: URL(fileURLWithPath: text))
        let (inspected, requested) = bothKinds(text)
        #expect(inspected?.kind == .notAnImage && requested?.kind == .notAnImage)
        #expect(requested?.reason == "not a JPEG, PNG, HEIF, AVIF or WebP image")

        let jpeg = folder.path("grey.png")
        try Data(SyntheticJPEG.grey(width: 40, height: 24)).write(to: URL(fileURLWithPath: jpeg))
        #expect(try manager.inspect(Photo(path: jpeg)).format == .jpeg)

        // A symbolic link to a photo is followed.
        let link = folder.path("link.jpg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: jpeg)
        #expect(try manager.inspect(Photo(path: link)).storedSize == Size(width: 40, height: 24))
    }

    static let foreignFiles: [([UInt8], String)] = {
        // HEIF, AVIF and WebP are decoded now (PhoneFormatTests); a CR3 raw shares HEIF's box format.
        let cr3: [UInt8] = [0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 0]
        let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        return [(cr3, "not a JPEG, PNG, HEIF, AVIF or WebP image (Canon CR3 raw)"),
                (gif, "not a JPEG, PNG, HEIF, AVIF or WebP image (GIF)"),
                (tiff, "not a JPEG, PNG, HEIF, AVIF or WebP image (TIFF or camera raw)")]
    }()

    @Test("other formats are named", arguments: foreignFiles)
    func otherFormats(_ bytes: [UInt8], _ reason: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("photo.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (inspected, requested) = bothKinds(path)
        #expect(inspected?.kind == .notAnImage && requested?.reason == reason)
    }

    @Test("a file over 256 MiB is .tooLarge before a byte is read (a sparse file: no disk used)")
    func overByteCap() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("huge.jpg")
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(PhotoFile.maximumBytes + 1)) == 0)
        close(descriptor)
        let (inspected, requested) = bothKinds(path)
        #expect(inspected?.kind == .tooLarge && requested?.kind == .tooLarge)
        #expect(requested?.reason == "the file is 257 MiB, over the 256 MiB cap for a photo")
    }

    @Test("the byte cap reads only a prefix")
    func prefix() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.jpg")
        try Data(SyntheticJPEG.grey(width: 800, height: 800)).write(to: URL(fileURLWithPath: path))
        let (bytes, size) = try PhotoFile.read(path, limit: 100)
        #expect(bytes.count == 100 && size > 100)
        #expect(PhotoFile.maximumBytes == 256 << 20)
    }
}
