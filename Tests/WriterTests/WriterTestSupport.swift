import Dispatch
import Foundation
@testable import SlideshowKit
import TestSupport
import SlideshowPixels
import SlideshowWriter

/// A synthetic picture: a diagonal gradient tinted by `seed`, so neighbouring pictures differ everywhere.
func gradient(_ size: Size, seed: Int) -> PixelBuffer {
    var buffer = PixelBuffer(size: size)
    for y in 0..<size.height {
        for x in 0..<size.width {
            buffer[x, y] = RGBColor(red: UInt8((x * 255 / size.width + seed * 70) % 256),
                                    green: UInt8((y * 255 / size.height + seed * 40) % 256),
                                    blue: UInt8(((x + y) * 2 + seed * 90) % 256))
        }
    }
    return buffer
}

/// Writes `pictures` through the asset writer's ready-for-more-data loop, picture i from
/// frame `starts[i]`, ending the session at frame `endFrame`.
func writeVideo(to path: String, settings: VideoSettings, pictures: [PixelBuffer], starts: [Int64], endFrame: Int64,
                overwrite: Bool = false) async throws {
    let writer = try AssetWriter(outputPath: path, settings: settings, overwrite: overwrite)
    let input = AssetWriterInput(settings: settings)
    let adaptor = PixelBufferAdaptor(assetWriterInput: input)
    writer.add(input)
    try writer.startWriting()
    writer.startSession(atSourceTime: .zero)
    let fps = Int32(settings.framesPerSecond)
    let step = await input.feed(on: DispatchQueue(label: "test.feed")) { index in
        guard index < pictures.count else { return .finished }
        return adaptor.append(pictures[index], withPresentationTime: MediaTime(value: starts[index], timescale: fps)) ? .appended : .stopped
    }
    guard step == .finished else { throw writer.error! }
    writer.endSession(atSourceTime: MediaTime(value: endFrame, timescale: fps))
    try await writer.finishWriting()
}

/// The byte offsets of the top-level MP4 boxes named `moov` and `mdat`.
func topLevelBoxes(of path: String) throws -> [String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var boxes: [String] = []
    var offset = 0
    while offset + 8 <= data.count {
        let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        boxes.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
        guard size >= 8 else { break }
        offset += size
    }
    return boxes
}

