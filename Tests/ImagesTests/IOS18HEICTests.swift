import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowMetadata
import SlideshowPixels

/// `../shared/clips` (the iPhone 15 Pro Live Photo, iOS 18.5), or nil in a fresh clone.
private let clipsFolder: URL? = {
    let url = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/clips")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.tsv").path) ? url : nil
}()

private let noClips: Comment = "skipped: ../shared/clips is absent (a fresh clone); these tests need its iOS 18 Live Photo HEIC"

/// The iPhone 15 Pro Live Photo still: a 4032x3024 grid (item 49) with irot 90 (a portrait),
/// a Display P3 ICC profile, and an HDR gain map (grid 63, `auxl` of 49; `tmap` 66 made from
/// 49 and 63), whose Exif item 67 describes both 49 and 66.
private func livePhoto() -> String { clipsFolder!.appendingPathComponent("livephoto_iphone15pro_IMG_4394.HEIC").path }

/// Where the file's `cdsc 67 → [49, 66]` entry has its type: the only entry libheif 1.15 refuses.
private let exifReferenceType = 1777

@Suite("iOS 18 HEIC: references libheif 1.15 refuses are hidden from it", .enabled(if: clipsFolder != nil, noClips))
struct IOS18HEICTests {
    @Test("the Live Photo's Exif describes the primary image and the tmap item; only that entry is patched")
    func refusedReference() throws {
        let bytes = try PhotoFile.read(livePhoto()).bytes
        let meta = try #require(HEIFBoxes.Meta(bytes))
        #expect(meta.primary == 49)
        #expect(meta.itemTypes[66] == "tmap" && meta.itemTypes[67] == "Exif" && meta.itemTypes[63] == "grid")
        let exif = try #require(meta.references.firstIndex { $0.type == "cdsc" && $0.from == 67 })
        #expect(meta.references[exif].to == [49, 66])
        #expect(meta.referenceTypeOffsets[exif] == exifReferenceType)
        #expect(Array(bytes[exifReferenceType..<exifReferenceType + 4]) == Array("cdsc".utf8))
        // The XMP's cdsc to the gain map (a grid) and the gain map's auxl to 49 are images to 1.15: kept.
        #expect(meta.references.contains { $0.type == "cdsc" && $0.from == 64 && $0.to == [63] })
        #expect(meta.references.contains { $0.type == "auxl" && $0.from == 63 && $0.to == [49] })
        #expect(try HEIFBoxes.checkedPrimaryItem(bytes, formatName: "HEIF").refusedReferenceTypes == [exifReferenceType])
    }

    @Test("it inspects as a 3024x4032 portrait (4032x3024 stored, irot), with its EXIF capture date and orientation")
    func inspects() throws {
        let info = try ImageManager().inspect(Photo(path: livePhoto()))
        #expect(info.format == .heif)
        #expect(info.storedSize == Size(width: 4032, height: 3024))
        #expect(info.displayedSize == Size(width: 3024, height: 4032))
        #expect(info.orientation == .up)  // irot turns it; EXIF 6 is for information (see HEIFPicture)
        #expect(info.captureDate == CaptureDate(year: 2025, month: 8, day: 6, hour: 17, minute: 14, second: 22, utcOffsetMinutes: -300))
        let metadata = PhotoMetadata(reading: try PhotoFile.read(livePhoto()).bytes, format: .heif)
        #expect(metadata.orientation == .right)
    }

    @Test("it decodes upright at 3024x4032 with its Display P3 profile; the file's bytes are unchanged after")
    func decodes() throws {
        let original = try PhotoFile.read(livePhoto()).bytes
        var bytes = original
        let decoder = try HEIFDecoder(&bytes, formatName: "HEIF")
        #expect(bytes == original)
        #expect(decoder.displayedSize == Size(width: 3024, height: 4032))
        let picture = try decoder.decode()
        #expect(picture.image.width == 3024 && picture.image.height == 4032)
        guard case .success(.icc(let profile)) = picture.color else {
            Issue.record("no ICC profile: \(picture.color)")
            return
        }
        #expect(Data(profile).range(of: Data("Display P3".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })) != nil)
    }

