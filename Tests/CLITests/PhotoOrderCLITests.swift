import Foundation
import Testing
import TestSupport

@Suite("slideshow make --order: by name, by capture date with and without offsets, undated last with a warning (issue 24)", needsBuiltTool)
struct PhotoOrderCLITests {
    /// A grey JPEG named `name` in `folder`, with an EXIF `DateTimeOriginal` (and `OffsetTimeOriginal`) when given.
    private func photo(_ name: String, date: String?, offset: String? = nil, in folder: TemporaryFolder) throws -> String {
        let exif = date.map { SyntheticJPEG.exifSegment(exifBlock(date: $0, offset: offset)) } ?? []
        let path = folder.path(name)
        try Data(SyntheticJPEG.grey(width: 16, height: 8, before: exif)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The photos' paths in play order from the `--json` report, and the warnings.
    private func render(_ photos: [String], order: String, in folder: TemporaryFolder) throws -> (order: [String], starts: [Double], stderr: String) {
        let result = try slideshow(["make"] + photos + ["-o", folder.path("out.mp4"), "--overwrite", "--size", "96x64", "--fps", "10",
                                                        "--duration", String(photos.count), "--preset", "ultrafast", "--order", order, "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(ShowReport.self, from: result.stdout)
        return (report.photos.map(\.path), report.photos.map(\.start), result.stderr)
    }

    @Test("name: natural order, img2 before img10; given keeps the arguments' order")
    func byName() throws {
        let folder = try TemporaryFolder()
        let paths = try ["img10.jpg", "img2.jpg", "IMG1.jpg", "img02b.jpg"].map { try photo($0, date: nil, in: folder) }
        let named = try render(paths, order: "name", in: folder)
        #expect(named.order == ["IMG1.jpg", "img2.jpg", "img02b.jpg", "img10.jpg"].map(folder.path))
        #expect(named.starts == [0, 1, 2, 3])
        #expect(named.stderr.isEmpty)
        #expect(try render(paths, order: "given", in: folder).order == paths)
    }

    @Test("date with offsets: by the instant, not the wall clock")
    func byDateWithOffsets() throws {
        let folder = try TemporaryFolder()
        // Wall clock b 09:00 < c 09:30 < a 10:00; instants c 04:30Z < a 08:00Z < b 09:00Z.
        let a = try photo("a.jpg", date: "2024:05:01 10:00:00", offset: "+02:00", in: folder)
        let b = try photo("b.jpg", date: "2024:05:01 09:00:00", offset: "+00:00", in: folder)
        let c = try photo("c.jpg", date: "2024:05:01 09:30:00", offset: "+05:00", in: folder)
        let result = try render([a, b, c], order: "date", in: folder)
        #expect(result.order == [c, a, b])
        #expect(result.stderr.isEmpty)
    }

    @Test("date without offsets: by the wall clock; ties by name")
    func byDateWithoutOffsets() throws {
        let folder = try TemporaryFolder()
        let a = try photo("a10.jpg", date: "2024:05:01 10:00:00", in: folder)
        let b = try photo("b.jpg", date: "2024:05:01 09:00:00", in: folder)
        let c = try photo("a9.jpg", date: "2024:05:01 10:00:00", in: folder)
        let d = try photo("d.jpg", date: "2023:12:31 23:59:59", in: folder)
        #expect(try render([a, b, c, d], order: "date", in: folder).order == [d, b, c, a])
    }

    @Test("mixed dated and undated: the undated last, in name order, and a warning names them")
    func undatedLast() throws {
        let folder = try TemporaryFolder()
        let x10 = try photo("x10.jpg", date: nil, in: folder)
        let late = try photo("late.jpg", date: "2024:05:02 08:00:00", offset: "-03:00", in: folder)
        let x2 = try photo("x2.jpg", date: nil, in: folder)
        let early = try photo("early.jpg", date: "2024:05:02 08:00:00", offset: "+01:00", in: folder)
        let result = try render([x10, late, x2, early], order: "date", in: folder)
        #expect(result.order == [early, late, x2, x10])
        #expect(result.stderr == "slideshow: warning: no capture date in \(x2) and \(x10): they play last, in name order\n")
    }
}
