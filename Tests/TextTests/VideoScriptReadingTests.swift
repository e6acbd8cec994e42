import Foundation
import Testing
@testable import SlideshowKit
import TestSupport
import SlideshowKit

/// Captions in scripts beyond Latin read back from the rendered video: one show with a photo
/// per script, one frame of each photo decoded by ffmpeg and read by tesseract in the script's
/// language, as ``ShowCaptionTests`` reads Latin.
@Suite("Scripts read back from the video")
struct VideoScriptReadingTests {
    typealias Sample = ScriptReadingTests.Sample

    /// The bar: a character error rate (edit distance over the caption's length, white
    /// space left out) of at most 10% per script. Measured at 960x540 over the shared photos
    /// (tesseract 5 with Debian's trained data), every script is read back exactly: 0% each.
    /// (A shorter Devanagari caption, `नमस्ते भारत`, came back with न read as ज: 10%.)
    /// The scripts beyond Latin of ``ScriptReadingTests``, with the same captions.
    static let samples = ScriptReadingTests.samples.filter { ["rus", "ara", "heb", "jpn", "hin"].contains($0.language) }

    static let size = ShowCaptionTests.size
    static let fps = 10
    static let ready = ShowCaptionTests.photos != nil && which("ffmpeg") != nil
        && Set(samples.map(\.language)).isSubset(of: TextTestSupport.tesseractLanguages)

    @Test("OCR of one frame of each photo finds its caption, right-to-left words in their order",
          .enabled(if: ready, "skipped: needs ../shared/photos, ffmpeg and tesseract (rus ara heb jpn hin)"))
    func readBack() async throws {
        // One show for every sample: one photo per script, a second each at 10 fps.
        let folder = try TemporaryFolder()
        let path = folder.path("scripts.mp4")
        var options = SlideshowOptions(duration: Double(Self.samples.count), size: "\(Self.size.width)x\(Self.size.height)", fps: Self.fps)
        options.captions = Self.samples.map(\.text)
        let photos = try #require(ShowCaptionTests.photos)
        _ = try await options.slideshow(photos: Self.samples.indices.map { photos[$0 % photos.count] }, output: path).render()
        for (index, sample) in Self.samples.enumerated() {
            // The middle of the photo's second: one frame each.
            let frame = try ShowCaptionTests.frame(index * Self.fps + Self.fps / 2, of: path, size: Self.size)
            let read = try TextTestSupport.ocr(frame, region: try ShowCaptionTests.rect(of: sample.text), language: sample.language)
            let rate = TextTestSupport.characterErrorRate(read: read, expected: sample.text)
            #expect(rate <= 0.1, "\(sample.script): read \"\(read)\" for \"\(sample.text)\": CER \(rate)")
            // The words come back in the order they were written (logical order; for Arabic and
            // Hebrew, right to left on the screen).
            let words = sample.text.split(separator: " ").map(String.init)
            let found = words.compactMap { read.range(of: $0)?.lowerBound }
            #expect(found.count < words.count || found == found.sorted(), "\(sample.script): words out of order in \"\(read)\"")
        }
    }
}
