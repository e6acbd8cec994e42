import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowPixels

/// The offset of the first box of a type (its size field) at or after `from`, found by its
/// four-character code.
private func box(_ type: String, in bytes: [UInt8], from: Int = 0) -> Int? {
    let code = Array(type.utf8)
    guard bytes.count >= 8 else { return nil }
    for offset in max(4, from + 4)...(bytes.count - 4) where Array(bytes[offset..<offset + 4]) == code { return offset - 4 }
    return nil
}

private func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }

private func put16(_ value: Int, _ bytes: inout [UInt8], _ at: Int) {
    bytes[at] = UInt8(value >> 8 & 0xFF)
    bytes[at + 1] = UInt8(value & 0xFF)
}

/// A shared iPhone XR HEIC with one reference rewritten: `edit` gets the file and the offset
/// of the payload of its `iref`'s `dimg` entry (16-bit IDs: from, count, tiles) and the
/// offset of its `thmb` entry's payload.
private func editedGrid(_ edit: (inout [UInt8], _ dimg: Int, _ thmb: Int) -> Void) throws -> [UInt8] {
    var bytes = try PhotoFile.read(media("heic_iphonexr_grid_landscape.heic")).bytes
    let iref = try #require(box("iref", in: bytes))
    #expect(bytes[iref + 8] == 0, "iref version 0: 16-bit item IDs")
    let dimg = try #require(box("dimg", in: bytes, from: iref + 12)) + 8
    let thmb = try #require(box("thmb", in: bytes, from: iref + 12)) + 8
    edit(&bytes, dimg, thmb)
    return bytes
}

/// Writes `bytes` to a temporary file and returns what inspecting and rendering it throw.
private func refusals(_ bytes: [UInt8], name: String = "hostile.heic") throws -> [PhotoError] {
    let folder = try TemporaryFolder()
    let path = folder.path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    var errors: [PhotoError] = []
    do { _ = try ImageManager().inspect(Photo(path: path)) } catch { errors.append(error) }
    do {
        _ = try ImageManager().requestImage(for: Photo(path: path), targetSize: Size(width: 320, height: 240),
                                            contentMode: .aspectFit, background: .black)
    } catch { errors.append(error) }
    #expect(errors.allSatisfy { $0.path == path })
    return errors
}

/// Encodes a 512x512 test picture with `heif-enc` (`-A` for AVIF) and rewrites every `ispe`
/// to 64x64: a file whose boxes say 64x64 over a 512x512 picture.
private func lyingISPE(avif: Bool) throws -> (honest: [UInt8], lying: [UInt8]) {
    let folder = try TemporaryFolder()
    let png = folder.path("in.png"), out = folder.path(avif ? "out.avif" : "out.heic")
    let rows = (0..<512).map { y in (0..<512 * 3).map { UInt8(truncatingIfNeeded: $0 / 3 * 2 + y + $0 % 3 * 80) } }
    try Data(SyntheticPNG.file(width: 512, height: 512, bitDepth: 8, colorType: 2, rows: rows)).write(to: URL(fileURLWithPath: png))
    let encoded = try run(which("heif-enc")!, ["-q", "30"] + (avif ? ["-A"] : []) + [png, "-o", out])
    #expect(encoded.status == 0, "\(encoded.stderr)")
    let honest = try PhotoFile.read(out).bytes
    var lying = honest
    var from = 0
    while let ispe = box("ispe", in: lying, from: from) {
        // A full box: size, type, version and flags, then width and height (32 bits each).
        lying.replaceSubrange(ispe + 12..<ispe + 20, with: [0, 0, 0, 64, 0, 0, 0, 64])
        from = ispe + 8
    }
    #expect(from > 0, "the file has an ispe")
    return (honest, lying)
}

