import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowKit
import SlideshowText

/// Captions read from a photo's own metadata: XMP `dc:description`/`dc:title` before EXIF
/// `ImageDescription`, repaired when not UTF-8, and used only when asked.
@Suite("Captions from a photo's metadata")
struct MetadataCaptionTests {
    /// A real photo (a shared JPEG) with metadata segments put in after its SOI.
    static func photo(in folder: TemporaryFolder, _ name: String, segments: [[UInt8]]) throws -> Photo {
        let source = try #require(TestEnvironment.sharedPhoto("progressive_panasonic_lc70_1280x960.jpg"), TestEnvironment.noSharedPhotos)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let path = folder.path(name)
        try Data(Array(bytes[0..<2]) + segments.flatMap { $0 } + Array(bytes[2...])).write(to: URL(fileURLWithPath: path))
        return Photo(path: path)
    }

    /// An EXIF APP1 whose IFD0 holds only `ImageDescription`.
    static func exifDescription(_ text: [UInt8]) -> [UInt8] {
        let value = text + [0]
        var tiff: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
        tiff += [1, 0]                                               // one entry
        tiff += [0x0E, 0x01, 2, 0]                                   // ImageDescription, ASCII
        tiff += [UInt8(value.count & 0xFF), UInt8(value.count >> 8), 0, 0]
        tiff += [26, 0, 0, 0]                                        // at 8 + 2 + 12 + 4
        tiff += [0, 0, 0, 0]                                         // no next IFD
        return SyntheticJPEG.exifSegment(tiff + value)
    }

    /// An XMP APP1 packet with a description and a title.
    static func xmp(description: String?, title: String?) -> [UInt8] {
        func alt(_ name: String, _ text: String?) -> String {
            text.map { "<dc:\(name)><rdf:Alt><rdf:li xml:lang=\"de\">Andere</rdf:li><rdf:li xml:lang=\"x-default\">\($0)</rdf:li></rdf:Alt></dc:\(name)>" } ?? ""
        }
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/">\(alt("title", title))\(alt("description", description))\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        return SyntheticJPEG.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(packet.utf8))
    }

    @Test("XMP dc:description (its x-default item, references decoded) wins over dc:title and EXIF ImageDescription",
          .enabled(if: TestEnvironment.sharedPhotos != nil, TestEnvironment.noSharedPhotos))
    func xmpFirst() throws {
        let folder = try TemporaryFolder()
        let both = try Self.photo(in: folder, "both.jpg", segments: [
            Self.exifDescription(Array("From EXIF".utf8)), Self.xmp(description: "Caf\u{E9} &amp; Ζ &#x1F600;", title: "Title")])
        #expect(try ImageManager().inspect(both).caption?.text == "Caf\u{E9} & Ζ \u{1F600}")
        let title = try Self.photo(in: folder, "title.jpg", segments: [Self.xmp(description: nil, title: "Только заголовок")])
        #expect(try ImageManager().inspect(title).caption?.text == "Только заголовок")
        let exif = try Self.photo(in: folder, "exif.jpg", segments: [Self.exifDescription(Array("  Lisbon,\n dawn ".utf8))])
        #expect(try ImageManager().inspect(exif).caption?.text == "Lisbon, dawn")
        let placeholder = try Self.photo(in: folder, "olympus.jpg", segments: [Self.exifDescription(Array("OLYMPUS DIGITAL CAMERA         ".utf8))])
        #expect(try ImageManager().inspect(placeholder).caption == nil)
        // The shared Canon photo's XMP has an empty description: no caption.
        let canon = try #require(TestEnvironment.sharedPhoto("camera_canon_eos5d_13mp_portrait.jpg"))
        #expect(try ImageManager().inspect(Photo(path: canon)).caption == nil)
    }

