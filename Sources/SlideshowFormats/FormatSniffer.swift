/// Recognises an image format from a file's first bytes, never from its name.
package enum FormatSniffer {
    /// What the first bytes say.
    package enum Result: Equatable {
        /// A format the image stage decodes.
        case supported(ImageFormat)
        /// Something else; the associated text names it when it is recognisable ("GIF").
        case other(String?)
    }

    /// Looks at the first bytes of a file.
    /// - Parameters:
    ///   - bytes: the file's bytes (at least its first 16, when it has them).
    package static func sniff(_ bytes: [UInt8]) -> Result {
        func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count >= offset + prefix.count else { return false }
            for index in prefix.indices where bytes[offset + index] != prefix[index] { return false }
            return true
        }
        // JPEG: SOI (FF D8). libjpeg itself needs no more than that to start.
        if starts(with: [0xFF, 0xD8]) { return .supported(.jpeg) }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .supported(.png) }

        // ISO base media file format: size, "ftyp", major brand, minor version, compatible brands.
        if starts(with: Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            switch brand {
            case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs":
                return .supported(.heif)
            case "mif1", "msf1", "mif2", "miaf":
                // A generic HEIF brand: AVIF when "avif" is among the compatible brands.
                return .supported(compatibleBrands(bytes).contains("avif") ? .avif : .heif)
            case "avif", "avis":
                return .supported(.avif)
            case "crx ":
                return .other("Canon CR3 raw")
            case "qt  ":
                return .other("QuickTime movie")
            default:
                return .other("MP4/ISO media")
            }
        }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .other("GIF") }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .supported(.webp) }
        if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return .other("TIFF or camera raw")
        }
        if starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) || starts(with: [0xFF, 0x0A]) {
            return .other("JPEG XL")
        }
        if starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts(with: [0xFF, 0x4F, 0xFF, 0x51]) {
            return .other("JPEG 2000")
        }
        if starts(with: Array("BM".utf8)) && bytes.count >= 26 { return .other("BMP") }
        if starts(with: Array("%PDF".utf8)) { return .other("PDF") }
        if starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return .other("Matroska/WebM video") }
        if starts(with: [0x38, 0x42, 0x50, 0x53]) { return .other("Photoshop PSD") }
        return .other(nil)
    }

    /// The compatible brands of an `ftyp` box (those within the bytes at hand).
    package static func compatibleBrands(_ bytes: [UInt8]) -> [String] {
        guard bytes.count >= 16 else { return [] }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let end = min(bytes.count, max(16, boxSize))
        return stride(from: 16, to: end - 3, by: 4).map { String(decoding: bytes[$0..<$0 + 4], as: UTF8.self) }
    }

    /// The problem to report for a file in none of the formats the image stage decodes.
    package static func problem(for description: String?) -> ImageProblem {
        if let description {
            return ImageProblem(.notAnImage, "not a JPEG, PNG, HEIF, AVIF or WebP image (\(description))")
        }
        return ImageProblem(.notAnImage, "not a JPEG, PNG, HEIF, AVIF or WebP image")
    }
}