@Suite("Hostile HEIF and AVIF: item graphs that do not end, ispe boxes that lie", .enabled(if: haveSharedMedia, noSharedMedia))
struct HostileHEIFTests {
    @Test("a grid that lists itself among its tiles is refused as corrupt with its path, before libheif is called, at once")
    func selfReferencingGrid() throws {
        let bytes = try editedGrid { bytes, dimg, _ in
            let grid = u16(bytes, dimg)
            #expect(u16(bytes, dimg + 2) == 48, "the iPhone XR's grid has 8x6 tiles")
            put16(grid, &bytes, dimg + 4 + 2 * 5)  // its sixth tile: the grid itself
        }
        let start = ContinuousClock.now
        let errors = try refusals(bytes)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.kind == .corrupt && $0.reason == "corrupt HEIF data (its grid item 49 lists itself among its tiles)" },
                "\(errors)")
    }

    @Test("a grid's tiles must exist, be distinct, and be coded images: a missing item, a repeated tile, an EXIF block are refused")
    func gridTiles() throws {
        let missing = try editedGrid { bytes, dimg, _ in put16(9999, &bytes, dimg + 4) }
        #expect(try refusals(missing).map(\.reason) == Array(repeating: "corrupt HEIF data (its dimg reference from item 49 names item 9999, which does not exist)", count: 2))
        let twice = try editedGrid { bytes, dimg, _ in put16(u16(bytes, dimg + 4), &bytes, dimg + 6) }
        #expect(try refusals(twice).map(\.reason) == Array(repeating: "corrupt HEIF data (its grid item 49 lists a tile twice)", count: 2))
        // The EXIF block's item: the one the cdsc reference starts from.
        var exifItem = 0
        let exif = try editedGrid { bytes, dimg, _ in
            let cdsc = box("cdsc", in: bytes, from: dimg)! + 8
            exifItem = u16(bytes, cdsc)
            put16(exifItem, &bytes, dimg + 4)
        }
        #expect(try refusals(exif).map(\.reason)
                == Array(repeating: "corrupt HEIF data (its grid item 49 has a tile (item \(exifItem)) that is not a coded image but Exif)", count: 2))
    }

    @Test("a cycle through thmb and dimg (a tile made the grid's thumbnail's source) is refused as corrupt")
    func thumbnailCycle() throws {
        // thmb: thumbnail → its image. Made to start at the grid's first tile, it closes
        // grid → tile → grid.
        let bytes = try editedGrid { bytes, dimg, thmb in put16(u16(bytes, dimg + 4), &bytes, thmb) }
        let errors = try refusals(bytes)
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.kind == .corrupt && $0.reason.hasPrefix("corrupt HEIF data (its item references run in a circle through item ") },
                "\(errors)")
    }

    @Test("cycles are found in any graph, long chains without recursion; a graph without one passes")
    func cycles() {
        #expect(HEIFBoxes.Meta.itemOnCycle([1: [2, 3], 2: [3], 3: []]) == nil)
        #expect(HEIFBoxes.Meta.itemOnCycle([1: [1]]) == 1)
        #expect(HEIFBoxes.Meta.itemOnCycle([1: [2], 2: [3], 3: [1]]) != nil)
        var chain: [Int: [Int]] = [:]
        for item in 0..<100_000 { chain[item] = [item + 1] }
        #expect(HEIFBoxes.Meta.itemOnCycle(chain) == nil)
        chain[100_000] = [0]
        #expect(HEIFBoxes.Meta.itemOnCycle(chain) != nil)
    }

    @Test("the coded sizes are read from the SPS and the AV1 sequence header of the shared files")
    func codedSizes() throws {
        let iphone = try PhotoFile.read(media("heic_iphonexr_grid_landscape.heic")).bytes
        let hvcC = try #require(box("hvcC", in: iphone))
        let length = u16(iphone, hvcC + 2)  // box size < 64 KiB
        #expect(CodedPictureSize.hevc(configuration: iphone[hvcC + 8..<hvcC + length]) == [Size(width: 512, height: 512)])
        let fox = try PhotoFile.read(media("avif_fox_8bit_420.avif")).bytes
        let av1C = try #require(box("av1C", in: fox))
        #expect(CodedPictureSize.av1(obus: fox[av1C + 12..<av1C + u16(fox, av1C + 2)]) == [Size(width: 1204, height: 800)])
    }

    @Test("one walk over an hvcC's arrays serves the coded sizes and the parameter sets; a cut payload gives the units before the cut")
    func hvcCArrays() throws {
        let iphone = try PhotoFile.read(media("heic_iphonexr_grid_landscape.heic")).bytes
        let hvcC = try #require(box("hvcC", in: iphone))
        let payload = iphone[hvcC + 8..<hvcC + u16(iphone, hvcC + 2)]
        let whole = HEVCConfiguration.nalUnits(payload)
        #expect(whole.complete)
        #expect(whole.units.map(\.type) == [32, 33, 34])
        #expect(whole.units.allSatisfy { !$0.unit.isEmpty && ($0.unit.first! >> 1) & 0x3F == $0.type })
        let configuration = try #require(HEVCConfiguration(payload))
        #expect(configuration.parameterSets == whole.units.flatMap { [0, 0, 0, 1] + Array($0.unit) })
        // Cut inside the PPS: the VPS and the SPS are still read, the configuration is refused.
        let cut = payload.prefix(payload.count - 2)
        let partial = HEVCConfiguration.nalUnits(cut)
        #expect(!partial.complete)
        #expect(partial.units.map(\.type) == [32, 33])
        #expect(HEVCConfiguration(cut) == nil)
        #expect(CodedPictureSize.hevc(configuration: cut) == [Size(width: 512, height: 512)])
        #expect(HEVCConfiguration.nalUnits(payload.prefix(22)).units.isEmpty)
    }

    @Test("a HEIC or AVIF whose ispe says 64x64 over a 512x512 picture is refused as corrupt before decoding; the honest file decodes",
          .enabled(if: which("heif-enc") != nil, "skipped: heif-enc (libheif-examples) is not installed"),
          arguments: [false, true])
    func lyingSize(avif: Bool) throws {
        let (honest, lying) = try lyingISPE(avif: avif)
        let name = avif ? "lying.avif" : "lying.heic"
        let errors = try refusals(lying, name: name)
        #expect(errors.count == 2)
        let reason = avif ? "corrupt AVIF data (item 1 holds a picture of up to 512x512 but its ispe says 64x64)"
                          : "corrupt HEIF data (item 1 holds a picture of 512x512 but its ispe says 64x64)"
        #expect(errors.allSatisfy { $0.kind == .corrupt && $0.reason == reason }, "\(errors)")
        #expect(try refusals(honest, name: avif ? "honest.avif" : "honest.heic").isEmpty)
    }
}

