/// Motion photos whose structure states numbers no file can hold (issue 31): the bytes of each
/// are built here, small, so a test (and the fuzz corpus, Tests/Fuzz/seeds/photos) can have them.
public enum HostileMotionPhoto {
    /// The start of an MP4, as an appended motion photo video begins.
    public static let mp4Start: [UInt8] = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isomiso2mp41".utf8))

    /// A box: 32-bit size, type, payload.
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { ISOBox.box(type, payload) }

    /// A box header with a 64-bit size (`size` 1, then the 8-byte size), and the payload.
    public static func largeBox(_ type: String, size: UInt64, _ payload: [UInt8] = []) -> [UInt8] {
        [0, 0, 0, 1] + Array(type.utf8) + bigEndian(size, bytes: 8) + payload
    }

    /// A 16x16 grey JPEG (it decodes) whose XMP says `GCamera:MicroVideoOffset` is `offset`
    /// (a decimal number, as written), followed by the start of an MP4.
    public static func jpeg(microVideoOffset offset: String) -> [UInt8] {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1" \
            GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\(offset)"/></rdf:RDF></x:xmpmeta>
            """
        let app1 = SyntheticJPEG.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8))
        return SyntheticJPEG.grey(width: 16, height: 16, before: app1) + mp4Start
    }

    /// A HEIF file's top-level boxes (`ftyp`, then `boxes`): not a picture, a structure to walk.
    public static func heif(_ boxes: [UInt8]) -> [UInt8] {
        box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + box("free", [UInt8](repeating: 0, count: 8)) + boxes
    }

    private static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
