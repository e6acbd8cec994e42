import Foundation
import Testing
@testable import SlideshowKit
import SlideshowPixels

/// What the text tests share: frames to draw on, an independent reader (tesseract), and the
/// measures (edit distance, WCAG contrast, saturation, changed pixels).
enum TextTestSupport {
    static let landscape = Size(width: 1920, height: 1080)
    static let portrait = Size(width: 1080, height: 1920)

    /// A busy, mid-tone "photo": diagonal stripes and a coarse pattern in every channel, and
    /// no pixel brighter than luminance 200, so the white letters are the only white pixels.
    static func busyFrame(_ size: Size) -> PixelBuffer {
        var frame = PixelBuffer(size: size)
        for y in 0..<size.height {
            for x in 0..<size.width {
                frame[x, y] = RGBColor(red: UInt8(60 + (x * 7 + y * 3) % 120), green: UInt8(90 + (x / 13 + y / 7) % 90),
                                       blue: UInt8(50 + (x ^ y) % 100))
            }
        }
        return frame
    }

    /// The bounding box of the pixels that differ between two frames of one size; nil if none.
    static func changedBox(_ before: PixelBuffer, _ after: PixelBuffer) -> Rect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        before.withUnsafeBytes { a in
            after.withUnsafeBytes { b in
                for y in 0..<before.height {
                    let row = y * before.width * 3
                    for x in 0..<before.width {
                        let o = row + x * 3
                        if a[o] != b[o] || a[o + 1] != b[o + 1] || a[o + 2] != b[o + 2] {
                            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                        }
                    }
                }
            }
        }
        return maxX < 0 ? nil : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    static func inside(_ inner: Rect, _ outer: Rect) -> Bool {
        inner.x >= outer.x && inner.y >= outer.y && inner.maxX <= outer.maxX && inner.maxY <= outer.maxY
    }

    /// WCAG 2 relative luminance of an sRGB colour.
    static func luminance(_ c: RGBColor) -> Double {
        func linear(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue)
    }

    /// WCAG 2 contrast ratio, 1 to 21.
    static func contrast(_ a: RGBColor, _ b: RGBColor) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// HSV saturation, 0 to 1.
    static func saturation(_ c: RGBColor) -> Double {
        let hi = max(c.red, c.green, c.blue), lo = min(c.red, c.green, c.blue)
        return hi == 0 ? 0 : Double(hi - lo) / Double(hi)
    }

    /// Levenshtein distance between two sequences of Unicode scalars.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count), current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// Character error rate of `read` against `expected`: edit distance over the expected
    /// length, in Unicode scalars after NFC, with white space left out (OCR spaces CJK apart).
    static func characterErrorRate(read: String, expected: String) -> Double {
        func scalars(_ s: String) -> [Unicode.Scalar] {
            s.precomposedStringWithCanonicalMapping.unicodeScalars.filter { !$0.properties.isWhitespace }
        }
        let reference = scalars(expected)
        return Double(editDistance(scalars(read), reference)) / Double(max(1, reference.count))
    }

    /// The tesseract program, or nil when it is not installed.
    static let tesseract: String? = ["/usr/bin/tesseract", "/usr/local/bin/tesseract"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The languages tesseract has, e.g. `rus`; empty without tesseract.
    static let tesseractLanguages: Set<String> = {
        guard let tesseract, let output = try? run(tesseract, ["--list-langs"]) else { return [] }
        return Set(output.split(separator: "\n").dropFirst().map(String.init))
    }()

    /// Runs a program and returns its standard output.
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads one line of text in `region` of `frame` with tesseract.
    ///
    /// The region is binarised as a scanner would: pixels brighter than luminance 200 (the
    /// white letters; the busy frame has none) become black ink on white paper.
    static func ocr(_ frame: PixelBuffer, region: Rect, language: String) throws -> String {
        let tesseract = try #require(tesseract)
        var pgm = Data("P5 \(region.width) \(region.height) 255\n".utf8)
        for y in region.y..<region.maxY {
            for x in region.x..<region.maxX {
                let c = frame[x, y]
                pgm.append(Int(c.red) * 2126 + Int(c.green) * 7152 + Int(c.blue) * 722 > 200 * 10000 ? 0 : 255)
            }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("textocr-\(UUID().uuidString).pgm").path
        try pgm.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try run(tesseract, [path, "-", "-l", language, "--psm", "7"], environment: ["OMP_THREAD_LIMIT": "1"])
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
