import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowFormats
import SlideshowFraming
import SlideshowImages
import SlideshowPixels

/// `../shared/media` (phone formats, colour profiles, warnings), or nil in a fresh clone.
let sharedMediaFolder: URL? = {
    let url = TestEnvironment.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/media")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("MANIFEST.tsv").path) ? url : nil
}()

let haveSharedMedia = sharedMediaFolder != nil
let noSharedMedia: Comment = "skipped: ../shared/media is absent (a fresh clone); these tests need its HEIC, AVIF, WebP and ICC-tagged files"

/// The path of a shared media file; only called from suites enabled by ``haveSharedMedia``.
func media(_ name: String) -> String {
    guard let folder = sharedMediaFolder else { fatalError("\(noSharedMedia)") }
    return folder.appendingPathComponent(name).path
}

/// Renders a photo at a size.
func render(path: String, _ size: Size, _ mode: ContentMode = .aspectFit, background: RGBColor = .black,
            warnings: (String) -> Void = { _ in }) throws -> PixelBuffer {
    let bytes = try PhotoFile.read(path).bytes
    return try ImageManager().image(from: bytes, targetSize: size, contentMode: mode, background: background, warn: warnings)
}

/// Debian's Python with Pillow (`python3-pil`), which has ImageCms; pyenv's `python3` on the
/// PATH does not. nil when it is missing.
let pillowPython: String? = {
    let python = "/usr/bin/python3"
    guard FileManager.default.isExecutableFile(atPath: python),
          let result = try? run(python, ["-c", "from PIL import Image, ImageCms"]), result.status == 0 else { return nil }
    return python
}()

let noPillow: Comment = "skipped: /usr/bin/python3 with Pillow's ImageCms is missing (Debian's python3-pil; `make deps` installs it)"

/// Pillow's conversion of an image to sRGB with Little CMS: `ImageCms.profileToProfile` with
/// relative colorimetric intent and black-point compensation, to the `createProfile("sRGB")`
/// profile. The reference the colour-management tests compare with.
/// - Parameters:
///   - image: a file Pillow opens (JPEG, PNG, WebP, or a PPM of pixels decoded here).
///   - profile: a file holding the ICC profile; nil to use the one Pillow reads from the image.
/// - Returns: the size and packed RGB pixels.
func pillowSRGB(_ image: String, profile: String? = nil) throws -> (Size, [UInt8]) {
    guard let python = pillowPython else { throw ReferenceError.noPillow }
    let folder = try TemporaryFolder()
    let output = folder.path("reference.rgb")
    let script = """
        import io, sys
        from PIL import Image, ImageCms
        image = Image.open(sys.argv[1])
        icc = open(sys.argv[3], 'rb').read() if len(sys.argv) > 3 else image.info['icc_profile']
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        converted = ImageCms.profileToProfile(image, source, ImageCms.createProfile('sRGB'), renderingIntent=1,
                                              outputMode='RGB', flags=ImageCms.FLAGS['BLACKPOINTCOMPENSATION'])
        open(sys.argv[2], 'wb').write(converted.tobytes())
        print(converted.size[0], converted.size[1])
        """
    let result = try run(python, ["-c", script, image, output] + (profile.map { [$0] } ?? []))
    guard result.status == 0 else { throw ReferenceError.failed(result.stderr) }
    let numbers = result.stdoutText.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    guard numbers.count == 2 else { throw ReferenceError.failed(result.stdoutText) }
    return (Size(width: numbers[0], height: numbers[1]), [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
}

enum ReferenceError: Error {
    case noPillow
    case failed(String)
}

/// How closely two images agree, channel value by channel value.
struct Agreement: CustomStringConvertible {
    /// The share of channel values within 2 levels.
    var withinTwo: Double
    /// The mean absolute difference, in levels.
    var mean: Double
    /// The largest difference.
    var largest: Int

    init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count, "sizes differ")
        var close = 0, total = 0, largest = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for index in 0..<a.count {
                    let difference = abs(Int(a[index]) - Int(b[index]))
                    if difference <= 2 { close += 1 }
                    total += difference
                    if difference > largest { largest = difference }
                }
            }
        }
        withinTwo = Double(close) / Double(max(1, a.count))
        mean = Double(total) / Double(max(1, a.count))
        self.largest = largest
    }

    /// The target: 99.9% of channel values within 2 levels, mean ≤ 0.5.
    var meetsTarget: Bool { withinTwo >= 0.999 && mean <= 0.5 }

    var description: String {
        String(format: "%.4f%% within 2 levels, mean %.3f, largest %d", withinTwo * 100, mean, largest)
    }
}

/// A binary PPM (P6) of an RGB image, for Pillow.
func ppm(_ image: RGBImage) -> Data {
    precondition(image.channels == 3, "PPM is RGB")
    var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
    data.append(contentsOf: image.pixels[0..<image.width * image.height * 3])
    return data
}