/// A minimal HEIF file built box by box: the boxes ``HEIFBoxes`` reads (`pitm`, `iinf`,
/// `iref`, `iprp`, `idat`, `iloc`) and nothing else, for item graphs no encoder makes.
private enum MiniHEIF {
    static func be16(_ value: Int) -> [UInt8] { ISOBox.be16(value) }
    static func be32(_ value: Int) -> [UInt8] { ISOBox.be32(value) }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { ISOBox.box(type, payload) }
    static func full(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] { ISOBox.full(type, version: version, payload) }

    /// - Parameters:
    ///   - items: each item's ID, type and `ispe` (width, height), if any.
    ///   - references: `iref` entries (type, from, to).
    ///   - idat: item data kept in `idat`, by item ID.
    static func file(items: [(id: Int, type: String, size: (Int, Int)?)], references: [(String, Int, [Int])],
                     idat: [Int: [UInt8]] = [:]) -> [UInt8] {
        let infes = items.flatMap { full("infe", version: 2, be16($0.id) + be16(0) + Array($0.type.utf8) + [0]) }
        let iref = full("iref", references.flatMap { box($0.0, be16($0.1) + be16($0.2.count) + $0.2.flatMap(be16)) })
        let sized = items.filter { $0.size != nil }
        let ipco = box("ipco", sized.flatMap { full("ispe", be32($0.size!.0) + be32($0.size!.1)) })
        let ipma = full("ipma", be32(sized.count) + sized.enumerated().flatMap { be16($0.element.id) + [1, UInt8($0.offset + 1)] })
        var data: [UInt8] = [], entries: [UInt8] = []
        for (id, bytes) in idat.sorted(by: { $0.key < $1.key }) {
            entries += be16(id) + be16(1) + be16(0) + be16(1) + be32(data.count) + be32(bytes.count)
            data += bytes
        }
        let iloc = full("iloc", version: 1, [0x44, 0x00] + be16(idat.count) + entries)
        let meta = full("meta", full("pitm", be16(items[0].id)) + full("iinf", be16(items.count) + infes) + iref
                        + box("iprp", ipco + ipma) + box("idat", data) + iloc)
        return box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8)) + meta
    }

    /// What checking the file's items throws.
    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try HEIFBoxes.checkedPrimaryItem(bytes, formatName: "HEIF")
            return nil
        } catch {
            return error.reason
        }
    }
}