    @Test("invalid UTF-8 in ImageDescription is repaired with U+FFFD and warned about when the caption is used",
          .enabled(if: TestEnvironment.sharedPhotos != nil, TestEnvironment.noSharedPhotos))
    func repairedWithWarning() async throws {
        let folder = try TemporaryFolder()
        let broken = try Self.photo(in: folder, "broken.jpg", segments: [Self.exifDescription(Array("Gr".utf8) + [0xFC] + Array("n".utf8))])
        #expect(try ImageManager().inspect(broken).caption?.text == "Gr\u{FFFD}n")
        var options = SlideshowOptions(duration: 1, size: "320x180")
        options.captionsFrom = .metadata
        options.captionPosition = .top
        let show = try options.slideshow(photos: [broken], output: folder.path("out.mp4"))
        let prepared = try await show.validate()
        #expect(prepared.captions == [Caption("Gr\u{FFFD}n", position: .top)])
        let result = try await prepared.render()
        #expect(result.warnings.map(\.message) == ["\(broken.path): its caption is not valid UTF-8; the broken bytes are shown as \u{FFFD}"])
        // Not asked: the photo's caption is not drawn and not warned about.
        options.captionsFrom = .none
        let plain = try await options.slideshow(photos: [broken], output: folder.path("plain.mp4")).validate()
        #expect(plain.captions.isEmpty && plain.textWarnings.isEmpty)
    }

    @Test("a given caption wins over the photo's own; a photo without either has none",
          .enabled(if: TestEnvironment.sharedPhotos != nil, TestEnvironment.noSharedPhotos))
    func givenWins() async throws {
        let folder = try TemporaryFolder()
        let own = try Self.photo(in: folder, "own.jpg", segments: [Self.xmp(description: "Own words", title: nil)])
        let none = try Self.photo(in: folder, "none.jpg", segments: [])
        var show = Slideshow(photos: [own, own, none], output: folder.path("out.mp4"))
        show.text = ShowText(captions: [Caption("Given"), nil, nil], source: .metadata)
        #expect(try await show.validate().captions == [Caption("Given"), Caption("Own words"), nil])
    }

    /// A Photoshop APP13 segment whose IPTC record holds a Caption-Abstract.
    static func iptc(_ caption: [UInt8], utf8: Bool) -> [UInt8] {
        var records: [UInt8] = utf8 ? [0x1C, 1, 90, 0, 3, 0x1B, 0x25, 0x47] : []
        records += [0x1C, 2, 120, UInt8(caption.count >> 8), UInt8(caption.count & 0xFF)] + caption
        var resource: [UInt8] = Array("8BIM".utf8) + [0x04, 0x04, 0, 0]   // id 0x0404, empty name padded to even
        let size = records.count
        resource += [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + records
        if size % 2 == 1 { resource.append(0) }
        return SyntheticJPEG.segment(0xED, Array("Photoshop 3.0".utf8) + [0] + resource)
    }

    @Test("IPTC Caption-Abstract in a JPEG's APP13: UTF-8 when declared or valid, ISO 8859-1 otherwise; after XMP, before EXIF",
          .enabled(if: TestEnvironment.sharedPhotos != nil, TestEnvironment.noSharedPhotos))
    func iptcCaption() throws {
        let folder = try TemporaryFolder()
        let utf8 = try Self.photo(in: folder, "iptc-utf8.jpg", segments: [Self.iptc(Array("Κρήτη 2024".utf8), utf8: true),
                                                                          Self.exifDescription(Array("From EXIF".utf8))])
        #expect(try ImageManager().inspect(utf8).caption?.text == "Κρήτη 2024")
        let latin1 = try Self.photo(in: folder, "iptc-latin1.jpg", segments: [Self.iptc([0x4D, 0xFC, 0x6E, 0x63, 0x68, 0x65, 0x6E], utf8: false)])
        let info = try ImageManager().inspect(latin1)
        #expect(info.caption?.text == "M\u{FC}nchen" && info.captionWarning == nil)
        let xmpWins = try Self.photo(in: folder, "iptc-xmp.jpg", segments: [Self.iptc(Array("IPTC".utf8), utf8: true),
                                                                            Self.xmp(description: "XMP", title: nil)])
        #expect(try ImageManager().inspect(xmpWins).caption?.text == "XMP")
    }
}
