import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowImages
import SlideshowMetadata

/// Captions from the metadata of PNG, WebP and HEIC files as real tools write it: Pillow
/// (Debian's python3-pil) writes the PNG text chunks, the PNG `eXIf` chunk and the WebP
/// `EXIF` and `XMP ` chunks; libheif's `heif-enc` carries a PNG's XMP and EXIF into a HEIC;
/// libwebp's `cwebp` and `webpmux` make a WebP and set its XMP. The raw IPTC profile's text
/// is laid out as ExifTool and ImageMagick write it (`\n<type>\n<length>\n` and hexadecimal
/// lines of 72 digits); Pillow only stores it, compressed (`zTXt`) or not (`tEXt`).
@Suite("Captions from PNG, WebP and HEIC metadata")
struct MetadataCaptionFormatTests {
    static let caption = "Lisboa ao amanhecer — Alfama, 2024"
    /// The caption in EXIF `ImageDescription`, ASCII as the standard has it (Pillow writes `?`
    /// for any other character).
    static let asciiCaption = "Lisbon at dawn, Alfama 2024"

    /// A Python 3 that has Pillow (Debian's, which `make deps` installs), or nil.
    static let python: String? = ["/usr/bin/python3", which("python3")].compactMap { $0 }.first { python in
        (try? run(python, ["-c", "import PIL.PngImagePlugin, PIL.WebPImagePlugin"]))?.status == 0
    }