    @Test("it renders like heif-convert's decode of a copy patched by hand; turned or mirrored it does not")
    func matchesHeifConvert() throws {
        guard let tool = which("heif-convert") else {
            Issue.record("heif-convert is missing (Debian's libheif-examples)")
            return
        }
        let folder = try TemporaryFolder()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: livePhoto()))
        // The entry `cdsc` from item 67 (16-bit IDs), two items: renamed by hand, not by HEIFBoxes.
        #expect(bytes[exifReferenceType..<exifReferenceType + 10] == Data(Array("cdsc".utf8) + [0, 67, 0, 2, 0, 49]))
        bytes[exifReferenceType] = UInt8(ascii: "C")
        try bytes.write(to: URL(fileURLWithPath: folder.path("patched.heic")))
        let result = try run(tool, [folder.path("patched.heic"), folder.path("converted.png")])
        #expect(result.status == 0, "\(result.stderr)")
        let size = Size(width: 243, height: 324)
        let ours = try render(path: livePhoto(), size)
        let theirs = try render(path: folder.path("converted.png"), size)
        #expect(ours.contentRect == Rect(x: 0, y: 0, width: 242, height: 322))  // as the iPhone arrow's in PhoneFormatTests
        let difference = meanAbsoluteDifference(ours.pixels, theirs.pixels)
        #expect(difference < 1, "differs from heif-convert by \(difference)")
        let turned = RGBImage(width: size.width, height: size.height, channels: 3, pixels: theirs.pixels + [UInt8](repeating: 0, count: 64))
        for wrong in [Orientation.upMirrored, .down] {
            let mistaken = Array(turned.oriented(wrong).pixels[0..<ours.pixels.count])
            #expect(meanAbsoluteDifference(ours.pixels, mistaken) > 10, "\(wrong)")
        }
    }

    @Test("slideshow make renders it, exit 0, one 1080x1920 video")
    func makes() throws {
        let tool = try TestEnvironment.builtTool("slideshow").get()
        let folder = try TemporaryFolder()
        let output = folder.path("out.mp4")
        let result = try run(tool, ["make", livePhoto(), "--duration", "1", "--size", "1080x1920", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let probe = try ProbedVideo(path: output)
        #expect(probe.stream["width"] == "1080" && probe.stream["height"] == "1920")
    }
}

@Suite("HEIF reference patch on a synthetic iref")
struct HEIFReferencePatchTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { ISOBox.box(type, payload) }

    static func infe(_ id: UInt8, _ type: String) -> [UInt8] { box("infe", [2, 0, 0, 0, 0, id, 0, 0] + Array(type.utf8) + [0]) }

    static func reference(_ type: String, _ from: UInt8, _ to: [UInt8]) -> [UInt8] {
        box(type, [0, from, 0, UInt8(to.count)] + to.flatMap { [0, $0] })
    }

    /// A `meta` box: item 1 an hvc1 primary, 2 an hvc1 auxiliary, 3 a tmap, 4 to 6 Exif,
    /// 7 an XMP `mime`; then `iref` entries of every kind, good and refused.
    static let entries: [(type: String, from: UInt8, to: [UInt8], refused: Bool)] = [
        ("dimg", 3, [1, 2], false),
        ("auxl", 2, [1], false),
        ("cdsc", 4, [1, 3], true),    // two items (iOS 18's Exif)
        ("cdsc", 7, [2], false),
        ("cdsc", 5, [3], true),       // one item, not an image to 1.15
        ("auxl", 2, [3], true),       // an auxiliary image of a tmap
        ("auxl", 3, [1, 2], false),   // from a tmap: 1.15 does not look at it
        ("cdsc", 6, [1, 9], false),   // item 9 does not exist: libheif's refusal stands
        ("thmb", 2, [1, 3], false),   // not a kind this patch changes
    ]

    static let file: [UInt8] = {
        let items: [(UInt8, String)] = [(1, "hvc1"), (2, "hvc1"), (3, "tmap"), (4, "Exif"), (5, "Exif"), (6, "Exif"), (7, "mime")]
        let iinf = box("iinf", [0, 0, 0, 0, 0, UInt8(items.count)] + items.flatMap { infe($0.0, $0.1) })
        let iref = box("iref", [0, 0, 0, 0] + entries.flatMap { reference($0.type, $0.from, $0.to) })
        return box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
            + box("meta", [0, 0, 0, 0] + box("pitm", [0, 0, 0, 0, 0, 1]) + iinf + iref)
    }()

    @Test("only the refused cdsc and auxl entries are renamed, in place, sizes equal; the bytes are restored")
    func patchesOnlyRefusedEntries() throws {
        let meta = try #require(HEIFBoxes.Meta(Self.file))
        #expect(meta.references.count == Self.entries.count)
        let offsets = meta.refusedReferenceTypes
        let expected = zip(Self.entries, meta.referenceTypeOffsets).filter { $0.0.refused }.map(\.1)
        #expect(offsets == expected && offsets.count == 3)
        var bytes = Self.file
        let patched = HEIFBoxes.withReferences(neutralisedAt: offsets, in: &bytes) { Array($0) }
        #expect(bytes == Self.file)
        #expect(patched.count == Self.file.count)
        let changed = patched.indices.filter { patched[$0] != Self.file[$0] }
        #expect(changed == offsets)
        let renamed = try #require(HEIFBoxes.Meta(patched))
        #expect(renamed.references.map(\.type) == Self.entries.map { $0.refused ? $0.type.prefix(1).uppercased() + $0.type.dropFirst() : $0.type })
        #expect(renamed.references.map(\.to) == Self.entries.map { $0.to.map(Int.init) })
        #expect(renamed.refusedReferenceTypes.isEmpty)
    }

    @Test("a file with nothing refused is lent unchanged")
    func leavesOthersAlone() {
        var bytes = Self.file
        let lent = HEIFBoxes.withReferences(neutralisedAt: [], in: &bytes) { Array($0) }
        #expect(lent == Self.file && bytes == Self.file)
    }

    @Test("HEIC files libheif 1.15 reads have nothing refused", .enabled(if: haveSharedMedia, noSharedMedia),
          arguments: ["heic_iphone8plus_grid_irot270_exif6_arrow.heic", "heic_iphonexr_grid_landscape.heic", "heic_samsung_s24fe_grid_exif6_no_irot.heic"])
    func acceptedFilesUntouched(_ name: String) throws {
        let bytes = try PhotoFile.read(media(name)).bytes
        #expect(try HEIFBoxes.checkedPrimaryItem(bytes, formatName: "HEIF").refusedReferenceTypes.isEmpty)
    }
}