@Suite("Hostile HEIF: overlays, identities and auxiliary images built box by box")
struct HostileDerivedItemTests {
    @Test("an iovl whose canvas is not its ispe, or that lists itself; an iden of two inputs; a grid of a grid; a cycle through auxl")
    func derivedItems() {
        typealias M = MiniHEIF
        let overlay = [0, 0] + [UInt8](repeating: 0, count: 8) + M.be16(30000) + M.be16(30000) + M.be16(0) + M.be16(0)
        #expect(M.refusal(M.file(items: [(1, "iovl", (64, 64)), (2, "hvc1", (64, 64))], references: [("dimg", 1, [2])], idat: [1: overlay]))
                == "corrupt HEIF data (its overlay item 1 is 30000x30000 but its ispe says 64x64)")
        let honest = [0, 0] + [UInt8](repeating: 0, count: 8) + M.be16(64) + M.be16(64) + M.be16(0) + M.be16(0)
        #expect(M.refusal(M.file(items: [(1, "iovl", (64, 64)), (2, "hvc1", (64, 64))], references: [("dimg", 1, [2])], idat: [1: honest])) == nil)
        #expect(M.refusal(M.file(items: [(1, "iovl", (64, 64)), (2, "hvc1", (64, 64))], references: [("dimg", 1, [2, 1])], idat: [1: honest + M.be16(0) + M.be16(0)]))
                == "corrupt HEIF data (its item references run in a circle through item 1)")
        #expect(M.refusal(M.file(items: [(1, "iden", (64, 64)), (2, "hvc1", (64, 64)), (3, "hvc1", (64, 64))], references: [("dimg", 1, [2, 3])]))
                == "corrupt HEIF data (its iden item 1 does not have one input)")
        let grid: [UInt8] = [0, 0, 0, 0] + M.be16(64) + M.be16(64)
        #expect(M.refusal(M.file(items: [(1, "grid", (64, 64)), (2, "grid", (64, 64)), (3, "av01", (64, 64))],
                                 references: [("dimg", 1, [2]), ("dimg", 2, [3])], idat: [1: grid, 2: grid]))
                == "corrupt HEIF data (its grid item 1 has a tile (item 2) that is not a coded image but grid)")
        // item 1 derives from 2, and 1 is 2's auxiliary image (alpha): decoding 2 needs 1, which needs 2.
        #expect(M.refusal(M.file(items: [(1, "iden", (64, 64)), (2, "hvc1", (64, 64))], references: [("dimg", 1, [2]), ("auxl", 1, [2])]))
                == "corrupt HEIF data (its item references run in a circle through item 1)")
        #expect(M.refusal(M.file(items: [(1, "iden", (64, 64)), (2, "hvc1", (64, 64))], references: [("dimg", 1, [2])])) == nil)
        #expect(M.refusal(M.file(items: [(7, "hvc1", (64, 64))], references: [])) == nil)
    }
}