    /// Makes `name` in `folder` by the script's case `kind`.
    static func make(_ kind: String, _ name: String, in folder: TemporaryFolder) throws -> String {
        let script = folder.path("make.py")
        if !FileManager.default.fileExists(atPath: script) { try Self.script.write(toFile: script, atomically: true, encoding: .utf8) }
        let made = try run(try #require(python), [script, folder.path(name), kind])
        try #require(made.status == 0, "\(kind): \(made.stderr)")
        return folder.path(name)
    }

    static func caption(of path: String) throws -> String? {
        try ImageManager().inspect(Photo(path: path)).caption?.text
    }

    @Test("PNG: XMP in iTXt, plain and compressed; a raw IPTC profile (a Photoshop IRB in zTXt, bare records in tEXt); raw XMP; EXIF in eXIf",
          .enabled(if: python != nil, "skipped: needs Pillow (python3-pil; `make deps` installs it)"),
          arguments: ["png-xmp", "png-xmp-z", "png-iptc-irb", "png-iptc-iim", "png-xmp-raw", "png-exif"])
    func png(kind: String) throws {
        let folder = try TemporaryFolder()
        #expect(try Self.caption(of: try Self.make(kind, "\(kind).png", in: folder)) == (kind == "png-exif" ? Self.asciiCaption : Self.caption))
    }

    @Test("WebP: XMP before EXIF, EXIF alone; an XMP chunk set by webpmux",
          .enabled(if: python != nil, "skipped: needs Pillow (python3-pil; `make deps` installs it)"))
    func webp() throws {
        let folder = try TemporaryFolder()
        // XMP (dc:description; photoshop:Headline beside it is not the caption) wins over EXIF's ImageDescription.
        #expect(try Self.caption(of: try Self.make("webp", "both.webp", in: folder)) == Self.caption)
        #expect(try Self.caption(of: try Self.make("webp-exif", "exif.webp", in: folder)) == "From EXIF: " + Self.asciiCaption)
        guard let cwebp = which("cwebp"), let webpmux = which("webpmux") else {
            return withKnownIssue("skipped: cwebp and webpmux (Debian's webp) are absent") { throw SkipNote() }
        }
        let png = try Self.make("plain-png", "plain.png", in: folder)
        let xmp = try Self.make("xmp-file", "caption.xmp", in: folder)
        #expect(try run(cwebp, ["-quiet", "-q", "80", png, "-o", folder.path("plain.webp")]).status == 0)
        #expect(try run(webpmux, ["-set", "xmp", xmp, folder.path("plain.webp"), "-o", folder.path("muxed.webp")]).status == 0)
        #expect(try Self.caption(of: folder.path("plain.webp")) == nil)
        #expect(try Self.caption(of: folder.path("muxed.webp")) == Self.caption)
    }

    @Test("HEIC: the XMP item and the Exif item heif-enc carries over from a PNG",
          .enabled(if: python != nil && which("heif-enc") != nil, "skipped: needs Pillow and heif-enc (python3-pil, libheif-examples; `make deps`)"))
    func heic() throws {
        let folder = try TemporaryFolder()
        for (kind, expected) in [("png-xmp", Self.caption), ("png-exif", Self.asciiCaption)] {
            let png = try Self.make(kind, "\(kind).png", in: folder)
            let heic = folder.path("\(kind).heic")
            let made = try run(try #require(which("heif-enc")), ["-q", "50", png, "-o", heic])
            try #require(made.status == 0, "heif-enc: \(made.stderr)")
            #expect(try Self.caption(of: heic) == expected, "\(kind)")
        }
    }

    @Test("damaged text chunks give no caption: a broken zlib stream, a raw profile whose length is wrong")
    func damaged() {
        let stream = Array("Raw profile type iptc".utf8) + [0, 0] + [0x78, 0x9C, 0xFF, 0xFF, 0x00]
        #expect(PNGTextChunks.text(type: "zTXt", payload: stream[...]) == nil)
        #expect(PNGTextChunks.rawProfile(Array("\niptc\n       3\n1c0278\n".utf8)) == [0x1C, 0x02, 0x78])
        #expect(PNGTextChunks.rawProfile(Array("\niptc\n       4\n1c0278\n".utf8)) == nil)
        #expect(PNGTextChunks.rawProfile(Array("\niptc\n       3\n1c02zz\n".utf8)) == nil)
        // 64 zero bytes, deflated: given in full under a limit of 64, refused under 63 (a chunk
        // that would inflate past the limit is not followed); cut short, refused.
        let zeros: [UInt8] = [120, 156, 99, 96, 160, 12, 0, 0, 0, 64, 0, 1]
        #expect(Inflater.inflate(zeros[...], limit: 64) == [UInt8](repeating: 0, count: 64))
        #expect(Inflater.inflate(zeros[...], limit: 63) == nil)
        #expect(Inflater.inflate(zeros.dropLast(5), limit: 64) == nil)
    }

    /// The files' maker (run by ``python``): argv 1 the output, argv 2 the case.
    static let script = #"""
import sys, zlib
from PIL import Image, PngImagePlugin
out = sys.argv[1]
caption = "Lisboa ao amanhecer — Alfama, 2024"
base = Image.new("RGB", (64, 48), (40, 90, 160))
xmp = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
       '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
       '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
       'xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" '
       'photoshop:Headline="Headline, not the caption" Iptc4xmpCore:Location="Alfama">'
       "<dc:description><rdf:Alt><rdf:li xml:lang='x-default'>" + caption + "</rdf:li></rdf:Alt></dc:description>"
       '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>')
def irb(text):
    data = text.encode("utf-8")
    records = bytes([0x1C, 1, 90, 0, 3, 0x1B, 0x25, 0x47]) + bytes([0x1C, 2, 120, len(data) >> 8, len(data) & 0xFF]) + data
    res = b"8BIM" + bytes([4, 4, 0, 0]) + len(records).to_bytes(4, "big") + records
    return res + (b"\0" if len(records) % 2 else b""), records
def raw_profile(kind, data):
    h = data.hex()
    return "\n%s\n%8d\n" % (kind, len(data)) + "\n".join(h[i:i + 72] for i in range(0, len(h), 72)) + "\n"
ascii = "Lisbon at dawn, Alfama 2024"  # EXIF's ImageDescription is ASCII: Pillow writes "?" for the rest
exif = Image.Exif(); exif[0x010E] = ascii
exif_only = Image.Exif(); exif_only[0x010E] = "From EXIF: " + ascii
which = sys.argv[2]
if which == "png-xmp":
    info = PngImagePlugin.PngInfo(); info.add_itxt("XML:com.adobe.xmp", xmp, zip=False); base.save(out, pnginfo=info)
elif which == "png-xmp-z":
    info = PngImagePlugin.PngInfo(); info.add_itxt("XML:com.adobe.xmp", xmp, zip=True); base.save(out, pnginfo=info)
elif which == "png-iptc-irb":
    info = PngImagePlugin.PngInfo(); info.add_text("Raw profile type iptc", raw_profile("iptc", irb(caption)[0]), zip=True); base.save(out, pnginfo=info)
elif which == "png-iptc-iim":
    info = PngImagePlugin.PngInfo(); info.add_text("Raw profile type iptc", raw_profile("iptc", irb(caption)[1]), zip=False); base.save(out, pnginfo=info)
elif which == "png-xmp-raw":
    info = PngImagePlugin.PngInfo(); info.add_text("Raw profile type xmp", raw_profile("xmp", xmp.encode()), zip=True); base.save(out, pnginfo=info)
elif which == "png-exif":
    base.save(out, exif=exif)
elif which == "webp":
    base.save(out, "WEBP", xmp=xmp.encode(), exif=exif_only.tobytes())
elif which == "webp-exif":
    base.save(out, "WEBP", exif=exif_only.tobytes())
elif which == "plain-png":
    base.save(out)
elif which == "xmp-file":
    open(out, "w", encoding="utf-8").write(xmp)
else:
    sys.exit("unknown case " + which)
"""#
}

/// Thrown inside `withKnownIssue` to record why a test did not run.
private struct SkipNote: Error {}
